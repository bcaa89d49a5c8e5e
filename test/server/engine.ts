/**
 * The job lifecycle (spec §3, notes §7), driven by the clock as a discrete-event simulation: every request first
 * catches the engine up to "now", so a job's state depends only on the clock, never on how often it is polled.
 *
 *   pending ─(pendingMs)→ queued ─(eligible after queueMs, a free slot: priority, then submission order)→ starting
 *   ─(startingMs)→ running ─(runMs)→ completed | failed | timed_out;  queued past maxQueueSeconds → cancelled
 *   (errorCode queue_timeout); cancel → cancelled (user_cancelled); outcome `retried` → back to queued once.
 */
import { VCPUS, type Account, type Accounts } from './accounts.js';
import { buildFor } from './builds.js';
import { ApiFailure } from './http.js';
import { newId } from './ids.js';
import { completedResult, logsOnlyResult } from './results.js';
import type { Clock } from './clock.js';
import type { ErrorCode, Job, JobPlan, Settings, Submission, SubmitWarning, TerminalState } from './types.js';

const PRIORITY_RANK = { high: 0, standard: 1, background: 2 } as const;
const DAY_MS = 86_400_000;

export type CancelAnswer =
  | { success: true; id: string; status: 'cancelled' }
  | { success: true; id: string; status: 'cancel_requested'; cancelRequestedAt: string };

interface Ending {
  status: TerminalState;
  errorCode: ErrorCode | null;
  reason: string | null;
  exit: string | null;
  result: 'full' | 'logs' | 'none';
}

const ENDINGS: Record<
  'completed' | 'failed' | 'simulation_error' | 'execution_failed' | 'timed_out' | 'max_credits',
  Ending
> = {
  max_credits: {
    status: 'timed_out',
    errorCode: 'max_credits_reached',
    reason: 'The job reached its credit budget (runtime.maxCredits) and was stopped.',
    exit: null,
    result: 'logs',
  },
  completed: { status: 'completed', errorCode: null, reason: null, exit: '0', result: 'full' },
  failed: {
    status: 'failed',
    errorCode: 'execution_failed',
    reason: 'The simulation worker failed while running the job.',
    exit: null,
    result: 'logs',
  },
  execution_failed: {
    status: 'failed',
    errorCode: 'execution_failed',
    reason: 'The job failed before producing any output.',
    exit: null,
    result: 'none',
  },
  simulation_error: {
    status: 'failed',
    errorCode: 'simulation_error',
    reason: 'SimulationCraft exited with an error: see stderr_log.',
    exit: '1',
    result: 'logs',
  },
  timed_out: {
    status: 'timed_out',
    errorCode: 'execution_timeout',
    reason: 'The job exceeded its maximum runtime.',
    exit: null,
    result: 'logs',
  },
};

export class Engine {
  readonly jobs = new Map<string, Job>();
  private readonly live = new Set<Job>();
  private cursor: number;
  private seq = 0;
  private timer: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(
    private readonly clock: Clock,
    private readonly settings: Settings,
    private readonly accounts: Accounts,
    private readonly onTerminal: (job: Job) => void,
  ) {
    this.cursor = clock.now();
    clock.onAdvance(() => this.advance());
  }

  create(
    account: Account,
    submission: Submission,
    plan: JobPlan,
    inputText: string,
    warnings: SubmitWarning[],
    reserve: number,
    fee: number,
  ): Job {
    this.advance();
    const now = this.clock.now();
    const pendingUntil = now + this.settings.pendingMs;
    const job: Job = {
      id: newId(),
      seq: ++this.seq,
      owner: account.key,
      submission,
      plan,
      inputText,
      warnings,
      priorityFeeCredits: fee,
      reservedCredits: reserve,
      status: 'pending',
      attempt: 1,
      retried: false,
      createdAt: now,
      queuedAt: now,
      pendingUntil,
      eligibleAt: Math.max(pendingUntil, now + plan.queueMs),
      startedAt: null,
      runningAt: null,
      completedAt: null,
      cancelRequestedAt: null,
      cancelAt: null,
      userCancelled: false,
      updatedAt: now,
      errorCode: null,
      statusReason: null,
      simcExitCode: null,
      simDurationMs: null,
      progressPercent: null,
      creditsConsumed: null,
      build: null,
      result: null,
      expired: false,
      webhookSent: false,
    };
    account.reserve(reserve);
    this.jobs.set(job.id, job);
    this.live.add(job);
    this.advance();
    return job;
  }

