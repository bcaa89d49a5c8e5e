/** Shared types of the test server: options, accounts, jobs, recorded traffic. */

export const CHANNELS = ['nightly', 'weekly', 'latest'] as const;
export const PRIORITIES = ['background', 'standard', 'high'] as const;
export const TERMINAL = ['completed', 'failed', 'cancelled', 'timed_out'] as const;
export const OUTCOMES = [
  'completed',
  'failed',
  'simulation_error',
  'timed_out',
  'execution_failed',
  'retried',
] as const;

export type Channel = (typeof CHANNELS)[number];
export type Priority = (typeof PRIORITIES)[number];
export type TerminalState = (typeof TERMINAL)[number];
export type JobState = 'pending' | 'queued' | 'starting' | 'running' | TerminalState;
export type Outcome = (typeof OUTCOMES)[number];

export type ErrorCode =
  | 'execution_interrupted'
  | 'execution_timeout'
  | 'execution_failed'
  | 'build_unavailable'
  | 'simulation_error'
  | 'queue_timeout'
  | 'input_invalid'
  | 'insufficient_credits'
  | 'user_cancelled'
  | 'internal'
  | 'max_credits_reached';

/** Account limits of one client (API key). Every value can be set per key or for all keys. */
export interface AccountLimits {
  maxActiveJobs: number;
  maxRuntimeSeconds: number;
  maxQueueSeconds: number;
  /** Submissions (POST /v1/sim/jobs, replays included) per clock minute. */
  rateLimitPerMinute: number;
  /** Flat fee of a `high` job, in credits. */
  priorityFeeCredits: number;
  /** Available credit balance at start (purchased). */
  credits: number;
  /** Largest `runtime.maxCredits` (openapi 1.14+); by default maxRuntimeSeconds × 32 credits per second. */
  maxCreditsPerJob?: number;
  /** `maxSimcVariants` served by usage (null: no cap, the default). */
  maxSimcVariants?: number | null;
  /** Serve the deprecated seconds fields of usage as null, as a newer service may. */
  secondsFieldsNull?: boolean;
}

export interface WebhookConfig {
  /** Signing secret; its presence alone makes `webhook` submissions acceptable. */
  secret: string;
  /** When set, job.terminal events are POSTed here, signed (spec §6). */
  url?: string;
}

export interface ApiKeyConfig {
  key: string;
  /** The client's dashboard webhook configuration; absent → `webhook_not_configured`. */
  webhook?: WebhookConfig;
  limits?: Partial<AccountLimits>;
}

export interface ServerOptions {
  /** Valid keys, each its own client. Default `['sk_test_good']`. */
  apiKeys?: Array<string | ApiKeyConfig>;
  /** Keys answered with 401 `revoked_token`. Default `['sk_test_revoked']`. */
  revokedKeys?: string[];
  /** Keys answered with 401 `expired_token`. Default `['sk_test_expired']`. */
  expiredKeys?: string[];
  host?: string;
  /** API port; 0 (default) picks a free one. */
  port?: number;
  /** Artifact host port; 0 (default) picks a free one. */
  artifactPort?: number;
  /** Jobs that may be starting or running at once, across all clients. Default 4. */
  concurrency?: number;
  /** Clock ms a job spends `pending` before `queued`. Default 50. */
  pendingMs?: number;
  /** Least clock ms a job spends `queued` (provisioning) before it may start. Default 200. */
  queueMs?: number;
  /** Clock ms in `starting`. Default 50. */
  startingMs?: number;
  /** Clock ms in `running`. Default 1000. */
  runMs?: number;
  /** Clock ms between a cancel of a running job and its `cancelled` status. Default 100. */
  cancelDelayMs?: number;
  /** Clock speed: 10 makes every duration pass ten times faster. Default 1. */
  timeScale?: number;
  /** The clock moves only through `server.clock.advance(ms)`. */
  manualClock?: boolean;
  /** Limits for every key (a key's own `limits` win). */
  limits?: Partial<AccountLimits>;
  /** `retentionDays` of every job. Default 7. */
  retentionDays?: number;
  /** Artifact URLs answer 302 to the bytes' real location. */
  artifactRedirect?: boolean;
  /** Start with `setExtraFields(true)`. */
  extraFields?: boolean;
}

export interface Settings {
  concurrency: number;
  pendingMs: number;
  queueMs: number;
  startingMs: number;
  runMs: number;
  cancelDelayMs: number;
  retentionDays: number;
  artifactRedirect: boolean;
}

/** A submission after parsing, JSON or text/plain alike. */
export interface Submission {
  channel: Channel;
  gitBranch: 'midnight' | undefined;
  profileText: string;
  multiStage: boolean;
  maxRuntimeSeconds: number;
  /** The credit budget (openapi 1.14+): given, or maxRuntimeSeconds × 32. */
  maxCredits: number;
  /** The budget came as `runtime.maxCredits`: reaching it ends the job `max_credits_reached`, billed the budget. */
  creditBudget: boolean;
  maxQueueSeconds: number;
  priority: Priority;
  metadata: Record<string, string> | null;
  webhookEvents: string[];
  html: boolean;
  csv: boolean;
  jsonVersion: '2' | '3';
  /** Whether provider credentials came with it (the values are never kept). */
  credentials: boolean;
}

