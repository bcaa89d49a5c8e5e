import { describe, expect, it } from 'vitest';
import type { StatusRecord } from '../../src/core/resources/schemas.js';
import { ApiError, InterruptedError, NetworkError, WaitTimeoutError } from '../../src/errors.js';
import type { JobBackend } from '../../src/core/jobs/backend.js';
import {
  nextPollDelayMs,
  outageDelayMs,
  POLL_CAP_MS,
  POLL_FLOOR_MS,
  waitForTerminal,
} from '../../src/core/jobs/wait.js';

/**
 * A job on a virtual clock: queued for `queueMs`, running for `runMs` with linear progress, then `end`. The wait
 * loop gets the same clock through `now` and `sleep`, so hours pass in milliseconds and every poll is counted.
 */
function virtualJob(opts: {
  queueMs: number;
  runMs: number;
  end?: string;
  progress?: boolean;
  failAt?: (t: number) => Error | undefined;
  states?: (t: number) => string | undefined;
}) {
  let t = 0;
  const polls: number[] = [];
  const endAt = opts.queueMs + opts.runMs;
  const status = (): StatusRecord => {
    const custom = opts.states?.(t);
    if (custom) return { status: custom } as StatusRecord;
    if (t < opts.queueMs)
      return {
        status: 'queued',
        queue: { estimatedStartSeconds: Math.ceil((opts.queueMs - t) / 1000) },
      } as StatusRecord;
    if (t < endAt) {
      const percent = Math.round(((t - opts.queueMs) / opts.runMs) * 1000) / 10;
      return { status: 'running', progress: opts.progress === false ? null : { percent, stage: null } } as StatusRecord;
    }
    return { status: opts.end ?? 'completed' } as StatusRecord;
  };
  const pollOptions: unknown[] = [];
  const backend = {
    kind: 'remote',
    status: async (_id: string, options?: unknown) => {
      polls.push(t);
      pollOptions.push(options);
      const failure = opts.failAt?.(t);
      if (failure) throw failure;
      return { data: status(), raw: status() };
    },
  } as unknown as JobBackend;
  return {
    backend,
    polls,
    pollOptions,
    endAt,
    now: () => t,
    sleep: async (ms: number, signal?: AbortSignal) => {
      if (signal?.aborted) throw signal.reason;
      t += ms;
    },
  };
}

const queued = (eta: number | null): StatusRecord =>
  ({ status: 'queued', queue: { estimatedStartSeconds: eta } }) as StatusRecord;
const running = (percent: number | null): StatusRecord =>
  ({ status: 'running', progress: { percent } }) as StatusRecord;

describe('nextPollDelayMs', () => {
  it('waits half the queue ETA, between the floor and the cap', () => {
    expect(nextPollDelayMs(queued(20), 0, 1000)).toBe(10_000);
    expect(nextPollDelayMs(queued(1), 0, 1000)).toBe(POLL_FLOOR_MS);
    expect(nextPollDelayMs(queued(3600), 0, 1000)).toBe(POLL_CAP_MS);
  });

  it('without an ETA, backs off from the floor to 10 s', () => {
    let delay = POLL_FLOOR_MS;
    const seen: number[] = [];
    for (let i = 0; i < 10; i++) seen.push((delay = nextPollDelayMs(queued(null), 0, delay)));
    expect(seen[0]).toBe(1500);
    expect(Math.max(...seen)).toBe(10_000);
  });

  it('projects the end of a run from its progress rate and closes in on it', () => {
    // 10% in 4 s since the first reading: 36 s left → poll in 18 s
    expect(nextPollDelayMs(running(20), 14_000, 2000, { at: 10_000, percent: 10 })).toBe(16_000);
    // almost done: every 1.5 s around the projected end
    expect(nextPollDelayMs(running(98), 50_000, 2000, { at: 10_000, percent: 10 })).toBe(1500);
    // a long run is polled at most every 30 s
    expect(nextPollDelayMs(running(5), 600_000, 2000, { at: 0, percent: 0 })).toBe(POLL_CAP_MS);
  });

  it('a state it does not know is not terminal and is polled calmly', () => {
    expect(nextPollDelayMs({ status: 'paused_for_maintenance' } as StatusRecord, 0, 1000)).toBe(1500);
  });
});