  /** Catch every job up to the clock. */
  advance(): void {
    const to = this.clock.now();
    if (to < this.cursor) return;
    for (let guard = 0; guard < 1_000_000; guard++) {
      this.fill(this.cursor);
      let next = Infinity;
      for (const job of this.live) next = Math.min(next, this.nextEventAt(job));
      if (next > to) break;
      this.cursor = Math.max(this.cursor, next);
      for (const job of [...this.live]) if (this.nextEventAt(job) <= this.cursor) this.fire(job, this.cursor);
    }
    this.cursor = to;
    this.fill(to);
    this.arm();
  }

  activeJobs(owner: string): Job[] {
    return [...this.live].filter((j) => j.owner === owner);
  }

  isExpired(job: Job): boolean {
    if (job.expired) return true;
    return job.completedAt !== null && this.clock.now() > job.completedAt + this.settings.retentionDays * DAY_MS;
  }

  cancel(job: Job): CancelAnswer {
    this.advance();
    const now = this.clock.now();
    if (job.status === 'pending' || job.status === 'queued') {
      job.cancelRequestedAt = now;
      job.userCancelled = true;
      this.finish(job, now, {
        status: 'cancelled',
        errorCode: 'user_cancelled',
        reason: 'Cancelled by request before it started.',
        exit: null,
        result: 'none',
      });
      return { success: true, id: job.id, status: 'cancelled' };
    }
    if (job.status === 'starting' || job.status === 'running') {
      if (job.cancelRequestedAt === null) {
        job.cancelRequestedAt = now;
        job.cancelAt = now + this.settings.cancelDelayMs;
        job.updatedAt = now;
        this.advance();
      }
      return {
        success: true,
        id: job.id,
        status: 'cancel_requested',
        cancelRequestedAt: this.clock.iso(job.cancelRequestedAt ?? now),
      };
    }
    if (job.status === 'cancelled' && job.userCancelled) return { success: true, id: job.id, status: 'cancelled' };
    throw new ApiFailure(409, 'job_not_cancellable', `Job ${job.id} is already ${job.status}.`, {
      id: job.id,
      status: job.status,
    });
  }

  /** Best-effort seconds until a queued job starts (notes §8 `estimatedStartSeconds`). */
  estimatedStartMs(job: Job): number {
    const now = this.clock.now();
    const wait = Math.max(0, job.eligibleAt - now);
    const busy = [...this.live].filter((j) => j.status === 'starting' || j.status === 'running').length;
    const ahead = [...this.live].filter(
      (j) => (j.status === 'queued' || j.status === 'pending') && this.before(j, job),
    ).length;
    const free = this.settings.concurrency - busy;
    const rounds = free > ahead ? 0 : Math.ceil((ahead - free + 1) / this.settings.concurrency);
    return Math.max(wait, rounds * (this.settings.startingMs + this.settings.runMs));
  }

  /** Seconds until one of the client's jobs should end, for `Retry-After` on `max_active_jobs_exceeded`. */
  retryAfterSeconds(owner: string): number {
    const now = this.clock.now();
    const ends = this.activeJobs(owner).map((j) => {
      if (j.runningAt !== null) return j.runningAt + j.plan.runMs;
      if (j.startedAt !== null) return j.startedAt + j.plan.startingMs + j.plan.runMs;
      return now + this.estimatedStartMs(j) + j.plan.startingMs + j.plan.runMs;
    });
    return this.clock.secondsUntil(Math.min(...ends));
  }

  close(): void {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
  }

  private before(a: Job, b: Job): boolean {
    const pa = PRIORITY_RANK[a.submission.priority];
    const pb = PRIORITY_RANK[b.submission.priority];
    return pa !== pb ? pa < pb : a.seq < b.seq;
  }

  private queueDeadline(job: Job): number {
    return job.queuedAt + job.submission.maxQueueSeconds * 1000;
  }

  /** Start eligible queued jobs while compute is free. */
  private fill(t: number): void {
    let free = this.settings.concurrency;
    const waiting: Job[] = [];
    for (const job of this.live) {
      if (job.status === 'starting' || job.status === 'running') free--;
      else if (job.status === 'queued' && job.eligibleAt <= t && this.queueDeadline(job) > t) waiting.push(job);
    }
    if (free <= 0 || waiting.length === 0) return;
    waiting.sort((a, b) => (this.before(a, b) ? -1 : 1));
    for (const job of waiting.slice(0, free)) {
      job.status = 'starting';
      job.startedAt = t;
      job.updatedAt = t;
      // channels resolve when the job runs, not when it is submitted (notes §11)
      job.build = buildFor(job.submission.channel);
    }
  }

  private runEvents(job: Job): { natural: number; cap: number; interrupt: number } {
    const start = job.runningAt ?? Infinity;
    return {
      natural: start + job.plan.runMs,
      cap: start + job.submission.maxRuntimeSeconds * 1000,
      interrupt:
        job.plan.outcome === 'retried' && job.attempt === 1 ? start + Math.floor(job.plan.runMs / 2) : Infinity,
    };
  }

