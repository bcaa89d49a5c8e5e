/**
 * The job client of the library: one shape for the hosted service and for local simc runs, wrapping the backends
 * the CLI uses (api/remote.ts, local/backend.ts) behind plain options. It returns data and throws the errors of
 * src/errors.ts; it never writes to stdout or stderr, never reads process.argv, and reads the environment and
 * simjob's config only in `createClient.fromEnvironment`. Anything it would say (a retry, a submission's
 * differences from the service) goes to a callback the caller gives, or nowhere.
 */
import { isAbsolute, resolve } from 'node:path';
import { dataDir as defaultDataDir } from './config/paths.js';
import { Config } from './config/resolve.js';
import { JobUnsuccessfulError, UsageError } from '../errors.js';
import type { JobBackend } from './jobs/backend.js';
import { readOutcome } from './jobs/outcome.js';
import { checkIdempotencyKey, checkRequestShape, newIdempotencyKey } from './jobs/submission.js';
import { waitForTerminal } from './jobs/wait.js';
import type { LocalOptions, LocalSettings } from './local/options.js';
import { userAgent as simjobUserAgent } from '../version.js';
import type { ResultRecord as InnerResult, SubmitRequest } from './resources/schemas.js';
import type { StatWeights } from '../domain/statweights/weights.js';
import type {
  Artifact,
  BuildList,
  CancelResponse,
  Channel,
  Environment,
  JobList,
  JobRecord,
  Priority,
  ResultRecord,
  StatusRecord,
  SubmitResponse,
  Usage,
} from './resources/types.js';

