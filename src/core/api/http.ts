import type * as z from 'zod/mini';
import { ApiError, NetworkError } from '../../errors.js';
import type { ErrorEnvelope } from '../resources/schemas.js';
import { explainApiError } from './explain.js';
import { redactBody, redactHeaders } from './redact.js';
import { isRetryableStatus } from '../resources/enums.js';
import {
  DEFAULT_RETRY_BUDGET_MS,
  FIRST_CONTACT_TRIES,
  isConnectRefusal,
  isNotThere,
  parseRetryAfter,
  planRetry,
} from './retry.js';
import { sleep } from '../../util/sleep.js';
import { proxyFor, type ProxyInUse } from './proxy-env.js';
import { describeMs, exchange, type TextAnswer, type TransportError } from './transport.js';

export type DebugLevel = 0 | 1 | 2;

export interface HttpOptions {
  baseUrl: string;
  apiKey: string;
  userAgent: string;
  /** Per-request limit on waiting for headers and for each chunk of the body. */
  timeoutMs?: number;
  /** Per-request limit on the whole answer, headers and body (a trickling body still ends). */
  deadlineMs?: number;
  /** How long transient failures (no answer, 408, 429, 5xx) are retried, from the first attempt. */
  retryBudgetMs?: number;
  /**
   * The end of the command's own --timeout (epoch ms): no retry past it, whatever the budget, and no request runs
   * past it either (a trickling answer would otherwise hold the command to the per-request deadline).
   */
  retryUntil?: number;
  /** 1: one line per request and response; 2 (`SIMJOB_DEBUG=api`): also headers and bodies, redacted. */
  debug?: DebugLevel;
  /** Where debug lines go (stderr, through the output module, which scrubs secrets). */
  log: (line: string) => void;
  /** Where retry notices go (the output module's notices, which --quiet hides); `log` when not given. */
  notice?: (line: string) => void;
  signal?: AbortSignal;
  env?: NodeJS.ProcessEnv;
}

/** How a request may be repeated: reads always; a submission only because it carries an idempotency key. */
export type RetryMode = 'read' | 'idempotent' | 'never';

export interface CallOptions<T> {
  /** What a 2xx answer must match (a schema of schemas.ts). */
  schema: z.ZodMiniType<T>;
  query?: Record<string, string | number | boolean | undefined>;
  json?: unknown;
  text?: string;
  headers?: Record<string, string>;
  retry: RetryMode;
}

export interface ApiResponse<T> {
  data: T;
  /** The exact JSON the service sent, for --json output (validated, never reshaped). */
  raw: unknown;
  status: number;
  headers: Record<string, string | string[] | undefined>;
  requestId: string | undefined;
}

const DEFAULT_TIMEOUT_MS = 30_000;
const DEFAULT_DEADLINE_MS = 120_000;
/**
 * An API answer larger than this is refused. The largest the service sends is a result (its profileset summary
 * is cut to the top 200: ~20 KB) or a job record echoing a profile of up to 2 MB; a result listing 10,000
 * profilesets in full is ~1 MB (measured with the test server): 16 MB leaves ample headroom.
 */
export const MAX_ANSWER_BYTES = 16 * 1024 * 1024;
/** Error bodies are envelopes of a few hundred bytes; beyond this they are cut (the status explains them). */
export const MAX_ERROR_BYTES = 64 * 1024;
/** Failures of opening the connection: through a proxy, the connection is to the proxy, so the proxy is named. */
const CONNECT_FAILURES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'EPROXY']);

/**
 * The thin HTTP layer: `{base_url}/v1/sim/...`, Bearer auth, User-Agent, timeouts, retries, typed errors,
 * redacted debug logging. The API key is only ever sent to the base URL's origin.
 */
export class HttpClient {
  private readonly base: URL;
  private readonly proxy: ProxyInUse | undefined;
  /** Whether a request of this client may have got through: an answer came, or a connection was made (isNotThere). */
  private reached = false;

