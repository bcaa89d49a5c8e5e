type StatKey = 'strength' | 'agility' | 'intellect' | 'crit' | 'haste' | 'mastery' | 'vers' | 'weapon_dps';

/**
 * The profile a stat-weights job runs, by either method:
 *   - profilesets: the character as the baseline, then one profileset per stat adding `amount` points of it with
 *     `enchant_<stat>=` (on top of what the profile already sets: the option replaces, so the sum is written);
 *   - scale: simc's own scale factors, `calculate_scale_factors=1` with `scale_only=` the chosen stats.
 * Both end with the target error that makes each weight precise enough (see precision.ts).
 */

type Method = 'profilesets' | 'scale';

interface CharacterInfo {
    name: string;
    className: string;
    spec: string | null;
}
interface StatWeight {
    stat: StatKey;
    label: string;
    /** DPS (the job's metric) per point of the stat. */
    weight: number;
    /** 95% half-width of `weight`. */
    error: number;
    /**
     * The weight divided by the normalising stat's weight (1 for that stat); null, every one, when that weight is not
     * measurably positive (see StatWeights.referenceWarning).
     */
    normalised: number | null;
    normalisedError: number | null;
    /** The points added to measure it. */
    amount: number;
}
interface StatWeights {
    character: CharacterInfo;
    method: Method;
    metric: string;
    /** The stat every weight is normalised to: the primary stat when it was weighed, else the first one. */
    normalisedTo: StatKey;
    weights: StatWeight[];
    /** Pairs of stats whose weights differ by less than the 95% error of the difference. */
    equalWithinError: Array<[StatKey, StatKey]>;
    pawn: string;
    /**
     * Set when the normalising stat's weight is ≤ 0 or within its 95% error of 0: dividing by it would print noise
     * (0.01 ± 0.98 gives 695.89 ± 55,979) or flip every sign, so no weight is normalised and this says why.
     */
    referenceWarning?: string;
    /** Scale factors: simc's report holds no per-weight error, so it is estimated (see fromScaleReport). */
    errorsEstimated: boolean;
}

/**
 * The records the library hands out, written as plain types so the package's .d.ts needs nothing else installed
 * (the zod schemas that check them, src/core/resources/schemas.ts, stay inside the bundle). Read leniently like the
 * schemas: every object keeps fields a newer service adds, and state-like fields are any string (the known ones
 * listed). `types-check.ts` proves each schema's type fits these, so they cannot drift apart unnoticed.
 */
