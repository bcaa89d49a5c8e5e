/**
 * A local command leaves no inotify watch open when it ends: the CLI ends with process.exit (bin/simjob.js), before
 * Node's own teardown would close one, and the kernel holds a process's end back 13-26 ms for each watch still open
 * (it frees a watch only after a grace period). A preload notes how many watches the process has as it exits.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanUp, localEnv, profileFile, quickProfile, run, submitLocal, type LocalEnv } from './local-helpers.js';

let envs: LocalEnv[] = [];
afterEach(async () => {
  await Promise.all(envs.map(cleanUp));
  envs = [];
});

/** An env whose simjob commands note, as they exit, how many inotify watches they have open: [command line, count]. */
function countingEnv(): LocalEnv & { watchesAtExit: () => [string, number][] } {
  const env = localEnv();
  envs.push(env);
  const root = dirname(env.SIMJOB_DATA_DIR);
  const out = join(root, 'watches.txt');
  const preload = join(root, 'count-watches.cjs');
  writeFileSync(
    preload,
    `const fs = require('node:fs');
process.on('exit', () => {
  let watches = 0;
  for (const fd of fs.readdirSync('/proc/self/fdinfo')) {
    try { watches += (fs.readFileSync('/proc/self/fdinfo/' + fd, 'utf8').match(/^inotify wd:/gm) || []).length; } catch {}
  }
  fs.appendFileSync(${JSON.stringify(out)}, JSON.stringify([process.argv.slice(2).join(' '), watches]) + '\\n');
});
`,
  );
  env.NODE_OPTIONS = `--require ${preload}`;
  const watchesAtExit = () =>
    readFileSync(out, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as [string, number]);
  return Object.assign(env, { watchesAtExit });
}

describe.runIf(process.platform === 'linux')('a local command at its end', () => {
  it('has closed the watch of a job it waited for', async () => {
    const env = countingEnv();
    const id = await submitLocal(
      env,
      profileFile(env, 'p.simc', quickProfile('Watched', ['# fake.start_delay_ms=500'])),
    );
    const waited = await run(env, ['status', id, '--wait', '--json']);
    expect(waited.exitCode, waited.stderr).toBe(0);
    const shown = await run(env, ['status', id, '--json']); // an ended job: watched for a moment, then no more
    expect(shown.exitCode, shown.stderr).toBe(0);
    // The commands' own lines (the background worker, started with the same env, notes its own as it leaves).
    const commands = env.watchesAtExit().filter(([line]) => line.startsWith('submit') || line.startsWith('status'));
    expect(commands).toEqual([
      [expect.stringMatching(/^submit /), 0],
      [`status ${id} --wait --json`, 0],
      [`status ${id} --json`, 0],
    ]);
    expect(readdirSync(join(env.SIMJOB_DATA_DIR, 'jobs'))).toEqual([id]);
  });
});
