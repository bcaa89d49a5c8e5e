import type { StatusRecord } from '../api/schemas.js';
import type { Context } from '../context.js';
import { ApiError, ExitCode, InterruptedError } from '../errors.js';
import { printResult } from '../output/views/result.js';
import { describeStatus } from '../output/views/status.js';
import type { JobBackend } from './backend.js';
import { exitCodeForState } from './states.js';
import { waitForTerminal } from './wait.js';

export interface WaitReportOptions {
  timeoutMs?: number;
  cancelOnInterrupt?: boolean;
  top?: number;
}

/**
 * `--wait` for one job: show progress on stderr while it runs, then print its result (or, for a job that ended
 * without one, its record) and return the exit code its outcome calls for.
 */
export async function waitAndReport(ctx: Context, backend: JobBackend, id: string, options: WaitReportOptions): Promise<number> {
  const { createProgress } = await import('../output/progress.js');
  const progress = createProgress(ctx.out, id);
  let last: StatusRecord | undefined;
  try {
    last = await waitForTerminal(backend, id, {
      timeoutMs: options.timeoutMs,
      signal: ctx.signal,
      onStatus: (status, elapsed) => {
        last = status;
        progress.update(status, elapsed);
      },
      onTransientError: (error, retryIn) => progress.transient(error, retryIn),
    });
    progress.done(last);
  } catch (error) {
    progress.stop();
    if (error instanceof InterruptedError || ctx.signal.aborted) return interrupted(ctx, backend, id, last, options);
    throw error;
  }
  return reportTerminal(ctx, backend, id, last, options);
}

async function interrupted(ctx: Context, backend: JobBackend, id: string, last: StatusRecord | undefined, options: WaitReportOptions): Promise<number> {
  if (options.cancelOnInterrupt) {
    const answer = await backend.cancel(id);
    ctx.out.notice(`Stopped waiting and cancelled job ${id} (${answer.data.status}).`);
  } else {
    ctx.out.notice(`Stopped waiting. Job ${id} is still ${last?.status ?? 'in progress'}; pick it up again with: simjob status ${id} --wait`);
  }
  return ExitCode.INTERRUPTED;
}

async function reportTerminal(ctx: Context, backend: JobBackend, id: string, status: StatusRecord, options: WaitReportOptions): Promise<number> {
  try {
    const result = await backend.result(id);
    if (ctx.out.json) ctx.out.printJson(result.raw);
    else printResult(ctx.out, result.data, { top: options.top ?? 20 });
    return exitCodeForState(result.data.status);
  } catch (error) {
    if (!(error instanceof ApiError && error.code === 'result_unavailable')) throw error;
    const job = await backend.job(id);
    if (ctx.out.json) ctx.out.printJson(job.raw);
    else ctx.out.line(`Job ${id} ended ${describeStatus(status)}${status.statusReason ? `: ${status.statusReason}` : ''}`);
    return exitCodeForState(job.data.status);
  }
}
