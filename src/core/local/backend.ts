/**
 * The local backend: the JobBackend of jobs run on this machine by the user's simc. Same records, states, errors
 * and artifacts as the service (records.ts), so commands, scripts and `--json` readers cannot tell the
 * difference except by the `local-` id prefix and the file: URLs.
 */
import { promises as fs, watch } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ArtifactSource } from '../api/download.js';
import type {
  Build,
  BuildList,
  CancelResponse,
  JobList,
  JobRecord,
  ResultRecord,
  StatusRecord,
  SubmitRequest,
  Usage,
} from '../resources/schemas.js';
import type { LocalOptions } from './options.js';
import { ApiError, ExitCode, LocalError, UsageError } from '../../errors.js';
import type { Fetched, JobBackend, ListParams, SubmitInput, Submitted } from '../jobs/backend.js';
import { isActive, isTerminal, isWaiting } from '../jobs/states.js';
import type { ChangeNotifier, WaitHosting } from '../jobs/wait.js';
import { localConcurrency } from './claim.js';
import { QueueHost } from './host.js';
import { recoverJob, superviseLocalJobs } from './control.js';
import { ensureWorker, isOrphan, liveWorker } from './worker-process.js';
import { createExclusive, exists, readJson } from '../../util/data-files.js';
import { RECORDS } from '../record-schemas.js';
import { subscriptionFile, SUBSCRIPTION_FILE } from '../webhook/local.js';
import { isWellFormedLocalId, newLocalJobId } from './ids.js';
import { sha256Hex } from '../../util/sha256.js';
import { CREDENTIALS_FILE, expireIfDue, finishJob } from './lifecycle.js';
import { outputsOf, planLocalRun, type LocalRunPlan } from './prepare.js';
import { artifactList, jobRecord, listItem, parseArtifactId, statusRecord, submitResponse } from './records.js';
import { configuredSimcs, localBuildId, NO_SIMC_HINT, probeSimc } from './simc.js';
import { LocalStore, type LocalJob } from './store.js';

const fetched = <T>(data: T): Fetched<T> => ({ data, raw: data });

/** Local conditions reported with the service's error codes, so code that branches on them works for both. */
function localApiError(
  status: number,
  code: string,
  message: string,
  meta: Record<string, unknown> | null,
  hint?: string,
): ApiError {
  return new ApiError(
    message,
    { status, code, meta, requestId: undefined, retryAfterMs: undefined, method: 'LOCAL', path: '' },
    hint,
  );
}

const notFound = (message: string, hint: string) => localApiError(404, 'not_found', message, null, hint);

interface KeyRecord {
  jobId: string;
  digest: string;
}

const KEY_FIX = 'Remove that file: the key is then free to use again (its job, if any, stays).';

/** An idempotency key's record, or undefined when the key is new; a damaged one is an error naming its file. */
async function readKeyRecord(path: string): Promise<KeyRecord | undefined> {
  return readJson<KeyRecord>(path, RECORDS.idempotencyKey, foreignJobId, KEY_FIX);
}

/** What the schema cannot see: a key record whose job id is not one local mode makes. */
function foreignJobId(value: unknown): string | undefined {
  const id = (value as { jobId?: unknown } | null)?.jobId;
  return typeof id === 'string' && !isWellFormedLocalId(id) ? `its job id is not a local job id` : undefined;
}

/** Files whose change means the job changed (the logs change all the time and are not worth waking for). */
const WATCHED_FILES = new Set(['job.json', 'progress.json']);

interface JobWatch {
  changed: boolean;
  listeners: Set<() => void>;
  close: () => void;
}

export class LocalBackend implements JobBackend, ChangeNotifier, WaitHosting {
  readonly kind = 'local' as const;
  private readonly watches = new Map<string, JobWatch>();
  private warnedNoWorker = false;
  /** Runs the queue in this process while waits are going (options.hostWhileWaiting). */
  private host: QueueHost | undefined;
  private waits = 0;

  constructor(
    private readonly options: LocalOptions,
    readonly store: LocalStore,
  ) {}

  // -- submit -------------------------------------------------------------------------------------------------------

