/**
 * File primitives of the local job store, safe when many simjob processes touch the same data dir at once:
 * - writes go to a unique temp file beside the target and are renamed over it, so readers see the old or the
 *   new file, never half of one; a write that fails removes its temp file;
 * - a lock is a small file made exclusively (a temp file linked into place: link fails when the lock is held, and
 *   the lock is never seen empty) naming its process: pid, that process's start time and a nonce. It is stale
 *   exactly when that process is gone, and is then taken over through a second "steal" lock, so two processes
 *   never both remove the same stale lock and one of them a fresh one;
 * - what the file system refuses (a full disk, no permission, a file where a folder belongs) becomes one
 *   LocalError naming the path and what is wrong with it (storeError).
 * The calls are synchronous (the files are a few kB); the functions stay async for their callers and the lock waits.
 */
import { linkSync, readFileSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { LocalError } from '../errors.js';
import { sleep } from '../util/sleep.js';
import { randomHex } from '../util/random.js';
import { errnoCode } from '../util/errno.js';
import { isAlive, processStart } from './pids.js';

const tempName = (path: string) => `${path}.${process.pid}.${randomHex(8)}.tmp`;

/** What is wrong with a path, by the error the file system gave for it, or undefined for other errors. */
function whatIsWrong(code: string | undefined): { what: string; fix: string } | undefined {
  switch (code) {
    case 'ENOSPC':
    case 'EDQUOT':
      return {
        what: "no space left on the data dir's disk",
        fix: 'Free some space, or set SIMJOB_DATA_DIR to a folder on another disk.',
      };
    case 'EACCES':
    case 'EPERM':
      return {
        what: 'permission denied',
        fix: 'Give your user write access to it (chmod u+rwx), or set SIMJOB_DATA_DIR to a folder of yours.',
      };
    case 'EROFS':
      return { what: 'the file system is read-only', fix: 'Set SIMJOB_DATA_DIR to a folder on a writable disk.' };
    case 'EISDIR':
      return { what: 'a folder is where simjob keeps a file', fix: 'Remove or rename that folder.' };
    case 'ENOTDIR':
    case 'EEXIST':
      return { what: 'a file is where simjob keeps a folder', fix: 'Remove or rename that file.' };
    default:
      return undefined;
  }
}

/**
 * The LocalError for a file system error of the store, naming the path and what is wrong with it (exit 1); other
 * errors come back as they are.
 */
export function storeError(error: unknown, path?: string): unknown {
  if (error instanceof LocalError) return error;
  const wrong = whatIsWrong(errnoCode(error));
  if (!wrong) return error;
  const where = path ?? (error as { path?: string }).path;
  return new LocalError(`${where ? `${where}: ` : ''}${wrong.what}.`, wrong.fix);
}

/** Whether an error is a full disk (a run's end then fails the job rather than leaving it running). */
export const isDiskFull = (error: unknown) => {
  const code = errnoCode(error) ?? errnoCode((error as { cause?: unknown })?.cause);
  return (
    code === 'ENOSPC' || code === 'EDQUOT' || (error instanceof LocalError && error.message.includes('no space left'))
  );
};

/** Windows refuses to replace a file another process has open for a moment; retry briefly there. */
async function renameWithRetry(from: string, to: string): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      renameSync(from, to);
      return;
    } catch (error) {
      const code = errnoCode(error);
      if (attempt >= 20 || !(code === 'EPERM' || code === 'EACCES' || code === 'EBUSY')) throw error;
      await sleep(5 + attempt * 5);
    }
  }
}

/** Remove a file if it is there. */
export async function removeFile(path: string): Promise<void> {
  removeFileSync(path);
}

function removeFileSync(path: string): void {
  try {
    unlinkSync(path);
  } catch (error) {
    if (errnoCode(error) !== 'ENOENT') throw storeError(error, path);
  }
}

/** Rename `from` to `to` if `from` is there (a marker moved between folders): false when it is not. */
export function moveIfPresent(from: string, to: string): boolean {
  try {
    renameSync(from, to);
    return true;
  } catch (error) {
    if (errnoCode(error) !== 'ENOENT') throw storeError(error, from);
    return false;
  }
}

