/**
 * When to try a request again, and how long to wait. Pure functions, so the policy is tested without a network.
 * Reads (GET) are retried on network errors, 408, 429 and 5xx; a submission only with its idempotency key.
 */
export const MAX_ATTEMPTS = 3;
/** A Retry-After beyond this is not waited out: the command fails and says when to try again. */
export const RETRY_AFTER_CAP_MS = 60_000;
const BASE_DELAY_MS = 500;
const MAX_BACKOFF_MS = 8_000;

export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 429 || status >= 500;
}

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

/** Sleep that an AbortSignal (Ctrl-C) ends early. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
