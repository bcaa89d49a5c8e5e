/**
 * zod schemas of every resource the service exchanges (spec §2, notes §2–§15, reference/openapi-*.json).
 *
 * What we send is checked strictly, before sending: the service rejects unknown keys, so do we.
 * What we receive is read leniently: objects keep fields a newer server adds, and enum-like fields accept any
 * string (a new job state or artifact kind must never crash the CLI), so known values are documented as TS types.
 * zod/mini, the smaller build of zod, for start-up's sake (docs/performance.md). Each schema is built on first use
 * (`lazy`): a command reads one or two.
 */
import * as z from 'zod/mini';
import {
  CHANNELS,
  ERROR_CODES,
  GIT_BRANCHES,
  JSON_VERSIONS,
  PRIORITIES,
  WEBHOOK_EVENTS,
  type ARTIFACT_KINDS,
  type Channel,
  type JobState,
  type MultiStageReason,
  type Open,
  type Priority,
  type TerminalState,
} from './enums.js';

export * from './enums.js';

// ---------------------------------------------------------------------------------------------------------------
// A submission's bounds (spec 2.1, notes §9): the schema below is built from them, and submit's own checks
// (jobs/submission.ts), which say in a user's words what is wrong, read the same constants.

export const MAX_PROFILE_BYTES = 2 * 1024 * 1024;
export const MAX_METADATA_VALUE = 500;
export const MAX_METADATA_ENTRIES = 20;
/** All metadata together, as JSON. */
export const MAX_METADATA_BYTES = 1024;
/** 1-255 printable ASCII characters, no leading or trailing space. */
export const IDEMPOTENCY_KEY = /^[\x21-\x7E](?:[\x20-\x7E]{0,253}[\x21-\x7E])?$/;
/** Provider credentials: each 1-256 characters. */
export const MAX_CREDENTIAL_LENGTH = 256;

// Enumerations live in enums.ts, re-exported here.

/**
 * The schema `build` makes, built the first time anything reads it: a stand-in with the schema's own type, so
 * `StatusRecord.safeParse(…)`, `z.safeParse(ResultRecord, …)` and nesting in other schemas work as on the schema.
 */
function lazy<T extends object>(build: () => T): T {
  let schema: T | undefined;
  const built = () => (schema ??= build());
  return new Proxy({} as T, {
    get: (_, key) => Reflect.get(built(), key),
    set: (_, key, value) => Reflect.set(built(), key, value),
    has: (_, key) => Reflect.has(built(), key),
    ownKeys: () => Reflect.ownKeys(built()),
    // Reported configurable: the stand-in itself has none of these properties (a proxy invariant).
    getOwnPropertyDescriptor: (_, key) => {
      const descriptor = Reflect.getOwnPropertyDescriptor(built(), key);
      return descriptor && { ...descriptor, configurable: true };
    },
    defineProperty: (_, key, descriptor) => Reflect.defineProperty(built(), key, descriptor),
    deleteProperty: (_, key) => Reflect.deleteProperty(built(), key),
    getPrototypeOf: () => Reflect.getPrototypeOf(built()),
  });
}

const open = <T extends string>() => z.string() as unknown as z.ZodMiniType<Open<T>>;
const nstr = z.nullish(z.string());
const nnum = z.nullish(z.number());

// ---------------------------------------------------------------------------------------------------------------
// Submission request (spec 2.1): strict