  async submit(input: SubmitInput): Promise<Submitted> {
    const { request } = input;
    // Only a key given with --idempotency-key is recorded (SubmitInput): <data dir>/keys/ holds no file per job.
    const idempotency = input.idempotencyKey ? this.idempotencyOf(input.idempotencyKey, input) : undefined;
    if (idempotency) {
      const known = await readKeyRecord(idempotency.path);
      if (known) return this.replay(known, idempotency.digest);
    }
    // A lock that can never be taken (a folder made in its place) would leave the job queued for ever.
    this.store.checkLocks();
    // Refused (no simc, a webhook without its settings) before anything is written.
    const plan = await planLocalRun(this.options, request, input.simc, input.analysis);
    for (const warning of plan.warnings) this.options.warn(warning);

    const job = this.newJob(request, plan);
    const files: Record<string, { data: string; mode?: number }> = { 'input.simc': { data: request.profile.text } };
    if (request.credentials) {
      // simc reads provider credentials from ./apikey.txt in its working directory (the job folder); the file
      // is private to the user and removed when the job ends.
      files[CREDENTIALS_FILE] = {
        data: `${request.credentials.providerClientId}:${request.credentials.providerClientSecret}\n`,
        mode: 0o600,
      };
    }
    if (plan.webhook) files[SUBSCRIPTION_FILE] = subscriptionFile(plan.webhook, this.options.config.profile);
    await this.store.createJob(job, files);
    if (
      idempotency &&
      !(await createExclusive(
        idempotency.path,
        JSON.stringify({ jobId: job.id, digest: idempotency.digest } satisfies KeyRecord),
      ))
    ) {
      // Another process submitted with the same key a moment ago: theirs is the job.
      await this.store.removeJobFolder(job.id);
      const winner = await readKeyRecord(idempotency.path);
      if (winner) return this.replay(winner, idempotency.digest);
    }
    await this.store.enqueue(job);
    // The worker alone runs simc (docs/design.md, "One local runner"); a submit about to wait hosts it instead.
    if (!(input.waited && this.options.hostWhileWaiting && !job.multiStageSummary.enabled)) await this.startWorker();
    return { ...fetched(submitResponse(this.store, job)), replay: false };
  }

  /**
   * Make sure a worker runs the queue. A data dir that cannot take the worker's files (a full disk) is said once
   * as a warning: reading and listing jobs still work, and the queued ones wait until there is room.
   */
  async ensureWorkerRuns(): Promise<void> {
    await this.startWorker();
  }

  /**
   * While a wait on `id` goes on, a queue with no worker is run in this process (host.ts); what it returns hands the
   * queue over when the wait ends. Not for a staged job (a staged run cannot be handed over), nor unless asked.
   */
  async hostWhileWaiting(id: string): Promise<() => Promise<void>> {
    const hosting = this.options.hostWhileWaiting;
    const job = hosting && isWellFormedLocalId(id) ? await this.store.readJob(id).catch(() => undefined) : undefined;
    if (!hosting || !job || job.multiStageSummary.enabled || isTerminal(job.status)) return async () => undefined;
    this.host ??= new QueueHost(this.store, {
      env: this.options.workerEnv,
      concurrency: localConcurrency(this.options.config, this.options.workerEnv),
      onHosting: hosting.onHosting,
    });
    this.waits += 1;
    return async () => {
      this.waits -= 1;
      if (this.waits === 0) await this.host?.handOver();
    };
  }

  private async startWorker(): Promise<void> {
    try {
      // A wait hosts the queue only when no worker runs it (a look at worker.lock, before a Worker is made).
      if (this.waits > 0 && !(await liveWorker(this.store)) && (await this.host?.host())) return;
      await ensureWorker(this.store, this.options.workerEnv);
    } catch (error) {
      if (!(error instanceof LocalError)) throw error;
      if (!this.warnedNoWorker) this.options.warn(`No local worker can start: ${error.message} ${error.hint ?? ''}`);
      this.warnedNoWorker = true;
    }
  }

  /** Where the record of an idempotency key lives, and the digest of the request it was given for. */
  private idempotencyOf(key: string, input: SubmitInput): { path: string; digest: string } {
    const { metadata: _ignored, ...compared } = input.request;
    return {
      path: join(this.store.keysDir, sha256Hex(key)),
      digest: sha256Hex(JSON.stringify({ request: compared, simc: input.simc ?? null })),
    };
  }

