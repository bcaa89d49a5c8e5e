/**
 * Who holds a lock of the local store (fsutil.ts). A lock given an owners folder is a hard link to its process's
 * owner file there, `<owners>/<pid>.<nonce>`, written once with the owner's JSON: so taking a lock makes no file and
 * releasing one frees none (docs/design.md: "Local store: locks and markers that make no files").
 */
import { mkdirSync, readdirSync, readFileSync, unlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { errnoCode } from '../util/errno.js';
import { randomHex } from '../util/random.js';
import { isAlive } from './pids.js';

export interface LockOwner {
  pid: number;
  nonce: string;
  host: string;
  at: number;
}

export function newOwner(): LockOwner {
  return { pid: process.pid, nonce: randomHex(16), host: hostname(), at: Date.now() };
}

/** This process's owner file in each owners folder (ownerFileIn). */
const ownerFiles = new Map<string, { path: string; owner: LockOwner }>();

/** The owner files this process made go when it ends; a killed process's are removed by the next one (below). */
function removeOwnerFiles(): void {
  for (const { path } of ownerFiles.values()) {
    try {
      unlinkSync(path);
    } catch {
      // gone already
    }
  }
}

/** Owner files of processes that died on this host without removing theirs. */
function removeDeadOwnerFiles(dir: string): void {
  for (const name of readdirSync(dir)) {
    if (!/^\d+\.[0-9a-f]+$/.test(name)) continue;
    try {
      const owner = JSON.parse(readFileSync(join(dir, name), 'utf8')) as LockOwner;
      if (owner.host === hostname() && !isAlive(owner.pid)) unlinkSync(join(dir, name));
    } catch {
      // being written (not JSON yet), or removed meanwhile
    }
  }
}

/**
 * This process's owner file in `dir`, made on first use (complete before any lock links it, so a lock is never
 * seen empty), and touched: a lock linked to it now has this moment's mtime. Remade if it was removed.
 */
export function ownerFileIn(dir: string): { path: string; owner: LockOwner } {
  const known = ownerFiles.get(dir);
  if (known) {
    try {
      const now = new Date();
      utimesSync(known.path, now, now);
      return known;
    } catch (error) {
      if (errnoCode(error) !== 'ENOENT') throw error;
    }
  }
  try {
    mkdirSync(dir); // not recursive: a data dir removed meanwhile stays removed (the lock's own create fails)
  } catch (error) {
    if (errnoCode(error) !== 'EEXIST') throw error;
  }
  if (!known) removeDeadOwnerFiles(dir);
  const owner = known?.owner ?? newOwner();
  const file = { path: join(dir, `${owner.pid}.${owner.nonce}`), owner };
  writeFileSync(file.path, JSON.stringify(owner));
  if (ownerFiles.size === 0) process.once('exit', removeOwnerFiles);
  ownerFiles.set(dir, file);
  return file;
}
