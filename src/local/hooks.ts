import { queueTerminalEvent } from '../webhook/local.js';
import type { LocalJob, LocalStore } from './store.js';

/**
 * Called exactly once per job, right after its record became terminal (completed, failed, cancelled, timed_out),
 * by whichever process made that move: the worker (runs, runtime caps, queue timeouts), `simjob cancel` (queued
 * jobs), or the recovery of a dead worker's job. `job.webhook` says whether the job asked for a `job.terminal`
 * event. Delivery itself is the worker's (with retries); this only queues the event, since the caller may be an
 * interactive command.
 */
export async function onTerminal(job: LocalJob, store: LocalStore): Promise<void> {
  if (!job.webhook) return;
  // Queued for the worker, which delivers with retries (src/webhook/local.ts); started here if none runs (cancel).
  await queueTerminalEvent(job, store);
  const { ensureWorker } = await import('./worker-process.js');
  await ensureWorker(store, process.env);
}
