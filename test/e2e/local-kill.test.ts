/**
 * kill -9 at random moments: waiting `submit --local --wait` CLIs killed while they write their job or wait for it,
 * and the background worker killed while it runs one. Afterwards every job made is listed and ends completed (or
 * failed as interrupted after its one retry), no two simc ever ran in one job folder, and nothing stays queued or
 * running.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { BIN } from '../helpers/cli.js';
import {
  alive,
  cleanUp,
  FAKE_SIMC,
  json,
  localEnv,
  profileFile,
  quickProfile,
  run,
  waitFor,
  workerPid,
  type LocalEnv,
} from './local-helpers.js';

let env: LocalEnv | undefined;
let children: ChildProcess[] = [];
afterEach(async () => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  children = [];
  if (env) await cleanUp(env);
  env = undefined;
});

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

it('leaves every job findable and ended, never two simc in one folder, nothing queued or running', async () => {
  env = localEnv();
  const simcLog = join(dirname(env.SIMJOB_DATA_DIR), 'simc-runs.log');
  env.SIMJOB_SIMC = join(dirname(env.SIMJOB_DATA_DIR), 'simc-noted');
  // Each run holds a lock named after its job folder for as long as it lives (flock: the kernel drops it when the
  // process dies, however it dies) and notes "overlap" if another live run of that folder holds it already. A
  // start/end log cannot tell: a run killed with its process group never writes its end.
  const folderLocks = join(dirname(env.SIMJOB_DATA_DIR), 'simc-folder-locks');
  writeFileSync(
    env.SIMJOB_SIMC,
    `#!/bin/sh\nmkdir -p '${folderLocks}'\nexec 9>"${folderLocks}/$(basename "$PWD")"\n` +
      `flock -n 9 || echo "overlap $PWD" >> '${simcLog}'\necho "start $PWD" >> '${simcLog}'\nexec '${FAKE_SIMC}' "$@"\n`,
    { mode: 0o755 },
  );
  expect((await run(env, ['config', 'set', 'local.concurrency', '2'])).exitCode).toBe(0);
  const profile = profileFile(env, 'kill.simc', quickProfile('Kill', ['iterations=300', '# fake.iter_us=1500']));

  const count = 14;
  const submits = Array.from({ length: count }, (_, i) => {
    const child = spawn(process.execPath, [BIN, 'submit', profile, '--local', '--wait', '--json', '--meta', `n=${i}`], {
      env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
      stdio: 'ignore',
      detached: true,
    });
    children.push(child);
    return new Promise<void>((done) => child.on('exit', () => done()));
  });
  // Most are killed at a random moment (some before their job exists, some while it runs); a few are left to end.
  const kills = children.map(async (child, i) => {
    if (i % 5 === 4) return;
    await sleep(Math.random() * 2_500);
    child.kill('SIGKILL');
  });
  // The worker (started for the jobs of killed CLIs) is killed while it runs one.
  const workerKill = (async () => {
    const pid = await waitFor('a worker', async () => workerPid(env as LocalEnv), 20_000).catch(() => undefined);
    if (!pid) return false;
    await sleep(400);
    if (!alive(pid)) return false;
    process.kill(pid, 'SIGKILL');
    return true;
  })();
  await Promise.all([...kills, ...submits]);
  await workerKill;

  // Any local command notices the dead runners; the worker it starts ends every job.
  const listed = await waitFor(
    'every job to end',
    async () => {
      const page = json(await run(env as LocalEnv, ['jobs', '--local', '--limit', '100', '--json']));
      return page.jobs.every((job: { status: string }) => ['completed', 'failed'].includes(job.status))
        ? page
        : undefined;
    },
    120_000,
  );

  const jobs = listed.jobs as Array<{ id: string; status: string; errorCode: string | null; metadata: { n: string } }>;
  expect(jobs.length).toBeGreaterThan(0);
  // at most one job per submission
  expect(new Set(jobs.map((job) => job.metadata.n)).size).toBe(jobs.length);
  for (const job of jobs) {
    if (job.status === 'completed') continue;
    expect(job).toMatchObject({ status: 'failed', errorCode: 'execution_interrupted' });
    expect(JSON.parse(readFileSync(join(env.SIMJOB_DATA_DIR, 'jobs', job.id, 'job.json'), 'utf8')).retried).toBe(true);
  }
  expect(readdirSync(join(env.SIMJOB_DATA_DIR, 'queue'))).toEqual([]);
  expect(readdirSync(join(env.SIMJOB_DATA_DIR, 'running'))).toEqual([]);

  // Never two simc at once in one job folder.
  const runs = readFileSync(simcLog, 'utf8').trim().split('\n');
  expect(runs.filter((line) => line.startsWith('start ')).length).toBeGreaterThan(0);
  expect(runs.filter((line) => line.startsWith('overlap '))).toEqual([]);
});
