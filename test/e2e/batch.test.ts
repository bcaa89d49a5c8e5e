import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../server/index.js';
import { simjob } from '../helpers/cli.js';
import { cancelJob, profileFile, spawnCli, until, userEnv } from './wait-helpers.js';
import { tempDir } from '../helpers/temp.js';

let server: TestServer;
let dir: string;
const NAMES = ['Alpha', 'Bravo', 'Charlie', 'Delta', 'Echo'];

beforeAll(async () => {
  server = await startServer({
    queueMs: 100,
    runMs: 1200,
    concurrency: 8,
    apiKeys: [
      'sk_test_good',
      { key: 'sk_two_at_once', limits: { maxActiveJobs: 2 } },
      'sk_json',
      'sk_cancel',
      'sk_int',
    ],
  });
  dir = tempDir('simjob-batch-');
  for (const name of NAMES) profileFile(name, 3, dir);
});
afterAll(async () => {
  await server.close();
});

const submits = (key: string) =>
  server.requests.filter(
    (r) => r.method === 'POST' && r.path === '/v1/sim/jobs' && String(r.headers.authorization) === `Bearer ${key}`,
  );
const jobsOf = (key: string) => [...server.jobs.values()].filter((j) => j.owner === key);

describe('a batch of 5 profiles', () => {
  it('respects the in-flight limit (429 waited out, resubmitted with the same key), prints every id, one summary, exit 0', async () => {
    // A retry budget shorter than the Retry-After: the HTTP layer hands the 429 up at once, so the batch's own
    // in-flight wait is what rides it out.
    const env = { ...userEnv(server, 'sk_two_at_once'), SIMJOB_RETRY_BUDGET: '500ms' };
    server.inject({
      method: 'POST',
      path: '/v1/sim/jobs',
      status: 429,
      code: 'max_active_jobs_exceeded',
      meta: { reason: 'max_active_jobs_exceeded', maxActiveJobs: 2, activeJobs: 2 },
      retryAfter: 1,
      times: 3,
    });
    // quoted: the shell does not expand it, simjob does
    const live = spawnCli(['submit', `${dir}/*.simc`, '--channel', 'nightly', '--wait', '--concurrency', '4'], env);
    const run = await live.done;
    expect(run.exitCode, run.stderr).toBe(0);

    // every accepted id on stderr, as soon as known; exactly 5 jobs, never two for one profile
    const accepted = [...run.stderr.matchAll(/^(\S+\.simc): submitted as job (\d+)$/gm)];
    expect(accepted.map((m) => m[1]!.split('/').pop()).sort()).toEqual(NAMES.map((n) => `${n.toLowerCase()}.simc`));
    expect(jobsOf('sk_two_at_once')).toHaveLength(5);
    const posts = submits('sk_two_at_once');
    expect(posts.filter((r) => r.status === 429).length).toBeGreaterThan(0);
    expect(new Set(posts.map((r) => r.headers['idempotency-key'])).size).toBe(5);
    expect(run.stderr).toMatch(
      /the account's limit of jobs in flight is reached \(2\/2\); submitting again in \d+ s with the same idempotency key/,
    );

    // one summary table on stdout
    const table = run.stdout.split('\n').filter((l) => l.includes('\t'));
    expect(table[0]).toBe('Profile\tJob\tStatus\tDPS\t±\tBest profileset\tCredits\tTime');
    expect(table.slice(1)).toHaveLength(5);
    for (const [, id] of accepted.map((m) => [m[1], m[2]]))
      expect(table.some((l) => l.includes(`\t${id}\tcompleted\t`))).toBe(true);
    expect(run.stderr).toContain('5 profiles: 5 completed.');
  });

  it('--json: one JSON array of the 5 result resources', async () => {
    const run = await simjob(
      ['submit', ...NAMES.map((n) => join(dir, `${n.toLowerCase()}.simc`)), '--channel', 'nightly', '--wait', '--json'],
      { env: userEnv(server, 'sk_json') },
    );
    expect(run.exitCode, run.stderr).toBe(0);
    const body = JSON.parse(run.stdout) as Array<{
      id: string;
      status: string;
      result: { summary: { mainActor: { name: string } } };
    }>;
    expect(body).toHaveLength(5);
    expect(body.map((r) => r.result.summary.mainActor.name).sort()).toEqual(NAMES);
    expect(new Set(body.map((r) => r.id))).toEqual(new Set(jobsOf('sk_json').map((j) => j.id)));
  });

  it('exits with the worst outcome: one job cancelled → exit 3, the others completed', async () => {
    const live = spawnCli(['submit', `${dir}/*.simc`, '--channel', 'nightly', '--wait'], userEnv(server, 'sk_cancel'));
    const [, id] = await live.waitForStderr(/charlie\.simc: submitted as job (\d+)/);
    await cancelJob(server, id!, 'sk_cancel');
    const run = await live.done;
    expect(run.exitCode).toBe(3);
    const lines = run.stdout.split('\n').filter((l) => l.includes('\t'));
    expect(lines.find((l) => l.includes(id!))).toMatch(/\tcancelled \(user_cancelled\)\t/);
    expect(lines.filter((l) => /\tcompleted\t/.test(l))).toHaveLength(4);
  });

  it('Ctrl-C: the jobs keep running and every id is listed; profiles not yet sent are named', async () => {
    const env = userEnv(server, 'sk_int');
    const live = spawnCli(
      ['submit', `${dir}/*.simc`, '--channel', 'nightly', '--wait', '--concurrency', '2', '--meta', 'test.runMs=60000'],
      env,
    );
    await until(
      () => (live.stderr().match(/\): running/g) ?? []).length === 2,
      15_000,
      () => live.stderr(),
    );
    live.process.kill('SIGINT');
    const run = await live.done;
    expect(run.exitCode).toBe(130);
    const running = jobsOf('sk_int');
    expect(running).toHaveLength(2);
    expect(run.stderr).toContain(
      'Stopped waiting. These jobs keep running; pick each up with: simjob status ID --wait',
    );
    for (const job of running) {
      expect(job.status).toBe('running');
      expect(run.stderr).toMatch(new RegExp(`\\.simc  ${job.id}  running`));
      await cancelJob(server, job.id, 'sk_int');
    }
    expect(run.stderr).toMatch(/Not submitted: \S+charlie\.simc, \S+delta\.simc, \S+echo\.simc/);
  });

  it('a glob that matches nothing is a usage error', async () => {
    const run = await simjob(['submit', `${dir}/*.nothing`, '--channel', 'nightly'], { env: userEnv(server) });
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toBe(
      `Error: No profile matches ${dir}/*.nothing. Check the pattern and the folder it is relative to.\n`,
    );
  });
});
