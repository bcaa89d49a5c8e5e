import type { ResultRecord, StatusRecord } from '../../core/resources/schemas.js';
import { sleep } from '../../util/sleep.js';
import type { Context } from '../context.js';
import { ApiError, AuthError, ExitCode, NetworkError, SimjobError, WaitTimeoutError } from '../../errors.js';
import type { JobBackend, Submitted } from '../../core/jobs/backend.js';
import { exitCodeForState, isTerminal } from '../../core/jobs/states.js';
import { waitForTerminal } from '../../core/jobs/wait.js';
import { withoutResult } from '../../core/jobs/outcome.js';
import type { BatchItem, BatchProgress } from '../output/batch-progress.js';
import { terminalSafeLine } from '../../util/safe.js';
import { printBatchSummary } from '../output/views/batch-summary.js';
import { printScenarioMatrix } from '../output/views/scenario-matrix.js';
import type { BatchReportRow } from './reports.js';
import { submitOne, type PreparedSubmission, type SubmitOptions } from './send.js';
import { scenarioLabel } from '../../util/format.js';
import type { StatWeights } from '../../domain/statweights/weights.js';
import { printRoster } from '../output/views/statweights.js';
import { anySynthetic, warnSynthetic } from '../output/synthetic.js';

/** Profiles of one batch in flight at once, unless --concurrency says otherwise. */
const DEFAULT_CONCURRENCY = 4;
/** Backoff for a 429 that came without Retry-After. */
const LIMIT_BACKOFF_MS = [2_000, 5_000, 10_000, 20_000, 30_000];

interface Entry extends BatchItem {
  p: PreparedSubmission;
  submitted?: Submitted;
  /** The submission failed for good. */
  submitError?: unknown;
  /** The wait for it failed (not a timeout, not Ctrl-C). */
  waitError?: unknown;
  timedOut?: boolean;
  /** The result resource, or the job record of a job without a result (raw: what --json prints). */
  outcome?: { raw: unknown; data: ResultRecord };
  /** simc's warnings from its report (a local job's), shown under the summary as a single job's are under its result. */
  notifications?: readonly string[];
  /** A stat-weights job's weights (show-job/statweights.ts); `statWeightsFailed` when they could not be read. */
  statWeights?: StatWeights;
  statWeightsFailed?: boolean;
}

/**
 * Several profiles: at most --concurrency of them in flight at once (submitted and, with --wait, not yet ended).
 * A full in-flight limit or rate limit (429) is waited out and the submission repeated with the SAME idempotency
 * key, so no profile ever becomes two jobs. Every accepted job id is printed on stderr as soon as it is known. With
 * --wait: one summary table (or one JSON array) at the end, and the exit code of the worst outcome.
 */
/** One job of a batch as it ended, for a command that shows a batch its own way (droptimizer's roster). */
export interface BatchOutcome {
  profileName: string;
  id?: string;
  /** How it ended, in words: `completed`, `failed (simc_error)`, `not submitted`, `still running`. */
  state: string;
  exitCode: number;
  record?: ResultRecord;
}

/** Shows a waited-for batch in place of the summary table, its --json and its --report files. */
export type BatchPresenter = (outcomes: BatchOutcome[]) => Promise<void>;

