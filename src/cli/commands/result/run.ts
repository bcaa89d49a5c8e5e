import type { Context } from '../../context.js';
import type { ResultOptions } from './command.js';
import { ExitCode, UsageError } from '../../../errors.js';
import { exitCodeForState } from '../../../core/jobs/states.js';
import { checkJobId } from '../../../core/jobs/ids.js';
import { readOutcome } from '../../../core/jobs/outcome.js';

/**
 * Exit code follows the job: 0 completed, 3 failed/cancelled/timed_out (so `simjob result ID && deploy` is safe). A job
 * that ended without a result is shown from its job record (--json: that record), as `status --wait` shows it.
 */
export async function run(ctx: Context, [rawId]: string[], options: ResultOptions): Promise<number> {
  const id = checkJobId(rawId);
  if (options.all && ctx.out.json) {
    throw new UsageError(
      '--all and --json do not go together: --json prints the API resource as it is.',
      `For every profileset as JSON, download the report: simjob artifacts ${id} --download --kind json_report`,
    );
  }
  if (options.all && options.top !== undefined)
    throw new UsageError('--all and --top do not go together: --all shows every profileset.');
  const backend = await ctx.backendFor(id);
  const shown = await readOutcome(backend, id);
  const { attachAnswers } = await import('../../show-job/answers.js');
  const { statWeights, raw, failed } = await attachAnswers(ctx, backend, shown);
  const exit = (code: number) => (failed && code === ExitCode.OK ? ExitCode.ERROR : code);
  if (ctx.out.json) {
    ctx.out.printJson(raw);
    return exit(exitCodeForState(shown.data.status));
  }
  const { printResult } = await import('../../output/views/result.js');
  let all;
  // A job without profilesets (or without a summary: it failed) has nothing more in its report to list.
  if (options.all && shown.data.result.summary?.mainActor?.profilesets) {
    const { readAllProfilesets } = await import('../../../core/jobs/report-profilesets.js');
    all = await readAllProfilesets(backend, shown.data, { signal: ctx.signal, env: ctx.env });
  }
  const notifications = shown.hasResult ? ((await backend.notifications?.(id)) ?? []) : [];
  printResult(ctx.out, shown.data, {
    top: options.all ? Number.POSITIVE_INFINITY : options.top,
    all,
    notifications,
    statWeights,
  });
  return exit(exitCodeForState(shown.data.status));
}
