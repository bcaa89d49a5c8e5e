/**
 * The background worker as a process: is one alive, is a job's worker gone, start one.
 *
 * The worker is single per data dir: it holds `worker.lock` (lock.ts). A job being run names its worker's
 * nonce, so a job is orphaned exactly when its nonce is not the live lock's.
 */
import { closeSync, existsSync, openSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { LocalError } from '../../errors.js';
import { isActive } from '../jobs/states.js';
import { createExclusive, removeFile } from '../../util/data-files.js';
import { readLockOwner, type LockOwner } from './lock.js';
import { isGone, isStopped } from './pids.js';
import type { LocalJob, LocalStore } from './store.js';
import { childProcess } from '../../util/child-process.js';

/** A worker being started by another process is given this long to take the lock before we start another. */
const SPAWN_GRACE_MS = 5_000;

/**
 * A worker whose process is gone, or stopped (Ctrl-Z or SIGSTOP on the command hosting it), runs nothing: its lock
 * is taken over. A stopped one that resumes finds the lock lost and lets its runs go to the new holder (worker.ts).
 */
export const isIdleWorker = (owner: LockOwner): boolean => isGone(owner.pid, owner.start) || isStopped(owner.pid);

/** The worker that holds worker.lock and runs, if one does. */
export async function liveWorker(store: LocalStore): Promise<LockOwner | undefined> {
  const owner = await readLockOwner(store.workerLockPath);
  return owner && !isIdleWorker(owner) ? owner : undefined;
}

/** Is this running job's runner gone (`live`: the worker that holds the lock)? */
export function isOrphan(job: LocalJob, live: Pick<LockOwner, 'nonce'> | undefined): boolean {
  if (!isActive(job.status)) return false;
  return !job.owner || !live || live.nonce !== job.owner.nonce;
}

/** dist/worker.js (the worker's own build entry), found from this module's place in dist/chunks/ or src/core/local/. */
function workerEntry(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let up = 0; up < 4; up++) {
    const candidate = join(dir, 'dist', 'worker.js');
    if (existsSync(candidate)) return candidate;
    dir = resolve(dir, '..');
  }
  throw new LocalError(
    'The local worker (dist/worker.js) is missing from this installation.',
    'Reinstall simjob, or run `npm run build` in a checkout.',
  );
}

/**
 * Start the worker in the background (detached, so it outlives this command), unless one runs or is starting.
 * `env` is the worker's environment: the caller's, with SIMJOB_PROFILE set when a --profile flag chose the profile
 * (the worker reads `local.concurrency` from it).
 */
export async function ensureWorker(store: LocalStore, env: NodeJS.ProcessEnv): Promise<void> {
  if (await liveWorker(store)) return;
  const marker = JSON.stringify({ pid: process.pid, nonce: '' });
  if (!(await createExclusive(store.workerSpawnPath, marker))) {
    const since = statSync(store.workerSpawnPath, { throwIfNoEntry: false })?.mtimeMs ?? 0;
    if (Date.now() - since < SPAWN_GRACE_MS) return; // another process is starting one right now
    await removeFile(store.workerSpawnPath);
    if (!(await createExclusive(store.workerSpawnPath, marker))) return;
  }
  const log = openSync(store.workerLogPath, 'a');
  try {
    const child = childProcess().spawn(process.execPath, [workerEntry()], {
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