export const SubmitRequest = lazy(() =>
  z.strictObject({
    build: z.strictObject({
      channel: z.enum(CHANNELS),
      gitBranch: z.optional(z.enum(GIT_BRANCHES)),
    }),
    profile: z.strictObject({
      text: z.string().check(
        z.minLength(1),
        z.refine((text) => Buffer.byteLength(text) <= MAX_PROFILE_BYTES, `at most ${MAX_PROFILE_BYTES} bytes`),
      ),
    }),
    runtime: z.optional(
      z.strictObject({
        multiStage: z.optional(z.boolean()),
        maxRuntimeSeconds: z.optional(z.int().check(z.positive())),
        maxQueueSeconds: z.optional(z.int().check(z.positive())),
        /** openapi 1.14+: the job's credit budget (replaces maxRuntimeSeconds, which it must not be sent with). */
        maxCredits: z.optional(z.int().check(z.positive())),
      }),
    ),
    priority: z.optional(z.enum(PRIORITIES)),
    metadata: z.optional(
      z.record(z.string(), z.string().check(z.maxLength(MAX_METADATA_VALUE))).check(
        z.refine((all) => Object.keys(all).length <= MAX_METADATA_ENTRIES, `${MAX_METADATA_ENTRIES} entries at most`),
        z.refine(
          (all) => Buffer.byteLength(JSON.stringify(all)) <= MAX_METADATA_BYTES,
          `${MAX_METADATA_BYTES} B in all`,
        ),
      ),
    ),
    credentials: z.optional(
      z.strictObject({
        providerClientId: z.string().check(z.minLength(1), z.maxLength(MAX_CREDENTIAL_LENGTH)),
        providerClientSecret: z.string().check(z.minLength(1), z.maxLength(MAX_CREDENTIAL_LENGTH)),
      }),
    ),
    webhook: z.optional(z.strictObject({ events: z.array(z.enum(WEBHOOK_EVENTS)).check(z.minLength(1)) })),
    artifacts: z.optional(
      z.strictObject({
        html: z.optional(z.boolean()),
        csv: z.optional(z.boolean()),
        json: z.optional(z.strictObject({ version: z.enum(JSON_VERSIONS) })),
      }),
    ),
  }),
);
export type SubmitRequest = z.infer<typeof SubmitRequest>;

// ---------------------------------------------------------------------------------------------------------------
// Shared pieces of responses

const Ceiling = lazy(() => z.looseObject({ runtimeSeconds: nnum, queueSeconds: nnum, maxCredits: nnum }));

export const JobLinks = lazy(() => z.looseObject({ share: z.optional(z.string()), manifest: nstr }));

export const SubmitWarning = lazy(() =>
  z.looseObject({
    kind: z.string(),
    line: nnum,
    requested: z.nullish(z.union([z.number(), z.string()])),
    applied: z.nullish(z.union([z.number(), z.string()])),
    message: nstr,
  }),
);
export type SubmitWarning = z.infer<typeof SubmitWarning>;

/** Spec 2.2. */
export const SubmitResponse = lazy(() =>
  z.looseObject({
    success: z.boolean(),
    id: nstr,
    runtime: z.nullish(z.looseObject({ ceiling: z.nullish(Ceiling), priorityFeeCredits: nnum })),
    links: z.nullish(JobLinks),
    warnings: z.nullish(z.array(SubmitWarning)),
    deprecations: z.nullish(z.array(z.looseObject({ field: nstr, message: nstr, docsUrl: nstr }))),
  }),
);
export type SubmitResponse = z.infer<typeof SubmitResponse>;

export const BuildSummary = lazy(() =>
  z.looseObject({
    id: nstr,
    channel: z.nullish(open<Channel>()),
    commit: nstr,
    ci: z.nullish(z.looseObject({ status: nstr, failed: nnum })),
  }),
);

/** Spec 2.3 (GET /v1/sim/jobs/{id}). `status` may be any of the 8 states, or a newer one. */
export const JobRecord = lazy(() =>
  z.looseObject({
    id: z.string(),
    status: open<JobState>(),
    priority: z.nullish(open<Priority>()),
    createdAt: nstr,
    startedAt: nstr,
    completedAt: nstr,
    cancelRequestedAt: nstr,
    errorCode: z.nullish(open<(typeof ERROR_CODES)[number]>()),
    statusReason: nstr,
    simcExitCode: z.nullish(z.union([z.string(), z.number()])),
    retentionDays: nnum,
    metadata: z.nullish(z.record(z.string(), z.unknown())),
    runtime: z.nullish(
      z.looseObject({
        simDurationMs: nnum,
        totalDurationMs: nnum,
        creditsConsumed: nnum,
        priorityFeeCredits: nnum,
        creditsPerSecond: nnum,
        vcpus: nnum,
        ceiling: z.nullish(Ceiling),
      }),
    ),
    retried: z.nullish(z.boolean()),
    build: z.nullish(BuildSummary),
    links: z.nullish(JobLinks),
  }),
);
export type JobRecord = z.infer<typeof JobRecord>;

