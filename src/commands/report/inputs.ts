import { readFile, stat } from 'node:fs/promises';
import * as z from 'zod/mini';
import { ResultRecord } from '../../api/schemas.js';
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import type { ReportJob } from '../../output/html/model.js';
import { readAllProfilesets } from '../../output/report-profilesets.js';
import { rankByMean } from '../../output/stats.js';
import { terminalSafeLine } from '../../output/safe.js';
import { readAll } from '../../util/prompt.js';
import { checkJobId } from '../../jobs/ids.js';

const SAVE_HINT = 'Save a result with: simjob result <id> --json > result.json (or submit … --wait --json for a batch).';

/**
 * The jobs the arguments name, in order: a job id (local or remote, fetched like `simjob result`), a saved `--json`
 * output (one result resource, or the array of a batch), or `-` for such JSON on stdin.
 */
export async function loadJobs(ctx: Context, args: string[]): Promise<ReportJob[]> {
  if (args.filter((a) => a === '-').length > 1) throw new UsageError('Only one input can come from stdin ("-").');
  const jobs: ReportJob[] = [];
  for (const arg of args) {
    if (arg === '-') jobs.push(...(await fromJson(ctx, await readAll(ctx.stdin), 'stdin')));
    else if (await isFile(arg)) jobs.push(...(await fromJson(ctx, await readFile(arg, 'utf8'), arg)));
    else if (/\.json$/i.test(arg) || arg.includes('/') || arg.includes('\\')) throw new UsageError(`No such file: ${terminalSafeLine(arg)}.`, SAVE_HINT);
    else jobs.push(await fromJob(ctx, checkJobId(arg)));
  }
  return jobs;
}

async function isFile(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile();
  } catch {
    return false;
  }
}

/** A saved result is shown as saved (no network). A saved submission (`submit --json` without --wait) is looked up by its id. */
async function fromJson(ctx: Context, source: string, name: string): Promise<ReportJob[]> {
  const shown = terminalSafeLine(name);
  let doc: unknown;
  try {
    doc = JSON.parse(source);
  } catch (error) {
    throw new UsageError(`${shown} is not JSON: ${(error as Error).message}.`, SAVE_HINT);
  }
  const items = Array.isArray(doc) ? doc : [doc];
  if (items.length === 0) throw new UsageError(`${shown} holds an empty list: no jobs to report on.`, SAVE_HINT);
  const jobs: ReportJob[] = [];
  for (const [i, item] of items.entries()) {
    const where = Array.isArray(doc) ? `${shown}[${i}]` : shown;
    const parsed = z.safeParse(ResultRecord, item);
    if (parsed.success) {
      jobs.push(summaryJob(parsed.data, name === 'stdin' ? 'stdin' : `file ${name}`));
      continue;
    }
    const id = (item as { id?: unknown } | null)?.id;
    if (typeof id === 'string' && !(item as { result?: unknown }).result) {
      jobs.push(await fromJob(ctx, checkJobId(id)));
      continue;
    }
    throw new UsageError(`${where} is not a job result (the resource of simjob result <id> --json).`, SAVE_HINT);
  }
  return jobs;
}

function summaryJob(record: ResultRecord, origin: string): ReportJob {
  const sets = record.result.summary?.mainActor?.profilesets;
  return { record, profilesets: rankByMean(sets?.results ?? []), count: sets?.count ?? 0, origin };
}

/**
 * A job fetched through its backend. When the summary holds only the top of its profilesets, every one is read from
 * the JSON report, as `result --all` does; if that report is gone, the summary's top is shown and the page says so.
 */
async function fromJob(ctx: Context, id: string): Promise<ReportJob> {
  const backend = await ctx.backendFor(id);
  const { data } = await backend.result(id);
  const job = summaryJob(data, backend.kind === 'local' ? 'a local job' : 'the service');
  if (job.count > job.profilesets.length) {
    try {
      const all = await readAllProfilesets(backend, data, { signal: ctx.signal, env: ctx.env });
      if (all.length > 0) job.profilesets = all;
    } catch (error) {
      ctx.out.warn(`Job ${id}: every profileset could not be read (${terminalSafeLine((error as Error).message)}); the report shows the summary's top ${job.profilesets.length} of ${job.count}.`);
    }
  }
  return job;
}