  constructor(private readonly opts: HttpOptions) {
    this.base = new URL(opts.baseUrl.endsWith('/') ? opts.baseUrl : `${opts.baseUrl}/`);
    this.proxy = proxyFor(this.base, opts.env ?? process.env);
  }

  get baseUrl(): string {
    return this.base.href;
  }

  url(path: string, query?: CallOptions<unknown>['query']): URL {
    const url = new URL(path.replace(/^\//, ''), this.base);
    for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined) url.searchParams.set(k, String(v));
    return url;
  }

  async call<T>(method: 'GET' | 'POST', path: string, options: CallOptions<T>): Promise<ApiResponse<T>> {
    const url = this.url(path, options.query);
    const headers: Record<string, string> = {
      accept: 'application/json',
      'user-agent': this.opts.userAgent,
      authorization: `Bearer ${this.opts.apiKey}`,
      ...options.headers,
    };
    let body: string | undefined;
    if (options.json !== undefined) {
      body = JSON.stringify(options.json);
      headers['content-type'] = 'application/json';
    } else if (options.text !== undefined) {
      body = options.text;
      headers['content-type'] = 'text/plain; charset=utf-8';
    }
    const deadlineMs = this.opts.deadlineMs ?? DEFAULT_DEADLINE_MS;
    const budgetMs = this.opts.retryBudgetMs ?? DEFAULT_RETRY_BUDGET_MS;
    const first = Date.now();
    const budgetEnds = Math.min(first + budgetMs, this.opts.retryUntil ?? Infinity);
    for (let attempt = 1; ; attempt++) {
      const started = Date.now();
      this.debugRequest(method, url, headers, options.json);
      let response: TextAnswer;
      try {
        // A retry gets only what is left of the budget (at least 1 s): a trickling server cannot stretch the command.
        const allowed = attempt === 1 ? deadlineMs : Math.max(1000, Math.min(deadlineMs, budgetEnds - started));
        const deadline = Math.max(1, Math.min(allowed, (this.opts.retryUntil ?? Infinity) - started));
        response = await this.exchange(method, url, headers, body, deadline);
      } catch (error) {
        if (this.opts.signal?.aborted) throw this.opts.signal.reason;
        if (error instanceof NetworkError) throw error;
        const waitMs = this.afterNoAnswer(error, url, { attempt, first, started, budgetEnds, retry: options.retry });
        await sleep(waitMs, this.opts.signal);
        continue;
      }
      this.reached = true;

      const requestId = header(response.headers, 'x-request-id');
      this.debugResponse(response.statusCode, Date.now() - started, requestId, response.headers, response.text);

      if (response.statusCode >= 200 && response.statusCode < 300) {
        return {
          ...(await this.parse(method, url, options, response.text, response.statusCode)),
          status: response.statusCode,
          headers: response.headers,
          requestId,
        };
      }

      const retryAfterMs = parseRetryAfter(response.headers['retry-after']);
      const error = await this.toApiError(method, url, response.statusCode, response.text, requestId, retryAfterMs);
      // Other 4xx answers will not change: stop at once.
      if (options.retry === 'never' || !isRetryableStatus(response.statusCode)) throw error;
      const plan = planRetry(attempt, retryAfterMs, budgetEnds - Date.now());
      if (plan.kind === 'retry_after_beyond_budget') {
        const at = new Date(Date.now() + plan.ms);
        throw new ApiError(
          `${error.message} That is longer than the retry budget of ${describeMs(budgetMs)}.`,
          error,
          `Try again after ${at.toTimeString().slice(0, 8)}.`,
        );
      }
      if (plan.kind === 'budget_spent') throw error;
      this.notice(`${transientReason(response.statusCode, error.code)}; retrying in ${describeWait(plan.ms)}…`);
      await sleep(plan.ms, this.opts.signal);
    }
  }

  /**
   * A request got no answer: how long to wait before trying again (after a notice saying so), or the error to stop
   * with. A connection the proxy would not take names the proxy, never its credentials.
   */
  private afterNoAnswer(
    error: unknown,
    url: URL,
    at: { attempt: number; first: number; started: number; budgetEnds: number; retry: RetryMode },
  ): number {
    const code = networkErrorCode(error) ?? '';
    const proxy = this.proxy && CONNECT_FAILURES.has(code) ? this.proxy : undefined;
    const failure = describeNetworkError(error, url, proxy?.hostname);
    this.debug(1, `← ${failure} after ${Date.now() - at.started} ms`);
    const notThere = isNotThere(code, this.reached);
    if (!isConnectRefusal(code)) this.reached = true; // a timeout or a reset: the request may have arrived
    const givenUp = at.retry === 'never' || (notThere && at.attempt >= FIRST_CONTACT_TRIES);
    const plan = givenUp ? undefined : planRetry(at.attempt, undefined, at.budgetEnds - Date.now());
    const where = proxy ? `the proxy ${proxy.host}` : url.origin;
    if (plan?.kind === 'wait') {
      this.notice(`Cannot reach ${where} (${failure}); retrying in ${describeWait(plan.ms)}…`);
      return plan.ms;
    }
    const tries = at.attempt > 1 ? ` (${at.attempt} attempts over ${describeMs(Date.now() - at.first)})` : '';
    throw unreachable(url, `${failure}${tries}`, proxy, notThere);
  }

  private notice(line: string): void {
    (this.opts.notice ?? this.opts.log)(line);
  }

  /** One request and its whole answer (bodyLimit). */
  private async exchange(
    method: string,
    url: URL,
    headers: Record<string, string>,
    body: string | undefined,
    deadlineMs: number,
  ) {
    const options = {
      method,
      headers,
      body,
      timeoutMs: this.opts.timeoutMs ?? DEFAULT_TIMEOUT_MS,
      deadlineMs,
      signal: this.opts.signal,
    };
    try {
      return await exchange(url, options, bodyLimit, this.opts.env);
    } catch (error) {
      if ((error as TransportError).code !== 'EBODYLIMIT') throw error;
      throw new NetworkError(
        `The service's answer to ${method} ${url.pathname} is larger than ${MAX_ANSWER_BYTES / 1024 / 1024} MB; simjob stopped reading it.`,
        'Check that the base URL points at the Simulation Job Service (`simjob config get base_url`).',
      );
    }
  }

  private async parse<T>(
    method: string,
    url: URL,
    options: CallOptions<T>,
    text: string,
    status: number,
  ): Promise<{ data: T; raw: unknown }> {
    let raw: unknown;
    try {
      raw = text === '' ? {} : JSON.parse(text);
    } catch {
      throw new NetworkError(
        `The service answered ${method} ${url.pathname} with ${status} but the body is not JSON.`,
        'Check that the base URL points at the Simulation Job Service.',
      );
    }
    const parsed = options.schema.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const where = issue?.path.length ? issue.path.join('.') : 'body';
      throw new NetworkError(
        `The service's answer to ${method} ${url.pathname} was not understood (${where}: ${issue?.message ?? 'invalid'}).`,
        'Check that the base URL points at the Simulation Job Service; run with --debug to see the answer.',
      );
    }
    return { data: parsed.data, raw };
  }