export async function writeFileAtomic(path: string, data: string | Uint8Array, mode?: number): Promise<void> {
  const tmp = tempName(path);
  try {
    writeFileSync(tmp, data, mode === undefined ? undefined : { mode });
    await renameWithRetry(tmp, path);
  } catch (error) {
    try {
      removeFileSync(tmp); // never left behind, also when the disk is full
    } catch {
      // the folder refuses even that: the error below says why
    }
    throw storeError(error, path);
  }
}

export async function writeJsonAtomic(path: string, value: unknown): Promise<void> {
  await writeFileAtomic(path, `${JSON.stringify(value, null, 2)}\n`);
}

/** A JSON file, or undefined when it does not exist. A file that exists but does not parse is an error. */
export async function readJson<T>(path: string): Promise<T | undefined> {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if (errnoCode(error) === 'ENOENT') return undefined;
    throw storeError(error, path);
  }
  try {
    return JSON.parse(text) as T;
  } catch {
    throw new LocalError(
      `${path}: damaged (not JSON).`,
      'Delete that job folder, or set SIMJOB_DATA_DIR to a fresh folder.',
    );
  }
}

export async function exists(path: string): Promise<boolean> {
  try {
    return statSync(path, { throwIfNoEntry: false }) !== undefined;
  } catch {
    return false;
  }
}

/** Create a file with this content only if it does not exist yet. False when it already exists. */
export async function createExclusive(path: string, content: string): Promise<boolean> {
  return createExclusiveSync(path, content);
}

function createExclusiveSync(path: string, content: string): boolean {
  const tmp = tempName(path);
  try {
    writeFileSync(tmp, content);
    linkSync(tmp, path);
    return true;
  } catch (error) {
    if (errnoCode(error) === 'EEXIST') return false;
    throw storeError(error, path);
  } finally {
    try {
      removeFileSync(tmp);
    } catch {
      // the folder refuses even that: the error above says why
    }
  }
}

/** Who holds a lock: a process, told from a later one given the same pid by its start time. */
export interface LockOwner {
  pid: number;
  start: string | null;
  nonce: string;
}

export interface HeldLock {
  path: string;
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
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if (errnoCode(error) === 'ENOENT') return undefined;
    throw storeError(error, path);
  }
  try {
    const owner = JSON.parse(text) as Partial<LockOwner>;
    if (typeof owner.pid === 'number' && typeof owner.nonce === 'string')
      return { pid: owner.pid, start: owner.start ?? null, nonce: owner.nonce };
  } catch {
    // not a lock simjob wrote (every lock is written whole): nobody's
  }
  return { pid: -1, start: null, nonce: '' };
}

/** The owner is gone: its pid is dead, or now another process's (another start time). */
export function isStale(owner: LockOwner): boolean {
  if (!isAlive(owner.pid)) return true;
  return owner.start !== null && processStart(owner.pid) !== undefined && processStart(owner.pid) !== owner.start;
}

/** Remove a stale lock, holding `<lock>.steal` while checking that it is still the same stale lock (same nonce). */
async function stealStale(path: string, stale: LockOwner): Promise<void> {
  const stealPath = `${path}.steal`;
  const stealer = newOwner();
  if (!createExclusiveSync(stealPath, JSON.stringify(stealer))) {
    const other = await readLockOwner(stealPath);
    if (other && isStale(other)) await removeFile(stealPath); // a stealer that died mid-steal
    return;
  }
  try {
    const current = await readLockOwner(path);
    if (current && current.nonce === stale.nonce) await removeFile(path);
  } finally {
    await removeFile(stealPath);
  }
}

/** Take the lock if it is free (or stale). Undefined when a live owner holds it. */
export async function tryLock(path: string): Promise<HeldLock | undefined> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const owner = newOwner();
    if (createExclusiveSync(path, JSON.stringify(owner))) {
      return {
        path,
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
export async function withLock<T>(path: string, fn: () => Promise<T>, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
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