/** Environment variables (process.env fits). */
type Environment = Record<string, string | undefined>;
/** `pending`, `queued`, `starting`, `running`, `completed`, `failed`, `cancelled`, `timed_out`, or a newer state. */
type JobState = string;
type Channel = 'nightly' | 'weekly' | 'latest';
type Priority = 'background' | 'standard' | 'high';
interface Ceiling {
    runtimeSeconds?: number | null;
    queueSeconds?: number | null;
    maxCredits?: number | null;
    [field: string]: unknown;
}
interface JobLinks {
    share?: string;
    manifest?: string | null;
    [field: string]: unknown;
}
interface SubmitWarning {
    kind: string;
    line?: number | null;
    requested?: number | string | null;
    applied?: number | string | null;
    message?: string | null;
    [field: string]: unknown;
}
/** What a submission answers (spec 2.2). */
interface SubmitResponse {
    success: boolean;
    id?: string | null;
    runtime?: {
        ceiling?: Ceiling | null;
        priorityFeeCredits?: number | null;
        [field: string]: unknown;
    } | null;
    links?: JobLinks | null;
    warnings?: SubmitWarning[] | null;
    deprecations?: Array<{
        field?: string | null;
        message?: string | null;
        [field: string]: unknown;
    }> | null;
    [field: string]: unknown;
}
/** A job (spec 2.3). */
interface JobRecord {
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
    build?: {
        id?: string | null;
        channel?: string | null;
        commit?: string | null;
        [field: string]: unknown;
    } | null;
    links?: JobLinks | null;
    [field: string]: unknown;
}
interface StageProgress {
    current?: number | null;
    total?: number | null;
    label?: string | null;
    percent?: number | null;
    [field: string]: unknown;
}
/** A job's status (what `wait` polls and hands its progress callback). */
interface StatusRecord {
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
    progress?: {
        percent?: number | null;
        stage?: StageProgress | null;
        [field: string]: unknown;
    } | null;
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
interface ProfilesetResult {
    name: string;
    mean: number;
    mean_error?: number | null;
    mean_stddev?: number | null;
    stage?: number | null;
    [field: string]: unknown;
}
interface MainActor {
    name: string;
    mean: number;
    mean_error?: number | null;
    mean_stddev?: number | null;
    profilesets?: {
        count: number;
        results: ProfilesetResult[];
        [field: string]: unknown;
    } | null;
    [field: string]: unknown;
}
interface MultiStageSummary {
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
interface ActorResult {
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
interface Summary {
    /** `dps` or `raid_dps`. */
    metric?: string | null;
    mainActor?: MainActor | null;
    multiStage?: MultiStageSummary | null;
    actors?: {
        count: number;
        results: ActorResult[];
        [field: string]: unknown;
    } | null;
    iterations?: number | null;
    [field: string]: unknown;
}
/** A file a job made: `json_report`, `html_report`, `csv`, `input`, `simc_log`, … */
interface Artifact {
    id: string;
    url: string;
    kind: string;
    mimeType?: string | null;
    stage?: number | null;
    [field: string]: unknown;
}
/** A finished job with its result (spec 2.4). */
interface ResultRecord extends JobRecord {
    result: {
        summary?: Summary | null;
        artifacts?: Artifact[] | null;
        [field: string]: unknown;
    };
}
interface CancelResponse {
    success?: boolean | null;
    id: string;
    /** `cancelled` (it had not started) or `cancel_requested` (it is being stopped). */
    status: string;
    cancelRequestedAt?: string | null;
    [field: string]: unknown;
}
interface JobListItem {
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
interface JobList {
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
interface Usage {
    period?: {
        [field: string]: unknown;
    } | null;
    snapshot?: {
        activeJobs?: number | null;
        queuedJobs?: number | null;
        runningJobs?: number | null;
        [field: string]: unknown;
    } | null;
    limits?: {
        [field: string]: unknown;
    } | null;
    plan?: {
        [field: string]: unknown;
    } | null;
    [field: string]: unknown;
}
/** A simc build (remote) or a simc binary local mode would run (local: also `path`, `source`, `versionLine`). */
interface Build {
    id: string;
    channel?: string | null;
    gitBranch?: string | null;
    repo?: string | null;
    commit?: string | null;
    createdAt?: string | null;
    simcVersion?: string | null;
    [field: string]: unknown;
}
interface BuildList {
    generatedAt?: string | null;
    builds: Build[];
    [field: string]: unknown;
}

interface RemoteClientOptions {
    /** The API root, e.g. `https://sim.example.com` (simjob adds `/v1/sim/…`). */
    baseUrl: string;
    apiKey: string;
    local?: false;
    /** Sent as User-Agent; default `simjob/<version> node/<version> (…)`. */
    userAgent?: string;
    /** Inactivity limit of one request (default 30 s). */
    timeoutMs?: number;
    /** Limit on one whole answer (default 2 min). */
    deadlineMs?: number;
    /** How long transient failures (no answer, 408, 429, 5xx) are retried (default 2 min). */
    retryBudgetMs?: number;
    /** Aborts every request of this client. */
    signal?: AbortSignal;
    /** Read for HTTPS_PROXY, HTTP_PROXY and NO_PROXY only; none by default (no proxy). */
    env?: Environment;
    /** Each retry of a transient failure, as one line ("Service unavailable (HTTP 503); retrying in 2 s …"). */
    onRetry?: (line: string) => void;
}
interface LocalClientOptions {
    local: true;
    /** The local store (jobs, queue, worker): one folder, shared with the CLI when it is the CLI's data dir. */
    dataDir: string;
    /** The simc to run; default `simc` on PATH. */
    simc?: string;
    /** How many jobs the background worker runs at once (default 1). */
    concurrency?: number;
    /**
     * The environment simc runs in, kept to the system's basics (PATH, HOME, LANG, …) and the names its
     * SIMJOB_SIMC_ENV lists, as the CLI does. Default: this process's, without any SIMJOB_ variable.
     */
    env?: Environment;
    /** Where local mode runs a profile differently from the service, and records skipped in a list: one line each. */
    onWarning?: (line: string) => void;
}
type ClientOptions = RemoteClientOptions | LocalClientOptions;
/** A submission: the profile text, and what the service's request may carry besides it (spec 2.1). */
interface SubmitOptions {
    /** The simc build channel (default `latest`). */
    channel?: Channel;
    priority?: Priority;
    /** String values; at most 20 entries and 1 KB in all. */
    metadata?: Record<string, string>;
    /** Run eligible profileset jobs in stages, culling the weak early (simc's own profileset workflow). */
    multistage?: boolean;
    maxRuntimeSeconds?: number;
    maxQueueSeconds?: number;
    maxCredits?: number;
    artifacts?: {
        html?: boolean;
        csv?: boolean;
        json?: {
            version: '2' | '3';
        };
    };
    /**
     * Reused on a retry so a retried submission never makes a second job. Remote: a fresh one per call unless given.
     * Local: recorded only when given (the same key and request later answer with the same job).
     */
    idempotencyKey?: string;
}
interface Submitted {
    id: string;
    /** The service answered with the job an earlier submission with this idempotency key made. */
    replay: boolean;
    response: SubmitResponse;
}
interface WaitOptions {
    /** Give up after this long: WaitTimeoutError (the job keeps running). Default: as long as it takes. */
    timeoutMs?: number;
    /** Stops the wait (it rejects with the signal's reason); the job keeps running. */
    signal?: AbortSignal;
    /** Every status read, the final one included. */
    onProgress?: (status: StatusRecord, elapsedMs: number) => void;
}
interface DownloadOptions {
    /** Replace a file already at the target (default: refuse, FileExists). */
    overwrite?: boolean;
    signal?: AbortSignal;
}
interface Client {
    readonly kind: 'remote' | 'local';
    /** Submit a simc profile; returns at once with the job's id. */
    submit(profile: string, options?: SubmitOptions): Promise<Submitted>;
    status(id: string): Promise<StatusRecord>;
    job(id: string): Promise<JobRecord>;
    /** Poll until the job ends; returns its last status. Polls slow down as the service's estimates allow. */
    wait(id: string, options?: WaitOptions): Promise<StatusRecord>;
    /**
     * The result of a job that has ended. A job that ended without one (cancelled while queued, say) is its job
     * record with an empty result. A job still running: ApiError with code `result_not_ready`.
     */
    result(id: string): Promise<ResultRecord>;
    /** submit, wait and result in one; a job that did not complete throws JobUnsuccessfulError. */
    run(profile: string, options?: SubmitOptions & WaitOptions): Promise<ResultRecord>;
    cancel(id: string): Promise<CancelResponse>;
    list(params?: {
        limit?: number;
        cursor?: string;
    }): Promise<JobList>;
    /** The files a finished job made (reports, logs, its input). */
    artifacts(id: string): Promise<Artifact[]>;
    /** Download one artifact of job `jobId` to `target` (written whole or not at all); returns the absolute path. */
    download(jobId: string, artifact: Artifact, target: string, options?: DownloadOptions): Promise<string>;
    builds(): Promise<BuildList>;
    usage(): Promise<Usage>;
    /**
     * The stat weights of a finished stat-weights job (planStatWeights), by either method: the scale method's factors
     * are read from the job's JSON report, downloaded for it. Undefined for another kind of job or one not completed.
     */
    statWeights(result: ResultRecord, options?: {
        signal?: AbortSignal;
    }): Promise<StatWeights | undefined>;
    /** Close pooled connections, so a short script ends at once (a long-lived bot never needs to). */
    close(): Promise<void>;
}
/** A client of the service (`{ baseUrl, apiKey }`) or of local simc runs (`{ local: true, dataDir }`). */
declare function createClient(options: ClientOptions): Client;
declare namespace createClient {
    var fromEnvironment: (options?: EnvironmentOptions) => Client;
}
interface EnvironmentOptions {
    local?: boolean;
    /** The config profile (as `--profile`); default SIMJOB_PROFILE or `default`. */
    profile?: string;
    /** Default process.env. */
    env?: Environment;
    onRetry?: (line: string) => void;
    onWarning?: (line: string) => void;
}
/** A client of local simc runs; the same as `createClient({ local: true, … })`. */
declare function createLocalClient(options: Omit<LocalClientOptions, 'local'> & {
    local?: true;
}): Client;

/**
 * The droptimizer's answer, read from a finished job alone (so `simjob result`, `--json` and `simjob report` give it
 * on any machine): the best upgrade, and per source (boss or dungeon) its best drop and how many of its drops are
 * upgrades, ranked. Each profileset's name says what it is: `<item> (<item level>) from <source> in <slot>`.
 */

interface DropResult {
    name: string;
    item: string;
    itemLevel: number | null;
    from: string;
    slot: string;
    mean: number;
    /** Against the equipped set: Δ, its 95% error, Δ %, and whether |Δ| is beyond the error. */
    delta: number;
    error: number | null;
    percent: number | null;
    significant: boolean | null;
}
interface SourceSummary {
    source: string;
    best: DropResult;
    /** Drops (items, whatever the slot) whose best slot beats what is worn beyond the error. */
    upgrades: number;
    /** Drops of this source that were simulated. */
    drops: number;
}
interface DroptimizerAnswer {
    /** upgrade: the best beats what is worn beyond the error; within_error: it beats it, but not beyond; none. */
    verdict: 'upgrade' | 'within_error' | 'none';
    best: DropResult | null;
    bySource: SourceSummary[];
    /** The summary lists the top N of more profilesets: the ranking covers those listed. */
    partial: boolean;
}

/**
 * The statistics behind "is this difference real?", shared by the result view and `simjob compare`.
 *
 * simc reports each mean with `mean_error`, the half-width of its 95% confidence interval (1.96 × the standard error
 * of the mean). Two sims run independently (their own seeds), so the standard error of the difference of their means
 * is sqrt(seA² + seB²), and the 95% half-width of the difference is
 *
 *     combined = sqrt(eA² + eB²)
 *
 * A difference is called significant when |Δ| > combined: a two-sided z-test at the 5% level (normal approximation,
 * which simc's iteration counts justify). Caveats: profilesets of one job are not independent of its baseline in
 * every setup (same seed), which makes this test conservative, never optimistic; and when many profilesets are
 * compared, about 1 in 20 "significant" results among equal ones is expected by chance.
 */
interface Estimate {
    mean: number;
    mean_error?: number | null;
}

/**
 * The answer of a top gear job (marked `metadata.kind = "topgear"`) in words, the same for `simjob result` and the
 * HTML report: what to equip, with the gain and its error; or that several combinations (or the equipped set) are
 * within the error of the best, which ones, and what would separate them; and, when the export had Great Vault
 * items, which one to take and what it is worth over the best without one.
 *
 * "Within the error" is the test of util/stats.ts: |Δ| ≤ the combined 95 % error of the two. Like Raidbots' Top
 * Gear, the ranking is never hidden; unlike a bare ranking, a tie is said to be one.
 */

interface Row extends Estimate {
    name: string;
}
interface TopGearAnswer {
    /** One sentence: "Equip …", "3 combinations are within the error of the best: …", "Keep what you wear: …". */
    headline: string;
    /** The combinations within the error of the best, the best first (empty when the best stands alone). */
    tied: Row[];
    /** What would separate a tie (a final stage at a lower target error, and the flag that runs it). */
    separate?: string;
    /** The Great Vault: which item to take and what it is worth over the best without a vault item. */
    vault?: string;
    /** The export had no checksum line: what was simmed is what it held, and nothing proved it whole. */
    unchecked?: string;
}

/**
 * What simjob knows about SimulationCraft, as functions of text and records: a /simc export in, a profile to submit
 * out; a finished job's result in, the answer out. Thin wrappers of src/domain/topgear, src/domain/droptimizer, src/domain/statweights
 * and src/domain/report, at the data level (the commands around them print and read files; these do neither). Each takes
 * and returns plain data and throws UsageError (bad input) or SimjobError, never anything printed.
 */

/** Who an export or profile is: for a reply's first line. */
interface CharacterSummary {
    name: string;
    className: string;
    spec: string | null;
}
/** A profile ready for `client.submit(profile.text, { metadata: profile.metadata })`. */
interface PlannedProfile {
    character: CharacterSummary;
    /** The simc profile: the equipped set as the baseline actor, one profileset per alternative. */
    text: string;
    /** Marks the job so `simjob result` and the answers below know what it is; pass it with the submission. */
    metadata: Record<string, string>;
    profilesets: number;
    /** What was left out and why, one phrase each. */
    leftOut: string[];
    /** What the export's reader noticed without refusing it (an edited text, no checksum line). */
    warnings: string[];
}
interface TopGearOptions {
    /** Slot groups that may change (`head`, `neck`, `finger`, `trinket`, `weapon`, …); default all. */
    slots?: string[];
    /** `all`: also try every saved talent loadout. Default `active`. */
    talents?: 'active' | 'all';
    /** Refuse plans of more combinations than this (default 1000), saying which slots would fit. */
    maxCombos?: number;
    targetError?: number;
}
/** Top gear: every combination of the export's equipped, bag and vault items, as one profileset profile. */
declare function planTopGear(exportText: string, options?: TopGearOptions): PlannedProfile;
/** What to equip, from a finished top gear job's result; undefined for another kind of job or one without DPS. */
declare function topGearAnswer(result: ResultRecord): TopGearAnswer | undefined;
/** The best drop and the best of each source, from a finished droptimizer job; undefined without DPS. */
declare function droptimizerAnswer(result: ResultRecord): DroptimizerAnswer | undefined;
interface StatWeightsOptions {
    /** `profilesets` (one profileset per stat, default) or `scale` (simc's scale factors). */
    method?: Method;
    /** Comma-separated, e.g. `primary,crit,haste,mastery,vers` (the default). */
    stats?: string;
    /** Points each profileset adds (profilesets method; default 300). */
    amount?: number;
    /** Default 0.05. */
    targetError?: number;
}
/** Stat weights: the profile that measures them, from a simc profile or a /simc export. */
declare function planStatWeights(text: string, options?: StatWeightsOptions): PlannedProfile;
/**
 * The weights of a finished stat-weights job run by the profilesets method, from its summary alone (no network).
 * The scale method's factors are in the job's JSON report: `client.statWeights(result)` downloads it. Undefined
 * for another kind of job, or a scale-method one.
 */
declare function statWeights(result: ResultRecord): StatWeights | undefined;
interface ComparedRow {
    /** The actor's name, or a profileset's. */
    name: string;
    kind: 'actor' | 'profileset';
    a: {
        mean: number;
        mean_error: number | null;
    } | null;
    b: {
        mean: number;
        mean_error: number | null;
    } | null;
    /** b − a, its percent of a, the 95 % error of the difference, and whether |Δ| is beyond it. */
    delta?: number;
    percent?: number;
    combinedError?: number;
    significant?: boolean;
}
/**
 * Two finished jobs side by side, as `simjob compare` pairs them: the main actor, then every profileset of the
 * summaries by name (A's ranking first, then those only B lists). A result without DPS: UsageError.
 */
declare function compareResults(a: ResultRecord, b: ResultRecord): ComparedRow[];
/**
 * simc's JSON report (`json2=`) read into a result summary, as simjob makes it for a local job: the main actor,
 * its profilesets ranked (the top 200, with their count), the metric. `profile`: the profile that made it, so the
 * main actor and metric are the ones it names (default: the report's first player, dps).
 */
declare function readReport(reportText: string, options?: {
    profile?: string;
}): Summary;

/** The values of droptimizer's --difficulty and --source, without the catalog's schema (program.ts loads this). */
declare const DIFFICULTIES: readonly ["lfr", "normal", "heroic", "mythic"];
type Difficulty = (typeof DIFFICULTIES)[number];
declare const SOURCE_KINDS: readonly ["raid", "dungeons", "vault"];
type SourceKind = (typeof SOURCE_KINDS)[number];

interface DroptimizerOptions {
    /** Raid or dungeon names (default: every raid, or every dungeon with `source: 'dungeons'`). */
    instances?: string[];
    source?: SourceKind;
    difficulty?: Difficulty;
    /** Mythic+ keystone level for dungeon drops. */
    keystone?: number;
    /** Sim the drops fully upgraded rather than as dropped. */
    upgraded?: boolean;
    /** A catalog file (simjob-droptimizer-catalog/1 JSON); default the one shipped with simjob. */
    catalog?: string;
}
/** Droptimizer: one profileset per drop of the chosen instances that fits one of the export's slots. */
declare function planDroptimizer(exportText: string, options?: DroptimizerOptions): Promise<PlannedProfile>;

/**
 * The error hierarchy and exit codes. Every failure a user can see is one of these; the CLI entry renders them in
 * one place (output/errors.ts) and exits with `exitCode`. Anything else is a bug and exits 1 with a bug hint.
 */
declare const ExitCode: {
    readonly OK: 0;
    /** API or network error, or any unexpected failure. */
    readonly ERROR: 1;
    /** Bad flag, argument, profile file or config value: fix the input and run again. */
    readonly USAGE: 2;
    /** A job it reports on ended unsuccessfully (failed, cancelled, timed_out). */
    readonly JOB_UNSUCCESSFUL: 3;
    /** API key missing or rejected. */
    readonly AUTH: 4;
    /** `--wait --timeout` ran out before the job finished. */
    readonly WAIT_TIMEOUT: 8;
    /** Interrupted with Ctrl-C. */
    readonly INTERRUPTED: 130;
};
type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];
/**
 * Every failure a user sees. The message and the fix are kept to one line each whatever they quote (a flag value,
 * a server's message, a file name): control characters, newlines included, are escaped here (`\x0a`).
 */
declare class SimjobError extends Error {
    readonly exitCode: ExitCode;
    /** The fix, printed after the message. */
    readonly hint: string | undefined;
    constructor(message: string, exitCode: ExitCode, hint?: string);
}
/** Bad input from the user: flags, arguments, profile files, config values. Exit 2. */
declare class UsageError extends SimjobError {
    constructor(message: string, hint?: string);
}
/** No API key, or the service refused it. Exit 4. */
declare class AuthError extends SimjobError {
    constructor(message: string, hint?: string);
}
interface ApiErrorDetails {
    status: number;
    code: string | undefined;
    meta: Record<string, unknown> | null;
    requestId: string | undefined;
    retryAfterMs: number | undefined;
    method: string;
    path: string;
}
/** A non-2xx answer from the service, carrying the envelope's fields. Exit 1 (4 for 401). */
declare class ApiError extends SimjobError {
    readonly status: number;
    readonly code: string | undefined;
    readonly meta: Record<string, unknown> | null;
    readonly requestId: string | undefined;
    readonly retryAfterMs: number | undefined;
    readonly method: string;
    readonly path: string;
    constructor(message: string, details: ApiErrorDetails, hint?: string);
}
/** The service could not be reached, or its answer could not be read. Exit 1. */
declare class NetworkError extends SimjobError {
    readonly neverReached: boolean;
    /**
     * @param neverReached every connection so far was refused or its host unknown: no request can have reached the
     *   service (nothing was submitted), and the address is wrong or the service not up, which a wait does not ride out.
     */
    constructor(message: string, hint?: string, neverReached?: boolean);
}
/** A job this command reports on ended failed, cancelled or timed_out. Exit 3. */
declare class JobUnsuccessfulError extends SimjobError {
    constructor(message: string, hint?: string);
}
/** `--timeout` ran out while waiting. Exit 8. */
declare class WaitTimeoutError extends SimjobError {
    constructor(message: string, hint?: string);
}
/** Ctrl-C. Exit 130. */
declare class InterruptedError extends SimjobError {
    constructor(message: string, hint?: string);
}
/** Local mode could not find or run simc, or its store is unusable. Exit 1 unless it is a usage problem. */
declare class LocalError extends SimjobError {
    constructor(message: string, hint?: string, exitCode?: ExitCode);
}

/** An existing file in the download folder, with neither --clobber nor --skip-existing. Exit 2. */
declare class FileExists extends UsageError {
    readonly path: string;
    constructor(path: string);
}

export { ApiError, AuthError, ExitCode, FileExists, InterruptedError, JobUnsuccessfulError, LocalError, NetworkError, SimjobError, UsageError, WaitTimeoutError, compareResults, createClient, createLocalClient, droptimizerAnswer, planDroptimizer, planStatWeights, planTopGear, readReport, statWeights, topGearAnswer };
export type { ActorResult, ApiErrorDetails, Artifact, Build, BuildList, CancelResponse, Ceiling, Channel, CharacterInfo, CharacterSummary, Client, ClientOptions, ComparedRow, DownloadOptions, DropResult, DroptimizerAnswer, DroptimizerOptions, Environment, EnvironmentOptions, JobLinks, JobList, JobListItem, JobRecord, JobState, LocalClientOptions, MainActor, MultiStageSummary, PlannedProfile, Priority, ProfilesetResult, RemoteClientOptions, ResultRecord, SourceSummary, StageProgress, StatWeight, StatWeights, StatWeightsOptions, StatusRecord, SubmitOptions, SubmitResponse, SubmitWarning, Submitted, Summary, TopGearAnswer, TopGearOptions, Usage, WaitOptions };
