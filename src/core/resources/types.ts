/**
 * The records the library hands out, written as plain types so the package's .d.ts needs nothing else installed
 * (the zod schemas that check them, src/core/resources/schemas.ts, stay inside the bundle). Read leniently like the
 * schemas: every object keeps fields a newer service adds, and state-like fields are any string (the known ones
 * listed). `types-check.ts` proves each schema's type fits these, so they cannot drift apart unnoticed.
 */

/** Environment variables (process.env fits). */
export type Environment = Record<string, string | undefined>;

/** `pending`, `queued`, `starting`, `running`, `completed`, `failed`, `cancelled`, `timed_out`, or a newer state. */
export type JobState = string;
export type Channel = 'nightly' | 'weekly' | 'latest';
export type Priority = 'background' | 'standard' | 'high';

export interface Ceiling {
  runtimeSeconds?: number | null;
  queueSeconds?: number | null;
  maxCredits?: number | null;
  [field: string]: unknown;
}

export interface JobLinks {
  share?: string;
  manifest?: string | null;
  [field: string]: unknown;
}

export interface SubmitWarning {
  kind: string;
  line?: number | null;
  requested?: number | string | null;
  applied?: number | string | null;
  message?: string | null;
  [field: string]: unknown;
}

/** What a submission answers (spec 2.2). */
export interface SubmitResponse {
  success: boolean;
  id?: string | null;
  runtime?: { ceiling?: Ceiling | null; priorityFeeCredits?: number | null; [field: string]: unknown } | null;
  links?: JobLinks | null;
  warnings?: SubmitWarning[] | null;
  deprecations?: Array<{ field?: string | null; message?: string | null; [field: string]: unknown }> | null;
  [field: string]: unknown;
}

/** A job (spec 2.3). */
export interface JobRecord {
  id: string;
  status: JobState;
  priority?: string | null;
  createdAt?: string | null;
  startedAt?: string | null;
  completedAt?: string | null;
  cancelRequestedAt?: string | null;
  errorCode?: string | null;
  statusReason?: string | null;
  simcExitCode?: string | number | null;
  retentionDays?: number | null;
  metadata?: Record<string, unknown> | null;
  runtime?: {
    simDurationMs?: number | null;
    totalDurationMs?: number | null;
    creditsConsumed?: number | null;
    priorityFeeCredits?: number | null;
    creditsPerSecond?: number | null;
    vcpus?: number | null;
    ceiling?: Ceiling | null;
    [field: string]: unknown;
  } | null;
  retried?: boolean | null;
  build?: { id?: string | null; channel?: string | null; commit?: string | null; [field: string]: unknown } | null;
  links?: JobLinks | null;
  [field: string]: unknown;
}

export interface StageProgress {
  current?: number | null;
  total?: number | null;
  label?: string | null;
  percent?: number | null;
  [field: string]: unknown;
}

/** A job's status (what `wait` polls and hands its progress callback). */
export interface StatusRecord {
  status: JobState;
  errorCode?: string | null;
  statusReason?: string | null;
  simcExitCode?: string | number | null;
  queue?: {
    queuedAt?: string | null;
    estimatedStartSeconds?: number | null;
    estimatedStartUpdatedAt?: string | null;
    [field: string]: unknown;
  } | null;
  progress?: { percent?: number | null; stage?: StageProgress | null; [field: string]: unknown } | null;
  logEntries?: Array<{
    source?: string | null;
    message?: string | null;
    ts?: number | null;
    [field: string]: unknown;
  }> | null;
  startedAt?: string | null;
  updatedAt?: string | null;
  retried?: boolean | null;
  [field: string]: unknown;
}

/** A mean with its 95 % error (half-width), as simc reports it. */
export interface ProfilesetResult {
  name: string;
  mean: number;
  mean_error?: number | null;
  mean_stddev?: number | null;
  stage?: number | null;
  [field: string]: unknown;
}

export interface MainActor {
  name: string;
  mean: number;
  mean_error?: number | null;
  mean_stddev?: number | null;
  profilesets?: { count: number; results: ProfilesetResult[]; [field: string]: unknown } | null;
  [field: string]: unknown;
}

export interface MultiStageSummary {
  enabled: boolean;
  reason?: string | null;
  stages?: Array<{
    stage: number;
    label?: string | null;
    profilesets?: number | null;
    culled?: number | null;
    [field: string]: unknown;
  }> | null;
  [field: string]: unknown;
}

export interface ActorResult {
  name: string;
  mean: number;
  mean_error?: number | null;
  mean_stddev?: number | null;
  stddev?: number | null;
  min?: number | null;
  max?: number | null;
  [field: string]: unknown;
}

/** What a sim measured: the main actor and its profilesets, or each actor of a `copy=` comparison. */
export interface Summary {
  /** `dps` or `raid_dps`. */
  metric?: string | null;
  mainActor?: MainActor | null;
  multiStage?: MultiStageSummary | null;
  actors?: { count: number; results: ActorResult[]; [field: string]: unknown } | null;
  iterations?: number | null;
  [field: string]: unknown;
}

/** A file a job made: `json_report`, `html_report`, `csv`, `input`, `simc_log`, … */
export interface Artifact {
  id: string;
  url: string;
  kind: string;
  mimeType?: string | null;
  stage?: number | null;
  [field: string]: unknown;
}

/** A finished job with its result (spec 2.4). */
export interface ResultRecord extends JobRecord {
  result: { summary?: Summary | null; artifacts?: Artifact[] | null; [field: string]: unknown };
}

export interface CancelResponse {
  success?: boolean | null;
  id: string;
  /** `cancelled` (it had not started) or `cancel_requested` (it is being stopped). */
  status: string;
  cancelRequestedAt?: string | null;
  [field: string]: unknown;
}

export interface JobListItem {
  id: string;
  status: JobState;
  createdAt?: string | null;
  completedAt?: string | null;
  errorCode?: string | null;
  metadata?: Record<string, unknown> | null;
  buildId?: string | null;
  links?: JobLinks | null;
  [field: string]: unknown;
}

export interface JobList {
  jobs: JobListItem[];
  page?: {
    limit?: number | null;
    hasMore?: boolean | null;
    nextCursor?: string | null;
    since?: string | null;
    [field: string]: unknown;
  } | null;
  [field: string]: unknown;
}

/** The account's use (remote) or what is queued and running (local: no period, no limits). */
export interface Usage {
  period?: { [field: string]: unknown } | null;
  snapshot?: {
    activeJobs?: number | null;
    queuedJobs?: number | null;
    runningJobs?: number | null;
    [field: string]: unknown;
  } | null;
  limits?: { [field: string]: unknown } | null;
  plan?: { [field: string]: unknown } | null;
  [field: string]: unknown;
}

/** A simc build (remote) or a simc binary local mode would run (local: also `path`, `source`, `versionLine`). */
export interface Build {
  id: string;
  channel?: string | null;
  gitBranch?: string | null;
  repo?: string | null;
  commit?: string | null;
  createdAt?: string | null;
  simcVersion?: string | null;
  [field: string]: unknown;
}

export interface BuildList {
  generatedAt?: string | null;
  builds: Build[];
  [field: string]: unknown;
}