  private nextEventAt(job: Job): number {
    const cancelAt = job.cancelAt ?? Infinity;
    switch (job.status) {
      case 'pending':
        return Math.min(job.pendingUntil, this.queueDeadline(job));
      case 'queued':
        return Math.min(this.queueDeadline(job), job.eligibleAt > this.cursor ? job.eligibleAt : Infinity);
      case 'starting':
        return Math.min(cancelAt, (job.startedAt ?? 0) + job.plan.startingMs);
      case 'running': {
        const e = this.runEvents(job);
        return Math.min(cancelAt, e.natural, e.cap, e.interrupt);
      }
      default:
        return Infinity;
    }
  }

  private fire(job: Job, t: number): void {
    const cancelDue = job.cancelAt !== null && job.cancelAt <= t;
    switch (job.status) {
      case 'pending':
      case 'queued':
        if (this.queueDeadline(job) <= t) {
          this.finish(job, t, {
            status: 'cancelled',
            errorCode: 'queue_timeout',
            reason: `Waited in the queue longer than ${job.submission.maxQueueSeconds} s; the job never started.`,
            exit: null,
            result: 'none',
          });
        } else if (job.status === 'pending' && job.pendingUntil <= t) {
          job.status = 'queued';
          job.updatedAt = t;
        }
        return;
      case 'starting':
        if (cancelDue)
          return this.finish(
            job,
            t,
            {
              status: 'cancelled',
              errorCode: 'user_cancelled',
              reason: 'Cancelled by request.',
              exit: null,
              result: 'none',
            },
            true,
          );
        job.status = 'running';
        job.runningAt = t;
        job.updatedAt = t;
        return;
      case 'running': {
        const e = this.runEvents(job);
        const first = Math.min(job.cancelAt ?? Infinity, e.natural, e.cap, e.interrupt);
        if (first > t) return;
        if (first === job.cancelAt)
          return this.finish(
            job,
            t,
            {
              status: 'cancelled',
              errorCode: 'user_cancelled',
              reason: 'Cancelled by request while running.',
              exit: null,
              result: 'logs',
            },
            true,
          );
        if (first === e.interrupt) return this.requeue(job, t);
        if (first === e.cap && e.cap < e.natural)
          return this.finish(job, t, job.submission.creditBudget ? ENDINGS.max_credits : ENDINGS.timed_out);
        const outcome = job.plan.outcome === 'retried' ? 'completed' : job.plan.outcome;
        return this.finish(job, t, ENDINGS[outcome]);
      }
      default:
    }
  }

  /** A platform interruption: the attempt is dropped unbilled and the job waits for compute again. */
  private requeue(job: Job, t: number): void {
    Object.assign(job, {
      status: 'queued',
      attempt: job.attempt + 1,
      retried: true,
      queuedAt: t,
      eligibleAt: t + job.plan.queueMs,
      startedAt: null,
      runningAt: null,
      updatedAt: t,
    });
  }

  private finish(job: Job, t: number, end: Ending, userCancelled = false): void {
    const ran = job.runningAt !== null ? t - job.runningAt : null;
    const billedSeconds = ran === null ? 0 : Math.ceil(ran / 1000);
    // a job stopped at its credit budget is billed the budget (openapi 1.19.1)
    const metered = end.errorCode === 'max_credits_reached' ? job.submission.maxCredits : billedSeconds * VCPUS;
    const charged = ran === null ? 0 : metered + job.priorityFeeCredits;
    Object.assign(job, {
      status: end.status,
      errorCode: end.errorCode,
      statusReason: end.reason,
      simcExitCode: end.exit,
      completedAt: t,
      updatedAt: t,
      simDurationMs: ran,
      creditsConsumed: charged,
      cancelAt: null,
      userCancelled: job.userCancelled || userCancelled,
      progressPercent:
        end.status === 'completed' ? 100 : ran === null ? null : Math.min(99.9, round1((ran / job.plan.runMs) * 100)),
    });
    job.result = end.result === 'full' ? completedResult(job) : end.result === 'logs' ? logsOnlyResult(job) : null;
    this.accounts.get(job.owner).settle(job.reservedCredits, charged);
    this.live.delete(job);
    this.onTerminal(job);
  }

  /** Wake up for the next event in real time, so terminal webhooks fire without polling. */
  private arm(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (this.closed || this.clock.manual) return;
    let next = Infinity;
    for (const job of this.live) next = Math.min(next, this.nextEventAt(job));
    if (next === Infinity) return;
    this.timer = setTimeout(() => this.advance(), Math.min(this.clock.realDelayUntil(next) + 1, 2 ** 31 - 1));
    this.timer.unref();
  }
}

export function round1(n: number): number {
  return Math.round(n * 10) / 10;
}
