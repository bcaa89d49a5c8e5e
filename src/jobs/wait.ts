import type { StatusRecord } from '../api/schemas.js';
import { sleep } from '../api/retry.js';
import { ApiError, NetworkError, WaitTimeoutError } from '../errors.js';
import type { JobBackend } from './backend.js';
import { isTerminal } from './states.js';

export interface WaitOptions {
  /** Give up after this long (WaitTimeoutError, exit 8). Undefined: wait as long as it takes. */
  timeoutMs?: number;
  signal?: AbortSignal;
  /** Called with every status read, and once more with the terminal one. */
  onStatus?: (status: StatusRecord, elapsedMs: number) => void;
  /** Called when a poll failed but the wait goes on (a transient network or server error). */
  onTransientError?: (error: Error, retryInMs: number) => void;
  now?: () => number;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

export const POLL_FLOOR_MS = 1_000;
export const POLL_CAP_MS = 15_000;
/** While a job runs, never poll slower than this near its end, so the end is noticed within 2 s. */
const RUNNING_CAP_MS = 2_000;

/**
 * How long to wait before the next poll. Adapts to the state and to the service's own estimates:
 * - waiting in the queue: half the ETA (`queue.estimatedStartSeconds`), between the floor and the cap;
 * - running with progress: a third of the remaining time projected from the progress so far, but never more than
 *   2 s once the end could be near;
 * - anything else: the floor, growing slowly.
 */
export function nextPollDelayMs(status: StatusRecord, runningSinceMs: number | undefined, now: number, previousDelay: number): number {
  const clamp = (ms: number, cap = POLL_CAP_MS) => Math.min(cap, Math.max(POLL_FLOOR_MS, Math.round(ms)));
  if (status.status === 'queued' || status.status === 'pending') {
    const eta = status.queue?.estimatedStartSeconds;
    if (typeof eta === 'number' && eta > 0) return clamp((eta * 1000) / 2);
    return clamp(previousDelay * 1.5, 5_000);
  }
  if (status.status === 'running' || status.status === 'starting') {
    const percent = status.progress?.percent;
    if (typeof percent === 'number' && percent > 0 && percent < 100 && runningSinceMs !== undefined) {
      const elapsed = now - runningSinceMs;
      const remaining = (elapsed * (100 - percent)) / percent;
      return remaining > 3 * POLL_CAP_MS ? clamp(remaining / 3) : clamp(remaining / 3, RUNNING_CAP_MS);
    }
    return RUNNING_CAP_MS;
  }
  // A state this client does not know: keep polling, calmly.
  return clamp(previousDelay * 1.5, 5_000);
}

/** Errors a long wait rides out: the network, timeouts, 408, 429, 5xx. A 404 or 401 ends the wait. */
function isTransient(error: unknown): boolean {
  if (error instanceof NetworkError) return true;
  return error instanceof ApiError && (error.status === 408 || error.status === 429 || error.status >= 500);
}

/**
 * Poll a job's status until it is terminal and return the terminal status record. This is the one wait loop of
 * simjob, used for remote and local jobs alike.
 */
export async function waitForTerminal(backend: JobBackend, id: string, options: WaitOptions = {}): Promise<StatusRecord> {
  const now = options.now ?? Date.now;
  const pause = options.sleep ?? sleep;
  const started = now();
  let delay = POLL_FLOOR_MS;
  let runningSince: number | undefined;
  let failures = 0;

  for (;;) {
    let status: StatusRecord | undefined;
    try {
      status = (await backend.status(id)).data;
      failures = 0;
    } catch (error) {
      if (options.signal?.aborted) throw options.signal.reason;
      if (!isTransient(error)) throw error;
      failures += 1;
      const retryAfter = error instanceof ApiError ? error.retryAfterMs : undefined;
      delay = Math.min(POLL_CAP_MS, retryAfter ?? POLL_FLOOR_MS * 2 ** Math.min(failures, 4));
      options.onTransientError?.(error as Error, delay);
    }

    if (status) {
      if ((status.status === 'running' || status.status === 'starting') && runningSince === undefined) runningSince = now();
      options.onStatus?.(status, now() - started);
      if (isTerminal(status.status)) return status;
      delay = nextPollDelayMs(status, runningSince, now(), delay);
    }

    if (options.timeoutMs !== undefined) {
      const left = options.timeoutMs - (now() - started);
      if (left <= 0) {
        throw new WaitTimeoutError(
          `Job ${id} is still ${status?.status ?? 'not finished'} after ${Math.round(options.timeoutMs / 1000)} s.`,
          `It keeps running; check it with: simjob status ${id}`,
        );
      }
      delay = Math.min(delay, left);
    }
    await pause(delay, options.signal);
  }
}
