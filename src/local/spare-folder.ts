/**
 * A job folder made ahead of time for the next head start (head-start.ts): the folder and the empty files its simc
 * starts with (the profile, the two logs) and the head start's marker, made by a waiting submit while its own simc
 * runs. Taking one is two renames instead of five new files on the way from the command to simc's start: creating
 * a file is the slow step where a disk is slow to make them (ext4 without a journal in a busy spell: ~0.5 ms each;
 * docs/design.md: "Local store"). Only files simjob itself writes are made ahead, never one simc writes.
 *
 * `<data dir>/spare/<name>/` holds them, the marker as `marker`. A folder is made as `spare/.<name>` and renamed
 * when whole, so a taker never finds half of one. A head start takes a folder by renaming its marker to
 * `early/<id>` (of two takers one wins; the other finds it gone and tries the next), and moves the folder to
 * `jobs/<id>` once it goes ahead. A folder whose marker is gone (its taker stopped in between) or left half-made is
 * removed by the next maker after a minute.
 */
import { existsSync, mkdirSync, renameSync, rmSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { namesIn } from '../util/names-in.js';
import { randomHex } from '../util/random.js';

/** `<data dir>/spare`: folders made ahead for head starts. */
export const SPARE_DIR = 'spare';
const MARKER = 'marker';
/** A folder without its marker, or still being made, this old is litter. */
const LITTER_AGE_MS = 60_000;

/**
 * Take a folder made ahead: its marker becomes `marker` (empty: the caller writes it) and the folder's path is
 * returned, to be moved to the job's place with moveSpareFolder. undefined when none is ready.
 */
export function takeSpareFolder(root: string, marker: string): string | undefined {
  for (const name of namesIn(join(root, SPARE_DIR))) {
    if (name.startsWith('.')) continue;
    const folder = join(root, SPARE_DIR, name);
    try {
      renameSync(join(folder, MARKER), marker);
      return folder;
    } catch {
      // taken by another head start, or not whole: the next one
    }
  }
  return undefined;
}

/** Move a taken folder to `dir` (the job's folder); false when it could not be (the job's folder is made instead). */
export function moveSpareFolder(folder: string, dir: string): boolean {
  try {
    renameSync(folder, dir);
    return true;
  } catch {
    return false;
  }
}

/** Give a taken folder back with its marker (its head start went no further). */
export function returnSpareFolder(folder: string, marker: string): void {
  try {
    renameSync(marker, join(folder, MARKER));
  } catch {
    removeIfThere(marker);
  }
}

/**
 * Make a folder ready for the next head start in this data dir, unless one is; `files`: the names its simc starts
 * with. `usedMarker`: a head start's marker that a job has just taken, to be the new folder's (emptied) or removed,
 * so that no marker is made or freed. Called while a run's simc runs. Never throws: a head start that finds none
 * makes its files itself.
 */
export function makeSpareFolder(root: string, files: readonly string[], usedMarker?: string): void {
  try {
    makeUnlessReady(root, files, usedMarker);
  } catch {
    // only ever a head start's shortcut
  } finally {
    if (usedMarker) removeIfThere(usedMarker); // unless it moved into the new folder
  }
}

/** unlink, not rm: fs.rm loads Node's rimraf module on its first call (local/fsutil.ts). */
function removeIfThere(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // gone already
  }
}

function makeUnlessReady(root: string, files: readonly string[], usedMarker: string | undefined): void {
  const spare = join(root, SPARE_DIR);
  let ready = false;
  for (const name of namesIn(spare)) {
    const folder = join(spare, name);
    if (!name.startsWith('.') && existsSync(join(folder, MARKER))) ready = true;
    else if (Date.now() - statSync(folder).mtimeMs > LITTER_AGE_MS) rmSync(folder, { recursive: true, force: true });
  }
  if (ready) return;
  const name = randomHex(16);
  const making = join(spare, `.${name}`);
  mkdirSync(making, { recursive: true });
  for (const file of files) writeFileSync(join(making, file), '');
  if (usedMarker) {
    writeFileSync(usedMarker, ''); // emptied first: its old pid and process group must never be read again
    renameSync(usedMarker, join(making, MARKER));
  } else writeFileSync(join(making, MARKER), '');
  renameSync(making, join(spare, name));
}