  private newJob(request: SubmitRequest, plan: LocalRunPlan): LocalJob {
    const now = new Date().toISOString();
    return {
      schema: 1,
      id: newLocalJobId(),
      status: 'queued',
      priority: request.priority ?? 'standard',
      channel: request.build.channel,
      gitBranch: request.build.gitBranch ?? null,
      createdAt: now,
      queuedAt: now,
      startedAt: null,
      completedAt: null,
      updatedAt: now,
      cancelRequestedAt: null,
      errorCode: null,
      statusReason: null,
      simcExitCode: null,
      metadata: request.metadata ?? null,
      simc: plan.simc,
      maxRuntimeSeconds: request.runtime?.maxRuntimeSeconds ?? null,
      maxQueueSeconds: request.runtime?.maxQueueSeconds ?? null,
      multiStage: Boolean(request.runtime?.multiStage),
      multiStageSummary: plan.multiStage,
      outputs: outputsOf(request),
      webhook: Boolean(request.webhook),
      mainActor: plan.mainActor,
      attempt: 0,
      retried: false,
      owner: null,
      simcPid: null,
      build: null,
      simDurationMs: null,
      totalDurationMs: null,
      hasResult: false,
    };
  }

  /** Same key: the same payload gets the original job back; a different payload is refused (spec 4.7). */
  private async replay(known: KeyRecord, digest: string): Promise<Submitted> {
    if (known.digest !== digest) {
      throw localApiError(
        409,
        'idempotency_key_reuse',
        `This idempotency key was already used for job ${known.jobId} with a different request.`,
        { originalJobId: known.jobId },
        'Use a new --idempotency-key for a different request.',
      );
    }
    const job = await this.mustRead(known.jobId);
    return { ...fetched(submitResponse(this.store, job)), replay: true };
  }

  // -- reading ------------------------------------------------------------------------------------------------------

  private async mustRead(id: string): Promise<LocalJob> {
    const job = isWellFormedLocalId(id) ? await this.store.readJob(id) : undefined;
    if (!job)
      throw notFound(
        `No local job ${id}.`,
        `List local jobs with \`simjob jobs --local\` (data dir: ${this.store.root}).`,
      );
    return job;
  }

  /**
   * The job as it is now, after the checks a read owes it: a queued job past its queue time ends, a queued job
   * gets a worker if none runs, and a running job whose worker died is recovered.
   */
  private async current(id: string): Promise<LocalJob> {
    let job = await this.mustRead(id);
    if (isWaiting(job.status)) {
      job = (await expireIfDue(this.store, job)) ?? job;
      // Ended here (its queue time ran out): a webhook job has its job.terminal event for a worker to deliver.
      if (isTerminal(job.status) && job.webhook) await this.startWorker();
      else if (!isTerminal(job.status)) {
        // A job whose folder the worker cannot lock (unwritable, a folder where its lock belongs) is skipped by it:
        // the waiting user hears why here rather than waiting for ever.
        await this.store.updateJob(id, () => undefined);
        // A submitter that died between writing the job and queueing it leaves no marker: put it back.
        if (!(await this.store.isEnqueued(job))) await this.store.enqueue(job);
        await this.startWorker();
      }
    } else if (isActive(job.status)) {
      // A run whose end its worker could not record (its folder unwritable) loses its running marker: taking the
      // job's lock names the fault here, so no wait hangs on a job that can no longer end.
      if (!(await this.store.runningIds()).includes(id)) await this.store.updateJob(id, () => undefined);
      if (isOrphan(job, await liveWorker(this.store))) {
        await recoverJob(this.store, job);
        job = await this.mustRead(id);
        // retried (queued again), or ended with a webhook event to deliver: either way a worker's work
        if (!isTerminal(job.status) || job.webhook) await this.startWorker();
      }
    }
    return job;
  }

  async job(id: string): Promise<Fetched<JobRecord>> {
    return fetched(jobRecord(this.store, await this.current(id)));
  }

  async status(id: string): Promise<Fetched<StatusRecord>> {
    this.watch(id); // before reading, so no change after the read can be missed by nextChange
    const job = await this.current(id);
    if (isTerminal(job.status)) this.unwatch(id); // it changes no more
    const progress = job.startedAt ? await this.store.readProgress(id) : undefined;
    return fetched(statusRecord(job, progress));
  }

