/**
 * Clients: one per API key (notes §1: the key is the identity that scopes idempotency, job lists, limits and
 * credits). Bearer authentication, the per-minute submission window and the credit balance live here.
 */
import type { Clock } from './clock.js';
import { ApiFailure, single } from './http.js';
import type { AccountLimits, ApiKeyConfig, ServerOptions, WebhookConfig } from './types.js';

export const DEFAULT_LIMITS: AccountLimits = {
  maxActiveJobs: 100,
  maxRuntimeSeconds: 3600,
  maxQueueSeconds: 3600,
  rateLimitPerMinute: 600,
  priorityFeeCredits: 320,
  credits: 10_000_000,
};
export const DEFAULT_RUNTIME_SECONDS = 300;
export const DEFAULT_QUEUE_SECONDS = 1800;
export const VCPUS = 32;
/** The basis rate of openapi 1.14+: a second of simc costs 32 credits (one per vCPU). */
export const CREDITS_PER_SECOND = VCPUS;

export interface IdempotencyEntry {
  digest: string;
  jobId: string;
  body: unknown;
}

export class Account {
  readonly limits: AccountLimits;
  /** Spendable balance: purchased credits minus what is reserved and charged. */
  available: number;
  reserved = 0;
  readonly idempotency = new Map<string, IdempotencyEntry>();
  windowStart = 0;
  windowCount = 0;
  readsUsed = 0;

  constructor(
    readonly key: string,
    public webhook: WebhookConfig | undefined,
    limits: AccountLimits,
  ) {
    this.limits = { ...limits };
    this.available = limits.credits;
  }

  /** Count one submission in the current clock minute; 429 `rate_limit_exceeded` when it is spent. */
  takeSubmission(clock: Clock): void {
    this.rollWindow(clock.now());
    if (this.windowCount >= this.limits.rateLimitPerMinute) {
      throw new ApiFailure(
        429,
        'rate_limit_exceeded',
        'Too many job submissions this minute.',
        { scope: 'developer' },
        {
          'retry-after': String(clock.secondsUntil(this.windowStart + 60_000)),
        },
      );
    }
    this.windowCount++;
  }

  rateHeaders(clock: Clock): Record<string, string> {
    this.rollWindow(clock.now());
    return {
      'x-ratelimit-limit': String(this.limits.rateLimitPerMinute),
      'x-ratelimit-remaining': String(Math.max(0, this.limits.rateLimitPerMinute - this.windowCount)),
      'x-ratelimit-reset': String(clock.epochSecondsAt(this.windowStart + 60_000)),
    };
  }

  private rollWindow(now: number): void {
    const start = Math.floor(now / 60_000) * 60_000;
    if (start !== this.windowStart) {
      this.windowStart = start;
      this.windowCount = 0;
    }
  }

  /** Hold `credits` for a job; the caller checked affordability. */
  reserve(credits: number): void {
    this.available -= credits;
    this.reserved += credits;
  }

  /** Release a job's hold and charge what it used. */
  settle(reservedCredits: number, charged: number): void {
    this.reserved -= reservedCredits;
    this.available += reservedCredits - charged;
  }
}

export class Accounts {
  private readonly accounts = new Map<string, Account>();
  private readonly revoked: Set<string>;
  private readonly expired: Set<string>;

  constructor(options: ServerOptions) {
    const base = { ...DEFAULT_LIMITS, ...options.limits };
    for (const entry of options.apiKeys ?? ['sk_test_good']) {
      const cfg: ApiKeyConfig = typeof entry === 'string' ? { key: entry } : entry;
      this.accounts.set(cfg.key, new Account(cfg.key, cfg.webhook, { ...base, ...cfg.limits }));
    }
    this.revoked = new Set(options.revokedKeys ?? ['sk_test_revoked']);
    this.expired = new Set(options.expiredKeys ?? ['sk_test_expired']);
  }

  get(key: string): Account {
    const account = this.accounts.get(key);
    if (!account) throw new Error(`no API key ${key} on this server`);
    return account;
  }

  all(): Account[] {
    return [...this.accounts.values()];
  }

  revoke(key: string): void {
    this.revoked.add(key);
  }

  expire(key: string): void {
    this.expired.add(key);
  }

  /** `Authorization: Bearer <key>` → the client, or 401 with the notes §1 codes. */
  authenticate(header: string | string[] | undefined): Account {
    const value = single(header);
    if (!value || !value.trim()) throw new ApiFailure(401, 'missing_token', 'Missing Authorization header.');
    const m = /^Bearer\s+(\S+)\s*$/i.exec(value);
    if (!m) throw new ApiFailure(401, 'invalid_token', 'Authorization must be "Bearer <secret key>".');
    const key = m[1] ?? '';
    if (this.revoked.has(key)) throw new ApiFailure(401, 'revoked_token', 'This API key has been revoked.');
    if (this.expired.has(key)) throw new ApiFailure(401, 'expired_token', 'This API key has expired.');
    const account = this.accounts.get(key);
    if (!account) throw new ApiFailure(401, 'invalid_token', 'Invalid API key.');
    return account;
  }
}
