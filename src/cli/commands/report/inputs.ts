import type { ResultRecord } from '../../../core/resources/schemas.js';
import type { Context } from '../../context.js';
import { UsageError } from '../../../errors.js';
import { readOutcome, withoutResult } from '../../../core/jobs/outcome.js';
import { readJobArg, type SavedJson } from '../../../core/jobs/saved-json.js';
import { isTerminal } from '../../../core/jobs/states.js';
import type { ReportJob } from '../../output/html/model.js';
import { readAllProfilesets } from '../../../core/jobs/report-profilesets.js';
import { rankByMean } from '../../../util/stats.js';
import { terminalSafeLine } from '../../../util/safe.js';
import { savedStatWeights } from '../../../domain/statweights/load.js';
import { readStatWeightsMarker } from '../../../domain/job-kind.js';

/**
 * The jobs the arguments name, in order: a job id (local or remote, fetched like `simjob result`), a saved `--json`
 * output (one result resource, or the array of a batch), or `-` for such JSON on stdin.
 */
export async function loadJobs(ctx: Context, args: string[]): Promise<ReportJob[]> {
  if (args.filter((a) => a === '-').length > 1) throw new UsageError('Only one input can come from stdin ("-").');
  const jobs: ReportJob[] = [];
  for (const arg of args) {
    const { id, saved } = await readJobArg(ctx, arg);
    if (saved) for (const job of await fromSaved(ctx, saved)) jobs.push(job);
    else jobs.push(await fromJob(ctx, id));
  }
  return jobs;
}

/**
 * A saved result is shown as saved (no network), and so is a job saved with the record of how it ended (a job that
 * ended without a result). A saved submission (`submit --json` without --wait), or a job still running when it was
 * saved (a batch's --timeout), is looked up by its id.
 */
async function fromSaved(ctx: Context, saved: SavedJson): Promise<ReportJob[]> {
  const origin = saved.file === '-' ? 'stdin' : `file ${saved.file}`;
  const jobs: ReportJob[] = [];
  for (const item of saved.items) {
    if (item.result) jobs.push(summaryJob(item.result, origin));
    else if (item.job.record && isTerminal(item.job.record.status))
      jobs.push(summaryJob(withoutResult(item.job.record), origin));
    else jobs.push(await fromJob(ctx, item.job.id));
  }
  return jobs;
}

function summaryJob(record: ResultRecord, origin: string): ReportJob {
  const sets = record.result.summary?.mainActor?.profilesets;
  const statWeights = savedStatWeights(record);
  const job: ReportJob = { record, profilesets: rankByMean(sets?.results ?? []), count: sets?.count ?? 0, origin };
  if (statWeights) job.statWeights = statWeights;
  return job;
}

/**
 * A job fetched through its backend (one that ended without a result: its job record). When the summary holds only
 * the top of its profilesets, every one is read from the JSON report, as `result --all` does; if that report is
 * gone, the summary's top is shown and the page says so.
 */
async function fromJob(ctx: Context, id: string): Promise<ReportJob> {
  const backend = await ctx.backendFor(id);
  const { data } = await readOutcome(backend, id);
  const job = summaryJob(data, backend.kind === 'local' ? 'a local job' : 'the service');
  if (!job.statWeights && readStatWeightsMarker(data.metadata)) {
    // simc's scale factors are only in the job's JSON report.
    const { attachStatWeights } = await import('../../show-job/statweights.js');
    const { statWeights } = await attachStatWeights(ctx, backend, { raw: data, data, hasResult: true });
    if (statWeights) job.statWeights = statWeights;
  }
  if (job.count > job.profilesets.length) {
    try {
      const all = await readAllProfilesets(backend, data, { signal: ctx.signal, env: ctx.env });
      if (all.length > 0) job.profilesets = all;
    } catch (error) {
      ctx.out.warn(
        `Job ${id}: every profileset could not be read (${terminalSafeLine((error as Error).message)}); the report shows the summary's top ${job.profilesets.length} of ${job.count}.`,
      );
    }
  }
  return job;
}
