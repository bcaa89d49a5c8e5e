import { queueTerminalEvent } from '../webhook/local.js';
import type { LocalJob, LocalStore } from './store.js';

/**
 * Called exactly once per job, right after its record became terminal (completed, failed, cancelled, timed_out),
 * by whichever process made that move: the worker (runs, runtime caps, queue timeouts), `simjob cancel` (queued
 * jobs), or the recovery of a dead worker's job. `job.webhook` says whether the job asked for a `job.terminal`
 * event. The webhook delivery of local jobs belongs here (a separate issue); keep it quick or hand it off, since
 * the caller may be an interactive command.
 */
export async function onTerminal(job: LocalJob, store: LocalStore): Promise<void> {
  if (!job.webhook) return;
  // Queued for the worker, which delivers with retries (src/webhook/local.ts); started here if none runs (cancel).
  await queueTerminalEvent(job, store);
  const { ensureWorker } = await import('./control.js');
  await ensureWorker(store, process.env);
}

/** Whether onTerminal delivers `job.terminal` webhooks yet; submit warns a job that asks for one while it does not. */
export const LOCAL_WEBHOOKS_DELIVERED = true;