  private async toApiError(
    method: string,
    url: URL,
    status: number,
    text: string,
    requestId: string | undefined,
    retryAfterMs: number | undefined,
  ): Promise<ApiError> {
    let envelope: ErrorEnvelope = {};
    const envelopeSchema = (await import('../resources/schemas.js')).ErrorEnvelope;
    try {
      const parsed = envelopeSchema.safeParse(JSON.parse(text));
      if (parsed.success) envelope = parsed.data;
    } catch {
      // not JSON: a proxy or load balancer answered; status alone explains it
    }
    const details = {
      status,
      code: envelope.code ?? undefined,
      meta: (envelope.meta as Record<string, unknown> | null | undefined) ?? null,
      requestId: envelope.requestId ?? requestId,
      retryAfterMs,
      method,
      path: url.pathname,
    };
    const { message, hint } = explainApiError(
      { ...details, url: `${url.origin}${url.pathname}` },
      envelope.error ?? undefined,
    );
    return new ApiError(message, details, hint);
  }

  private debug(level: DebugLevel, line: string): void {
    if ((this.opts.debug ?? 0) >= level) this.opts.log(line);
  }

  private debugRequest(method: string, url: URL, headers: Record<string, string>, json: unknown): void {
    this.debug(
      1,
      `→ ${method} ${url.href}${this.proxy ? ` via the proxy ${this.proxy.host} (${this.proxy.variable})` : ''}`,
    );
    if ((this.opts.debug ?? 0) >= 2) {
      this.debug(2, `  headers ${JSON.stringify(redactHeaders(headers))}`);
      if (json !== undefined) this.debug(2, `  body ${JSON.stringify(redactBody(json))}`);
    }
  }

