import { execa, type ResultPromise } from 'execa';
import { BIN } from './cli.js';

export interface Listening {
  url: string;
  child: ResultPromise;
  stdout: () => string;
  stderr: () => string;
}

/**
 * The built CLI's `webhook listen --port 0 …`, started as a user would, with only PATH, HOME and `env` in its
 * environment; resolves once it prints its URL. `cleanups` gets the kill of the process.
 */
export async function startListen(
  env: Record<string, string>,
  args: string[],
  cleanups: Array<() => unknown>,
): Promise<Listening> {
  const child = execa(process.execPath, [BIN, 'webhook', 'listen', '--port', '0', ...args], {
    env: { PATH: process.env.PATH, HOME: process.env.HOME, TMPDIR: process.env.TMPDIR, ...env },
    extendEnv: false,
    reject: false,
    timeout: 30_000,
  });
  let out = '';
  let err = '';
  child.stdout!.on('data', (c: Buffer) => (out += c.toString('utf8')));
  child.stderr!.on('data', (c: Buffer) => (err += c.toString('utf8')));
  cleanups.push(() => child.kill('SIGKILL'));
  for (let i = 0; i < 500; i++) {
    const url = /Listening for webhook deliveries on (\S+) \(Ctrl-C to stop\)/.exec(err)?.[1];
    if (url) return { url, child, stdout: () => out, stderr: () => err };
    if (child.exitCode !== null) break;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`listen did not start (exit ${String(child.exitCode)}): ${err}`);
}
