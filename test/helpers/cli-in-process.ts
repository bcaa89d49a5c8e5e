import { once } from 'node:events';
import { Readable, Writable } from 'node:stream';
import { main } from '../../src/cli/cli.js';
import type { CliResult } from './cli.js';

export type { CliResult } from './cli.js';
export { isolatedDirs } from './cli.js';

/**
 * Run the CLI's main() in this process, as helpers/cli.ts's simjob() runs the built binary: the same options, the
 * same { exitCode, stdout, stderr }. Streams are pipes (not a TTY, no columns) and only the variables given (plus
 * PATH/HOME/TMPDIR) are set. For behaviour beyond the shell (what a command does against the test server); what the
 * shell does (flags to exit codes, TTY, signals, start-up, local mode's processes) stays with the spawning helper.
 */
export async function simjob(
  args: string[],
  options: { env?: Record<string, string | undefined>; input?: string; cwd?: string; timeoutMs?: number } = {},
): Promise<CliResult> {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries({
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    TMPDIR: process.env.TMPDIR,
    ...options.env,
  })) {
    if (value !== undefined) env[name] = value;
  }
  const stdout = collect();
  const stderr = collect();
  const input = options.input ?? '';
  const listeners = process.listenerCount('SIGINT');
  const exitCode = await main(args, {
    env,
    cwd: options.cwd ?? process.cwd(),
    stdout: stdout.stream,
    stderr: stderr.stream,
    stdin: () => Readable.from(input === '' ? [] : [Buffer.from(input)]),
  });
  // main() in a test process must leave nothing behind: a listener left here would pile up across the file's runs.
  if (process.listenerCount('SIGINT') !== listeners) throw new Error(`simjob ${args.join(' ')} left a SIGINT listener`);
  return { exitCode, stdout: await stdout.text(), stderr: await stderr.text() };
}

function collect(): { stream: Writable; text: () => Promise<string> } {
  const chunks: Buffer[] = [];
  const stream = new Writable({
    write(chunk: Buffer | string, _encoding, done) {
      chunks.push(Buffer.from(chunk));
      done();
    },
  });
  return {
    stream,
    // Ended here, after main() returned, so every write it made is in before the text is read.
    text: async () => {
      stream.end();
      if (!stream.writableFinished) await once(stream, 'finish');
      return Buffer.concat(chunks).toString('utf8');
    },
  };
}
