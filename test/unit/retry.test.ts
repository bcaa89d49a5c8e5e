import { describe, expect, it } from 'vitest';
import { isRetryableStatus, parseRetryAfter, retryDelayMs, sleep } from '../../src/api/retry.js';

describe('retry policy', () => {
  it('retries 408, 429 and 5xx, nothing else', () => {
    for (const s of [408, 429, 500, 502, 503, 504]) expect(isRetryableStatus(s)).toBe(true);
    for (const s of [400, 401, 402, 404, 409, 410, 413, 422]) expect(isRetryableStatus(s)).toBe(false);
  });
  it('reads Retry-After as seconds or as an HTTP date', () => {
    expect(parseRetryAfter('7')).toBe(7000);
    expect(parseRetryAfter('0.5')).toBe(500);
    const now = Date.parse('2026-11-22T10:00:00Z');
    expect(parseRetryAfter('Sun, 22 Nov 2026 10:00:30 GMT', now)).toBe(30_000);
    expect(parseRetryAfter('soon')).toBeUndefined();
    expect(parseRetryAfter(undefined)).toBeUndefined();
  });
  it('uses the server\'s Retry-After when given', () => {
    expect(retryDelayMs(1, 4000)).toBe(4000);
  });
  it('backs off exponentially with jitter, capped', () => {
    expect(retryDelayMs(1, undefined, () => 0)).toBe(250);
    expect(retryDelayMs(1, undefined, () => 1)).toBe(500);
    expect(retryDelayMs(2, undefined, () => 1)).toBe(1000);
    expect(retryDelayMs(10, undefined, () => 1)).toBe(8000);
  });
  it('sleep ends early when the signal aborts', async () => {
    const controller = new AbortController();
    const started = Date.now();
    setTimeout(() => controller.abort(new Error('stop')), 20);
    await expect(sleep(5000, controller.signal)).rejects.toThrow('stop');
    expect(Date.now() - started).toBeLessThan(2000);
  });
});