export interface RemoteClientOptions {
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

export interface LocalClientOptions {
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

export type ClientOptions = RemoteClientOptions | LocalClientOptions;

/** A submission: the profile text, and what the service's request may carry besides it (spec 2.1). */
export interface SubmitOptions {
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
  artifacts?: { html?: boolean; csv?: boolean; json?: { version: '2' | '3' } };
  /**
   * Reused on a retry so a retried submission never makes a second job. Remote: a fresh one per call unless given.
   * Local: recorded only when given (the same key and request later answer with the same job).
   */
  idempotencyKey?: string;
}

export interface Submitted {
  id: string;
  /** The service answered with the job an earlier submission with this idempotency key made. */
  replay: boolean;
  response: SubmitResponse;
}

export interface WaitOptions {
  /** Give up after this long: WaitTimeoutError (the job keeps running). Default: as long as it takes. */
  timeoutMs?: number;
  /** Stops the wait (it rejects with the signal's reason); the job keeps running. */
  signal?: AbortSignal;
  /** Every status read, the final one included. */
  onProgress?: (status: StatusRecord, elapsedMs: number) => void;
}

export interface DownloadOptions {
  /** Replace a file already at the target (default: refuse, FileExists). */
  overwrite?: boolean;
  signal?: AbortSignal;
}

export interface Client {
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
  list(params?: { limit?: number; cursor?: string }): Promise<JobList>;
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
  statWeights(result: ResultRecord, options?: { signal?: AbortSignal }): Promise<StatWeights | undefined>;
  /** Close pooled connections, so a short script ends at once (a long-lived bot never needs to). */
  close(): Promise<void>;
}

/** A client of the service (`{ baseUrl, apiKey }`) or of local simc runs (`{ local: true, dataDir }`). */
export function createClient(options: ClientOptions): Client {
  return options.local ? createLocalClient(options) : new JobClient('remote', remoteBackend(options), options);
}

export interface EnvironmentOptions {
  local?: boolean;
  /** The config profile (as `--profile`); default SIMJOB_PROFILE or `default`. */
  profile?: string;
  /** Default process.env. */
  env?: Environment;
  onRetry?: (line: string) => void;
  onWarning?: (line: string) => void;
}

/**
 * A client set up as the CLI would be: base URL and key from SIMJOB_BASE_URL / SIMJOB_API_KEY or the stored
 * profile (`simjob login`), proxies from the environment; local mode with the CLI's data dir, simc and settings.
 */
createClient.fromEnvironment = function fromEnvironment(options: EnvironmentOptions = {}): Client {
  const env = options.env ?? process.env;
  const config = new Config(env, { profile: options.profile });
  if (options.local) {
    const workerEnv = options.profile ? { ...env, SIMJOB_PROFILE: config.profile } : env;
    const local: LocalOptions = {
      env,
      config,
      dataDir: defaultDataDir(env),
      workerEnv,
      warn: options.onWarning ?? (() => undefined),
    };
    return new JobClient('local', localBackend(local), {});
  }
  return createClient({
    baseUrl: config.baseUrl().value,
    apiKey: config.apiKey().value,
    env,
    ...(options.onRetry ? { onRetry: options.onRetry } : {}),
  });
};

/** A client of local simc runs; the same as `createClient({ local: true, … })`. */
export function createLocalClient(options: Omit<LocalClientOptions, 'local'> & { local?: true }): Client {
  if (typeof options.dataDir !== 'string' || options.dataDir === '')
    throw new UsageError('A local client needs a dataDir: the folder its jobs are kept in.');
  const dataDir = resolve(options.dataDir);
  const env = options.env ?? withoutSimjobVariables(process.env);
  const simc = options.simc === undefined ? undefined : isAbsolute(options.simc) ? options.simc : resolve(options.simc);
  const concurrency = options.concurrency ?? 1;
  if (!Number.isSafeInteger(concurrency) || concurrency < 1)
    throw new UsageError(`concurrency must be a whole number of jobs, 1 or more (got ${concurrency}).`);
  const settings: Record<string, string | number | undefined> = {
    'simc.path': simc,
    'local.concurrency': concurrency,
  };
  const config: LocalSettings = {
    profile: 'default',
    setting: (key) => settings[key],
    stringSetting: (key) => {
      const value = settings[key];
      return typeof value === 'string' && value !== '' ? value : undefined;
    },
    webhookSecret: () => undefined,
  };
  const local: LocalOptions = {
    env,
    config,
    dataDir,
    // The worker takes its data dir and concurrency from here, and no settings from the user's config.
    workerEnv: {
      ...env,
      SIMJOB_DATA_DIR: dataDir,
      SIMJOB_LOCAL_CONCURRENCY: String(concurrency),
      SIMJOB_CONFIG_DIR: resolve(dataDir, 'no-config'),
    },
    warn: options.onWarning ?? (() => undefined),
  };
  return new JobClient('local', localBackend(local), {});
}

function withoutSimjobVariables(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(env).filter(([name]) => !/^SIMJOB_/i.test(name)));
}

/** The backend, made on first use (its modules load then, as in the CLI). */
type LazyBackend = () => Promise<JobBackend>;

function remoteBackend(options: RemoteClientOptions): LazyBackend {
  if (typeof options.baseUrl !== 'string' || typeof options.apiKey !== 'string')
    throw new UsageError('A client of the service needs a baseUrl and an apiKey (or local: true for local runs).');
  let made: Promise<JobBackend> | undefined;
  return () =>
    (made ??= (async () => {
      const [{ parseServiceUrl }, { checkKey }, { RemoteBackend }] = await Promise.all([
        import('./config/keys.js'),
        import('./config/resolve.js'),
        import('./api/remote.js'),
      ]);
      return new RemoteBackend({
        baseUrl: parseServiceUrl(options.baseUrl, 'baseUrl'),
        apiKey: checkKey(options.apiKey, 'apiKey'),
        userAgent: options.userAgent ?? simjobUserAgent(),
        log: () => undefined,
        notice: options.onRetry ?? (() => undefined),
        env: options.env ?? {},
        ...(options.signal ? { signal: options.signal } : {}),
        ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
        ...(options.deadlineMs !== undefined ? { deadlineMs: options.deadlineMs } : {}),
        ...(options.retryBudgetMs !== undefined ? { retryBudgetMs: options.retryBudgetMs } : {}),
      });
    })());
}

function localBackend(options: LocalOptions): LazyBackend {
  let made: Promise<JobBackend> | undefined;
  return () => (made ??= import('./local/backend.js').then((m) => m.createLocalBackend(options)));
}

class JobClient implements Client {
  constructor(
    readonly kind: 'remote' | 'local',
    private readonly backend: LazyBackend,
    private readonly options: { userAgent?: string; env?: Environment },
  ) {}