  async result(id: string): Promise<Fetched<ResultRecord>> {
    const job = await this.current(id);
    if (!isTerminal(job.status)) {
      throw localApiError(
        409,
        'result_not_ready',
        `Job ${id} is ${job.status}; its result is not ready.`,
        { status: job.status },
        `Wait for it with: simjob status ${id} --wait`,
      );
    }
    if (!job.hasResult) {
      throw localApiError(
        422,
        'result_unavailable',
        `Job ${id} ended ${job.status} without a result${job.errorCode ? ` (${job.errorCode})` : ''}.`,
        { status: job.status },
      );
    }
    const [stored, kinds] = await Promise.all([this.store.readResult(id), this.store.artifactKinds(id)]);
    return fetched({
      ...jobRecord(this.store, job),
      result: { summary: stored?.summary ?? null, artifacts: artifactList(this.store, job, kinds, stored?.summary) },
    });
  }

  async notifications(id: string): Promise<string[]> {
    return (await this.store.readResult(id))?.notifications ?? [];
  }

  /** Queued: ends at once. Running: the request is recorded and the worker stops simc (SIGTERM, then SIGKILL). */
  async cancel(id: string): Promise<Fetched<CancelResponse>> {
    const job = await this.current(id);
    const now = new Date().toISOString();
    if (isWaiting(job.status)) {
      const ended = await finishJob(
        this.store,
        id,
        {
          status: 'cancelled',
          errorCode: 'user_cancelled',
          statusReason: 'Cancelled on request before it started.',
          hasResult: false,
          cancelRequestedAt: now,
        },
        (current) => isWaiting(current.status),
      );
      if (ended) {
        if (ended.webhook) await this.startWorker(); // to deliver its job.terminal event
        return fetched({ success: true, id, status: 'cancelled', cancelRequestedAt: now });
      }
      // It started meanwhile: cancel it as a running job.
      return this.cancel(id);
    }
    if (isActive(job.status)) {
      const updated = await this.store.updateJob(id, (current) =>
        isActive(current.status) && !current.cancelRequestedAt ? { ...current, cancelRequestedAt: now } : undefined,
      );
      if (updated && isTerminal(updated.status)) return this.cancel(id);
      return fetched({
        success: true,
        id,
        status: 'cancel_requested',
        cancelRequestedAt: updated?.cancelRequestedAt ?? now,
      });
    }
    if (job.status === 'cancelled' && job.errorCode === 'user_cancelled') {
      return fetched({ success: true, id, status: 'cancelled', cancelRequestedAt: job.cancelRequestedAt });
    }
    throw localApiError(409, 'job_not_cancellable', `Job ${id} is already ${job.status}.`, { id, status: job.status });
  }

  /** Newest first; the cursor is the last id of the previous page. */
  async list(params: ListParams): Promise<Fetched<JobList>> {
    const limit = params.limit ?? 25;
    let after: string | undefined;
    if (params.cursor !== undefined) {
      after = Buffer.from(params.cursor, 'base64url').toString('utf8');
      if (!isWellFormedLocalId(after))
        throw new UsageError(
          `--cursor ${params.cursor} is not a cursor of \`simjob jobs --local\`.`,
          'Use the page.nextCursor of the previous page.',
        );
    }
    const ids = (await this.store.allIds()).filter((id) => after === undefined || id < after);
    const jobs = [];
    let taken = 0;
    for (const id of ids) {
      if (jobs.length === limit) break;
      taken += 1;
      try {
        const job = await this.store.readJob(id);
        if (job) jobs.push(listItem(this.store, job));
      } catch (error) {
        this.options.warn(`${(error as Error).message} Skipped.`); // one bad record never hides the others
      }
    }
    const hasMore = ids.length > taken;
    const last = jobs[jobs.length - 1];
    const nextCursor = hasMore && last ? Buffer.from(last.id, 'utf8').toString('base64url') : null;
    return fetched({ jobs, page: { limit, hasMore, nextCursor, since: null } });
  }

  async artifactUrl(artifactId: string): Promise<string> {
    const parsed = parseArtifactId(artifactId);
    if (parsed && isWellFormedLocalId(parsed.jobId)) {
      const path = this.store.file(parsed.jobId, parsed.file);
      if (await exists(path)) return pathToFileURL(path).href;
    }
    throw notFound(`No local artifact ${artifactId}.`, 'The job folder may have been deleted.');
  }

