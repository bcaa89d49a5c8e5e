import type { LocalJob, LocalStore } from './store.js';

/**
 * Called exactly once per job, right after its record became terminal (completed, failed, cancelled, timed_out),
 * by whichever process made that move: the worker (runs, runtime caps, queue timeouts), `simjob cancel` (queued
 * jobs), or the recovery of a dead worker's job. `job.webhook` says whether the job asked for a `job.terminal`
 * event. The webhook delivery of local jobs belongs here (a separate issue); keep it quick or hand it off, since
 * the caller may be an interactive command.
 */
export async function onTerminal(_job: LocalJob, _store: LocalStore): Promise<void> {
  // No local webhook delivery yet.
}

/** Whether onTerminal delivers `job.terminal` webhooks yet; submit warns a job that asks for one while it does not. */
export const LOCAL_WEBHOOKS_DELIVERED = false;
