/**
 * The local job store: one folder per job under the data dir, plus marker folders that make the queue and the set
 * of running jobs cheap to read without opening every job.
 *
 *   <data dir>/jobs/<id>/job.json        the job's record (LocalJob), changed only under <id>/lock
 *                       /input.simc      the profile as submitted (the `input` artifact)
 *                       /progress.json   live progress, written only by the process running the job
 *                       /result.json     the summary, written once when the run ends
 *                       /stdout.log, stderr.log, report.json, report.html, result.csv, simc-output.txt
 *              /queue/<rank>-<id>        one empty marker per queued job; sorted names = run order
 *              /running/<id>             one empty marker per job a runner has claimed (the queue marker, moved)
 *              /keys/<sha256 of key>     idempotency keys (--idempotency-key) → job id
 *              /worker.lock, worker.log  the single worker (worker.ts)
 *              /claim.lock               held while a runner claims a job (claim.ts)
 */
import type { MainActorChoice } from '../../domain/report/report-rows.js';
import {
  promises as fs,
  type Dirent,
  lstatSync,
  mkdirSync,
  readdirSync,
  renameSync,
  rmdirSync,
  statSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import type { Channel, JobState, MultiStageSummary, Priority, Summary } from '../resources/schemas.js';
import { LocalError } from '../../errors.js';
import {
  dataFileError,
  exists,
  moveIfPresent,
  readJson,
  removeFile,
  writeFileAtomic,
  writeJsonAtomic,
} from '../../util/data-files.js';
import { withLock } from './lock.js';
import { isWellFormedLocalId } from './ids.js';
import { isActive, isTerminal, isWaiting } from '../jobs/states.js';
import { errnoCode } from '../../util/errno.js';
import { RECORDS } from '../record-schemas.js';

/** What a job's `build` says: the simc binary that ran (or will run) it, as read from its version line. */
export interface LocalBuildInfo {
  id: string;
  channel: Channel;
  path: string;
  simcVersion: string | null;
  commit: string | null;
  gitBranch: string | null;
  versionLine: string | null;
}

/** The record kept in job.json. The spec's records (records.ts) are views of it. */
export interface LocalJob {
  schema: 1;
  id: string;
  status: JobState;
  priority: Priority;
  channel: Channel;
  gitBranch: string | null;
  createdAt: string;
  /** Entered the queue (for a retried job: its latest attempt). */
  queuedAt: string;
  startedAt: string | null;
  completedAt: string | null;
  updatedAt: string;
  cancelRequestedAt: string | null;
  errorCode: string | null;
  statusReason: string | null;
  simcExitCode: string | null;
  metadata: Record<string, string> | null;
  /** The simc binary chosen at submission, and how it was found. */
  simc: { path: string; source: string };
  maxRuntimeSeconds: number | null;
  maxQueueSeconds: number | null;
  multiStage: boolean;
  /** The summary's `multiStage` block, decided at submission from the profile. */
  multiStageSummary: MultiStageSummary;
  outputs: { html: boolean; csv: boolean; jsonVersion: '2' | '3' };
  webhook: boolean;
  /** Which actor the summary headlines (profileset_main_actor_index) and in which metric (profileset_metric; absent in old records: dps). */
  mainActor: MainActorChoice;
  /** 0 before the first start; 2 after a retry. */
  attempt: number;
  retried: boolean;
  /** Who runs this attempt: the worker (its lock nonce), so a dead worker's jobs can be told apart. */
  owner: { pid: number; nonce: string } | null;
  simcPid: number | null;
  /** simc runs detached (detached.ts): simcPid is its process group, and a worker can adopt the run (adopt.ts). */
  detached?: boolean;
  build: LocalBuildInfo | null;
  simDurationMs: number | null;
  totalDurationMs: number | null;
  /** A run ended with logs or a report, so /result has something to show (else it answers result_unavailable). */
  hasResult: boolean;
}

export interface LocalResultFile {
  summary: Summary | null;
  /** simc's `notifications` from the report: shown by `result`, not part of the API resource (the spec has no place for them). */
  notifications?: string[];
}

export interface LocalProgress {
  percent: number | null;
  phase: string | null;
  /** Staged (multistage) runs: the stage running now (src/core/local/multistage.ts). */
  stage?: { current: number; total: number; label: string | null; percent: number } | null;
  updatedAt: string;
}

export const PRIORITY_RANK: Record<string, number> = { high: 0, standard: 1, background: 2 };

/** The job files that are artifacts, by kind. */
export const ARTIFACT_FILES = {
  input: { file: 'input.simc', mimeType: 'text/plain' },
  json_report: { file: 'report.json', mimeType: 'application/json' },
  html_report: { file: 'report.html', mimeType: 'text/html' },
  csv_report: { file: 'result.csv', mimeType: 'text/csv' },
  stdout_log: { file: 'stdout.log', mimeType: 'text/plain' },
  stderr_log: { file: 'stderr.log', mimeType: 'text/plain' },
} as const;
export type ArtifactKind = keyof typeof ARTIFACT_FILES;

/** Files one simc run writes; removed before a retry so an old attempt's output never passes for the new one's. */
export const RUN_OUTPUT_FILES = [
  'report.json',
  'report.html',
  'result.csv',
  'stdout.log',
  'stderr.log',
  'simc-output.txt',
  'progress.json',
  'result.json',
];

export class LocalStore {
  readonly jobsDir: string;
  readonly queueDir: string;
  readonly runningDir: string;
  readonly keysDir: string;
  readonly workerLockPath: string;
  readonly workerSpawnPath: string;
  readonly workerLogPath: string;
  /** Held while a runner checks for room (local.concurrency) and claims a job, so two never both take the last slot. */
  readonly claimLockPath: string;

  constructor(readonly root: string) {
    this.jobsDir = join(root, 'jobs');
    this.queueDir = join(root, 'queue');
    this.runningDir = join(root, 'running');
    this.keysDir = join(root, 'keys');
    this.workerLockPath = join(root, 'worker.lock');
    this.workerSpawnPath = join(root, 'worker.spawn');
    this.workerLogPath = join(root, 'worker.log');
    this.claimLockPath = join(root, 'claim.lock');
  }

  async init(): Promise<void> {
    for (const dir of [this.jobsDir, this.queueDir, this.runningDir, this.keysDir]) {
      try {
        if (statSync(dir, { throwIfNoEntry: false })?.isDirectory()) continue;
        mkdirSync(dir, { recursive: true });
      } catch (error) {
        throw dataFileError(error, dir);
      }
    }
  }

  /**
   * The data dir's locks must be files simjob can make: a folder in the place of one (`mkdir claim.lock`) would
   * stop every claim. Cheap (a stat each), so a submit checks before it queues a job nobody could then run.
   */
  checkLocks(): void {
    for (const path of [this.claimLockPath, this.workerLockPath, this.workerSpawnPath]) {
      if (statSync(path, { throwIfNoEntry: false })?.isDirectory())
        throw dataFileError(Object.assign(new Error(`EISDIR: ${path}`), { code: 'EISDIR' }), path);
    }
  }

  jobDir(id: string): string {
    if (!isWellFormedLocalId(id))
      throw new LocalError(`"${id}" is not a local job id.`, 'Find ids with `simjob jobs --local`.');
    return join(this.jobsDir, id);
  }

  file(id: string, name: string): string {
    return join(this.jobDir(id), name);
  }

  /**
   * Create a job folder with its record and files, all at once: everything is written into a hidden staging
   * folder that is then renamed into place, so no reader ever sees a job without its record.
   */
  async createJob(job: LocalJob, files: Record<string, { data: string; mode?: number }>): Promise<void> {
    const staging = join(this.jobsDir, `.staging-${job.id}`);
    try {
      mkdirSync(staging); // not recursive: that reports a read-only disk as ENOENT
      for (const [name, { data, mode }] of Object.entries(files))
        writeFileSync(join(staging, name), data, mode === undefined ? undefined : { mode });
      await writeJsonAtomic(join(staging, 'job.json'), job); // last: the record says the job is all there
      renameSync(staging, this.jobDir(job.id));
    } catch (error) {
      await fs.rm(staging, { recursive: true, force: true }).catch(() => undefined);
      throw dataFileError(error, staging);
    }
  }

  async removeJobFolder(id: string): Promise<void> {
    await fs.rm(this.jobDir(id), { recursive: true, force: true });
  }

  /** A job's record, checked for shape: a damaged or reshaped one is an error naming its file. */
  async readJob(id: string): Promise<LocalJob | undefined> {
    return readJson<LocalJob>(this.file(id, 'job.json'), RECORDS.job, (record) => shapeProblem(record, id));
  }

  /**
   * Read-modify-write a job under its lock. `change` returns the new record, or undefined to leave it as it is.
   * Returns the record as it is after the call (undefined if the job does not exist).
   */
  async updateJob(
    id: string,
    change: (job: LocalJob) => LocalJob | undefined | Promise<LocalJob | undefined>,
  ): Promise<LocalJob | undefined> {
    const dir = this.jobDir(id);
    if (!(await exists(dir))) return undefined;
    return withLock(join(dir, 'lock'), async () => {
      const job = await this.readJob(id);
      if (!job) return undefined;
      const next = await change(job);
      if (!next) return job;
      next.updatedAt = new Date().toISOString();
      await writeJsonAtomic(this.file(id, 'job.json'), next);
      return next;
    });
  }

  // -- queue and running markers ------------------------------------------------------------------------------------

  private markerName(job: Pick<LocalJob, 'id' | 'priority'>): string {
    return `${PRIORITY_RANK[job.priority] ?? 1}-${job.id}`;
  }

  async enqueue(job: Pick<LocalJob, 'id' | 'priority'>): Promise<void> {
    const path = join(this.queueDir, this.markerName(job));
    try {
      writeFileSync(path, '');
    } catch (error) {
      throw dataFileError(error, path);
    }
  }

  async isEnqueued(job: Pick<LocalJob, 'id' | 'priority'>): Promise<boolean> {
    return exists(join(this.queueDir, this.markerName(job)));
  }

  /** Drop a job's queue marker (under every priority, in case one was left under another). */
  async dequeue(job: Pick<LocalJob, 'id'>): Promise<void> {
    await Promise.all(Object.values(PRIORITY_RANK).map((rank) => removeFile(join(this.queueDir, `${rank}-${job.id}`))));
  }

  /** Queued job ids in run order: priority, then submission order (ids sort by time). */
  async queuedIds(): Promise<string[]> {
    return (await markersIn(this.queueDir))
      .filter(isQueueMarker)
      .sort()
      .map((n) => n.slice(2));
  }

  /**
   * Entries of the queue folder that are no queue marker (a stray file, an unknown rank, a folder): the worker
   * removes them.
   */
  async strayQueueFiles(): Promise<string[]> {
    // One read of the folder: with two, a job queued between them would look like a stray and lose its marker.
    return (await entriesIn(this.queueDir))
      .filter((entry) => !(entry.isFile() && isQueueMarker(entry.name)))
      .map((entry) => join(this.queueDir, entry.name));
  }

  /** Remove a stray entry of the queue folder: a file, or a folder if it is empty (one with files is left alone). */
  removeStray(path: string): void {
    try {
      if (lstatSync(path).isDirectory()) rmdirSync(path);
      else unlinkSync(path);
    } catch (error) {
      const code = errnoCode(error);
      if (code === 'ENOENT') return;
      if (code === 'ENOTEMPTY' || code === 'EEXIST')
        throw new LocalError(`${path}: a folder simjob did not make, with files in it.`, 'Move it out of the queue.');
      throw dataFileError(error, path);
    }
  }

  /**
   * Move a queued job's marker into the running folder: a claim's first step as one rename, with no file made or
   * freed. Returns the queue marker's path (for a claim that fails to put it back), undefined when it has none.
   */
  async moveQueuedToRunning(id: string): Promise<string | undefined> {
    return Object.values(PRIORITY_RANK)
      .map((rank) => join(this.queueDir, `${rank}-${id}`))
      .find((marker) => moveIfPresent(marker, join(this.runningDir, id)));
  }

  /** Put back a queue marker that moveQueuedToRunning moved (a claim that failed half way). */
  restoreQueued(id: string, marker: string): void {
    moveIfPresent(join(this.runningDir, id), marker);
  }

  /** Move a job's running marker into the queue (a retry, or a claim that did not happen); false when it has none. */
  async moveRunningToQueue(job: Pick<LocalJob, 'id' | 'priority'>): Promise<boolean> {
    return moveIfPresent(join(this.runningDir, job.id), join(this.queueDir, this.markerName(job)));
  }

  async unmarkRunning(id: string): Promise<void> {
    await removeFile(join(this.runningDir, id));
  }

  async runningIds(): Promise<string[]> {
    return (await markersIn(this.runningDir)).filter((n) => isWellFormedLocalId(n));
  }

  /** Every job id, newest first. */
  async allIds(): Promise<string[]> {
    const names = await readdirOrEmpty(this.jobsDir);
    return names
      .filter((n) => isWellFormedLocalId(n))
      .sort()
      .reverse();
  }

  // -- per-job side files -------------------------------------------------------------------------------------------

  async readProgress(id: string): Promise<LocalProgress | undefined> {
    return readJson<LocalProgress>(this.file(id, 'progress.json'), RECORDS.progress).catch(() => undefined); // best effort
  }

  async writeProgress(id: string, progress: LocalProgress): Promise<void> {
    await writeJsonAtomic(this.file(id, 'progress.json'), progress);
  }

  async readResult(id: string): Promise<LocalResultFile | undefined> {
    return readJson<LocalResultFile>(this.file(id, 'result.json'), RECORDS.result);
  }

  async writeResult(id: string, result: LocalResultFile): Promise<void> {
    await writeJsonAtomic(this.file(id, 'result.json'), result);
  }

  async writeText(id: string, name: string, text: string): Promise<void> {
    await writeFileAtomic(this.file(id, name), text);
  }

  /** The names of the files in a job's folder (none when it has no folder). */
  async fileNames(id: string): Promise<string[]> {
    return readdirOrEmpty(this.jobDir(id));
  }

  /** Artifacts present on disk, in a stable order. */
  async artifactKinds(id: string): Promise<ArtifactKind[]> {
    const present = new Set(await this.fileNames(id));
    return (Object.keys(ARTIFACT_FILES) as ArtifactKind[]).filter((k) => present.has(ARTIFACT_FILES[k].file));
  }
}

async function readdirOrEmpty(dir: string): Promise<string[]> {
  try {
    return readdirSync(dir);
  } catch (error) {
    if (errnoCode(error) === 'ENOENT') return [];
    throw dataFileError(error, dir);
  }
}

/** The names of the plain files in a marker folder: a folder or link there is no marker (see strayQueueFiles). */
async function markersIn(dir: string): Promise<string[]> {
  return (await entriesIn(dir)).filter((entry) => entry.isFile()).map((entry) => entry.name);
}

async function entriesIn(dir: string): Promise<Dirent[]> {
  try {
    return readdirSync(dir, { withFileTypes: true });
  } catch (error) {
    if (errnoCode(error) === 'ENOENT') return [];
    throw dataFileError(error, dir);
  }
}

const RANKS = Object.values(PRIORITY_RANK).join('');
const isQueueMarker = (name: string) =>
  RANKS.includes(name[0] ?? '-') && name[1] === '-' && isWellFormedLocalId(name.slice(2));

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** What is wrong with a job record's shape (the fields simjob reads to list and run it), or undefined. */
function shapeProblem(record: unknown, id: string): string | undefined {
  if (!isObject(record)) return 'not an object';
  if (record.id !== id) return `its id is ${JSON.stringify(record.id)}, not the folder's`;
  const status = record.status;
  if (typeof status !== 'string' || !(isWaiting(status) || isActive(status) || isTerminal(status)))
    return 'no known status';
  return undefined; // the rest is the schema's (core/record-schemas.ts)
}
