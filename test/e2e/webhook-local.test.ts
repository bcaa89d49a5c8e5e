/**
 * Webhook events of local jobs, end to end: the built CLI submits with --webhook, the background worker runs the
 * stand-in simc and delivers job.terminal to `simjob webhook listen` (or to a scripted receiver), signed as the
 * service signs it. Every test has its own config and data dir; the worker it started is stopped by its pid.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { DeliveryRecord } from '../../src/core/webhook/deliver.js';
import { verifySignature } from '../../src/core/webhook/signature.js';
import { isolatedDirs, simjob } from '../helpers/cli.js';
import { startListen } from '../helpers/listen.js';
import { REPO_ROOT } from '../helpers/shared.js';
import { scriptedReceiver } from '../unit/webhook/receiver.js';
// The worker a test's commands started (even one a refused submission started early) is stopped by its pid, any
// simc it left is killed, then the test's folders go.
import { cleanUp } from './local-helpers.js';

const SECRET = 'whsec_local_e2e';
const FAKE_SIMC = resolve(REPO_ROOT, 'test', 'fake-simc', 'simc');
type Env = Record<string, string>;
const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

function localEnv(extra: Env = {}): Env & ReturnType<typeof isolatedDirs> {
  const env = { ...isolatedDirs(), SIMJOB_SIMC: FAKE_SIMC, NO_COLOR: '1', ...extra };
  cleanups.push(() => cleanUp(env));
  return env;
}

function workerPid(env: Env): number | undefined {
  try {
    return JSON.parse(readFileSync(join(env.SIMJOB_DATA_DIR!, 'worker.lock'), 'utf8')).pid as number;
  } catch {
    return undefined;
  }
}

function alive(pid: number | undefined): boolean {
  if (!pid) return false;
  try {
    process.kill(pid, 0);
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat[stat.lastIndexOf(')') + 2] !== 'Z';
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOENT' && process.platform !== 'linux';
  }
}

async function waitFor<T>(
  what: string,
  probe: () => T | undefined | Promise<T | undefined>,
  timeoutMs = 20_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

function profile(env: Env, name: string, extra: string[] = []): string {
  const path = join(dirname(env.SIMJOB_DATA_DIR!), 'profiles', `${name}.simc`);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, [`warrior="${name}"`, 'spec=fury', 'level=90', 'iterations=200', ...extra, ''].join('\n'));
  return path;
}

async function submit(env: Env, path: string, args: string[] = []): Promise<string> {
  const result = await simjob(['submit', path, '--local', '--json', ...args], { env });
  expect(result.exitCode, result.stderr).toBe(0);
  return JSON.parse(result.stdout).id as string;
}

const recordOf = (env: Env, id: string): DeliveryRecord | undefined => {
  const path = join(env.SIMJOB_DATA_DIR!, 'jobs', id, 'webhook.json');
  return existsSync(path) ? (JSON.parse(readFileSync(path, 'utf8')) as DeliveryRecord) : undefined;
};
const settled = (env: Env, id: string) =>
  waitFor(`the delivery of ${id} to end`, () => {
    const record = recordOf(env, id);
    return record && record.state !== 'pending' ? record : undefined;
  });

const listen = (env: Env, args: string[]) => startListen(env, args, cleanups);

describe('local jobs with --webhook', () => {
  it("a local job's job.terminal event reaches `simjob webhook listen` and verifies", async () => {
    const listenEnv = { ...isolatedDirs(), SIMJOB_WEBHOOK_SECRET: SECRET };
    const l = await listen(listenEnv, ['--json', '--max-events', '1']);
    const env = localEnv({ SIMJOB_WEBHOOK_URL: l.url, SIMJOB_WEBHOOK_SECRET: SECRET });

    const id = await submit(env, profile(env, 'Hook'), ['--webhook']);
    const finished = await simjob(['status', id, '--wait', '--json'], { env });
    expect(JSON.parse(finished.stdout).status).toBe('completed');

    expect((await l.child).exitCode).toBe(0);
    const line = JSON.parse(l.stdout()) as { eventId: string; deliveryId: string; event: Record<string, any> };
    expect(line.event).toEqual({
      kind: 'job.terminal',
      version: 'v1',
      timestamp: expect.any(String),
      payload: { id, status: 'completed', statusReason: null },
    });
    expect(Date.parse(line.event.timestamp)).toBeGreaterThanOrEqual(
      Date.parse(JSON.parse(finished.stdout).completedAt),
    );

    const record = await settled(env, id);
    expect(record).toMatchObject({
      state: 'delivered',
      eventId: line.eventId,
      jobId: id,
      attempts: [{ deliveryId: line.deliveryId, status: 200, result: 'delivered' }],
    });
    const subscription = readFileSync(join(env.SIMJOB_DATA_DIR, 'jobs', id, 'webhook-subscription.json'), 'utf8');
    expect(JSON.parse(subscription)).toEqual({ url: l.url, profile: 'default' });
    for (const file of ['webhook.json', 'webhook-subscription.json', 'job.json']) {
      expect(readFileSync(join(env.SIMJOB_DATA_DIR, 'jobs', id, file), 'utf8')).not.toContain(SECRET);
    }
    // The worker logs the attempt after it writes the record: wait for the line rather than race it.
    const logged = new RegExp(
      `webhook ${line.eventId} for ${id}: attempt 1/6 ${line.deliveryId} → HTTP 200 \\(delivered\\)`,
    );
    await waitFor('the attempt in worker.log', () =>
      logged.test(readFileSync(join(env.SIMJOB_DATA_DIR, 'worker.log'), 'utf8')) ? true : undefined,
    );
  });

  it('a URL that is obviously not a listener (no path, another path on this machine) warns at submit; /webhooks does not', async () => {
    const cases: Array<[string, RegExp | null]> = [
      [
        'http://127.0.0.1:8080/',
        /^Warning: SIMJOB_WEBHOOK_URL http:\/\/127\.0\.0\.1:8080\/ has no path, .*`simjob webhook listen` receives on \/webhooks .*: use http:\/\/127\.0\.0\.1:8080\/webhooks\.$/m,
      ],
      ['https://hooks.example.com', /^Warning: SIMJOB_WEBHOOK_URL https:\/\/hooks\.example\.com has no path/m],
      [
        'http://localhost:8790/hooks',
        /^Warning: SIMJOB_WEBHOOK_URL http:\/\/localhost:8790\/hooks is on this machine with the path \/hooks, .*unless it was started with --path \/hooks, use http:\/\/localhost:8790\/webhooks\.$/m,
      ],
      ['http://127.0.0.1:8790/webhooks', null],
      ['https://hooks.example.com/simc', null],
    ];
    for (const [url, warning] of cases) {
      const env = localEnv({ SIMJOB_WEBHOOK_URL: url, SIMJOB_WEBHOOK_SECRET: SECRET });
      const r = await simjob(['submit', profile(env, 'Where'), '--local', '--webhook', '--dry-run'], { env });
      expect(r.exitCode, r.stderr).toBe(0);
      if (warning) expect(r.stderr).toMatch(warning);
      else expect(r.stderr).not.toMatch(/^Warning: SIMJOB_WEBHOOK_URL/m);
    }
  });

  it('without a URL or secret, a local --webhook submission is refused like the service (webhook_not_configured), exit 2 as a missing setting', async () => {
    const env = localEnv({ SIMJOB_WEBHOOK_SECRET: SECRET });
    const result = await simjob(['submit', profile(env, 'NoUrl'), '--local', '--webhook'], { env });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toBe(
      'Error: This local job asks for a webhook, but no URL is configured (webhook_not_configured). Set the receiver with `simjob config set webhook.url http://127.0.0.1:8790/webhooks` (or SIMJOB_WEBHOOK_URL) and the signing secret with `simjob webhook secret set` (or SIMJOB_WEBHOOK_SECRET), or submit without --webhook.\n',
    );
    const bare = localEnv();
    expect((await simjob(['config', 'set', 'webhook.url', 'http://127.0.0.1:9/hooks'], { env: bare })).exitCode).toBe(
      0,
    );
    const noSecret = await simjob(['submit', profile(bare, 'NoSecret'), '--local', '--webhook', '--json'], {
      env: bare,
    });
    expect(noSecret.exitCode).toBe(2);
    expect(noSecret.stdout).toBe('');
    expect(noSecret.stderr).toMatch(
      /^Error: This local job asks for a webhook, but no signing secret is configured \(webhook_not_configured\)\./,
    );
    const jobs = await simjob(['jobs', '--local', '--json'], { env: bare });
    expect(JSON.parse(jobs.stdout).jobs).toEqual([]);
  });

  it('the stored secret and webhook.url of the profile are used; 500, 500, 200 gives three attempts with one event id', async () => {
    const receiver = await scriptedReceiver([500, 500, 200]);
    cleanups.push(receiver.close);
    const env = localEnv();
    await simjob(['config', 'set', 'webhook.url', receiver.url, '--profile', 'hooks'], { env });
    await simjob(['webhook', 'secret', 'set', '--profile', 'hooks'], { env, input: SECRET });

    const id = await submit(env, profile(env, 'Retry', ['# fake.crash_after=0']), ['--webhook', '--profile', 'hooks']);
    const record = await settled(env, id);
    expect(record.state).toBe('delivered');
    expect(receiver.requests).toHaveLength(3);
    expect(new Set(receiver.requests.map((q) => q.headers['x-service-event-id']))).toEqual(new Set([record.eventId]));
    expect(new Set(receiver.requests.map((q) => q.headers['x-service-delivery-id'])).size).toBe(3);
    const times = record.attempts.map((a) => Date.parse(a.at));
    expect(times[1]! - times[0]!).toBeGreaterThanOrEqual(2_000);
    expect(times[2]! - times[1]!).toBeGreaterThanOrEqual(4_000);
    for (const q of receiver.requests) {
      expect(q.body.toString('utf8')).toBe(record.body);
      expect(
        verifySignature({ secret: SECRET, header: q.headers['x-service-signature'] as string, rawBody: q.body }).ok,
      ).toBe(true);
    }
    expect(JSON.parse(record.body).payload).toMatchObject({ id, status: 'failed' });
  }, 40_000);

  it('a queued job cancelled by `simjob cancel` sends its event too (the worker delivers it)', async () => {
    const receiver = await scriptedReceiver([200]);
    cleanups.push(receiver.close);
    const env = localEnv({ SIMJOB_WEBHOOK_URL: receiver.url, SIMJOB_WEBHOOK_SECRET: SECRET });
    const blocker = await submit(env, profile(env, 'Blocker', ['# fake.hang_after=1']));
    await waitFor('the blocker to run', async () =>
      JSON.parse((await simjob(['status', blocker, '--json'], { env })).stdout).status === 'running' ? true : undefined,
    );
    const queued = await submit(env, profile(env, 'Queued'), ['--webhook']);
    expect((await simjob(['cancel', queued], { env })).exitCode).toBe(0);

    const record = await settled(env, queued);
    expect(record.state).toBe('delivered');
    expect(receiver.requests).toHaveLength(1);
    expect(JSON.parse(receiver.requests[0]!.body.toString('utf8')).payload).toEqual({
      id: queued,
      status: 'cancelled',
      statusReason: expect.any(String),
    });
    await simjob(['cancel', blocker], { env });
  });

  it('a worker stopped between attempts leaves the event pending; the next worker resumes it with the same event id', async () => {
    const receiver = await scriptedReceiver([503, 200]);
    cleanups.push(receiver.close);
    const env = localEnv({ SIMJOB_WEBHOOK_URL: receiver.url, SIMJOB_WEBHOOK_SECRET: SECRET });
    const id = await submit(env, profile(env, 'Resume'), ['--webhook']);
    await waitFor('the first attempt', () => (recordOf(env, id)?.attempts[0]?.result === 'retry' ? true : undefined));
    const first = workerPid(env)!;
    process.kill(first, 'SIGTERM');
    await waitFor('the worker to stop', () => (alive(first) ? undefined : true));
    expect(recordOf(env, id)).toMatchObject({ state: 'pending' });
    expect(existsSync(join(env.SIMJOB_DATA_DIR, 'webhooks', id))).toBe(true);

    await simjob(['jobs', '--local'], { env }); // any local command notices the pending event and starts a worker
    const record = await settled(env, id);
    expect(workerPid(env)).not.toBe(first);
    expect(record.state).toBe('delivered');
    expect(record.attempts.map((a) => a.status)).toEqual([503, 200]);
    expect(receiver.requests.map((q) => q.headers['x-service-event-id'])).toEqual([record.eventId, record.eventId]);
    // The worker clears the pending entry after it writes the record: wait for it rather than race it.
    await waitFor('the pending entry to be cleared', () =>
      existsSync(join(env.SIMJOB_DATA_DIR, 'webhooks', id)) ? undefined : true,
    );
  });

  it('a job retried after its worker died sends one event, after the final attempt', async () => {
    const receiver = await scriptedReceiver([200]);
    cleanups.push(receiver.close);
    const env = localEnv({ SIMJOB_WEBHOOK_URL: receiver.url, SIMJOB_WEBHOOK_SECRET: SECRET });
    const id = await submit(env, profile(env, 'Retried', ['# fake.start_delay_ms=1500']), ['--webhook']);
    const simc = await waitFor('simc to start', () => {
      const job = JSON.parse(readFileSync(join(env.SIMJOB_DATA_DIR, 'jobs', id, 'job.json'), 'utf8'));
      return (job.simcPid as number | null) ?? undefined;
    });
    const worker = workerPid(env)!;
    process.kill(worker, 'SIGKILL');
    process.kill(-simc, 'SIGKILL'); // with its simc (a healthy one would be adopted, not retried)
    await waitFor('the worker and simc to die', () => (alive(worker) || alive(simc) ? undefined : true));

    const finished = JSON.parse((await simjob(['status', id, '--wait', '--json'], { env, timeoutMs: 30_000 })).stdout);
    expect(finished).toMatchObject({ status: 'completed', retried: true });
    const record = await settled(env, id);
    expect(record.state).toBe('delivered');
    await new Promise((r) => setTimeout(r, 500));
    expect(receiver.requests).toHaveLength(1);
    expect(JSON.parse(receiver.requests[0]!.body.toString('utf8')).payload).toEqual({
      id,
      status: 'completed',
      statusReason: null,
    });
  });
});