export async function submitBatch(
  ctx: Context,
  backend: JobBackend,
  prepared: PreparedSubmission[],
  options: SubmitOptions,
  present?: BatchPresenter,
): Promise<number> {
  const entries: Entry[] = prepared.map((p) => ({ p, label: labelOf(p) }));
  const limit = Math.min(options.concurrency ?? DEFAULT_CONCURRENCY, entries.length);
  const deadline = options.timeout === undefined ? undefined : Date.now() + options.timeout;
  const started = Date.now();
  const { createBatchProgress } = await import('../output/batch-progress.js');
  const progress = await createBatchProgress(ctx.out, entries);
  const plainNoWait = !options.wait && !ctx.out.json;
  let next = 0;
  let stopAll: unknown;

  const expired = () => deadline !== undefined && Date.now() >= deadline;
  const worker = async () => {
    while (next < entries.length && !ctx.signal.aborted && stopAll === undefined && !expired()) {
      const entry = entries[next++]!;
      await submitEntry(ctx, backend, entry, options, progress, deadline, plainNoWait);
      if (entry.submitError !== undefined) {
        entry.settled = true;
        if (isFatal(entry.submitError)) stopAll = entry.submitError;
        continue;
      }
      if (options.wait && entry.id) await followEntry(ctx, backend, entry, progress, deadline, started);
    }
  };
  await Promise.all(Array.from({ length: limit }, worker));
  progress.stop();

  if (ctx.signal.aborted) return interrupted(ctx, backend, entries, options);
  // A fatal error (the key was refused, the service unreachable) stopped the batch: the rest were never sent.
  for (const entry of entries)
    if (!entry.id && entry.submitError === undefined)
      entry.submitError = stopAll ?? new WaitTimeoutError('not submitted before --timeout ran out');

  if (!options.wait) {
    if (ctx.out.json) ctx.out.printJson(entries.filter((e) => e.submitted).map((e) => e.submitted!.raw));
    return worstOf(entries.map(exitOf));
  }
  await recordUnfinished(backend, entries);
  if (present) {
    warnNotifications(ctx, entries);
    const outcomes = entries.map((e) => ({
      profileName: e.p.profileName,
      id: e.id,
      state: stateOf(e),
      exitCode: exitOf(e),
      record: e.timedOut ? undefined : e.outcome?.data,
    }));
    await present(outcomes);
  } else if (ctx.out.json) ctx.out.printJson(entries.filter((e) => e.outcome).map((e) => e.outcome!.raw));
  else printSummary(ctx, entries, options);
  if (options.report?.length && !present) {
    const { writeBatchReports } = await import('./reports.js');
    await writeBatchReports(
      options.report,
      entries.map((e) => reportRow(e)),
    );
  }
  const unfinished = entries.filter((e) => e.timedOut);
  if (unfinished.length) {
    ctx.out.err(
      `--timeout ran out; ${unfinished.length === 1 ? 'this job keeps' : 'these jobs keep'} running (pick up with simjob status ID --wait):\n${unfinished.map((e) => `  ${e.label}  ${e.id}\n`).join('')}`,
    );
  }
  return worstOf(entries.map(exitOf));
}

async function submitEntry(
  ctx: Context,
  backend: JobBackend,
  entry: Entry,
  options: SubmitOptions,
  progress: BatchProgress,
  deadline: number | undefined,
  plainNoWait: boolean,
): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      const { submitted, id } = await submitOne(backend, entry.p, options);
      entry.submitted = submitted;
      entry.id = id;
      const replay = submitted.replay ? ' (replay of the job with this idempotency key)' : '';
      if (plainNoWait)
        ctx.out.line(
          `${terminalSafeLine(entry.p.profile.source)}${entry.p.scenario ? `\t${terminalSafeLine(entry.p.scenario.label)}` : ''}\t${entry.id}${submitted.replay ? '\t(replay)' : ''}`,
        );
      else progress.accepted(entry, `${entry.label}: submitted as job ${entry.id}${replay}`);
      return;
    } catch (error) {
      if (ctx.signal.aborted) return;
      if (!(error instanceof ApiError && error.status === 429)) {
        entry.submitError = error;
        progress.note(`${entry.label}: not submitted: ${describe(error)}`);
        return;
      }
      const wait = Math.max(
        error.retryAfterMs ?? LIMIT_BACKOFF_MS[Math.min(attempt, LIMIT_BACKOFF_MS.length - 1)]!,
        1_000,
      );
      if (deadline !== undefined && Date.now() + wait > deadline) {
        entry.submitError = new WaitTimeoutError(`${error.message} --timeout runs out before the service takes it.`);
        progress.note(
          `${entry.label}: not submitted: --timeout runs out before the service takes it (${error.code ?? 429}).`,
        );
        return;
      }
      const why =
        error.code === 'max_active_jobs_exceeded'
          ? `the account's limit of jobs in flight is reached${activeText(error)}`
          : `rate limited (${error.code ?? '429'})`;
      progress.note(
        `${entry.label}: ${why}; submitting again in ${Math.ceil(wait / 1000)} s with the same idempotency key.`,
      );
      try {
        await sleep(wait, ctx.signal);
      } catch {
        return;
      }
    }
  }
}