// ---------------------------------------------------------------------------------------------------------------
// Status record (notes §8)

export const StageProgress = lazy(() => z.looseObject({ current: nnum, total: nnum, label: nstr, percent: nnum }));
export type StageProgress = z.infer<typeof StageProgress>;

export const StatusRecord = lazy(() =>
  z.looseObject({
    status: open<JobState>(),
    errorCode: nstr,
    statusReason: nstr,
    simcExitCode: z.nullish(z.union([z.string(), z.number()])),
    queue: z.nullish(z.looseObject({ queuedAt: nstr, estimatedStartSeconds: nnum, estimatedStartUpdatedAt: nstr })),
    progress: z.nullish(z.looseObject({ percent: nnum, stage: z.nullish(StageProgress) })),
    logEntries: z.nullish(z.array(z.looseObject({ source: nstr, message: nstr, ts: nnum }))),
    startedAt: nstr,
    updatedAt: nstr,
    retried: z.nullish(z.boolean()),
  }),
);
export type StatusRecord = z.infer<typeof StatusRecord>;

// ---------------------------------------------------------------------------------------------------------------
// Result (spec 2.4)

export const ProfilesetResult = lazy(() =>
  z.looseObject({
    name: z.string(),
    mean: z.number(),
    mean_error: nnum,
    mean_stddev: nnum,
    stage: nnum,
  }),
);
export type ProfilesetResult = z.infer<typeof ProfilesetResult>;

export const MainActor = lazy(() =>
  z.looseObject({
    name: z.string(),
    mean: z.number(),
    mean_error: nnum,
    mean_stddev: nnum,
    profilesets: z.nullish(z.looseObject({ count: z.number(), results: z.array(ProfilesetResult) })),
  }),
);
export type MainActor = z.infer<typeof MainActor>;

export const StageEntry = lazy(() =>
  z.looseObject({ stage: z.number(), label: nstr, profilesets: nnum, culled: nnum }),
);
export type StageEntry = z.infer<typeof StageEntry>;

export const MultiStageSummary = lazy(() =>
  z.looseObject({
    enabled: z.boolean(),
    reason: z.nullish(open<MultiStageReason>()),
    stages: z.nullish(z.array(StageEntry)),
  }),
);
export type MultiStageSummary = z.infer<typeof MultiStageSummary>;

/** One actor of a multi-actor (`copy=`) comparison (openapi 1.19.1 `summary.actors.results[]`). */
export const ActorResult = lazy(() =>
  z.looseObject({
    name: z.string(),
    mean: z.number(),
    mean_error: nnum,
    mean_stddev: nnum,
    stddev: z.optional(nnum),
    min: z.optional(nnum),
    max: z.optional(nnum),
  }),
);
export type ActorResult = z.infer<typeof ActorResult>;

export const Summary = lazy(() =>
  z.looseObject({
    /** `dps` or `raid_dps` (openapi 1.19.1); any newer string is kept. */
    metric: z.nullish(z.string()),
    mainActor: z.nullish(MainActor),
    multiStage: z.nullish(MultiStageSummary),
    actors: z.nullish(z.looseObject({ count: z.number(), results: z.array(ActorResult) })),
    iterations: nnum,
    /** simjob's own: true when the numbers came from the stand-in simc (test/fake-simc), not a simulation. */
    synthetic: z.optional(z.boolean()),
  }),
);
export type Summary = z.infer<typeof Summary>;

export const Artifact = lazy(() =>
  z.looseObject({
    id: z.string(),
    url: z.string(),
    kind: open<(typeof ARTIFACT_KINDS)[number]>(),
    mimeType: nstr,
    stage: nnum,
  }),
);
export type Artifact = z.infer<typeof Artifact>;

export const ResultRecord = lazy(() =>
  z.extend(JobRecord, {
    result: z.looseObject({
      summary: z.nullish(Summary),
      artifacts: z.nullish(z.array(Artifact)),
    }),
  }),
);
export type ResultRecord = z.infer<typeof ResultRecord>;

// ---------------------------------------------------------------------------------------------------------------
// Other endpoints

