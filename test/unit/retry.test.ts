import { describe, expect, it } from 'vitest';
import { remoteUrlProblem } from '../../src/core/api/download.js';
import { isRetryableStatus } from '../../src/core/resources/enums.js';
import {
  FIRST_CONTACT_TRIES,
  isConnectRefusal,
  isNotThere,
  parseRetryAfter,
  planRetry,
  retryDelayMs,
} from '../../src/core/api/retry.js';
import { sleep } from '../../src/util/sleep.js';

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
  it("uses the server's Retry-After when given", () => {
    expect(retryDelayMs(1, 4000)).toBe(4000);
  });
  it('backs off exponentially with jitter, capped', () => {
    expect(retryDelayMs(1, undefined, () => 0)).toBe(250);
    expect(retryDelayMs(1, undefined, () => 1)).toBe(500);
    expect(retryDelayMs(2, undefined, () => 1)).toBe(1000);
    expect(retryDelayMs(10, undefined, () => 1)).toBe(8000);
  });
  it('waits while the budget lasts, shortening the last backoff to what is left', () => {
    expect(planRetry(1, undefined, 120_000, () => 1)).toEqual({ kind: 'wait', ms: 500 });
    expect(planRetry(10, undefined, 3000, () => 1)).toEqual({ kind: 'wait', ms: 3000 });
    expect(planRetry(2, 1000, 120_000)).toEqual({ kind: 'wait', ms: 1000 });
    expect(planRetry(2, undefined, 0)).toEqual({ kind: 'budget_spent' });
  });
  it('does not wait out a Retry-After beyond the budget', () => {
    expect(planRetry(1, 3_600_000, 120_000)).toEqual({ kind: 'retry_after_beyond_budget', ms: 3_600_000 });
  });
  it('sleep ends early when the signal aborts', async () => {
    const controller = new AbortController();
    const started = Date.now();
    setTimeout(() => controller.abort(new Error('stop')), 20);
    await expect(sleep(5000, controller.signal)).rejects.toThrow('stop');
    expect(Date.now() - started).toBeLessThan(2000);
  });
  it('a refused connection or an unknown host fails fast only before the service has answered at all', () => {
    expect(FIRST_CONTACT_TRIES).toBe(2);
    expect(isConnectRefusal('ECONNREFUSED') && isConnectRefusal('ENOTFOUND') && !isConnectRefusal('ECONNRESET')).toBe(
      true,
    );
    expect(isNotThere('ECONNREFUSED', false)).toBe(true);
    expect(isNotThere('ENOTFOUND', false)).toBe(true);
    // once reached, the same failure is an outage, retried through the budget (a submitted job is never given up early)
    expect(isNotThere('ECONNREFUSED', true)).toBe(false);
    // passing faults keep the whole budget even on first contact
    for (const code of ['ECONNRESET', 'ETIMEDOUT', 'EAI_AGAIN', 'UND_ERR_SOCKET', undefined])
      expect(isNotThere(code, false)).toBe(false);
  });
});

describe('remote artifact URL rules', () => {
  const https = 'https://api.example.com';
  const loopback = 'http://127.0.0.1:8080';
  it('takes https: always', () => {
    expect(remoteUrlProblem(new URL('https://cdn.example.com/a.json'), https)).toBeUndefined();
    expect(remoteUrlProblem(new URL('https://cdn.example.com/a.json'), loopback)).toBeUndefined();
  });
  it('takes http: only on loopback, when the base URL is http: on loopback too', () => {
    expect(remoteUrlProblem(new URL('http://127.0.0.1:9/a'), loopback)).toBeUndefined();
    expect(remoteUrlProblem(new URL('http://localhost:9/a'), 'http://localhost:1')).toBeUndefined();
    expect(remoteUrlProblem(new URL('http://[::1]:9/a'), 'http://[::1]:1')).toBeUndefined();
    expect(remoteUrlProblem(new URL('http://cdn.example.com/a'), loopback)).toMatch(/plain http: to cdn\.example\.com/);
    expect(remoteUrlProblem(new URL('http://127.0.0.1:9/a'), https)).toMatch(/plain http:/);
    expect(remoteUrlProblem(new URL('http://127.0.0.1:9/a'), 'http://api.example.com')).toMatch(/plain http:/);
  });
  it('refuses every other scheme', () => {
    for (const url of ['file:///etc/passwd', 'ftp://example.com/a', 'data:text/plain,hi', 'gopher://x/']) {
      expect(remoteUrlProblem(new URL(url), loopback)).toMatch(
        /URL, and a remote job's artifacts are fetched over https: only/,
      );
    }
  });
});
