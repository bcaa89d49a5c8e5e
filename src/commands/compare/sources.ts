/** What `compare` compares: a job id, or a saved `--json` output (one result, or a batch's array of results). */
import { readFile, stat } from 'node:fs/promises';
import { JobRecord, ResultRecord } from '../../api/schemas.js';
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import type { JobBackend } from '../../jobs/backend.js';
import { readAllBytes } from '../../util/prompt.js';
import { checkJobId } from '../../jobs/ids.js';

export interface Source {
  /** As given on the command line. */
  arg: string;
  /** A saved file (or - for stdin); undefined for a job id. */
  file?: string;
  results: ResultRecord[];
  /** For a job id: where its artifacts come from. */
  backend?: JobBackend;
}

export async function loadSource(ctx: Context, arg: string): Promise<Source> {
  if (arg === '-') return fromJson(arg, '-', (await readAllBytes(ctx.stdin)).toString('utf8'));
  const info = await stat(arg).catch(() => undefined);
  if (info?.isFile()) return fromJson(arg, arg, await readFile(arg, 'utf8'));
  if (info?.isDirectory()) throw new UsageError(`${arg} is a folder.`, 'Name a saved --json file or a job id.');
  if (/[/\\]|\.json$/i.test(arg)) throw new UsageError(`${arg} does not exist.`, 'Name a saved --json file (e.g. results.json) or a job id.');
  const id = checkJobId(arg);
  const backend = await ctx.backendFor(id);
  const result = await backend.result(id);
  return { arg, results: [result.data], backend };
}

function fromJson(arg: string, file: string, text: string): Source {
  const name = file === '-' ? 'stdin' : file;
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`${name} is not JSON: ${(error as Error).message}.`, 'Save results with: simjob submit … --wait --json > results.json');
  }
  const items = Array.isArray(doc) ? doc : [doc];
  if (items.length === 0) throw new UsageError(`${name} holds no results (an empty array).`);
  const results = items.map((item, i) => {
    const parsed = ResultRecord.safeParse(item);
    // A job that ended without a result is saved as its job record: it is compared as "no DPS".
    const job = parsed.success ? undefined : JobRecord.safeParse(item);
    if (job?.success) return { ...job.data, result: { summary: null, artifacts: [] } } as ResultRecord;
    if (!parsed.success) {
      const where = Array.isArray(doc) ? `item ${i + 1} of ${name}` : name;
      throw new UsageError(`${where} is not a simjob result.`, 'Use the --json output of `simjob submit --wait`, `status --wait` or `result`.');
    }
    return parsed.data;
  });
  return { arg, file, results };
}

/** How a result is named in a match: its profile (metadata `profile`, else the actor) and scenario (metadata `scenario`). */
export function keyOf(r: ResultRecord): { profile: string; scenario: string } {
  const meta = r.metadata ?? {};
  const profile = typeof meta.profile === 'string' ? meta.profile : r.result.summary?.mainActor?.name ?? r.id;
  return { profile, scenario: typeof meta.scenario === 'string' ? meta.scenario : '' };
}
