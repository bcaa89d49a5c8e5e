import { writeFileReplacing } from '../../../util/write-file.js';
import { resolve } from 'node:path';
import type { Context } from '../../context.js';
import type { ReportOptions } from './command.js';
import { ExitCode, UsageError } from '../../../errors.js';
import { exitCodeForState } from '../../../core/jobs/states.js';
import { formatNumber } from '../../../util/format.js';
import { DEFAULT_TOP } from '../../output/views/result.js';
import { terminalSafeLine } from '../../../util/safe.js';
import { VERSION } from '../../../version.js';
import { loadJobs } from './inputs.js';
import { browserFor, launch } from './open.js';

/**
 * `simjob report <job-id | results.json>…`: one self-contained HTML page for one job, a batch, a scenario matrix or a
 * comparison. Exit code follows the jobs, as `simjob result` does: 3 when any of them ended unsuccessfully.
 */
export async function run(ctx: Context, args: string[], options: ReportOptions): Promise<number> {
  const jobs = await loadJobs(ctx, args);
  const { renderReport } = await import('../../output/html/page.js');
  const html = renderReport(jobs, {
    top: options.top ?? DEFAULT_TOP,
    generatedAt: new Date(),
    generator: `simjob ${VERSION}`,
  });
  const path = resolve(ctx.cwd, options.output ?? defaultName(jobs.map((j) => j.record.id)));
  try {
    await writeFileReplacing(path, html);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why =
      code === 'ENOENT'
        ? 'its folder does not exist'
        : code === 'EACCES' || code === 'EPERM'
          ? 'permission denied'
          : code === 'EISDIR'
            ? 'it is a folder'
            : (error as Error).message;
    throw new UsageError(
      `Cannot write the report to ${terminalSafeLine(path)}: ${why}.`,
      'Choose another file with -o <file.html>.',
    );
  }
  const bytes = Buffer.byteLength(html);
  const opener = options.open ? browserFor(path, ctx.env) : undefined;
  if (opener && 'command' in opener) launch(opener);

  if (ctx.out.json) {
    ctx.out.printJson({
      path,
      bytes,
      jobs: jobs.map((j) => j.record.id),
      opened: Boolean(opener && 'command' in opener),
    });
  } else {
    const sets = jobs.reduce((n, j) => n + j.profilesets.length, 0);
    ctx.out.line(
      ctx.out.quiet
        ? path
        : `Wrote ${terminalSafeLine(path)} (${formatNumber(bytes / 1024, 0)} KB): ${jobs.length} job${jobs.length === 1 ? '' : 's'}, ${formatNumber(sets)} profileset${sets === 1 ? '' : 's'}.`,
    );
    if (opener && 'none' in opener)
      ctx.out.notice(`Not opened: ${opener.none}. Open ${terminalSafeLine(path)} in a browser.`);
    else if (opener) ctx.out.notice('Opened it in the browser.');
  }
  return jobs.reduce<number>((worst, j) => Math.max(worst, exitCodeForState(j.record.status)), ExitCode.OK);
}

/** simjob-report-<id>.html, or simjob-report-<first id>-<n>-jobs.html for several, in the current folder. */
function defaultName(ids: string[]): string {
  const first = (ids[0] ?? 'jobs').replace(/[^\w.-]/g, '_');
  return ids.length === 1 ? `simjob-report-${first}.html` : `simjob-report-${first}-${ids.length}-jobs.html`;
}
