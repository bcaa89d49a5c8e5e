/**
 * The moves of a local job between states (the state machine of jobs/states.ts), each made under the job's lock
 * so that the worker, `cancel`, queue timeouts and recovery can race without a job ending twice.
 */
import type { TerminalState } from '../resources/schemas.js';
import { canMove, DISK_FULL_REASON, isTerminal, isWaiting } from '../jobs/states.js';
import { RUN_OUTPUT_FILES, type LocalJob, type LocalStore } from './store.js';
import { dataFileError, isDiskFull, removeFile } from '../../util/data-files.js';
import { queueTerminalEvent } from '../webhook/local.js';

export interface Ending {
  status: TerminalState;
  errorCode: string | null;
  statusReason: string | null;
  simcExitCode?: string | null;
  simDurationMs?: number | null;
  totalDurationMs?: number | null;
  build?: LocalJob['build'];
  /** The run left something to show under /result (logs, a report); false when it never started. */
  hasResult?: boolean;
  cancelRequestedAt?: string;
}

/** Per-job secrets (provider credentials for armory imports, read by simc from its cwd) live only until the end. */
export const CREDENTIALS_FILE = 'apikey.txt';

/**
 * End a job if it is not terminal yet and `when` still holds under its lock. Returns the ended job, or undefined
 * when someone else ended or moved it first. The one place that queues the `job.terminal` webhook event, so it is
 * queued once per job; a worker delivers it (a caller that is none, the backend, makes sure one runs).
 */
export async function finishJob(
  store: LocalStore,
  id: string,
  ending: Ending,
  when: (job: LocalJob) => boolean = () => true,
): Promise<LocalJob | undefined> {
  let moved = false;
  let wasWaiting = false;
  const job = await store.updateJob(id, async (current) => {
    if (isTerminal(current.status) || !canMove(current.status, ending.status) || !when(current)) return undefined;
    moved = true;
    wasWaiting = isWaiting(current.status);
    // Gone before the record says the job ended, so nobody who sees it ended can still find the secret.
    await removeFile(store.file(id, CREDENTIALS_FILE));
    return {
      ...current,
      ...ending,
      simcExitCode: ending.simcExitCode ?? current.simcExitCode,
      hasResult: ending.hasResult ?? current.hasResult,
      completedAt: new Date().toISOString(),
      owner: null,
      simcPid: null,
      detached: false,
    };
  });
  if (!job || !moved) return undefined;
  // A job that ran left the queue when it was claimed (its marker moved to running/): only a waiting one has a
  // queue marker to remove.
  await Promise.all([wasWaiting ? store.dequeue(job) : undefined, store.unmarkRunning(id)]);
  // The worker delivers it with retries (src/core/webhook/local.ts).
  if (job.webhook) await queueTerminalEvent(job, store);
  return job;
}

const DISK_FULL: Ending = {
  status: 'failed',
  errorCode: 'execution_failed',
  statusReason: DISK_FULL_REASON,
  hasResult: true,
};
/** simc's own words for a full disk, in a failed run's reason. */
const DISK_FULL_WORDS = /ENOSPC|no space left on device/i;

/**
 * Run a claimed job and record how it ended: the one end of every run, fresh or adopted.
 * `run` returns the ending, or undefined when the runner is stopping (the job is left for recovery, which retries
 * it). A full disk ends the job failed as such, with the run's reports removed to make room for the record;
 * throws only when even that record cannot be written (the error says why), so the caller never waits on a job
 * that can no longer end.
 */
export async function runToEnd(
  store: LocalStore,
  job: LocalJob,
  run: () => Promise<Ending | undefined>,
  owned: (job: LocalJob) => boolean,
): Promise<Ending | undefined> {
  const started = Date.parse(job.startedAt ?? '') || Date.now();
  let ending: Ending | undefined;
  try {
    ending = await run();
    if (!ending) return undefined;
  } catch (error) {
    ending = isDiskFull(error)
      ? DISK_FULL
      : {
          status: 'failed',
          errorCode: 'internal',
          statusReason: `simjob failed running the job: ${(error as Error).message}`,
          hasResult: true,
        };
  }
  if (ending.status === 'failed' && DISK_FULL_WORDS.test(ending.statusReason ?? ''))
    ending = { ...ending, ...DISK_FULL };
  ending = { ...ending, totalDurationMs: Date.now() - started };
  try {
    await finishJob(store, job.id, ending, owned);
  } catch (error) {
    if (!isDiskFull(error)) throw dataFileError(error);
    await clearRunOutputs(store, job.id); // room for the record: what the run left is cut short anyway
    ending = { ...ending, ...DISK_FULL, hasResult: false };
    await finishJob(store, job.id, ending, owned);
  }
  return ending;
}

/** The moment a queued job's maxQueueSeconds runs out, or null when it has none. */
export function queueDeadline(job: LocalJob): number | null {
  if (job.maxQueueSeconds === null || !isWaiting(job.status)) return null;
  return Date.parse(job.queuedAt) + job.maxQueueSeconds * 1000;
}

/** Whether a queue deadline (queueDeadline) has passed; a job without one never times out in the queue. */
export const isDue = (deadline: number | null): boolean => deadline !== null && Date.now() >= deadline;

/** End a queued job whose queue time ran out (`cancelled` / `queue_timeout`, as the service does). */
export async function expireIfDue(store: LocalStore, job: LocalJob): Promise<LocalJob | undefined> {
  if (!isDue(queueDeadline(job))) return undefined;
  return finishJob(
    store,
    job.id,
    {
      status: 'cancelled',
      errorCode: 'queue_timeout',
      statusReason: `Waited in the queue longer than ${job.maxQueueSeconds} s (maxQueueSeconds); the job never started.`,
      hasResult: false,
    },
    (current) => isDue(queueDeadline(current)),
  );
}

/** Put an interrupted job back in the queue for its one retry: the record then shows the new attempt. */
export async function requeueForRetry(
  store: LocalStore,
  id: string,
  when: (job: LocalJob) => boolean,
): Promise<LocalJob | undefined> {
  let moved = false;
  const job = await store.updateJob(id, async (current) => {
    if (!when(current) || !canMove(current.status, 'queued')) return undefined;
    moved = true;
    // Before the record says queued: no later attempt ever finds this one's files (a report it would take for its own).
    await clearRunOutputs(store, id);
    return {
      ...current,
      status: 'queued',
      retried: true,
      queuedAt: new Date().toISOString(),
      startedAt: null,
      owner: null,
      simcPid: null,
      detached: false,
      simDurationMs: null,
      totalDurationMs: null,
      simcExitCode: null,
    };
  });
  if (!job || !moved) return undefined;
  // One rename from running to queued: a claim (which starts from the queue marker) never meets it half moved.
  if (!(await store.moveRunningToQueue(job))) await store.enqueue(job);
  return job;
}

/** Remove what a run wrote (before its retry, or to make room on a full disk): one listing, then only what is there. */
export async function clearRunOutputs(store: LocalStore, id: string): Promise<void> {
  const stale = (await store.fileNames(id)).filter((name) => RUN_OUTPUT_FILES.includes(name));
  await Promise.all(stale.map((name) => removeFile(store.file(id, name))));
}