async function followEntry(
  ctx: Context,
  backend: JobBackend,
  entry: Entry,
  progress: BatchProgress,
  deadline: number | undefined,
  started: number,
): Promise<void> {
  const id = entry.id!;
  try {
    await waitForTerminal(backend, id, {
      signal: ctx.signal,
      timeoutMs: deadline === undefined ? undefined : Math.max(0, deadline - Date.now()),
      onStatus: (status) => {
        entry.status = status;
        entry.statusAt = Date.now();
        progress.update(entry, Date.now() - started);
      },
      onTransientError: (error, retryIn) => progress.transient(entry, error, retryIn),
    });
    const { fetchOutcome } = await import('../show-job/wait-command.js');
    const outcome = await fetchOutcome(backend, id, ctx.signal);
    const { attachStatWeights } = await import('../show-job/statweights.js');
    const weighed = await attachStatWeights(ctx, backend, outcome);
    entry.outcome = { ...outcome, raw: weighed.raw };
    entry.statWeights = weighed.statWeights;
    entry.statWeightsFailed = weighed.failed;
    if (outcome.hasResult) entry.notifications = (await backend.notifications?.(id)) ?? [];
  } catch (error) {
    if (ctx.signal.aborted) return;
    if (error instanceof WaitTimeoutError) entry.timedOut = true;
    else {
      entry.waitError = error;
      progress.note(`${entry.label} (${id}): ${describe(error)}`);
    }
  } finally {
    entry.settled = true;
    progress.update(entry, Date.now() - started);
  }
}

/** Jobs still in flight when --timeout ran out: their job records go into --json, like those of jobs without a result. */
async function recordUnfinished(backend: JobBackend, entries: Entry[]): Promise<void> {
  for (const entry of entries.filter((e) => e.timedOut && e.id)) {
    try {
      const job = await backend.job(entry.id!);
      entry.status = { ...job.data, status: job.data.status } as StatusRecord;
      entry.outcome = { raw: job.raw, data: withoutResult(job.data) };
    } catch {
      // The summary still names the job; its record is one `simjob status` away.
    }
  }
}

/** Ctrl-C: nothing is lost. Say which jobs keep running (or cancel them, when asked) and which were never sent. */
async function interrupted(
  ctx: Context,
  backend: JobBackend,
  entries: Entry[],
  options: SubmitOptions,
): Promise<number> {
  const say = (text: string) => ctx.out.err(`${text}\n`);
  const live = entries.filter((e) => e.id && !(e.outcome || (e.status && isTerminal(e.status.status))));
  const unsent = entries.filter((e) => !e.id && e.submitError === undefined);
  if (!ctx.out.json && options.wait) printSummary(ctx, entries, options);
  if (options.cancelOnInterrupt && live.length) {
    const { cancelDetached } = await import('../show-job/wait-command.js');
    say(`Stopped waiting; cancelling ${live.length} job${live.length === 1 ? '' : 's'}:`);
    for (const e of live) {
      const answer = await cancelDetached(ctx, backend, e.id!).then(
        (r) => r.data.status,
        (error: unknown) => `not cancelled: ${describe(error)}`,
      );
      say(`  ${e.label}  ${e.id}  ${answer}`);
    }
  } else if (live.length) {
    say(
      `Stopped waiting. ${live.length === 1 ? 'This job keeps' : 'These jobs keep'} running; pick each up with: simjob status ID --wait`,
    );
    for (const e of live) say(`  ${e.label}  ${e.id}  ${e.status?.status ?? 'submitted'}`);
  } else {
    say('Stopped.');
  }
  if (unsent.length) say(`Not submitted: ${unsent.map((e) => e.label).join(', ')}`);
  return ExitCode.INTERRUPTED;
}

/** `alpha.simc`, or `alpha.simc [DungeonSlice]` for a job of a scenario. */
function labelOf(p: PreparedSubmission): string {
  return scenarioLabel({ profile: p.profileName, scenario: p.scenario?.label });
}

function stateOf(e: Entry): string {
  if (e.timedOut) return `still ${e.status?.status ?? 'running'}`;
  if (e.submitError !== undefined) return 'not submitted';
  if (e.waitError !== undefined) return 'wait failed';
  if (e.outcome)
    return e.outcome.data.errorCode ? `${e.outcome.data.status} (${e.outcome.data.errorCode})` : e.outcome.data.status;
  return e.status?.status ?? (e.id ? 'submitted' : 'not submitted');
}