/** Per-job test knobs read from `metadata` (see index.ts). */
export interface JobPlan {
  queueMs: number;
  runMs: number;
  startingMs: number;
  outcome: Outcome;
  profilesets: number | undefined;
  artifactBytes: number | undefined;
  redirect: boolean;
}

export interface SubmitWarning {
  kind: 'iterations_clamped' | 'target_error_floored';
  line: number;
  requested: number;
  applied: number;
  message: string;
}

export interface ArtifactRecord {
  id: string;
  jobId: string;
  kind: string;
  mimeType: string;
  stage: number | null;
  filename: string;
}

export interface ProfilesetEntry {
  name: string;
  mean: number;
  mean_error: number;
  mean_stddev: number;
  stage: number;
}

export interface StageEntry {
  stage: number;
  label: string;
  profilesets: number;
  culled: number;
}

export interface ActorEntry {
  name: string;
  mean: number;
  mean_error: number;
  mean_stddev: number;
}

export interface Summary {
  metric: 'dps' | 'raid_dps';
  /** openapi 1.19.1: every actor of a `copy=` comparison without profilesets, best first. */
  actors?: { count: number; results: ActorEntry[] };
  mainActor: {
    name: string;
    mean: number;
    mean_error: number;
    mean_stddev: number;
    profilesets?: { count: number; results: ProfilesetEntry[] };
  } | null;
  multiStage: { enabled: boolean; reason: string; stages: StageEntry[] };
}

export interface JobResult {
  summary: Summary | null;
  /** All profilesets (the summary carries the top 200), for the JSON and CSV artifacts. */
  allProfilesets: ProfilesetEntry[];
  artifacts: ArtifactRecord[];
}

export interface Build {
  id: string;
  channel: Channel | null;
  gitBranch: string;
  repo: string;
  commit: string;
  createdAt: string;
  ci: { status: 'pass' | 'partial' | 'fail' | 'unknown'; failed: number; total: number; failures: string[] };
  manifest: string[];
}

export interface Job {
  id: string;
  /** Submission order across all clients. */
  seq: number;
  owner: string;
  submission: Submission;
  plan: JobPlan;
  /** Profile as run (clamped directives applied), for the `input` artifact. */
  inputText: string;
  warnings: SubmitWarning[];
  priorityFeeCredits: number;
  /** Credits held for this job until it settles. */
  reservedCredits: number;
  status: JobState;
  attempt: number;
  retried: boolean;
  createdAt: number;
  /** When this attempt entered the queue (the first attempt: submission time). */
  queuedAt: number;
  pendingUntil: number;
  /** Earliest start of this attempt (queuedAt + queue duration). */
  eligibleAt: number;
  startedAt: number | null;
  runningAt: number | null;
  completedAt: number | null;
  cancelRequestedAt: number | null;
  /** When a requested cancel of a started job takes effect. */
  cancelAt: number | null;
  /** Cancelled on request (not by the queue timeout): a repeated cancel answers 200 again. */
  userCancelled: boolean;
  updatedAt: number;
  errorCode: ErrorCode | null;
  statusReason: string | null;
  simcExitCode: string | null;
  simDurationMs: number | null;
  progressPercent: number | null;
  creditsConsumed: number | null;
  build: Build | null;
  result: JobResult | null;
  /** Retention ran out (clock or `expireRetention`). */
  expired: boolean;
  /** Job ids handed to webhook delivery already. */
  webhookSent: boolean;
}

export interface Validation {
  /** null: no schema covers it (unknown path, undocumented status). */
  valid: boolean | null;
  errors: string[];
}

export interface RecordedRequest {
  at: number;
  method: string;
  path: string;
  query: Record<string, string>;
  headers: Record<string, string | string[] | undefined>;
  /** Parsed JSON, the text of a text/plain body, or null when empty. */
  body: unknown;
  contentType: string | null;
  /** openapi operationId the request matched, or null. */
  operation: string | null;
  /** The request (security, parameters, body) against openapi 1.19.1. A text/plain submit is mapped to its JSON form. */
  validation: Validation;
  requestId: string;
  status?: number;
  /** The answer against the 1.19.1 response schema of that status (null when 1.19.1 has none, or extras are on). */
  responseValidation?: Validation;
  /** An injected fault answered it. */
  injected?: boolean;
}

export interface ArtifactRequest {
  at: number;
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  status?: number;
}

export interface WebhookDelivery {
  jobId: string;
  url: string;
  eventId: string;
  deliveryId: string;
  body: string;
  headers: Record<string, string>;
  status: number | null;
  error?: string;
}
