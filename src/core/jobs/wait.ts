import type { StatusRecord } from '../resources/schemas.js';
import { isRetryableStatus } from '../resources/enums.js';
import { sleep } from '../../util/sleep.js';
import { ApiError, NetworkError, WaitTimeoutError } from '../../errors.js';
import type { JobBackend } from './backend.js';
import { isTerminal } from './states.js';

export interface WaitOptions {
  /** Give up after this long (WaitTimeoutError, exit 8). Undefined: wait as long as it takes. */
  timeoutMs?: number;
  signal?: AbortSignal;
  /** Called with every status read, the terminal one included. */
  onStatus?: (status: StatusRecord, elapsedMs: number) => void;
  /** Called when a poll failed but the wait goes on (a transient network or server error). */
  onTransientError?: (error: Error, retryInMs: number, outage: Outage) => void;
  now?: () => number;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

/**
 * A backend whose jobs run in this process (the local one) can say when a job changed, so the loop wakes at once
 * instead of sleeping out its poll delay. The remote backend has no such thing and is simply polled.
 */
export interface ChangeNotifier {
  nextChange(id: string, signal: AbortSignal): Promise<void>;
}

/**
 * A backend that can run its queue in the waiting process (the local one, when its options ask: local/host.ts). The
 * wait asks it to when it starts and hands the queue back when it ends, however it ends.
 */
export interface WaitHosting {
  hostWhileWaiting(id: string): Promise<() => Promise<void>>;
}

/** Never poll faster than this, whatever the estimates say. */
export const POLL_FLOOR_MS = 1_000;
/** Never poll slower than this, so a job that ends much earlier than estimated is still noticed reasonably soon. */
export const POLL_CAP_MS = 30_000;
/** Poll spacing around the projected end of a run: the end is noticed within this (plus one request). */
export const NEAR_END_MS = 1_500;
/** While `starting`, or running without a progress rate yet. */
const EARLY_RUN_MS = 2_000;
/** Without an ETA or a progress figure: back off from the floor by this factor up to WAITING_CAP_MS. */
const BACKOFF = 1.5;
const WAITING_CAP_MS = 10_000;
/** Transient poll failures are ridden out this long in a row before the wait gives up. */
export const OUTAGE_LIMIT_MS = 10 * 60_000;
/** During an outage, polls back off from 2 s, doubling, to this: a long outage costs a poll a minute. */
export const OUTAGE_BACKOFF_CAP_MS = 60_000;

/** The poll failures in a row so far, and for how long polls have failed. */
export interface Outage {
  failures: number;
  forMs: number;
}

/** The first progress reading of the current run, from which the rate of progress is measured. */
export interface RunSample {
  at: number;
  percent: number;
}

const clamp = (ms: number, low: number, high: number) => Math.min(high, Math.max(low, Math.round(ms)));

/**
 * How long to wait before the next poll, from the state and the service's own estimates:
 * - waiting (pending/queued) with an ETA: half the ETA, so the polls close in on the start (floor 1 s, cap 30 s);
 *   without one: from 1 s, growing ×1.5 to 10 s.
 * - running with progress: the rate measured since the first reading of this run projects the end; poll at half
 *   the time left, so the polls close in on the end, then every 1.5 s around it — the end is noticed within 2 s
 *   while a long job is polled at most every 30 s. Past the projected end, the spacing grows slowly (a job whose
 *   estimate was wrong is not hammered).
 * - running without progress: a tenth of the time it has run so far (1.5 s to 30 s).
 * - a state this client does not know: like waiting without an ETA.
 */
export function nextPollDelayMs(
  status: StatusRecord,
  now: number,
  previousDelay: number,
  run?: RunSample,
  runningSince?: number,
): number {
  const state = status.status;
  if (state === 'pending' || state === 'queued') {
    const eta = status.queue?.estimatedStartSeconds;
    if (typeof eta === 'number' && eta > 0) return clamp((eta * 1000) / 2, POLL_FLOOR_MS, POLL_CAP_MS);
    return clamp(previousDelay * BACKOFF, POLL_FLOOR_MS, WAITING_CAP_MS);
  }
  if (state === 'starting') return EARLY_RUN_MS;
  if (state === 'running') {
    const percent = status.progress?.percent;
    if (typeof percent !== 'number') {
      const ranFor = runningSince === undefined ? 0 : now - runningSince;
      return clamp(ranFor / 10, NEAR_END_MS, POLL_CAP_MS);
    }
    // The first reading of this run: a second one soon gives the rate.
    if (!run || now <= run.at) return EARLY_RUN_MS;
    // No movement since then: look less and less often (but not rarely once it is nearly done).
    if (percent <= run.percent)
      return clamp(previousDelay * BACKOFF, EARLY_RUN_MS, percent >= 95 ? 5_000 : POLL_CAP_MS);
    const rate = (percent - run.percent) / (now - run.at);
    const left = (100 - percent) / rate;
    if (left > 2 * NEAR_END_MS) return clamp(left / 2, POLL_FLOOR_MS, POLL_CAP_MS);
    return NEAR_END_MS;
  }
  return clamp(previousDelay * BACKOFF, POLL_FLOOR_MS, WAITING_CAP_MS);
}

/**
 * Errors a long wait rides out: the network, timeouts, 408, 429, 5xx. A 404 or 401 ends the wait, and so does a
 * service that refused every connection before anything got through (a wrong base URL, not an outage).
 */
export function isTransient(error: unknown): boolean {
  if (error instanceof NetworkError) return !error.neverReached;
  return error instanceof ApiError && isRetryableStatus(error.status);
}

function hostingOf(backend: JobBackend): WaitHosting | undefined {
  const candidate = backend as Partial<WaitHosting>;
  return typeof candidate.hostWhileWaiting === 'function' ? (candidate as WaitHosting) : undefined;
}

function notifierOf(backend: JobBackend): ChangeNotifier | undefined {
  const candidate = backend as Partial<ChangeNotifier>;
  return typeof candidate.nextChange === 'function' ? (candidate as ChangeNotifier) : undefined;
}

/**
 * Poll a job's status until it is terminal and return the terminal status record. This is the one wait loop of
 * simjob, used for remote and local jobs alike. The job itself is never touched: stopping the wait (Ctrl-C,
 * timeout) leaves it running.
 */
export async function waitForTerminal(
  backend: JobBackend,
  id: string,
  options: WaitOptions = {},
): Promise<StatusRecord> {
  const handBack = await hostingOf(backend)?.hostWhileWaiting(id);
  try {
    return await pollToEnd(backend, id, options);
  } finally {
    await handBack?.();
  }
}

async function pollToEnd(backend: JobBackend, id: string, options: WaitOptions): Promise<StatusRecord> {
  const now = options.now ?? Date.now;
  const pause = options.sleep ?? sleep;
  const notifier = notifierOf(backend);
  const started = now();
  let delay = POLL_FLOOR_MS;
  let run: RunSample | undefined;
  let runningSince: number | undefined;
  let failingSince: number | undefined;
  let failures = 0;
  let last: StatusRecord | undefined;

  for (;;) {
    let status: StatusRecord | undefined;
    try {
      // One attempt per poll: this loop rides out failures itself, so the HTTP layer's retries would only add noise.
      status = (await backend.status(id, { once: true })).data;
      failures = 0;
      failingSince = undefined;
    } catch (error) {
      if (options.signal?.aborted) throw options.signal.reason;
      if (!isTransient(error)) throw error;
      failures += 1;
      failingSince ??= now();
      if (now() - failingSince > OUTAGE_LIMIT_MS) {
        throw Object.assign(error as Error, {
          hint: `Polling failed for ${Math.round(OUTAGE_LIMIT_MS / 60_000)} minutes in a row; the job is unaffected. Pick it up with: simjob status ${id} --wait`,
        });
      }
      delay = outageDelayMs(failures, error instanceof ApiError ? error.retryAfterMs : undefined);
      options.onTransientError?.(error as Error, delay, { failures, forMs: now() - failingSince });
    }

    if (status) {
      const t = now();
      last = status;
      options.onStatus?.(status, t - started);
      if (isTerminal(status.status)) return status;
      ({ run, runningSince } = trackRun(status, t, run, runningSince));
      delay = nextPollDelayMs(status, t, delay, run, runningSince);
    }

    if (options.timeoutMs !== undefined) {
      const left = options.timeoutMs - (now() - started);
      if (left <= 0) {
        throw new WaitTimeoutError(
          `Job ${id} is still ${last?.status ?? 'not finished'} after ${formatSeconds(options.timeoutMs)}.`,
          `It keeps running; pick it up with: simjob status ${id} --wait`,
        );
      }
      delay = Math.min(delay, left);
    }
    await nap(delay, options.signal, pause, notifier, id);
  }
}

/**
 * The wait after the `failures`-th poll failure in a row: 2 s doubling to OUTAGE_BACKOFF_CAP_MS. The service's
 * Retry-After wins over this schedule, even when it is longer than the cap.
 */
export function outageDelayMs(failures: number, retryAfterMs: number | undefined): number {
  if (retryAfterMs !== undefined) return Math.max(retryAfterMs, POLL_FLOOR_MS);
  return clamp(POLL_FLOOR_MS * 2 ** Math.min(failures, 16), POLL_FLOOR_MS, OUTAGE_BACKOFF_CAP_MS);
}

/** Reset the progress baseline when a run starts (again: a retried job goes back to the queue). */
function trackRun(status: StatusRecord, t: number, run: RunSample | undefined, runningSince: number | undefined) {
  if (status.status !== 'running')
    return { run: undefined, runningSince: status.status === 'starting' ? runningSince : undefined };
  const percent = status.progress?.percent;
  const since = runningSince ?? t;
  if (typeof percent !== 'number') return { run: undefined, runningSince: since };
  if (!run || percent < run.percent) return { run: { at: t, percent }, runningSince: since };
  return { run, runningSince: since };
}

async function nap(
  ms: number,
  signal: AbortSignal | undefined,
  pause: NonNullable<WaitOptions['sleep']>,
  notifier: ChangeNotifier | undefined,
  id: string,
): Promise<void> {
  if (!notifier) return pause(ms, signal);
  const local = new AbortController();
  const both = signal ? AbortSignal.any([signal, local.signal]) : local.signal;
  try {
    await Promise.race([pause(ms, both), notifier.nextChange(id, both)]);
  } finally {
    local.abort(NAP_OVER); // a reason of its own: the default one, a DOMException, is costly to make the first time
  }
  if (signal?.aborted) throw signal.reason;
}

/** Why a nap's own signal aborts: the nap is over (nobody reads it). */
const NAP_OVER = 'nap over';

function formatSeconds(ms: number): string {
  const s = Math.round(ms / 1000);
  return s < 120 ? `${s} s` : `${Math.round(s / 60)} min`;
}
