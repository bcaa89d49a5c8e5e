import type { JobList, JobListItem } from '../../../core/resources/schemas.js';
import type { Context } from '../../context.js';
import type { JobsOptions } from './command.js';
import { ApiError, UsageError } from '../../../errors.js';
import { colourState } from '../../output/ansi.js';
import { formatTime } from '../../../util/format.js';
import { printTable } from '../../output/table.js';
import { jobInWords } from '../../output/job-words.js';

/** Safety stop for --all: 100 pages of up to 100 jobs. */
const MAX_PAGES = 100;

export async function run(ctx: Context, _args: string[], options: JobsOptions): Promise<void> {
  if (options.limit !== undefined && options.limit > 100) throw new UsageError('--limit must be between 1 and 100.');
  const backend = await ctx.backend(options.local);
  const first = await backend.list({ limit: options.limit, cursor: options.cursor }).catch((error: unknown) => {
    // The service checks cursors itself: a 400 to a page asked with --cursor is that flag's value (exit 2, as locally).
    if (options.cursor !== undefined && error instanceof ApiError && error.status === 400) {
      throw new UsageError(
        `--cursor ${options.cursor} is not a cursor of \`simjob jobs\` (${error.code ?? 'HTTP 400'}).`,
        'Use the page.nextCursor of the previous page.',
      );
    }
    throw error;
  });
  let page: JobList = first.data;
  const jobs: JobListItem[] = [...page.jobs];
  let raw = first.raw as { jobs: unknown[]; page?: unknown };
  if (options.all) {
    const rawJobs = [...raw.jobs];
    for (let n = 1; page.page?.hasMore && page.page.nextCursor && n < MAX_PAGES; n++) {
      const next = await backend.list({ limit: options.limit, cursor: page.page.nextCursor });
      page = next.data;
      jobs.push(...page.jobs);
      rawJobs.push(...(next.raw as { jobs: unknown[] }).jobs);
      raw = { ...(next.raw as object), jobs: rawJobs } as typeof raw;
    }
  }
  if (ctx.out.json) return ctx.out.printJson(raw);
  if (jobs.length === 0) {
    ctx.out.notice('No jobs.');
    return;
  }
  const words = new Map(jobs.map((j) => [j, jobInWords(j.metadata)]));
  printTable(ctx.out, jobs, [
    { header: 'ID', value: (j) => j.id },
    // The error code beside its state, and no Completed column (status and --json have it): room for what the job is.
    {
      header: 'Status',
      value: (j) => (j.errorCode ? `${j.status} (${j.errorCode})` : j.status),
      style: (text, j) => text.replace(j.status, colourState(ctx.out.c, j.status)),
    },
    { header: 'Created', value: (j) => formatTime(j.createdAt) ?? '' },
    { header: 'Job', value: (j) => words.get(j)?.what ?? '', shrinkable: true },
    ...(jobs.some((j) => words.get(j)?.other)
      ? [{ header: 'Metadata', value: (j: JobListItem) => words.get(j)?.other ?? '' }]
      : []),
  ]);
  if (!options.all && page.page?.hasMore && page.page.nextCursor) {
    const local = backend.kind === 'local' ? ' --local' : ''; // the cursor is the local store's, not the service's
    ctx.out.notice(
      `More jobs: simjob jobs${local} --cursor ${page.page.nextCursor}${options.limit ? ` --limit ${options.limit}` : ''} (or --all)`,
    );
  }
}
