/**
 * The jobs an argument of `compare` or `report` names: a job id, a saved `--json` output (one resource, or a batch's
 * array), or `-` for such JSON on stdin. Both commands decide and read alike here, and fail with the same one-line
 * errors; what a saved job without a result means is theirs to say (compare: no DPS; report: shown from its record,
 * or fetched by its id when it had not ended).
 */
import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { JobRecord, ResultRecord } from '../resources/schemas.js';
import { UsageError } from '../../errors.js';
import { terminalSafeLine } from '../../util/safe.js';
import { CAPS, decodeOrFail, readStdin, readUserFile } from '../../util/read-file.js';
import { checkJobId, isJobId } from './ids.js';

const SAVE_HINT =
  'Save a result with: simjob result <id> --json > result.json (or submit … --wait --json for a batch).';

/**
 * One item of a saved document, named as errors name it (`NAME`, or `NAME[i]` in an array): a result resource, or a
 * job saved without its result — a job record (a job that ended without one), or a submission (`submit --json` without
 * --wait: an id, no status), whose `record` is then undefined.
 */
export type SavedItem = { where: string } & (
  { result: ResultRecord; job?: undefined } | { job: { id: string; record?: JobRecord }; result?: undefined }
);

export interface SavedJson {
  /** `-` for stdin, else the file as given. */
  file: string;
  /** How it is named to the user: `stdin` or the file. */
  name: string;
  items: SavedItem[];
}

/** A job id (checked), or a saved document read, parsed and classified: one item for a resource, each of an array. */
export type JobArg = { id: string; saved?: undefined } | { saved: SavedJson; id?: undefined };

/** `io.stdin` is read only for `-` (the CLI's Context opens it on first use). */
export async function readJobArg(
  io: { readonly stdin: NodeJS.ReadableStream; readonly cwd?: string },
  arg: string,
): Promise<JobArg> {
  if (arg === '-') {
    const bytes = await readStdin(io.stdin, 'The saved result on stdin', CAPS.saved);
    return { saved: parse('-', 'stdin', decodeOrFail(bytes, 'The saved result on stdin')) };
  }
  // An existing file is a saved file, as `submit` reads a file first; a folder is not (`artifacts <id> --download`
  // makes one named after the job, which stays that job's id). A name that does not exist is a job id unless it
  // looks like a path (a job id never holds a slash or ends in .json).
  const file = io.cwd === undefined ? arg : resolve(io.cwd, arg); // messages keep the path as given
  const info = await stat(file).catch(() => undefined);
  if (!looksLikePath(arg) && (!info || info.isDirectory())) return { id: checkJobId(arg) };
  if (info?.isDirectory()) {
    throw new UsageError(`${terminalSafeLine(arg)} is a folder, not a saved --json file.`, SAVE_HINT);
  }
  if (!info) throw new UsageError(`${terminalSafeLine(arg)} does not exist.`, SAVE_HINT);
  // readUserFile refuses what is not a regular file (a FIFO, /dev/zero) and reads no more than a result can be.
  const bytes = await readUserFile(file, 'Saved result', { missing: SAVE_HINT, folder: SAVE_HINT }, CAPS.saved, arg);
  return { saved: parse(arg, arg, decodeOrFail(bytes, terminalSafeLine(arg))) };
}

/** `./old`, `runs/new.json`, `old.json`: a saved file; `old` alone is a job id. */
function looksLikePath(arg: string): boolean {
  return /[/\\]|\.json$/i.test(arg);
}

/** A saved file is any file: the job id it holds is used to fetch the job, so it must be one. */
function checkedId<T extends { id: string }>(where: string, item: T): T {
  if (!isJobId(item.id))
    throw new UsageError(
      `${where} holds "${terminalSafeLine(item.id)}" as its job id, which is not a job id.`,
      SAVE_HINT,
    );
  return item;
}

function parse(file: string, name: string, text: string): SavedJson {
  const shown = terminalSafeLine(name);
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`${shown} is not JSON: ${(error as Error).message}.`, SAVE_HINT);
  }
  const list = Array.isArray(doc) ? doc : [doc];
  if (list.length === 0) throw new UsageError(`${shown} holds an empty list: no results to read.`, SAVE_HINT);
  const items = list.map((item, i): SavedItem => {
    const where = Array.isArray(doc) ? `${shown}[${i}]` : shown;
    const result = ResultRecord.safeParse(item);
    if (result.success) return { where, result: checkedId(where, result.data) };
    const { id, result: none } = (item ?? {}) as { id?: unknown; result?: unknown };
    if (typeof id === 'string' && none == null) {
      const job = JobRecord.safeParse(item);
      return { where, job: checkedId(where, { id, ...(job.success ? { record: job.data } : {}) }) };
    }
    throw new UsageError(`${where} is not a job result (the resource of simjob result <id> --json).`, SAVE_HINT);
  });
  return { file, name, items };
}