/** POST /v1/sim/jobs/{id}/cancel (notes §2.7). */
export const CancelResponse = lazy(() =>
  z.looseObject({
    success: z.nullish(z.boolean()),
    id: z.string(),
    status: open<'cancelled' | 'cancel_requested'>(),
    cancelRequestedAt: nstr,
  }),
);
export type CancelResponse = z.infer<typeof CancelResponse>;

/** GET /v1/sim/jobs (notes §2.5). */
export const JobListItem = lazy(() =>
  z.looseObject({
    id: z.string(),
    status: open<JobState>(),
    createdAt: nstr,
    completedAt: nstr,
    errorCode: nstr,
    metadata: z.nullish(z.record(z.string(), z.unknown())),
    buildId: nstr,
    links: z.nullish(JobLinks),
  }),
);
export type JobListItem = z.infer<typeof JobListItem>;

export const JobList = lazy(() =>
  z.looseObject({
    jobs: z.array(JobListItem),
    page: z.nullish(z.looseObject({ limit: nnum, hasMore: z.nullish(z.boolean()), nextCursor: nstr, since: nstr })),
  }),
);
export type JobList = z.infer<typeof JobList>;

/** GET /v1/sim/artifacts/{id}/url. */
export const ArtifactUrl = lazy(() => z.looseObject({ url: z.string() }));

/** GET /v1/sim/usage (notes §12): `plan` (openapi 1.14+) and its deprecated alias `limits`. */
const Limits = lazy(() =>
  z.looseObject({
    maxActiveJobs: nnum,
    maxCreditsPerJob: nnum,
    defaultCreditsPerJob: nnum,
    creditsPerSecond: nnum,
    pool: nstr,
    maxRuntimeSeconds: nnum,
    defaultRuntimeSeconds: nnum,
    maxQueueSeconds: nnum,
    defaultQueueSeconds: nnum,
    vcpuPerJob: nnum,
    maxSimcVariants: nnum,
    priorityFeeCredits: z.nullish(z.looseObject({ high: nnum })),
  }),
);
export const Usage = lazy(() =>
  z.looseObject({
    period: z.nullish(
      z.looseObject({
        start: nstr,
        end: nstr,
        simsRun: nnum,
        avgRuntimeSeconds: nnum,
        readsUsed: nnum,
        readsLimit: nnum,
        readsCapResetAt: nstr,
      }),
    ),
    snapshot: z.nullish(z.looseObject({ activeJobs: nnum, queuedJobs: nnum, runningJobs: nnum })),
    limits: z.nullish(Limits),
    plan: z.nullish(Limits),
  }),
);
export type Usage = z.infer<typeof Usage>;

/** GET /v1/sim/builds/{id} and list items (notes §11). */
export const Build = lazy(() =>
  z.looseObject({
    id: z.string(),
    channel: z.nullish(open<Channel>()),
    gitBranch: nstr,
    repo: nstr,
    commit: nstr,
    createdAt: nstr,
    simcVersion: nstr,
    ci: z.nullish(
      z.looseObject({
        status: nstr,
        checks: z.nullish(z.looseObject({ total: nnum, passed: nnum, failed: nnum })),
        failures: z.nullish(z.array(z.string())),
        gatedOn: z.nullish(z.array(z.string())),
        retrievedAt: nstr,
      }),
    ),
    profiles: z.nullish(z.looseObject({ manifest: z.nullish(z.array(z.string())) })),
  }),
);
export type Build = z.infer<typeof Build>;

export const BuildList = lazy(() => z.looseObject({ generatedAt: nstr, builds: z.array(Build) }));
export type BuildList = z.infer<typeof BuildList>;

/** The error envelope of every non-2xx answer (notes §3). Read leniently: a proxy may answer with HTML. */
export const ErrorEnvelope = lazy(() =>
  z.looseObject({
    error: nstr,
    code: nstr,
    meta: z.nullish(z.record(z.string(), z.unknown())),
    requestId: nstr,
  }),
);
export type ErrorEnvelope = z.infer<typeof ErrorEnvelope>;

/** Webhook body (spec 6.3). */
export const WebhookEvent = lazy(() =>
  z.looseObject({
    kind: z.string(),
    version: z.string(),
    timestamp: z.string(),
    payload: z.looseObject({ id: z.string(), status: open<TerminalState>(), statusReason: nstr }),
  }),
);
export type WebhookEvent = z.infer<typeof WebhookEvent>;