  artifactSource(jobId: string): ArtifactSource {
    return { kind: 'local', jobDir: this.store.jobDir(jobId) };
  }

  /** Local truth: what is queued and running now; no account, so no period and no limits. */
  async usage(): Promise<Fetched<Usage>> {
    const queued = (await this.store.queuedIds()).length;
    let running = 0;
    for (const id of await this.store.runningIds()) {
      const job = await this.store.readJob(id).catch(() => undefined);
      if (job && isActive(job.status)) running += 1;
    }
    return fetched({
      period: null,
      snapshot: { activeJobs: queued + running, queuedJobs: queued, runningJobs: running },
      limits: null,
    });
  }

  /** The simc binaries local mode would use, each with what its version line says. */
  async builds(): Promise<Fetched<BuildList>> {
    const found = await configuredSimcs(this.options.env, this.options.config);
    if (found.length === 0) throw new LocalError('No simc found for local mode.', NO_SIMC_HINT, ExitCode.USAGE);
    const builds: Build[] = [];
    for (const entry of found) {
      const probe = await probeSimc(entry.path, this.options.env);
      const version = 'error' in probe ? undefined : probe;
      const createdAt = await fs.stat(entry.path).then(
        (info) => info.mtime.toISOString(),
        () => null,
      );
      builds.push({
        id: localBuildId(entry.path, version?.line ?? null),
        channel: entry.channel,
        gitBranch: version?.gitBranch ?? null,
        repo: null,
        commit: version?.commit ?? null,
        createdAt,
        simcVersion: version?.simcVersion ?? null,
        ci: null,
        profiles: null,
        path: entry.path,
        source: entry.source,
        wowVersion: version?.wowVersion ?? null,
        versionLine: version?.line ?? null,
        ...('error' in probe ? { error: probe.error } : {}),
      });
    }
    return fetched({ generatedAt: new Date().toISOString(), builds });
  }

  async build(id: string): Promise<Fetched<Build>> {
    const build = (await this.builds()).data.builds.find((b) => b.id === id);
    if (!build) throw notFound(`No local simc with build id ${id}.`, 'List them with `simjob builds --local`.');
    return fetched(build);
  }

  // -- change notification for waits (the ChangeNotifier of jobs/wait.ts) -------------------------------------------------

  private watch(id: string): JobWatch | undefined {
    const existing = this.watches.get(id);
    if (existing) {
      existing.changed = false;
      return existing;
    }
    const entry: JobWatch = { changed: false, listeners: new Set(), close: () => undefined };
    const changed = () => {
      entry.changed = true;
      for (const listener of entry.listeners) listener();
    };
    try {
      const watcher = watch(this.store.jobDir(id));
      watcher.on('change', (_event, name) => {
        if (name === null || WATCHED_FILES.has(String(name))) changed();
      });
      watcher.on('error', () => watcher.close());
      watcher.unref(); // never keeps the process alive
      entry.close = () => watcher.close();
    } catch {
      return undefined; // no watching here: the wait loop's own polling still works
    }
    this.watches.set(id, entry);
    return entry;
  }

  /** Stop watching a job that has ended: a watch left open holds the process's end back (docs/performance.md). */
  private unwatch(id: string): void {
    this.watches.get(id)?.close();
    this.watches.delete(id);
  }

  /**
   * Resolves when the job's record or progress changed since the last status read (at once if it already did),
   * or when `signal` aborts. Never rejects: the wait loop races it against its own timer.
   */
  nextChange(id: string, signal: AbortSignal): Promise<void> {
    const entry = this.watches.get(id) ?? this.watch(id);
    if (!entry) return new Promise((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
    if (entry.changed || signal.aborted) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        entry.listeners.delete(done);
        signal.removeEventListener('abort', done);
        resolve();
      };
      entry.listeners.add(done);
      signal.addEventListener('abort', done, { once: true });
    });
  }
}

export async function createLocalBackend(options: LocalOptions): Promise<JobBackend> {
  const store = new LocalStore(options.dataDir);
  await store.init();
  const backend = new LocalBackend(options, store);
  if (await superviseLocalJobs(store)) await backend.ensureWorkerRuns();
  return backend;
}