function reportRow(e: Entry): BatchReportRow {
  const why = e.submitError ?? e.waitError;
  return {
    profile: e.p.profileName,
    scenario: e.p.scenario?.label,
    id: e.id,
    outcome: e.timedOut ? undefined : e.outcome?.data,
    state: stateOf(e),
    exitCode: exitOf(e),
    reason:
      why !== undefined ? describe(why) : e.timedOut ? '--timeout ran out while the job was still running' : undefined,
  };
}

function printSummary(ctx: Context, entries: Entry[], options: SubmitOptions): void {
  warnSynthetic(ctx.out, anySynthetic(entries.map((e) => e.outcome?.data)));
  printTable(ctx, entries, options);
  printStatWeightsOf(ctx, entries);
  warnNotifications(ctx, entries);
}

function warnNotifications(ctx: Context, entries: Entry[]): void {
  for (const e of entries)
    for (const note of e.notifications ?? []) ctx.out.warn(`${e.label}: simc notification: ${terminalSafeLine(note)}`);
}

/** A roster of stat-weights jobs: one character × stat table and a Pawn string each (one job: its own table). */
function printStatWeightsOf(ctx: Context, entries: Entry[]): void {
  const weighed = entries.filter((e) => e.statWeights);
  if (weighed.length === 0) return;
  printRoster(
    ctx.out,
    weighed.map((e) => ({ scenario: e.p.scenario?.label, weights: e.statWeights! })),
  );
}

function printTable(ctx: Context, entries: Entry[], options: SubmitOptions): void {
  if (entries.some((e) => e.p.scenario)) {
    printScenarioMatrix(
      ctx.out,
      entries.map((e) => ({
        profile: e.p.profileName,
        scenario: e.p.scenario?.label ?? '',
        id: e.id,
        outcome: e.timedOut ? undefined : e.outcome?.data,
        state: stateOf(e),
      })),
      options.top,
    );
    return;
  }
  printBatchSummary(
    ctx.out,
    entries.map((e) => ({
      label: e.label,
      id: e.id,
      outcome: e.timedOut ? undefined : e.outcome?.data,
      state: e.timedOut
        ? `still ${e.status?.status ?? 'running'}`
        : (e.status?.status ?? (e.id ? 'submitted' : 'not submitted')),
      problem: e.submitError !== undefined ? 'not submitted' : e.waitError !== undefined ? 'wait failed' : undefined,
    })),
  );
}

function activeText(error: ApiError): string {
  const meta = error.meta ?? {};
  return typeof meta.activeJobs === 'number' && typeof meta.maxActiveJobs === 'number'
    ? ` (${meta.activeJobs}/${meta.maxActiveJobs})`
    : '';
}

function describe(error: unknown): string {
  if (error instanceof SimjobError) return `${error.message}${error.hint ? ` ${error.hint}` : ''}`;
  return error instanceof Error ? error.message : String(error);
}

/** Errors that would fail every other submission the same way: stop sending, keep following what was accepted. */
function isFatal(error: unknown): boolean {
  return (
    error instanceof AuthError ||
    error instanceof NetworkError ||
    (error instanceof ApiError && (error.status === 401 || error.status === 403))
  );
}

function exitOf(entry: Entry): number {
  if (entry.submitError !== undefined)
    return entry.submitError instanceof SimjobError ? entry.submitError.exitCode : ExitCode.ERROR;
  if (entry.waitError !== undefined)
    return entry.waitError instanceof SimjobError ? entry.waitError.exitCode : ExitCode.ERROR;
  if (entry.timedOut) return ExitCode.WAIT_TIMEOUT;
  if (entry.statWeightsFailed && entry.outcome?.data.status === 'completed') return ExitCode.ERROR;
  if (entry.outcome) return exitCodeForState(entry.outcome.data.status);
  return ExitCode.OK;
}

/** Severity, least to worst: completed, job unsuccessful, timed out waiting, error, auth, bad input. */
const SEVERITY: readonly number[] = [
  ExitCode.OK,
  ExitCode.JOB_UNSUCCESSFUL,
  ExitCode.WAIT_TIMEOUT,
  ExitCode.ERROR,
  ExitCode.AUTH,
  ExitCode.USAGE,
];

function worstOf(codes: number[]): number {
  return codes.reduce(
    (worst, code) => (SEVERITY.indexOf(code) > SEVERITY.indexOf(worst) ? code : worst),
    ExitCode.OK as number,
  );
}
