/**
 * What every local command does before it reads the store: notice a dead worker (its jobs are retried once, or
 * end `failed` / `execution_interrupted`), and make sure a worker runs while jobs wait.
 */
import { isActive, isTerminal, isWaiting } from '../jobs/states.js';
import { sleep } from '../../util/sleep.js';
import { canAdopt, isJobsSimc } from './adopt.js';
import { groupAlive, signalGroup } from './detached.js';
import { finishJob, requeueForRetry } from './lifecycle.js';
import { withLock } from './lock.js';
import type { LocalJob, LocalStore } from './store.js';
import { isOrphan, liveWorker } from './worker-process.js';
import { pendingDeliveries } from '../webhook/local.js';

/** Stop the simc of an interrupted attempt if it still runs (and is that job's), so a retry never shares its folder. */
async function stopOrphanSimc(store: LocalStore, job: LocalJob): Promise<void> {
  const group = job.simcPid;
  if (!group || !isJobsSimc(store, job)) return;
  signalGroup(group, 'SIGKILL');
  for (let i = 0; i < 50 && groupAlive(group); i++) await sleep(20);
}

/** Retry an orphaned job once; the second interruption ends it failed / execution_interrupted. */
export async function recoverJob(store: LocalStore, job: LocalJob): Promise<void> {
  // Checked again first: its worker may have proved alive since the caller looked, and then its simc must live.
  if (!isOrphan(job, await liveWorker(store))) return;
  // A detached simc (its worker was killed) runs on, or left its status: the worker adopts it (adopt.ts).
  if (canAdopt(store, job)) return;
  await stopOrphanSimc(store, job);
  // Under the job's lock, check that it is still the same attempt: a new worker may have retried it.
  const sameAttempt = (current: LocalJob) => current.owner?.nonce === job.owner?.nonce && isActive(current.status);
  if (!job.retried) {
    await requeueForRetry(store, job.id, sameAttempt);
    return;
  }
  await finishJob(
    store,
    job.id,
    {
      status: 'failed',
      errorCode: 'execution_interrupted',
      statusReason: 'The local worker running this job stopped unexpectedly, on the retry too; resubmit it.',
      hasResult: true,
    },
    sameAttempt,
  );
}

/**
 * A waiting job marked running: a claim between its two steps (claim.ts), or one whose runner died there (or a
 * retry's, between its record and its queue marker). Under the claim lock, which every claim holds throughout, it
 * can only be the latter: its marker goes back to the queue.
 */
async function requeueHalfClaimed(store: LocalStore, id: string): Promise<void> {
  await withLock(store.claimLockPath, async () => {
    const job = await store.readJob(id);
    if (job && isWaiting(job.status)) await store.moveRunningToQueue(job);
  });
}

/**
 * Look at the jobs marked running: those whose worker is gone are recovered; markers of ended jobs are dropped.
 * Cheap when nothing runs (one readdir), so every local command does it. Returns whether a detached run waits for
 * a worker to adopt it (the worker that ran it was killed).
 */
export async function recoverInterrupted(store: LocalStore): Promise<boolean> {
  const ids = await store.runningIds();
  if (ids.length === 0) return false;
  const live = await liveWorker(store);
  let adoptable = false;
  for (const id of ids) {
    try {
      const job = await store.readJob(id);
      if (!job || isTerminal(job.status)) await store.unmarkRunning(id);
      else if (isWaiting(job.status)) await requeueHalfClaimed(store, id);
      else if (isOrphan(job, live)) {
        if (canAdopt(store, job)) adoptable = true;
        else await recoverJob(store, job);
      }
    } catch {
      // A job whose files cannot be read or written (a folder made read-only, a damaged record) is left as it is:
      // the commands about that job say what is wrong; those about the others go on.
    }
  }
  return adoptable;
}

/**
 * Recover dead runners' jobs; true when a worker is needed (a job waits, a run to adopt, a webhook event), which
 * the caller starts.
 */
export async function superviseLocalJobs(store: LocalStore): Promise<boolean> {
  const adoptable = await recoverInterrupted(store);
  return adoptable || (await store.queuedIds()).length > 0 || (await pendingDeliveries(store)).length > 0;
}
