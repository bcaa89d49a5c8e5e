/**
 * The local Simulation Job Service: the semantics of /work/shared/spec/service-interface.md (filled in by
 * service-notes.md and openapi 1.19.1) over real HTTP on 127.0.0.1, for every remote-mode test and bench.
 *
 *   const server = await startServer({ queueMs: 50, runMs: 200 });
 *   // point the client at server.url with key 'sk_test_good'; artifacts live on server.artifactUrl
 *   await server.close();
 *
 * Keys: `sk_test_good` (default valid key), `sk_test_revoked` → 401 revoked_token, `sk_test_expired` → 401
 * expired_token, anything else → invalid_token, no header → missing_token. Each valid key is its own client.
 *
 * Per-job test knobs, read from the submission's `metadata` (they are echoed back like any metadata; an unknown
 * `test.*` key or a bad value is a 400):
 *   test.queueMs       least clock ms queued before the job may start (default: options.queueMs)
 *   test.startingMs    clock ms in `starting` (default: options.startingMs)
 *   test.runMs         clock ms running (default: options.runMs)
 *   test.outcome       completed (default) | failed (execution_failed, logs kept) | execution_failed (no result:
 *                      /result answers 422) | simulation_error (simcExitCode "1", logs) | timed_out
 *                      (execution_timeout, logs) | retried (interrupted halfway, requeued with retried=true and a
 *                      new manifest link, then completes)
 *   test.profilesets   N profileset results to synthesize (default: the profile's profileset.* names)
 *   test.artifactBytes the json_report artifact is padded to exactly this many bytes (valid JSON, streamed in
 *                      64 KB chunks; for memory tests). GET {artifactUrl}/gen/{bytes} streams raw bytes too.
 *   test.redirect      true|false: artifact URLs answer 302 to the bytes (default: options.artifactRedirect)
 * A runtime over `runtime.maxRuntimeSeconds` ends `timed_out` / `execution_timeout` on its own.
 * A budget given as `runtime.maxCredits` (openapi 1.19.1) runs for the seconds it buys at 32 credits/s and ends
 * `timed_out` / `max_credits_reached`, billed the budget (the status is this server's choice: the spec names only the code).
 *
 * Where the spec is open, this server chooses (and the tests pin):
 *   - queue timeout → status `cancelled`, errorCode `queue_timeout`, startedAt null, /result 422.
 *   - `pending` lasts options.pendingMs, then `queued`; `starting` counts against capacity; startedAt is set on
 *     entering `starting`; the build is resolved then (null before).
 *   - `insufficient_credits_liability` is 402; body over 3 MB is 413 `payload_too_large`; failed schema checks,
 *     account maxima and bad query values are 400 `invalid_request` (bad list cursor: 400 `invalid_cursor`);
 *     unknown ids and paths 404 `not_found`; a known path with another method 405 `method_not_allowed`.
 *   - `armory=` without provider credentials is 422 `input_sanitized_rejected` (its line listed in `blocked`).
 *   - target_error=0 is SimC's "no target error", so it is not floored; only 0 < x < 0.01 is.
 *   - cancel: a job cancelled on request answers 200 `cancelled` again on repeat; other terminal jobs 409.
 *   - a job cancelled or timed out after it ran keeps a result with `summary: null` and its input and logs.
 *   - metadata: at most 20 entries and 1 KB in total (P-plain), besides 1.5.0's 500 characters per value.
 *   - runtime/queue defaults (300 s, 1800 s) are lowered to the account maxima when those are smaller.
 *   - rate-limit windows are clock minutes; `Retry-After` and `X-RateLimit-Reset` are in real time under a
 *     `timeScale` (what a client waits), in clock time with a manual clock (what a test advances).
 *   - status `progress` is always an object (1.5.0 makes it required): `{percent: null, stage: null}` before
 *     running; `queue` is null once the job left the queue.
 *   - after retention: /result has `artifacts: []`, artifact URL lookups 410 `artifact_expired`, the artifact
 *     host answers 404 for artifacts, share page and manifest, and the job leaves GET /v1/sim/jobs.
 */
import { Accounts, type Account } from './accounts.js';
import { ArtifactHost } from './artifacts.js';
import { ApiServer } from './api.js';
import { Clock } from './clock.js';
import type { ServerContext } from './context.js';
import { Engine } from './engine.js';
import { Faults, type Fault, type FaultSpec } from './faults.js';
import { statusRecord, type ViewContext } from './views.js';
import { deliver } from './webhooks.js';
import type {
  ArtifactRecord,
  ArtifactRequest,
  Job,
  JobState,
  RecordedRequest,
  ServerOptions,
  Settings,
  WebhookDelivery,
} from './types.js';

export type { FaultSpec, Fault } from './faults.js';
export type * from './types.js';
export { validateResponse, validateRequest } from './openapi.js';