  async submit(profile: string, options: SubmitOptions = {}): Promise<Submitted> {
    const request = submitRequest(profile, options);
    const backend = await this.backend();
    let idempotencyKey = options.idempotencyKey;
    if (idempotencyKey !== undefined) checkIdempotencyKey(idempotencyKey);
    if (backend.kind === 'remote') {
      await checkRequestShape(request);
      idempotencyKey ??= newIdempotencyKey();
    }
    const submitted = await backend.submit({
      request,
      plain: false,
      ...(idempotencyKey !== undefined ? { idempotencyKey } : {}),
    });
    const id = submitted.data.id;
    if (!id) throw new UsageError('The service accepted the job but gave no id.');
    return { id, replay: submitted.replay, response: submitted.data };
  }

  async status(id: string): Promise<StatusRecord> {
    return (await (await this.backend()).status(id)).data;
  }

  async job(id: string): Promise<JobRecord> {
    return (await (await this.backend()).job(id)).data;
  }

  async wait(id: string, options: WaitOptions = {}): Promise<StatusRecord> {
    return waitForTerminal(await this.backend(), id, {
      ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
      ...(options.onProgress ? { onStatus: options.onProgress } : {}),
    });
  }

  async result(id: string): Promise<ResultRecord> {
    return (await readOutcome(await this.backend(), id)).data;
  }

  async run(profile: string, options: SubmitOptions & WaitOptions = {}): Promise<ResultRecord> {
    const { id } = await this.submit(profile, options);
    const last = await this.wait(id, options);
    const record = await this.result(id);
    if (last.status !== 'completed' || record.status !== 'completed') {
      const why = record.errorCode
        ? ` (${record.errorCode}${record.statusReason ? `: ${record.statusReason}` : ''})`
        : '';
      throw new JobUnsuccessfulError(`Job ${id} ended ${record.status}${why}.`);
    }
    return record;
  }

  async cancel(id: string): Promise<CancelResponse> {
    return (await (await this.backend()).cancel(id)).data;
  }

  async list(params: { limit?: number; cursor?: string } = {}): Promise<JobList> {
    return (await (await this.backend()).list(params)).data;
  }

  async artifacts(id: string): Promise<Artifact[]> {
    return (await this.result(id)).result.artifacts ?? [];
  }

  async download(jobId: string, artifact: Artifact, target: string, options: DownloadOptions = {}): Promise<string> {
    const backend = await this.backend();
    const { downloadArtifact } = await import('./api/download.js');
    const path = resolve(target);
    await downloadArtifact(artifact, path, backend, {
      userAgent: this.options.userAgent ?? simjobUserAgent(),
      source: backend.artifactSource(jobId),
      label: `${artifact.kind} (${artifact.id})`,
      overwrite: Boolean(options.overwrite),
      signal: options.signal,
      env: this.options.env ?? {},
    });
    return path;
  }

  async builds(): Promise<BuildList> {
    return (await (await this.backend()).builds()).data;
  }

  async usage(): Promise<Usage> {
    return (await (await this.backend()).usage()).data;
  }

  async statWeights(result: ResultRecord, options: { signal?: AbortSignal } = {}): Promise<StatWeights | undefined> {
    const { loadStatWeights } = await import('./jobs/statweights.js');
    return loadStatWeights(await this.backend(), result as InnerResult, {
      env: this.options.env ?? {},
      ...(options.signal ? { signal: options.signal } : {}),
    });
  }

  async close(): Promise<void> {
    const { closeConnections } = await import('./api/connections.js');
    await closeConnections();
  }
}

function submitRequest(profile: string, options: SubmitOptions): SubmitRequest {
  if (typeof profile !== 'string' || profile.trim() === '') throw new UsageError('The profile to submit is empty.');
  const runtime = {
    ...(options.multistage ? { multiStage: true } : {}),
    ...(options.maxCredits !== undefined ? { maxCredits: options.maxCredits } : {}),
    ...(options.maxRuntimeSeconds !== undefined ? { maxRuntimeSeconds: options.maxRuntimeSeconds } : {}),
    ...(options.maxQueueSeconds !== undefined ? { maxQueueSeconds: options.maxQueueSeconds } : {}),
  };
  return {
    build: { channel: options.channel ?? 'latest' },
    profile: { text: profile },
    ...(Object.keys(runtime).length ? { runtime } : {}),
    ...(options.priority ? { priority: options.priority } : {}),
    ...(options.metadata ? { metadata: options.metadata } : {}),
    ...(options.artifacts ? { artifacts: options.artifacts } : {}),
  };
}