describe('waitForTerminal', () => {
  it('a job that queues 20 s and runs 40 s: ended noticed within 2 s, in at most 40 polls', async () => {
    const job = virtualJob({ queueMs: 20_000, runMs: 40_000 });
    const final = await waitForTerminal(job.backend, 'j', { now: job.now, sleep: job.sleep });
    expect(final.status).toBe('completed');
    const noticedAfter = job.polls.at(-1)! - job.endAt;
    expect(noticedAfter).toBeGreaterThanOrEqual(0);
    expect(noticedAfter).toBeLessThanOrEqual(2000);
    expect(job.polls.length).toBeLessThanOrEqual(40);
  });

  it('an hour-long job is never hammered: gaps of at most 30 s, far fewer polls than seconds', async () => {
    const job = virtualJob({ queueMs: 10 * 60_000, runMs: 60 * 60_000 });
    await waitForTerminal(job.backend, 'j', { now: job.now, sleep: job.sleep });
    const gaps = job.polls.slice(1).map((p, i) => p - job.polls[i]!);
    expect(Math.max(...gaps)).toBeLessThanOrEqual(POLL_CAP_MS);
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(POLL_FLOOR_MS);
    expect(job.polls.length).toBeLessThan(250);
    expect(job.polls.at(-1)! - job.endAt).toBeLessThanOrEqual(2000);
  });

  it('without progress figures, a run is still followed (a tenth of its age between polls)', async () => {
    const job = virtualJob({ queueMs: 0, runMs: 120_000, progress: false });
    await waitForTerminal(job.backend, 'j', { now: job.now, sleep: job.sleep });
    expect(job.polls.at(-1)! - job.endAt).toBeLessThanOrEqual(13_000);
    expect(job.polls.length).toBeLessThan(40);
  });

  it('reports every status, and ends with the terminal one, whatever it is', async () => {
    const job = virtualJob({ queueMs: 3000, runMs: 3000, end: 'timed_out' });
    const seen: string[] = [];
    const final = await waitForTerminal(job.backend, 'j', {
      now: job.now,
      sleep: job.sleep,
      onStatus: (s) => seen.push(s.status),
    });
    expect(final.status).toBe('timed_out');
    expect(seen.at(-1)).toBe('timed_out');
    expect(new Set(seen)).toEqual(new Set(['queued', 'running', 'timed_out']));
  });

  it('an unknown state is waited through, not taken as the end', async () => {
    const job = virtualJob({ queueMs: 0, runMs: 0, states: (t) => (t < 5000 ? 'hibernating' : undefined) });
    const seen: string[] = [];
    const final = await waitForTerminal(job.backend, 'j', {
      now: job.now,
      sleep: job.sleep,
      onStatus: (s) => seen.push(s.status),
    });
    expect(seen[0]).toBe('hibernating');
    expect(final.status).toBe('completed');
  });

  it('rides out transient errors, honours Retry-After even beyond the cap, and reports each', async () => {
    const limited = new ApiError('Rate limited', {
      status: 429,
      code: 'rate_limit_exceeded',
      meta: null,
      requestId: undefined,
      retryAfterMs: 45_000,
      method: 'GET',
      path: '/x',
    });
    const job = virtualJob({
      queueMs: 0,
      runMs: 200_000,
      failAt: (t) => (t === 0 ? new NetworkError('Cannot reach host') : t < 10_000 ? limited : undefined),
    });
    const transient: Array<[string, number]> = [];
    const final = await waitForTerminal(job.backend, 'j', {
      now: job.now,
      sleep: job.sleep,
      onTransientError: (e, ms) => transient.push([e.message, ms]),
    });
    expect(final.status).toBe('completed');
    expect(transient[0]).toEqual(['Cannot reach host', 2000]);
    expect(transient[1]).toEqual(['Rate limited', 45_000]);
    expect(job.polls[2]).toBe(47_000);
  });

  it('a 404 ends the wait at once', async () => {
    const gone = new ApiError('Not found', {
      status: 404,
      code: 'not_found',
      meta: null,
      requestId: undefined,
      retryAfterMs: undefined,
      method: 'GET',
      path: '/x',
    });
    const job = virtualJob({ queueMs: 0, runMs: 10_000, failAt: () => gone });
    await expect(waitForTerminal(job.backend, 'j', { now: job.now, sleep: job.sleep })).rejects.toBe(gone);
    expect(job.polls).toHaveLength(1);
  });

  it('an outage: one attempt per poll, backing off from 2 s to a poll a minute, each failure reported with how long it lasts', async () => {
    // answers at 0 s, fails from then until 5 min, completes at 6 min
    const job = virtualJob({
      queueMs: 0,
      runMs: 360_000,
      progress: false,
      failAt: (t) => (t >= 1 && t < 300_000 ? new NetworkError('Cannot reach host') : undefined),
    });
    const outages: Array<{ failures: number; forMs: number }> = [];
    const final = await waitForTerminal(job.backend, 'j', {
      now: job.now,
      sleep: job.sleep,
      onTransientError: (_e, _ms, outage) => outages.push(outage),
    });
    expect(final.status).toBe('completed');
    expect(job.pollOptions.every((o) => (o as { once?: boolean } | undefined)?.once === true)).toBe(true);
    const failedPolls = job.polls.filter((t) => t >= 1 && t < 300_000);
    const gaps = failedPolls.slice(1).map((t, i) => t - failedPolls[i]!);
    expect(gaps.slice(0, 6)).toEqual([2000, 4000, 8000, 16_000, 32_000, 60_000]);
    expect(Math.max(...gaps)).toBe(60_000);
    expect(outages[0]).toEqual({ failures: 1, forMs: 0 });
    expect(outages.at(-1)!.forMs).toBe(failedPolls.at(-1)! - failedPolls[0]!);
  });

  it("outageDelayMs: 2 s doubling to 60 s; the service's Retry-After wins, even beyond that", () => {
    expect([1, 2, 3, 4, 5, 6, 7, 50].map((n) => outageDelayMs(n, undefined))).toEqual([
      2000, 4000, 8000, 16_000, 32_000, 60_000, 60_000, 60_000,
    ]);
    expect(outageDelayMs(1, 90_000)).toBe(90_000);
    expect(outageDelayMs(3, 0)).toBe(POLL_FLOOR_MS);
  });

  it('a connection refused before the service ever answered ends the wait at once (a wrong base URL, not an outage)', async () => {
    const refused = new NetworkError('Cannot reach http://127.0.0.1:9: connection refused.', undefined, true);
    const job = virtualJob({ queueMs: 0, runMs: 10_000, failAt: () => refused });
    await expect(waitForTerminal(job.backend, 'j', { now: job.now, sleep: job.sleep })).rejects.toBe(refused);
    expect(job.polls).toHaveLength(1);
  });

  it('gives up on an outage after 10 minutes, saying the job is unaffected', async () => {
    const job = virtualJob({ queueMs: 0, runMs: 3_600_000, failAt: () => new NetworkError('Cannot reach host') });
    await expect(waitForTerminal(job.backend, 'j', { now: job.now, sleep: job.sleep })).rejects.toMatchObject({
      hint: expect.stringMatching(/the job is unaffected\. Pick it up with: simjob status j --wait/),
    });
  });

  it('--timeout: WaitTimeoutError (exit 8) naming the state, on time', async () => {
    const job = virtualJob({ queueMs: 0, runMs: 600_000 });
    const error = await waitForTerminal(job.backend, 'j', { now: job.now, sleep: job.sleep, timeoutMs: 30_000 }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(WaitTimeoutError);
    expect((error as WaitTimeoutError).exitCode).toBe(8);
    expect((error as WaitTimeoutError).message).toBe('Job j is still running after 30 s.');
    expect(job.now()).toBe(30_000);
  });

  it('Ctrl-C (the signal) stops the wait with its reason', async () => {
    const job = virtualJob({ queueMs: 0, runMs: 600_000 });
    const controller = new AbortController();
    const reason = new InterruptedError('Interrupted.');
    const promise = waitForTerminal(job.backend, 'j', {
      now: job.now,
      sleep: job.sleep,
      signal: controller.signal,
      onStatus: () => job.polls.length === 3 && controller.abort(reason),
    });
    await expect(promise).rejects.toBe(reason);
    expect(job.polls).toHaveLength(3);
  });

  it('a backend that announces changes (local jobs) wakes the loop before the poll delay', async () => {
    let calls = 0;
    const states = ['queued', 'running', 'completed'];
    const backend = {
      kind: 'local',
      status: async () => ({ data: { status: states[Math.min(calls++, 2)] }, raw: {} }),
      nextChange: () => Promise.resolve(),
    } as unknown as JobBackend;
    const started = Date.now();
    const final = await waitForTerminal(backend, 'local-x', {});
    expect(final.status).toBe('completed');
    expect(Date.now() - started).toBeLessThan(500);
  });
});
