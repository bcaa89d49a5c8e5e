/**
 * File primitives of the local job store, safe when many simjob processes touch the same data dir at once:
 * - writes go to a unique temp file beside the target and are renamed over it, so readers see the old or the
 *   new file, never half of one;
 * - locks are files created atomically with their content (write a temp file, then link() it into place: link
 *   fails with EEXIST when the lock is held), so a lock file is never seen empty. Locks given an owners folder
 *   are links to one owner file per process there (lock-owners.ts): taking and releasing them then allocates and
 *   frees no inode, which matters on ext4 without a journal, where each create scans past every inode freed in
 *   the last minutes (docs/design.md: "Local store: locks and markers that make no files");
 * - a lock whose owner died (pid gone) or that is older than its stale limit is taken over through a second
 *   "steal" lock, so two processes can never both decide to remove the same stale lock and delete a fresh one.
 * The calls are synchronous: these files are a few kB, and a synchronous call costs tens of microseconds where an
 * asynchronous one waits a round trip through libuv's thread pool (a job update is ten calls: ~2.5 ms against
 * ~0.3 ms, on the way from simc's end to the answer). The functions stay async for their callers and the lock waits.
 */
import { linkSync, readFileSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { dirname } from 'node:path';
import { LocalError } from '../errors.js';
import { sleep } from '../util/sleep.js';
import { randomHex } from '../util/random.js';
import { errnoCode } from '../util/errno.js';
import { isAlive } from './pids.js';
import { newOwner, ownerFileIn, type LockOwner } from './lock-owners.js';

function tempName(path: string): string {
  return `${path}.${process.pid}.${randomHex(8)}.tmp`;
}

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

/**
 * Remove a file if it is there. unlink, not rm: fs.rm loads Node's rimraf module on its first call, ~3 ms on the
 * way from simc's end to the job's.
 */
export async function removeFile(path: string): Promise<void> {
  removeFileSync(path);
}

function removeFileSync(path: string): void {
  try {
    unlinkSync(path);
  } catch (error) {
    if (errnoCode(error) !== 'ENOENT') throw error;
  }
}

/** Rename `from` to `to` if `from` is there (a marker moved between folders): false when it is not. */
export function moveIfPresent(from: string, to: string): boolean {
  try {
    renameSync(from, to);
    return true;
  } catch (error) {
    if (errnoCode(error) !== 'ENOENT') throw error;
    return false;
  }
}

/** Temp files made ahead of their writes (prepareTemp): target path → temp file. */
const preparedTemps = new Map<string, string>();
let dropAtExit = false;

/**
 * Make the temp file of a later atomic write of `path` now, while this process waits anyway (for simc): the write
 * then creates no file, only truncates this one. Creating a file is the slow step where a disk is slow to make
 * them (ext4 without a journal, docs/design.md: "Local store"), and the last writes of a job are on the way from
 * simc's end to the answer. Never throws: a temp not made here is made by the write, as always. A temp no write
 * took is removed at exit.
 */
export function prepareTemp(path: string): void {
  if (preparedTemps.has(path)) return;
  const tmp = tempName(path);
  try {
    writeFileSync(tmp, '');
  } catch {
    return;
  }
  preparedTemps.set(path, tmp);
  if (!dropAtExit) process.once('exit', () => dropPreparedTemps());
  dropAtExit = true;
}

/** Remove the prepared temps no write took: all of them (at exit), or those of the files in `dir`. */
export function dropPreparedTemps(dir?: string): void {
  for (const [path, tmp] of preparedTemps) {
    if (dir !== undefined && dirname(path) !== dir) continue;
    preparedTemps.delete(path);
    try {
      removeFileSync(tmp);
    } catch {
      // a temp file is litter at worst
    }
  }
}

/** The prepared temp of `path`, taken (a second write of the same path makes its own). */
function takePreparedTemp(path: string): string | undefined {
  const tmp = preparedTemps.get(path);
  preparedTemps.delete(path);
  return tmp;
}

export async function writeFileAtomic(path: string, data: string | Uint8Array, mode?: number): Promise<void> {
  // A prepared temp has the default mode: a write that asks for another makes its own.
  const tmp = (mode === undefined ? takePreparedTemp(path) : undefined) ?? tempName(path);
  try {
    writeFileSync(tmp, data, mode === undefined ? undefined : { mode });
    await renameWithRetry(tmp, path);
  } catch (error) {
    await removeFile(tmp);
    throw error;
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
    if (errnoCode(error) === 'ENOENT' || errnoCode(error) === 'ENOTDIR') return undefined;
    throw error;
  }
  try {
    return JSON.parse(text) as T;
  } catch {
    throw new LocalError(`The local job store file ${path} is damaged (not JSON).`, 'Delete that job folder, or set SIMJOB_DATA_DIR to a fresh folder.');
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
  writeFileSync(tmp, content);
  try {
    linkSync(tmp, path);
    return true;
  } catch (error) {
    if (errnoCode(error) === 'EEXIST') return false;
    throw error;
  } finally {
    removeFileSync(tmp);
  }
}

export interface HeldLock {
  path: string;
  owner: LockOwner;
  release(): Promise<void>;
}

export interface LockOptions {
  /** A lock older than this (by its file's mtime) is stale even if its pid lives (the pid may have been reused). */
  staleMs: number;
  /**
   * A folder on the lock's file system for this process's owner file: the lock is then a hard link to it, made
   * without a temp file. Its owner (and nonce) is this process's, and its mtime is that of the process's latest
   * lock taken there: each take refreshes it.
   */
  ownersDir?: string;
}

export async function readLockOwner(path: string): Promise<(LockOwner & { mtimeMs: number }) | undefined> {
  try {
    const text = readFileSync(path, 'utf8');
    const info = statSync(path);
    const owner = JSON.parse(text) as LockOwner;
    return { ...owner, mtimeMs: info.mtimeMs };
  } catch (error) {
    if (errnoCode(error) === 'ENOENT') return undefined;
    // Unreadable content cannot happen with createExclusive; treat it as a dead owner.
    return { pid: -1, nonce: '', host: '', at: 0, mtimeMs: 0 };
  }
}

/** The owner is gone: its pid is dead (same host), or the lock has not been refreshed for staleMs. */
export function isStale(owner: LockOwner & { mtimeMs: number }, staleMs: number): boolean {
  if (Date.now() - owner.mtimeMs > staleMs) return true;
  if (owner.host && owner.host !== hostname()) return false;
  return !isAlive(owner.pid);
}

/**
 * Remove a stale lock, holding `<lock>.steal` while checking that it is still the same stale lock (same owner, same
 * mtime).
 * Without this, two processes could both see the stale lock, the first remove it and take a fresh one, and the
 * second then remove that fresh lock.
 */
async function stealStale(path: string, stale: LockOwner & { mtimeMs: number }, options: LockOptions): Promise<void> {
  const stealPath = `${path}.steal`;
  if (!createLock(stealPath, options)) {
    // Someone else is stealing; a steal lock left by a process that died mid-steal is cleared after 5 s.
    const stealer = await readLockOwner(stealPath);
    if (stealer && Date.now() - stealer.mtimeMs > 5_000) await removeFile(stealPath);
    return;
  }
  try {
    // The same owner and the same mtime: a lock linked to an owner file has its process's nonce each time it takes
    // it, and a take (or a heartbeat) refreshes the mtime.
    const current = await readLockOwner(path);
    if (current && current.nonce === stale.nonce && current.mtimeMs === stale.mtimeMs) await removeFile(path);
  } finally {
    await removeFile(stealPath);
  }
}

/** Make the lock file, or false when it exists: a link to this process's owner file, or a file of its own. */
function createLock(path: string, options: LockOptions): { owner: LockOwner } | false {
  if (options.ownersDir) {
    const { path: ownerFile, owner } = ownerFileIn(options.ownersDir);
    try {
      linkSync(ownerFile, path);
      return { owner };
    } catch (error) {
      if (errnoCode(error) === 'EEXIST') return false;
      throw error;
    }
  }
  const owner = newOwner();
  return createExclusiveSync(path, JSON.stringify(owner)) && { owner };
}

/** Take the lock if it is free (or stale). Undefined when a live owner holds it. */
export async function tryLock(path: string, options: LockOptions): Promise<HeldLock | undefined> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const created = createLock(path, options);
    if (created) {
      const { owner } = created;
      return {
        path,
        owner,
        release: async () => {
          // Only remove it if it is still ours (it may have been stolen after we stalled).
          const current = await readLockOwner(path);
          if (current?.nonce === owner.nonce) await removeFile(path);
        },
      };
    }
    const current = await readLockOwner(path);
    if (!current) continue; // released meanwhile: try again
    if (!isStale(current, options.staleMs)) return undefined;
    await stealStale(path, current, options);
  }
  return undefined;
}

/** Wait for the lock (short critical sections only), then run fn and release. */
export async function withLock<T>(path: string, fn: () => Promise<T>, options: LockOptions & { timeoutMs?: number } = { staleMs: 30_000 }): Promise<T> {
  const deadline = Date.now() + (options.timeoutMs ?? 15_000);
  let lock: HeldLock | undefined;
  for (let wait = 2; ; wait = Math.min(50, wait * 2)) {
    lock = await tryLock(path, options);
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
