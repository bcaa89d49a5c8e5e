/**
 * Files in simjob's data dir (SIMJOB_DATA_DIR: the local job store, webhook records), safe when many simjob
 * processes touch them at once:
 * - writes go to a unique temp file beside the target and are renamed over it, so readers see the old or the
 *   new file, never half of one; a write that fails removes its temp file;
 * - what the file system refuses (a full disk, no permission, a file where a folder belongs) becomes one
 *   LocalError naming the path and what is wrong with it (dataFileError).
 * The calls are synchronous (the files are a few kB); the functions stay async for their callers.
 */
import {
  closeSync,
  constants as fsConstants,
  fstatSync,
  linkSync,
  openSync,
  readFileSync,
  renameSync,
  statSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { LocalError } from '../errors.js';
import { errnoCode } from './errno.js';
import { randomHex } from './random.js';
import { sleep } from './sleep.js';

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
 * The LocalError for a file system error in the data dir, naming the path and what is wrong with it (exit 1);
 * other errors come back as they are.
 */
export function dataFileError(error: unknown, path?: string): unknown {
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
  try {
    unlinkSync(path);
  } catch (error) {
    if (errnoCode(error) !== 'ENOENT') throw dataFileError(error, path);
  }
}

/** Remove a temp file, also when the folder refuses even that: the caller's own error says what is wrong. */
const dropTemp = (tmp: string) => removeFile(tmp).catch(() => undefined);

/** Rename `from` to `to` if `from` is there (a marker moved between folders): false when it is not. */
export function moveIfPresent(from: string, to: string): boolean {
  try {
    renameSync(from, to);
    return true;
  } catch (error) {
    if (errnoCode(error) !== 'ENOENT') throw dataFileError(error, from);
    return false;
  }
}

export async function writeFileAtomic(path: string, data: string | Uint8Array): Promise<void> {
  const tmp = tempName(path);
  try {
    writeFileSync(tmp, data);
    await renameWithRetry(tmp, path);
  } catch (error) {
    await dropTemp(tmp); // never left behind, also when the disk is full
    throw dataFileError(error, path);
  }
}

export async function writeJsonAtomic(path: string, value: unknown): Promise<void> {
  await writeFileAtomic(path, `${JSON.stringify(value, null, 2)}\n`);
}

/** The largest record simjob reads from its data dir: its own are a few kB (a summary, up to a few MB). */
export const MAX_RECORD_BYTES = 16 * 1024 * 1024;

/**
 * A file's text, or undefined when it does not exist. Only a regular file of at most `maxBytes` is read: a record
 * replaced by a FIFO (which would block the read for ever) or a link to /dev/zero (which never ends) is an error
 * naming it. Opened without blocking, then checked on the open file, so what is checked is what is read.
 */
export function readIfPresent(path: string, maxBytes = MAX_RECORD_BYTES): string | undefined {
  let fd: number;
  try {
    fd = openSync(path, fsConstants.O_RDONLY | (fsConstants.O_NONBLOCK ?? 0));
  } catch (error) {
    if (errnoCode(error) === 'ENOENT') return undefined;
    throw dataFileError(error, path);
  }
  try {
    const info = fstatSync(fd);
    if (info.isDirectory()) throw dataFileError(Object.assign(new Error('EISDIR'), { code: 'EISDIR' }), path);
    if (!info.isFile())
      throw new LocalError(`${path}: not a regular file.`, 'Remove it; simjob keeps only plain files there.');
    if (info.size > maxBytes)
      throw new LocalError(
        `${path}: ${info.size} bytes, more than any record simjob writes (${maxBytes}).`,
        'Remove that file, or set SIMJOB_DATA_DIR to a fresh folder.',
      );
    return readFileSync(fd, 'utf8');
  } catch (error) {
    throw dataFileError(error, path);
  } finally {
    closeSync(fd);
  }
}

/**
 * What a record is, for its error ("not a job record of simjob"), and its check (core/record-schemas.ts `RECORDS`
 * holds one per record; this helper needs only this shape, not zod or the schemas). The record's TypeScript type is
 * its module's (LocalJob in local/store.ts, …), named where it is read.
 */
export interface RecordKind {
  what: string;
  check(value: unknown): { ok: true; value: unknown } | { ok: false; problem: string };
}

/**
 * A record simjob wrote, read back and checked against its schema (core/record-schemas.ts `RECORDS`), or undefined
 * when the file does not exist. A file that does not parse, or is not that kind of record, is one LocalError
 * naming the file and what is wrong, with `fix` as its hint (what to remove depends on the record). `problem`, asked first, can name what the schema cannot see (a job record
 * of another folder's job).
 */
export async function readJson<T>(
  path: string,
  kind: RecordKind,
  problem?: (value: unknown) => string | undefined,
  fix = DAMAGED_FIX,
): Promise<T | undefined> {
  const text = readIfPresent(path);
  if (text === undefined) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new LocalError(`${path}: damaged (not JSON).`, fix);
  }
  const first = problem?.(parsed);
  const checked = first === undefined ? kind.check(parsed) : { ok: false as const, problem: first };
  if (!checked.ok) throw new LocalError(`${path}: not ${kind.what} of simjob (${checked.problem}).`, fix);
  return checked.value as T; // the type its module declares, which the schema is written to
}

const DAMAGED_FIX = 'Delete that job folder, or set SIMJOB_DATA_DIR to a fresh folder.';

export async function exists(path: string): Promise<boolean> {
  try {
    return statSync(path, { throwIfNoEntry: false }) !== undefined;
  } catch {
    return false;
  }
}

/** Create a file with this content only if it does not exist yet (a temp file linked into place, so never seen empty). */
export async function createExclusive(path: string, content: string): Promise<boolean> {
  const tmp = tempName(path);
  try {
    writeFileSync(tmp, content);
    linkSync(tmp, path);
    return true;
  } catch (error) {
    if (errnoCode(error) === 'EEXIST') return false;
    throw dataFileError(error, path);
  } finally {
    await dropTemp(tmp);
  }
}
