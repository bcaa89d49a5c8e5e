/**
 * Taking a queued job to run it, under one claim lock, so that never more than `local.concurrency` jobs run (a
 * worker that took over the lock of a stale one may meet runs it has not adopted yet).
 */
import type { Config } from '../config/resolve.js';
import { isTerminal, isWaiting } from '../jobs/states.js';
import { withLock } from './lock.js';
import { isDue, queueDeadline } from './lifecycle.js';
import type { StopReason } from './pass.js';
import type { LocalJob, LocalStore } from './store.js';

/**
 * How many jobs a worker runs at once: SIMJOB_LOCAL_CONCURRENCY in the worker's environment (how the library's local
 * client gives it), else the `local.concurrency` setting; 1 when neither is a whole number of jobs.
 */
export function localConcurrency(config: Pick<Config, 'setting'>, env: NodeJS.ProcessEnv = {}): number {
  const isCount = (n: number) => Number.isSafeInteger(n) && n >= 1;
  const given = Number(env.SIMJOB_LOCAL_CONCURRENCY);
  if (isCount(given)) return given;
  const n = Number(config.setting('local.concurrency') ?? 1);
  return isCount(n) ? n : 1;
}

/** Claim job `id` for `owner` if fewer than `concurrency` jobs run: the claimed job, or undefined when not taken. */
export async function claimJob(
  store: LocalStore,
  id: string,
  owner: NonNullable<LocalJob['owner']>,
  concurrency: number,
  options: { detached?: boolean } = {},
): Promise<LocalJob | undefined> {
  const hasRoom = async () => (await store.runningIds()).length < concurrency;
  // Looked at first without the lock: a claim with no chance never queues on it.
  if (!(await hasRoom())) return undefined;
  return withLock(store.claimLockPath, async () => {
    if (!(await hasRoom())) return undefined;
    // The running marker comes first (the queue marker, moved): a runner that dies right after this step leaves a
    // waiting job marked running, which recovery puts back in the queue (control.ts). No queue marker: the job was
    // taken or ended meanwhile.
    const marker = await store.moveQueuedToRunning(id);
    if (!marker) return undefined;
    let claimed: LocalJob | undefined;
    // A job whose folder cannot be locked or written is put back as it was: the error names the path, and the
    // worker skips that job (worker.ts) while the others run.
    const after = await store
      .updateJob(id, (job) => {
        if (!isWaiting(job.status)) return undefined;
        if (isDue(queueDeadline(job))) return undefined;
        claimed = {
          ...job,
          status: 'running',
          startedAt: new Date().toISOString(),
          attempt: job.attempt + 1,
          owner,
          simcPid: null,
          // A staged run is several passes: only a single pass can be finished from its files by another process.
          detached: Boolean(options.detached) && !job.multiStageSummary?.enabled,
        };
        return claimed;
      })
      .catch((error: unknown) => {
        store.restoreQueued(id, marker);
        throw error;
      });
    if (!claimed) {
      // `after` is the job as it stands (unchanged): let go of it unless another runner took it meanwhile
      if (!after || isTerminal(after.status)) await store.unmarkRunning(id);
      else if (isWaiting(after.status)) await store.moveRunningToQueue(after); // its queue timeout ends it there
      return undefined;
    }
    return claimed;
  });
}

/** How often a runner looks for a cancel request on the job (`simjob cancel` only records it). */
const CANCEL_POLL_MS = 150;

/**
 * What stops a run: its runtime cap and a cancel request. The controller is aborted with the StopReason (`timeout`,
 * `cancel`, or what the worker says); `dispose` when the run ended.
 */
export function watchStops(store: LocalStore, job: LocalJob) {
  const controller = new AbortController();
  const stopWith = (reason: StopReason) => {
    if (!controller.signal.aborted) controller.abort(reason);
  };
  // the runtime cap (maxRuntimeSeconds) counts from the job's start
  const started = job.startedAt ? Date.parse(job.startedAt) : Date.now();
  const runtimeTimer =
    job.maxRuntimeSeconds === null
      ? undefined
      : setTimeout(() => stopWith('timeout'), Math.max(0, started + job.maxRuntimeSeconds * 1000 - Date.now()));
  const cancelPoll = setInterval(() => {
    store.readJob(job.id).then(
      (current) => {
        if (current?.cancelRequestedAt) stopWith('cancel');
      },
      () => undefined,
    );
  }, CANCEL_POLL_MS);
  return {
    controller,
    dispose: () => {
      clearTimeout(runtimeTimer);
      clearInterval(cancelPoll);
    },
  };
}
