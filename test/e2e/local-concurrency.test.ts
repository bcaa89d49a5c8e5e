/**
 * Many simjob processes at once on one data dir: 50 concurrent `submit --local` calls (half of them waiting on the
 * worker) make 50 jobs, each run once, all completed; none lost, none duplicated, one worker at a time, and never
 * more simc at once than local.concurrency.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import {
  cleanUp,
  FAKE_SIMC,
  json,
  localEnv,
  profileFile,
  quickProfile,
  run,
  waitFor,
  type LocalEnv,
} from './local-helpers.js';

const envs: LocalEnv[] = [];
afterAll(() => Promise.all(envs.map(cleanUp)));

/** An env whose simc is a script that notes each run's start and end, in order, around the stand-in. */
function notingEnv(): LocalEnv & { simcLog: string } {
  const env = localEnv();
  envs.push(env);
  const simcLog = join(dirname(env.SIMJOB_DATA_DIR), 'simc-runs.log');
  env.SIMJOB_SIMC = join(dirname(env.SIMJOB_DATA_DIR), 'simc-noted');
  writeFileSync(
    env.SIMJOB_SIMC,
    `#!/bin/sh\necho "start $$" >> '${simcLog}'\n'${FAKE_SIMC}' "$@"\nstatus=$?\necho "end $$" >> '${simcLog}'\nexit $status\n`,
    { mode: 0o755 },
  );
  return Object.assign(env, { simcLog });
}

/** The most simc runs going at once, from the log. */
function mostAtOnce(log: string): number {
  let now = 0;
  let most = 0;
  for (const line of log.trim().split('\n')) {
    now += line.startsWith('start ') ? 1 : -1;
    most = Math.max(most, now);
  }
  return most;
}

it('50 concurrent submit --local calls make 50 jobs, all completed, none lost or duplicated', async () => {
  const env = notingEnv();
  expect((await run(env, ['config', 'set', 'local.concurrency', '4'])).exitCode).toBe(0);
  const profile = profileFile(env, 'quick.simc', quickProfile('Many', ['iterations=100', '# fake.iter_us=2000']));
  const submissions = await Promise.all(
    // the waiting half with an --idempotency-key too: a key's record is made in the same burst
    Array.from({ length: 50 }, (_, i) =>
      run(
        env,
        [
          'submit',
          profile,
          '--local',
          '--json',
          '--meta',
          `n=${i}`,
          ...(i % 2 ? ['--wait', '--idempotency-key', `wait-${i}`] : []),
        ],
        60_000,
      ),
    ),
  );
  for (const s of submissions) expect(s.exitCode, s.stderr).toBe(0);
  const ids = submissions.map((s) => json(s).id as string);
  expect(new Set(ids).size).toBe(50);

  // On a loaded machine a worker that meets a busy store backs off (up to 30 s) before it goes on: slow, not lost.
  // Should the wait still run out, the worker's log says what it was doing.
  const listed = await waitFor(
    'every job to finish',
    async () => {
      const page = json(await run(env, ['jobs', '--local', '--limit', '100', '--json']));
      return page.jobs.every((j: { status: string }) => j.status === 'completed' || j.status === 'failed')
        ? page
        : undefined;
    },
    180_000,
  ).catch((error: Error) => {
    let log = '';
    try {
      log = readFileSync(join(env.SIMJOB_DATA_DIR, 'worker.log'), 'utf8').split('\n').slice(-30).join('\n');
    } catch {
      // no log
    }
    throw new Error(`${error.message}\nworker.log (last 30 lines):\n${log}`);
  });
  expect(listed.jobs).toHaveLength(50);
  expect(new Set(listed.jobs.map((j: { id: string }) => j.id))).toEqual(new Set(ids));
  expect(listed.jobs.filter((j: { status: string }) => j.status !== 'completed')).toEqual([]);
  // Each submission's metadata is on exactly one job.
  expect(
    listed.jobs.map((j: { metadata: { n: string } }) => Number(j.metadata.n)).sort((a: number, b: number) => a - b),
  ).toEqual(Array.from({ length: 50 }, (_, i) => i));

  // Each job ran exactly once (one attempt, one report), and the queue and the running set are empty.
  for (const id of ids) {
    const job = JSON.parse(readFileSync(join(env.SIMJOB_DATA_DIR, 'jobs', id, 'job.json'), 'utf8'));
    expect(job).toMatchObject({ attempt: 1, retried: false });
  }
  expect(readdirSync(join(env.SIMJOB_DATA_DIR, 'queue'))).toEqual([]);
  expect(readdirSync(join(env.SIMJOB_DATA_DIR, 'running'))).toEqual([]);
  // At most 4 simc at once, however many CLIs waited.
  const runs = readFileSync(env.simcLog, 'utf8');
  expect(runs.match(/^end /gm)).toHaveLength(50);
  expect(mostAtOnce(runs)).toBeLessThanOrEqual(4);
  expect(mostAtOnce(runs)).toBeGreaterThan(1);
  // However many workers the burst started, one at a time held the lock: in the shared log (appended in order),
  // every "holds the lock" comes while nobody holds it, and every "releases" from the holder.
  const log = readFileSync(join(env.SIMJOB_DATA_DIR, 'worker.log'), 'utf8');
  expect(log).not.toMatch(/error:/);
  let holder: string | undefined;
  let holds = 0;
  for (const m of log.matchAll(/worker (\d+) (holds|releases) the lock/g)) {
    if (m[2] === 'holds') {
      expect(holder).toBeUndefined();
      holder = m[1];
      holds += 1;
    } else {
      expect(holder).toBe(m[1]);
      holder = undefined;
    }
  }
  expect(holds).toBeGreaterThanOrEqual(1);
}, 300_000);
