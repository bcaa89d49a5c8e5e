/**
 * The one lock style of the local job store (worker.lock, claim.lock, each job's lock): a small file made
 * exclusively (createExclusive: linked into place, so never seen empty) naming its process: pid, that process's
 * start time and a nonce. It is stale exactly when that process is gone, and is then taken over through a second
 * "steal" lock, so two processes never both remove the same stale lock and one of them a fresh one.
 */
import { LocalError } from '../../errors.js';
import { createExclusive, readIfPresent, removeFile } from '../../util/data-files.js';
import { randomHex } from '../../util/random.js';
import { sleep } from '../../util/sleep.js';
import { isGone, processStart } from './pids.js';

/** Who holds a lock: a process, told from a later one given the same pid by its start time. */
export interface LockOwner {
  pid: number;
  start: string | null;
  nonce: string;
}

export interface HeldLock {
  owner: LockOwner;
  release(): Promise<void>;
}

const newOwner = (): LockOwner => ({
  pid: process.pid,
  start: processStart(process.pid) ?? null,
  nonce: randomHex(16),
});

/** A lock's owner, or undefined when nobody holds it. A folder in its place is an error naming it. */
export async function readLockOwner(path: string): Promise<LockOwner | undefined> {
  const text = readIfPresent(path);
  if (text === undefined) return undefined;
  try {
    const owner = JSON.parse(text) as Partial<LockOwner>;
    if (typeof owner.pid === 'number' && typeof owner.nonce === 'string')
      return { pid: owner.pid, start: owner.start ?? null, nonce: owner.nonce };
  } catch {
    // not a lock simjob wrote (every lock is written whole): nobody's
  }
  return { pid: -1, start: null, nonce: '' };
}

/** Remove a stale lock, holding `<lock>.steal` while checking that it is still the same stale lock (same nonce). */
async function stealStale(path: string, stale: LockOwner): Promise<void> {
  const stealPath = `${path}.steal`;
  if (!(await createExclusive(stealPath, JSON.stringify(newOwner())))) {
    const other = await readLockOwner(stealPath);
    if (other && isGone(other.pid, other.start)) await removeFile(stealPath); // a stealer that died mid-steal
    return;
  }
  try {
    const current = await readLockOwner(path);
    if (current && current.nonce === stale.nonce) await removeFile(path);
  } finally {
    await removeFile(stealPath);
  }
}

const isGoneOwner = (owner: LockOwner) => isGone(owner.pid, owner.start);

/**
 * Take the lock if it is free (or stale: its owner is gone, or whatever `isStale` says). Undefined when a live
 * owner holds it.
 */
export async function tryLock(
  path: string,
  isStale: (owner: LockOwner) => boolean = isGoneOwner,
): Promise<HeldLock | undefined> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const owner = newOwner();
    if (await createExclusive(path, JSON.stringify(owner))) {
      return {
        owner,
        release: async () => {
          // Only remove it if it is still ours (it may have been taken over after we stalled).
          if ((await readLockOwner(path))?.nonce === owner.nonce) await removeFile(path);
        },
      };
    }
    const current = await readLockOwner(path);
    if (!current) continue; // released meanwhile: try again
    if (!isStale(current)) return undefined;
    await stealStale(path, current);
  }
  return undefined;
}

/** Wait for the lock (short critical sections only), then run fn and release. */
export async function withLock<T>(path: string, fn: () => Promise<T>): Promise<T> {
  const deadline = Date.now() + 15_000;
  let lock: HeldLock | undefined;
  for (let wait = 2; ; wait = Math.min(50, wait * 2)) {
    lock = await tryLock(path);
    if (lock) break;
    if (Date.now() > deadline) {
      const owner = await readLockOwner(path);
      throw new LocalError(
        `The local job store is busy: ${path} is held by process ${owner?.pid ?? '?'}.`,
        'Try again; if it persists, that process is stuck: end it, and the lock is taken over.',
      );
    }
    await sleep(wait + Math.random() * wait);
  }
  try {
    return await fn();
  } finally {
    await lock.release();
  }
}
