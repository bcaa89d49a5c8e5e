/**
 * What every local command does before it reads the store: notice a dead worker (its jobs are retried once, or
 * end `failed` / `execution_interrupted`), and make sure a worker runs while jobs wait.
 *
 * The worker is single per data dir: it holds `worker.lock` (pid + nonce, refreshed every few seconds). A job
 * being run names its worker's nonce, so a job is orphaned exactly when its nonce is not the live lock's.
 */
import { spawn } from 'node:child_process';
import { closeSync, existsSync, openSync, promises as fs, readlinkSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { LocalError } from '../errors.js';
import { isActive, isTerminal } from '../jobs/states.js';
import { sleep } from '../api/retry.js';
import { createExclusive, isAlive, isStale, readLockOwner } from './fsutil.js';
import { finishJob, requeueForRetry } from './lifecycle.js';
import type { LocalJob, LocalStore } from './store.js';
import { pendingDeliveries } from '../webhook/local.js';

/** The worker refreshes its lock every HEARTBEAT_MS; a lock not refreshed for WORKER_STALE_MS is dead. */
export const HEARTBEAT_MS = 5_000;
export const WORKER_STALE_MS = 60_000;
/** A worker being started by another process is given this long to take the lock before we start another. */
const SPAWN_GRACE_MS = 5_000;

export interface LiveWorker {
  pid: number;
  nonce: string;
}

export async function liveWorker(store: LocalStore): Promise<LiveWorker | undefined> {
  const owner = await readLockOwner(store.workerLockPath);
  if (!owner || isStale(owner, WORKER_STALE_MS)) return undefined;
  return { pid: owner.pid, nonce: owner.nonce };
}

/** Is this running job's worker gone? */
export function isOrphan(job: LocalJob, live: LiveWorker | undefined): boolean {
  if (!isActive(job.status)) return false;
  return !job.owner || !live || live.nonce !== job.owner.nonce;
}

/** dist/worker.js (the worker's own build entry), found from this module's place in dist/chunks/ or src/local/. */
export function workerEntry(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let up = 0; up < 4; up++) {
    const candidate = join(dir, 'dist', 'worker.js');
    if (existsSync(candidate)) return candidate;
    dir = resolve(dir, '..');
  }
  throw new LocalError('The local worker (dist/worker.js) is missing from this installation.', 'Reinstall simjob, or run `npm run build` in a checkout.');
}

/**
 * Start the worker in the background (detached, so it outlives this command), unless one runs or is starting.
 * `env` is the worker's environment: the caller's, with SIMJOB_PROFILE set when a --profile flag chose the profile
 * (the worker reads `local.concurrency` from it).
 */
export async function ensureWorker(store: LocalStore, env: NodeJS.ProcessEnv): Promise<void> {
  if (await liveWorker(store)) return;
  const marker = JSON.stringify({ pid: process.pid, nonce: '', host: '', at: Date.now() });
  if (!(await createExclusive(store.workerSpawnPath, marker))) {
    const other = await readLockOwner(store.workerSpawnPath);
    if (other && Date.now() - other.mtimeMs < SPAWN_GRACE_MS) return; // another process is starting one right now
    await fs.rm(store.workerSpawnPath, { force: true });
    if (!(await createExclusive(store.workerSpawnPath, marker))) return;
  }
  const log = openSync(store.workerLogPath, 'a');
  try {
    const child = spawn(process.execPath, [workerEntry()], {
      detached: true,
      stdio: ['ignore', log, log],
      env,
      cwd: store.root,
      windowsHide: true,
    });
    child.on('error', () => undefined);
    child.unref();
  } finally {
    closeSync(log);
  }
}

/**
 * Stop the simc of an interrupted attempt if it still runs, so a retry never shares the job folder with it.
 * On Linux its identity is checked by its working directory (the job folder) to avoid killing a reused pid.
 */
async function stopOrphanSimc(store: LocalStore, job: LocalJob): Promise<void> {
  const pid = job.simcPid;
  if (!pid || !isAlive(pid)) return;
  if (process.platform === 'linux') {
    try {
      if (resolve(readlinkSync(`/proc/${pid}/cwd`)) !== resolve(store.jobDir(job.id))) return;
    } catch {
      return;
    }
  }
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    return;
  }
  for (let i = 0; i < 50 && isAlive(pid); i++) await sleep(20);
}

/** Retry an orphaned job once; the second interruption ends it failed / execution_interrupted. */
export async function recoverJob(store: LocalStore, job: LocalJob): Promise<void> {
  // Checked again first: its worker may have proved alive since the caller looked, and then its simc must live.
  if (!isOrphan(job, await liveWorker(store))) return;
  await stopOrphanSimc(store, job);
  // Under the job's lock (the `when`), check that it is still the same attempt: a new worker may have retried it.
  if (!job.retried) {
    await requeueForRetry(store, job.id, (current) => current.owner?.nonce === job.owner?.nonce && isActive(current.status));
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
    (current) => current.owner?.nonce === job.owner?.nonce && isActive(current.status),
  );
}

/**
 * Look at the jobs marked running: those whose worker is gone are recovered; markers of ended jobs are dropped.
 * Cheap when nothing runs (one readdir), so every local command does it.
 */
export async function recoverInterrupted(store: LocalStore): Promise<void> {
  const ids = await store.runningIds();
  if (ids.length === 0) return;
  const live = await liveWorker(store);
  for (const id of ids) {
    const job = await store.readJob(id);
    if (!job || isTerminal(job.status)) {
      await store.unmarkRunning(id);
      continue;
    }
    if (isOrphan(job, live)) await recoverJob(store, job);
  }
}

/** Recover dead workers' jobs, then start a worker if anything waits (a job, or a webhook event to deliver). */
export async function superviseLocalJobs(store: LocalStore, env: NodeJS.ProcessEnv): Promise<void> {
  await recoverInterrupted(store);
  if ((await store.queuedIds()).length > 0 || (await pendingDeliveries(store)).length > 0) await ensureWorker(store, env);
}
