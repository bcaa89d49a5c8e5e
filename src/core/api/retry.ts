/**
 * When to try a request again, and how long to wait. Pure functions, so the policy is tested without a network.
 * Transient answers (no answer, 408, 429, 5xx) are retried while a budget of time lasts, not a count of attempts:
 * a maintenance window of a minute is waited out, a Retry-After beyond the budget is not. Reads (GET) are
 * retried; a submission only because it carries an idempotency key, so no retry can make a second job.
 * (Which statuses are transient is resources/enums.ts's isRetryableStatus, and the sleep is util/sleep.ts: the wait
 * loop and the local store use them too, without loading the API client this module is grouped with.)
 */
export const DEFAULT_RETRY_BUDGET_MS = 120_000;
const BASE_DELAY_MS = 500;
const MAX_BACKOFF_MS = 8_000;

/** `Retry-After` as seconds or an HTTP date; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | string[] | undefined, now = Date.now()): number | undefined {
  const text = Array.isArray(value) ? value[0] : value;
  if (!text) return undefined;
  if (/^\d+(\.\d+)?$/.test(text.trim())) return Math.round(Number(text) * 1000);
  const date = Date.parse(text);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** Exponential backoff with full jitter, or the server's Retry-After when it gave one. */
export function retryDelayMs(attempt: number, retryAfterMs: number | undefined, random = Math.random): number {
  if (retryAfterMs !== undefined) return retryAfterMs;
  const ceiling = Math.min(BASE_DELAY_MS * 2 ** (attempt - 1), MAX_BACKOFF_MS);
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}

export type RetryPlan =
  | { kind: 'wait'; ms: number }
  /** The server asked for a wait longer than the budget has left. */
  | { kind: 'retry_after_beyond_budget'; ms: number }
  | { kind: 'budget_spent' };

/**
 * After a transient failure of `attempt`, with `remainingMs` of the budget left: wait (the backoff, or the
 * server's Retry-After), or stop. A backoff longer than what is left is shortened to it, for one last try.
 */
export function planRetry(
  attempt: number,
  retryAfterMs: number | undefined,
  remainingMs: number,
  random = Math.random,
): RetryPlan {
  if (remainingMs <= 0) return { kind: 'budget_spent' };
  if (retryAfterMs !== undefined && retryAfterMs > remainingMs)
    return { kind: 'retry_after_beyond_budget', ms: retryAfterMs };
  return { kind: 'wait', ms: Math.min(retryDelayMs(attempt, retryAfterMs, random), remainingMs) };
}

/** A refused connection or an unknown host: no connection was made, so no request can have got through. */
export function isConnectRefusal(code: string | undefined): boolean {
  return code === 'ECONNREFUSED' || code === 'ENOTFOUND';
}

/**
 * Whether a failure means the service is not there: a refusal (isConnectRefusal) before this client ever got
 * through (`reached`: an answer came, or a connection was made). That is almost always a wrong base URL (or proxy) or
 * a service that is not up, not a passing fault: it gets FIRST_CONTACT_TRIES quick attempts, not the whole budget
 * (gh and the Stripe CLI fail at once). Once through, it is an outage like any other and is retried, so a submitted
 * job is never given up on early.
 */
export function isNotThere(code: string | undefined, reached: boolean): boolean {
  return !reached && isConnectRefusal(code);
}

/** One quick retry: a service restarting that moment is still reached. */
export const FIRST_CONTACT_TRIES = 2;
