/**
 * Many simjob processes at once on one data dir: 50 concurrent `submit --local` calls (half of them waiting, which
 * run their job themselves when there is room) make 50 jobs, each run once, all completed; none lost, none
 * duplicated, one worker at a time, and never more simc at once than local.concurrency.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { cleanUp, FAKE_SIMC, json, jobFile, localEnv, profileFile, quickProfile, run, submitLocal, waitFor, type LocalEnv } from './local-helpers.js';

const envs: LocalEnv[] = [];
afterAll(() => Promise.all(envs.map(cleanUp)));

/** An env whose simc is a script that notes each run's start and end, in order, around the stand-in. */
function notingEnv(): LocalEnv & { simcLog: string } {
  const env = localEnv();
  envs.push(env);
  const simcLog = join(dirname(env.SIMJOB_DATA_DIR), 'simc-runs.log');
  env.SIMJOB_SIMC = join(dirname(env.SIMJOB_DATA_DIR), 'simc-noted');
  writeFileSync(env.SIMJOB_SIMC, `#!/bin/sh\necho "start $$" >> '${simcLog}'\n'${FAKE_SIMC}' "$@"\nstatus=$?\necho "end $$" >> '${simcLog}'\nexit $status\n`, { mode: 0o755 });
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
    // An --idempotency-key keeps a waiting submit from the head start (a simc started before the CLI has loaded, and
    // stopped if the queue turns out busy, so not counted here): each simc run is then exactly one job's.
    Array.from({ length: 50 }, (_, i) => run(env, ['submit', profile, '--local', '--json', '--meta', `n=${i}`, ...(i % 2 ? ['--wait', '--idempotency-key', `wait-${i}`] : [])], 60_000)),
  );
  for (const s of submissions) expect(s.exitCode, s.stderr).toBe(0);
  const ids = submissions.map((s) => json(s).id as string);
  expect(new Set(ids).size).toBe(50);

  const listed = await waitFor('every job to finish', async () => {
    const page = json(await run(env, ['jobs', '--local', '--limit', '100', '--json']));
    return page.jobs.every((j: { status: string }) => j.status === 'completed' || j.status === 'failed') ? page : undefined;
  }, 90_000);
  expect(listed.jobs).toHaveLength(50);
  expect(new Set(listed.jobs.map((j: { id: string }) => j.id))).toEqual(new Set(ids));
  expect(listed.jobs.filter((j: { status: string }) => j.status !== 'completed')).toEqual([]);
  // Each submission's metadata is on exactly one job.
  expect(listed.jobs.map((j: { metadata: { n: string } }) => Number(j.metadata.n)).sort((a: number, b: number) => a - b)).toEqual(Array.from({ length: 50 }, (_, i) => i));

  // Each job ran exactly once (one attempt, one report), and the queue and the running set are empty.
  for (const id of ids) {
    const job = JSON.parse(readFileSync(join(env.SIMJOB_DATA_DIR, 'jobs', id, 'job.json'), 'utf8'));
    expect(job).toMatchObject({ attempt: 1, retried: false });
  }
  expect(readdirSync(join(env.SIMJOB_DATA_DIR, 'queue'))).toEqual([]);
  expect(readdirSync(join(env.SIMJOB_DATA_DIR, 'running'))).toEqual([]);
  // At most 4 simc at once, with waiting CLIs running their own jobs beside the worker.
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
}, 180_000);

it("starts the next simc in a job's room once its simc has ended, before its result is written; never two at once", async () => {
  const env = notingEnv();
  const profile = profileFile(env, 'quick.simc', quickProfile('Next', ['iterations=100', '# fake.iter_us=1000']));
  const ids: string[] = [];
  for (let i = 0; i < 6; i++) ids.push(await submitLocal(env, profile)); // queued: the worker runs them, in order
  await waitFor('every job to complete', async () => (ids.every((id) => jobFile(env, id).status === 'completed') ? true : undefined), 60_000);

  const runs = readFileSync(env.simcLog, 'utf8');
  expect(runs.match(/^end /gm)).toHaveLength(6);
  expect(mostAtOnce(runs)).toBe(1);
  // The room went to the next job when simc ended: some job started before the one ahead of it had its record ended.
  const jobs = ids.map((id) => jobFile(env, id)).sort((a, b) => Date.parse(a.startedAt) - Date.parse(b.startedAt));
  const overlaps = jobs.slice(1).filter((job, i) => Date.parse(job.startedAt) < Date.parse(jobs[i]!.completedAt));
  expect(overlaps.length).toBeGreaterThan(0);
}, 90_000);
