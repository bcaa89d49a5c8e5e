import type { StatusRecord } from '../../core/resources/schemas.js';
import { sleep } from '../../util/sleep.js';
import type { Context } from '../context.js';
import { ApiError, ExitCode, SimjobError } from '../../errors.js';
import type { JobBackend } from '../../core/jobs/backend.js';
import { readOutcome, type Outcome } from '../../core/jobs/outcome.js';
import { describeStatus } from '../output/views/status.js';
import { exitCodeForState } from '../../core/jobs/states.js';
import { waitForTerminal } from '../../core/jobs/wait.js';

export interface WaitReportOptions {
  timeoutMs?: number;
  cancelOnInterrupt?: boolean;
  top?: number;
}

/**
 * `--wait` for one job: progress on stderr while it runs, then its result on stdout (for a job that ended without
 * one, its record) and the exit code its outcome calls for: 0 completed, 3 any other end, 8 --timeout, 130 Ctrl-C.
 */
export async function waitAndReport(
  ctx: Context,
  backend: JobBackend,
  id: string,
  options: WaitReportOptions,
): Promise<number> {
  const { createProgress } = await import('../output/progress.js');
  const progress = await createProgress(ctx.out, id, options.cancelOnInterrupt ? 'Ctrl-C cancels the job' : undefined);
  const started = Date.now();
  let last: StatusRecord | undefined;
  try {
    last = await waitForTerminal(backend, id, {
      timeoutMs: options.timeoutMs,
      signal: ctx.signal,
      onStatus: (status, elapsed) => {
        last = status;
        progress.update(status, elapsed);
      },
      onTransientError: (error, retryIn, outage) => progress.transient(error, retryIn, outage),
    });
  } catch (error) {
    progress.stop();
    if (ctx.signal.aborted) return interrupted(ctx, backend, id, last, options.cancelOnInterrupt ?? false);
    throw error;
  }
  progress.done(last, Date.now() - started);
  return reportTerminal(ctx, backend, id, options);
}

/** Ctrl-C: say where the job stands and how to pick it up again (or cancel it, when asked to), then exit 130. */
async function interrupted(
  ctx: Context,
  backend: JobBackend,
  id: string,
  last: StatusRecord | undefined,
  cancel: boolean,
): Promise<number> {
  const say = (text: string) => ctx.out.err(`${text}\n`);
  if (!cancel) {
    const seen = last ? ` (last seen ${describeStatus(last)})` : '';
    say(`Stopped waiting; job ${id} keeps running${seen}. Pick it up again with: simjob status ${id} --wait`);
    return ExitCode.INTERRUPTED;
  }
  try {
    const answer = await cancelDetached(ctx, backend, id);
    say(
      answer.data.status === 'cancel_requested'
        ? `Stopped waiting and requested cancellation of job ${id}; it stops shortly (check with: simjob status ${id}).`
        : `Stopped waiting and cancelled job ${id}.`,
    );
  } catch (error) {
    const why = error instanceof SimjobError ? error.message : String(error);
    say(`Stopped waiting, but could not cancel job ${id}: ${why} Cancel it with: simjob cancel ${id}`);
  }
  return ExitCode.INTERRUPTED;
}

/**
 * Cancel after Ctrl-C. The backend's requests are tied to the Ctrl-C signal (aborted by now), so a remote cancel
 * goes through a client of its own with a short deadline; a second Ctrl-C still exits at once (cli.ts).
 */
export async function cancelDetached(ctx: Context, backend: JobBackend, id: string) {
  if (backend.kind !== 'remote') return backend.cancel(id);
  const detached = await ctx.remoteClient({ signal: AbortSignal.timeout(15_000) });
  return detached.cancel(id);
}

/**
 * The result of a job the status endpoint called terminal. The result endpoint may lag the status by a moment
 * (409 result_not_ready): asked again a few times. A job that ended without a result is shown from its job record.
 */
export async function fetchOutcome(backend: JobBackend, id: string, signal?: AbortSignal): Promise<Outcome> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await readOutcome(backend, id);
    } catch (error) {
      if (!(error instanceof ApiError) || error.code !== 'result_not_ready' || attempt >= 5) throw error;
      await sleep(1000, signal);
    }
  }
}

async function reportTerminal(
  ctx: Context,
  backend: JobBackend,
  id: string,
  options: WaitReportOptions,
): Promise<number> {
  const shown = await fetchOutcome(backend, id, ctx.signal);
  const { attachAnswers } = await import('./answers.js');
  const { statWeights, raw, failed } = await attachAnswers(ctx, backend, shown);
  if (ctx.out.json) ctx.out.printJson(raw);
  else {
    const { printResult } = await import('../output/views/result.js');
    const notifications = shown.hasResult ? ((await backend.notifications?.(id)) ?? []) : [];
    printResult(ctx.out, shown.data, { top: options.top, notifications, statWeights });
  }
  const code = exitCodeForState(shown.data.status);
  return failed && code === ExitCode.OK ? ExitCode.ERROR : code;
}