  private debugResponse(
    status: number,
    ms: number,
    requestId: string | undefined,
    headers: Record<string, unknown>,
    text: string,
  ): void {
    this.debug(1, `← ${status} in ${ms} ms${requestId ? ` (${requestId})` : ''}`);
    if ((this.opts.debug ?? 0) >= 2) {
      this.debug(2, `  headers ${JSON.stringify(redactHeaders(headers))}`);
      let shown: unknown = text.slice(0, 2000);
      try {
        shown = redactBody(JSON.parse(text));
      } catch {
        // keep the text
      }
      this.debug(2, `  body ${typeof shown === 'string' ? shown : JSON.stringify(shown)}`);
    }
  }
}

/** The error of a request that got no answer, `why` being its failure (and the attempts made). */
function unreachable(url: URL, why: string, proxy: ProxyInUse | undefined, notThere: boolean): NetworkError {
  if (proxy) {
    return new NetworkError(
      `Cannot reach the proxy ${proxy.host} (from ${proxy.variable}) on the way to ${url.origin}: ${why}.`,
      'Check HTTPS_PROXY / HTTP_PROXY, or list the host in NO_PROXY to go direct.',
      notThere,
    );
  }
  const check = notThere ? 'that the service is up' : 'your connection';
  return new NetworkError(
    `Cannot reach ${url.origin}: ${why}.`,
    `Check the base URL (\`simjob config get base_url\`) and ${check}, then try again.`,
    notThere,
  );
}

/** How much of an answer is read: a success body whole up to MAX_ANSWER_BYTES (else an error), an error body cut. */
function bodyLimit(status: number): { bytes: number; truncate: boolean } {
  const ok = status >= 200 && status < 300;
  return { bytes: ok ? MAX_ANSWER_BYTES : MAX_ERROR_BYTES, truncate: !ok };
}

/** The one-line notice printed before a wait; the server's code is shown only when it is a plain identifier. */
function transientReason(status: number, code: string | undefined): string {
  const shown = code && /^[a-z0-9_]{1,64}$/i.test(code) ? ` (${code})` : '';
  if (status === 429) return `Rate limited by the service${shown}`;
  if (status === 503) return `The service is unavailable${shown}`;
  return `The service answered HTTP ${status}${shown}`;
}

function describeWait(ms: number): string {
  return ms < 1000 ? `${ms} ms` : describeMs(ms);
}

export function header(headers: Record<string, string | string[] | undefined>, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** The system's or the transport's code of a failed request (ECONNREFUSED, …), on the error or its cause. */
function networkErrorCode(error: unknown): string | undefined {
  const err = error as NodeJS.ErrnoException & { cause?: NodeJS.ErrnoException };
  return err.code ?? err.cause?.code;
}

/** A failed request in a few words; `connectHost` is the host connected to (a proxy's), when not the URL's. */
export function describeNetworkError(error: unknown, url: URL, connectHost = url.hostname): string {
  const err = error as NodeJS.ErrnoException;
  switch (networkErrorCode(error)) {
    case 'ECONNREFUSED':
      return 'connection refused';
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `host ${connectHost} not found`;
    case 'ECONNRESET':
      return 'connection reset';
    case 'ETIMEDOUT':
      return 'the request timed out';
    case 'ECONNABORTED':
      return 'the connection closed unexpectedly';
    default:
      return err.message || String(error);
  }
}