export interface TestServer {
  /** API base URL, e.g. http://127.0.0.1:41234 (paths start with /v1/). */
  readonly url: string;
  /** Origin of the artifact host (artifact URLs, share pages, manifests). */
  readonly artifactUrl: string;
  /** Every API request, in order, with its openapi 1.19.1 check and the answer's. */
  readonly requests: RecordedRequest[];
  /** Every artifact-host request with its headers. */
  readonly artifactRequests: ArtifactRequest[];
  readonly webhookDeliveries: WebhookDelivery[];
  readonly jobs: Map<string, Job>;
  readonly clock: Clock;
  inject(spec: FaultSpec): Fault;
  /** Scripted answers for one method and path, one per request in order (e.g. 503, 503, 429, then the real one). */
  script(
    match: { method?: string; path: string | RegExp; target?: 'api' | 'artifacts' },
    answers: Array<Omit<FaultSpec, 'method' | 'path' | 'target' | 'times'>>,
  ): Fault[];
  clearFaults(): void;
  setExtraFields(on: boolean): void;
  /** Hostile mode: escape sequences and control characters in every string of every API answer, errors included. */
  setHostile(on: boolean, options?: { spare?: string[] }): void;
  /** End the retention window of a job now. */
  expireRetention(jobId: string): void;
  /** The client state of a key (credits, limits, webhook config) for a test to read or change. */
  account(key?: string): Account;
  revokeKey(key: string): void;
  expireKey(key: string): void;
  /** Resolve when the job reaches one of `states` (default: any terminal one); rejects after `timeoutMs` real ms. */
  waitForJob(jobId: string, states?: JobState[], timeoutMs?: number): Promise<Job>;
  close(): Promise<void>;
}

const TERMINAL: JobState[] = ['completed', 'failed', 'cancelled', 'timed_out'];

export async function startServer(options: ServerOptions = {}): Promise<TestServer> {
  const host = options.host ?? '127.0.0.1';
  const clock = new Clock(options.timeScale ?? 1, options.manualClock ?? false);
  const settings: Settings = {
    concurrency: options.concurrency ?? 4,
    pendingMs: options.pendingMs ?? 50,
    queueMs: options.queueMs ?? 200,
    startingMs: options.startingMs ?? 50,
    runMs: options.runMs ?? 1000,
    cancelDelayMs: options.cancelDelayMs ?? 100,
    retentionDays: options.retentionDays ?? 7,
    artifactRedirect: options.artifactRedirect ?? false,
  };
  const accounts = new Accounts(options);
  const registry = new Map<string, ArtifactRecord>();
  const webhookDeliveries: WebhookDelivery[] = [];
  const faults = new Faults();

  const onTerminal = (job: Job) => {
    for (const a of job.result?.artifacts ?? []) registry.set(a.id, a);
    const hook = accounts.get(job.owner).webhook;
    if (job.submission.webhookEvents.includes('job.terminal') && hook?.url && !job.webhookSent) {
      job.webhookSent = true;
      void deliver(job, hook, clock.iso(job.completedAt ?? clock.now()), webhookDeliveries);
    }
  };
  const engine = new Engine(clock, settings, accounts, onTerminal);
  const views: ViewContext = { clock, engine, artifactUrl: '', retentionDays: settings.retentionDays };
  const ctx: ServerContext = {
    accounts,
    engine,
    clock,
    settings,
    registry,
    views,
    extras: { on: options.extraFields ?? false },
    hostile: { on: false, spare: new Set() },
  };

  const api = new ApiServer(ctx, faults);
  const host2 = new ArtifactHost({ engine, faults, registry, shareState: (job) => statusRecord(views, job, false) });
  await api.listen(host, options.port ?? 0);
  await host2.listen(host, options.artifactPort ?? 0);
  views.artifactUrl = host2.url;

  return {
    url: api.url,
    artifactUrl: host2.url,
    requests: api.requests,
    artifactRequests: host2.requests,
    webhookDeliveries,
    jobs: engine.jobs,
    clock,
    inject: (spec) => faults.add(spec),
    script: (match, answers) => faults.script(match, answers),
    clearFaults: () => faults.clear(),
    setExtraFields: (on) => {
      ctx.extras.on = on;
    },
    setHostile: (on, options) => {
      ctx.hostile = { on, spare: new Set(options?.spare ?? []) };
    },
    expireRetention: (jobId) => {
      const job = engine.jobs.get(jobId);
      if (!job) throw new Error(`no job ${jobId}`);
      job.expired = true;
    },
    account: (key = 'sk_test_good') => accounts.get(key),
    revokeKey: (key) => accounts.revoke(key),
    expireKey: (key) => accounts.expire(key),
    waitForJob: async (jobId, states = TERMINAL, timeoutMs = 10_000) => {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        engine.advance();
        const job = engine.jobs.get(jobId);
        if (job && states.includes(job.status)) return job;
        if (Date.now() > deadline)
          throw new Error(
            `job ${jobId} is ${job?.status ?? 'unknown'}, not ${states.join('|')}, after ${timeoutMs} ms`,
          );
        await new Promise((r) => setTimeout(r, 10));
      }
    },
    close: async () => {
      engine.close();
      await Promise.all(
        [api.server, host2.server].map((s) => {
          s.closeAllConnections();
          return new Promise<void>((resolve) => s.close(() => resolve()));
        }),
      );
    },
  };
}
