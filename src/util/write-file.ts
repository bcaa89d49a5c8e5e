/**
 * Writing a file the user named (`-o`, `report -o`, `--report`): the content goes to a hidden temp file beside the
 * target, which is renamed over it only once whole, as downloads do (api/download.ts). A failure midway (a full
 * disk, Ctrl-C) leaves the old file as it was and no temp file behind.
 */
import { chmodSync, realpathSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { randomHex } from './random.js';

/** Write `data` to `path` atomically; throws the file system's error (the caller words it). */
export async function writeFileReplacing(path: string, data: string | Uint8Array): Promise<void> {
  // Through a link, the file it points to is replaced (as a plain write would), not the link itself.
  let target = path;
  try {
    target = realpathSync(path);
  } catch {
    // not there yet
  }
  const old = statSync(target, { throwIfNoEntry: false });
  if (old?.isDirectory())
    throw Object.assign(new Error(`EISDIR: illegal operation on a directory`), { code: 'EISDIR' });
  const tmp = join(dirname(target), `.${basename(target)}.${randomHex(8)}.tmp`);
  try {
    writeFileSync(tmp, data, { flag: 'wx' });
    if (old) chmodSync(tmp, old.mode & 0o7777); // a replaced file keeps its permissions
    renameSync(tmp, target);
  } finally {
    rmSync(tmp, { force: true });
  }
}
