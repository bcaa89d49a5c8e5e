/**
 * The local worker: a detached background process (dist/worker.js, started on demand by worker-process.ts),
 * single per data dir, that runs queued jobs by priority then submission order, at most `local.concurrency` at a
 * time, and exits once the queue has been empty for a short while. It is the only runner of simc: a waiting
 * `submit --local --wait` wakes it and waits like `status --wait`, or hosts it when none runs (below; docs/design.md,
 * "One local runner"). A killed worker's simc runs on (detached.ts): the next worker adopts the run (adopt.ts) rather
 * than running simc twice.
 *
 * Single instance: it runs only while it holds worker.lock (a lock whose process is gone is taken over). Two
 * processes that start a worker at the same moment both try the lock; one wins, the other exits at once. Leaving is
 * race-free too: the worker first releases the lock, then looks at the queue once more and takes the lock back if a
 * job arrived meanwhile; a submitter writes its job first and looks for a live worker after, so one of the two
 * always sees the other.
 *
 * The same loop runs hosted by a waiting command (host.ts) when no worker runs: it then never idles out, claims only
 * single-pass jobs, and when its command stops waiting it lets its runs go (their simc runs on, detached) and starts
 * a background worker for them and the queue.
 */
import { watch, type FSWatcher } from 'node:fs';
import { isWaiting } from '../jobs/states.js';
import { SimjobError } from '../../errors.js';
import { exists, isDiskFull, removeFile } from '../../util/data-files.js';
import { LET_GO } from './detached.js';
import { readLockOwner, tryLock, type HeldLock } from './lock.js';
import { claimJob, watchStops } from './claim.js';
import { canAdopt, finishAdopted } from './adopt.js';
import { recoverInterrupted, recoverJob } from './control.js';
import { ensureWorker, isIdleWorker, isOrphan } from './worker-process.js';
import { expireIfDue, isDue, queueDeadline, runToEnd, type Ending } from './lifecycle.js';
import type { RunDeps, StopReason } from './pass.js';
import { runJob } from './runner.js';
import type { LocalJob, LocalStore } from './store.js';
import { LocalDeliveries, pendingDeliveries } from '../webhook/local.js';

export interface WorkerOptions {
  store: LocalStore;
  env: NodeJS.ProcessEnv;
  concurrency: number;
  /** Exit after the queue has been empty this long. */
  idleMs: number;
  log: (line: string) => void;
  /** Aborted when the worker itself is told to stop (SIGTERM, SIGINT, SIGHUP): its runs are stopped. */
  shutdown: AbortSignal;
  /**
   * Set when a waiting command hosts the loop (host.ts): aborted when it stops waiting, and the worker then leaves,
   * letting its runs go and starting a background worker for what is left.
   */
  handOver?: AbortSignal;
}

/** A run in this worker: its stop, its end, and whether its simc's pid is on the job (so it can be let go). */
interface Run {
  stop: AbortController;
  done: Promise<void>;
  pidRecorded: Promise<boolean>;
}

const TICK_MS = 250;
/** After a fault of the data dir itself (not of one job), the next try waits this long, doubled per fault in a row. */
const MAX_BACKOFF_MS = 30_000;
/** Faults in a row (about two minutes with the backoff) after which the worker leaves; the next command starts one. */
const MAX_FAULTS = 10;
/** A job whose folder could not be claimed or read is tried again after this long, doubled each time. */
const SKIP_MS = 5_000;
const MAX_SKIP_MS = 5 * 60_000;

export class Worker {
  private lock: HeldLock | undefined;
  private readonly running = new Map<string, Run>();
  /** Jobs whose simc has ended while their result is written: their room goes to the next job's simc already. */
  private readonly simcEnded = new Set<string>();
  /** Queue deadlines (maxQueueSeconds) of the queued jobs seen, null for none. */
  private readonly deadlines = new Map<string, number | null>();
  private wakeUp: (() => void) | undefined;
  /** A wake-up that came while the loop was busy: the next nap returns at once, so none is missed. */
  private wakeRequested = false;
  private readonly watchers: FSWatcher[] = [];
  /** Webhook events of ended jobs, delivered with retries; the worker stays while any is pending. */
  private readonly deliveries: LocalDeliveries;
  /** Jobs whose folders failed (unwritable, a folder where its lock belongs): not run again before `until`. */
  private readonly skipped = new Map<string, { until: number; delayMs: number }>();
  /** Stray queue entries that could not be removed (reported once). */
  private readonly strays = new Set<string>();

  constructor(private readonly o: WorkerOptions) {
    this.deliveries = new LocalDeliveries(o.store, o.env, o.log);
  }

  /** Returns when the worker is done: the queue stayed empty, another worker holds the lock, or it was told to stop. */
  async run(): Promise<void> {
    if (await this.take()) await this.runTaken();
  }

  /** Take worker.lock: false when another worker holds it (this one then has nothing to do). */
  async take(): Promise<boolean> {
    const { store } = this.o;
    await store.init();
    // The spawn marker goes before the lock is tried: a submitter that still sees it relies on this worker's try,
    // which must then come after the submitter queued its job (ensureWorker).
    if (!this.o.handOver) await removeFile(store.workerSpawnPath);
    this.lock = await tryLock(store.workerLockPath, isIdleWorker);
    if (!this.lock) return false;
    const host = this.o.handOver ? '; hosted by a waiting command' : '';
    this.o.log(`worker ${process.pid} holds the lock (concurrency ${this.o.concurrency}${host})`);
    return true;
  }

  /** The loop of a worker that took the lock, to its end. */
  async runTaken(): Promise<void> {
    this.watchQueue();
    for (const signal of [this.o.shutdown, this.o.handOver])
      signal?.addEventListener('abort', () => this.wake(), { once: true });
    let keptLock = true;
    try {
      await recoverInterrupted(this.o.store);
      keptLock = await this.loop();
    } finally {
      // Runs are left going on a hand-over, or when another worker took the lock (they are its to adopt).
      if (!keptLock || this.o.handOver?.aborted) await this.letGoAll();
      else await this.stopAll('shutdown');
      await this.deliveries.stop();
      for (const watcher of this.watchers) watcher.close();
      await this.releaseLock();
    }
    if (this.o.handOver && keptLock) await this.passOn();
  }

  private get nonce(): string {
    return this.lock?.owner.nonce ?? '';
  }

  private async releaseLock(): Promise<void> {
    const lock = this.lock;
    this.lock = undefined;
    if (!lock) return;
    this.o.log(`worker ${process.pid} releases the lock`); // logged while still holding it
    await lock.release().catch(() => undefined);
  }

  private watchQueue(): void {
    try {
      this.watchers.push(watch(this.o.store.queueDir, () => this.wake()).on('error', () => undefined));
    } catch {
      // No file watching here (some network file systems): the tick still finds new jobs.
    }
  }

  private wake(): void {
    this.wakeRequested = true;
    this.wakeUp?.();
  }

  /**
   * `wakeable`: a change in the queue cuts the nap short (not during a backoff: the faulty tick's own moves of
   * markers would end it at once).
   */
  private nap(ms: number, wakeable = true): Promise<void> {
    if (!wakeable) this.wakeRequested = false;
    if (this.wakeRequested) {
      this.wakeRequested = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.wakeRequested = false;
        this.wakeUp = undefined;
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.wakeUp = wakeable ? done : undefined;
    });
  }

  /** The worker's ticks until it leaves; false when it lost the lock to another worker. */
  private async loop(): Promise<boolean> {
    let idleSince = Date.now();
    let faults = 0;
    while (!this.o.shutdown.aborted && !this.o.handOver?.aborted) {
      let pause = TICK_MS;
      try {
        // Our lock file must still be there and ours (not taken over as stale, nor gone with a deleted data dir).
        if ((await readLockOwner(this.o.store.workerLockPath))?.nonce !== this.nonce) {
          // Another worker owns the data dir now: touch nothing more (our runs are its orphans to adopt or recover).
          this.o.log(`worker ${process.pid} lost the lock; stopping`);
          this.lock = undefined;
          return false;
        }
        const queued = await this.o.store.queuedIds();
        await this.removeStrays();
        await this.adoptDetached();
        await this.fill(queued);
        await this.deliveries.tick();
        faults = 0;
        // Jobs skipped for a fault of their folder keep no worker waiting: it leaves, and a later one tries again.
        if (this.running.size > 0 || queued.some((id) => !this.isSkipped(id)) || this.deliveries.active)
          idleSince = Date.now();
        else if (Date.now() - idleSince >= this.o.idleMs) {
          if (await this.leave()) return true;
          idleSince = Date.now();
        }
      } catch (error) {
        if (!(await exists(this.o.store.jobsDir))) {
          this.o.log('the data dir is gone; stopping');
          return true;
        }
        // One line per fault, and a growing pause: a fault that stays (a full disk, a folder where claim.lock
        // belongs) must neither spin nor fill the log, and after a while the worker leaves.
        faults += 1;
        if (faults >= MAX_FAULTS) {
          this.o.log(
            `error (${faults} in a row, so the worker stops; the next simjob command starts one): ${oneLine(error)}`,
          );
          return true;
        }
        pause = Math.min(MAX_BACKOFF_MS, TICK_MS * 2 ** faults);
        this.o.log(`error (trying again in ${Math.round(pause / 100) / 10} s): ${oneLine(error)}`);
      }
      await this.nap(pause, faults === 0);
    }
    return true;
  }

  /** Entries no submitter makes (an unknown rank, a stray name, a folder) would otherwise be looked at for ever. */
  private async removeStrays(): Promise<void> {
    for (const stray of await this.o.store.strayQueueFiles()) {
      if (this.strays.has(stray)) continue;
      try {
        this.o.store.removeStray(stray);
      } catch (error) {
        this.strays.add(stray);
        this.o.log(`${oneLine(error)} Left in place.`);
      }
    }
  }

  private isSkipped(id: string): boolean {
    return (this.skipped.get(id)?.until ?? 0) > Date.now();
  }

  /**
   * A fault of one job's folder (it cannot be locked, written or read) skips that job, with one line naming the
   * path: the others run, and it is tried again later (its folder may be fixed). Other faults are the caller's.
   */
  private skipOnJobFault(id: string, error: unknown): void {
    // A full disk is the data dir's fault, not the job's: the loop backs off instead.
    const inFolder = error instanceof SimjobError && error.message.startsWith(this.o.store.jobDir(id));
    if (!inFolder || isDiskFull(error)) throw error;
    const before = this.skipped.get(id);
    const delayMs = before ? Math.min(MAX_SKIP_MS, before.delayMs * 2) : SKIP_MS;
    this.skipped.set(id, { until: Date.now() + delayMs, delayMs });
    this.o.log(`${id} skipped: ${oneLine(error)} (tried again in ${delayMs / 1000} s)`);
  }

  /** Release the lock, then look once more: a job that arrived meanwhile makes the worker take the lock back. */
  private async leave(): Promise<boolean> {
    await this.releaseLock();
    const queued = (await this.o.store.queuedIds()).filter((id) => !this.isSkipped(id));
    if (queued.length === 0 && (await pendingDeliveries(this.o.store)).length === 0) return true;
    this.lock = await tryLock(this.o.store.workerLockPath, isIdleWorker);
    if (!this.lock) return true; // another worker took over
    this.o.log(`worker ${process.pid} holds the lock again (a job arrived)`);
    return false;
  }

  /** Expire queued jobs past maxQueueSeconds, and start the next ones while there is room. */
  private async fill(queued: string[]): Promise<void> {
    const waiting = new Set(queued);
    for (const id of this.deadlines.keys()) if (!waiting.has(id)) this.deadlines.delete(id);
    // Running markers of jobs not run here (a run whose folder failed, left for `status` to name) take room too:
    // counted once per tick, so a long queue behind them is not tried job by job (each claim re-checks under lock).
    let othersRunning =
      queued.length > 0 ? (await this.o.store.runningIds()).filter((id) => !this.running.has(id)).length : 0;
    for (const id of queued) {
      if (this.running.has(id) || this.isSkipped(id)) continue;
      const full = this.running.size - this.simcEnded.size + othersRunning >= this.o.concurrency;
      try {
        if (!(await this.consider(id, full))) othersRunning += 1; // no room after all (or taken): next tick
      } catch (error) {
        this.skipOnJobFault(id, error);
      }
    }
  }

  /** Expire a queued job that is due, or claim it when there is room. False: a claim was tried and not made. */
  private async consider(id: string, full: boolean): Promise<boolean> {
    // A full worker only looks for queue timeouts, from deadlines read once per queued job (a long queue is
    // then not re-read every tick); the claim and the expiry re-check the job under its lock.
    let deadline = this.deadlines.get(id);
    if (deadline === undefined || !full || isDue(deadline)) {
      const job = await this.o.store.readJob(id);
      if (!job || !isWaiting(job.status)) {
        await this.o.store.dequeue({ id });
        return true;
      }
      // A staged run cannot be let go (only a single pass is finished from its files): it waits for a background
      // worker, which the hand-over starts.
      if (this.o.handOver && job.multiStageSummary.enabled) return true;
      deadline = queueDeadline(job);
      this.deadlines.set(id, deadline);
      if (isDue(deadline)) {
        await expireIfDue(this.o.store, job);
        return true;
      }
    }
    return full || this.claim(id);
  }

  /** Room is counted from the running markers, and jobs whose simc ended leave theirs. */
  private async claim(id: string): Promise<boolean> {
    const claimed = await claimJob(
      this.o.store,
      id,
      { pid: process.pid, nonce: this.nonce },
      this.o.concurrency + this.simcEnded.size,
      // simc runs in a session of its own: if this worker is killed, the next one adopts the run (adopt.ts)
      { detached: process.platform !== 'win32' },
    );
    if (claimed) {
      this.skipped.delete(id);
      this.start(claimed, runJob);
    }
    return Boolean(claimed);
  }

  /**
   * Jobs whose worker was killed while their detached simc runs on, or ended with its report in the job folder:
   * this worker takes them over and finishes them from their files.
   */
  private async adoptDetached(): Promise<void> {
    const { store } = this.o;
    const ids = await store.runningIds();
    if (ids.length === 0) return;
    const live = { pid: process.pid, nonce: this.nonce };
    for (const id of ids) {
      if (this.running.has(id)) continue;
      try {
        await this.adopt(id, live);
      } catch (error) {
        // Its folder cannot be read or written, so the run can be neither finished nor retried here: its marker
        // goes, so that it takes no room from the queue; `simjob status` on it names the fault.
        this.skipOnJobFault(id, error);
        await store.unmarkRunning(id);
      }
    }
  }

  private async adopt(id: string, live: { pid: number; nonce: string }): Promise<void> {
    const { store } = this.o;
    const job = await store.readJob(id);
    if (!job?.detached || !isOrphan(job, live)) return;
    if (!canAdopt(store, job)) {
      await recoverJob(store, job); // simc is gone without a word: an interrupted run, as a dead worker's
      return;
    }
    const adopted = await store.updateJob(id, (current) =>
      current.detached && isOrphan(current, live) && current.simcPid === job.simcPid
        ? { ...current, owner: live }
        : undefined,
    );
    if (!adopted || adopted.owner?.nonce !== this.nonce) return;
    this.o.log(`${id} adopted (its worker went away)`);
    this.start(adopted, (deps, j) => finishAdopted(deps, j));
  }

  private start(job: LocalJob, run: (deps: RunDeps, job: LocalJob) => Promise<Ending | undefined>): void {
    const { store } = this.o;
    // `simjob cancel` only records the request on the job; the worker owns simc and stops it.
    const stops = watchStops(store, job);
    const ownedByMe = (current: LocalJob) => current.owner?.nonce === job.owner?.nonce;
    let pidRecorded: (recorded: boolean) => void = () => undefined;
    const recorded = new Promise<boolean>((resolve) => (pidRecorded = resolve));
    if (job.simcPid) pidRecorded(true); // an adopted run
    const deps: RunDeps = {
      store,
      env: this.o.env,
      stop: stops.controller.signal,
      onSimcPid: async (pid) => {
        try {
          await store.updateJob(job.id, (current) => (ownedByMe(current) ? { ...current, simcPid: pid } : undefined));
          pidRecorded(true);
        } catch (error) {
          pidRecorded(false);
          throw error;
        }
      },
      onSimcEnded: () => {
        this.simcEnded.add(job.id);
        this.wake();
      },
    };
    const done = runToEnd(store, job, () => run(deps, job), ownedByMe)
      .then(async (ending) => {
        if (ending) this.o.log(`${job.id} ${ending.status}${ending.errorCode ? ` (${ending.errorCode})` : ''}`);
        // Stopped by this worker's own shutdown: its simc was stopped too, so what it left is no run to finish
        // (simc may write a report when told to stop): the job is for recovery to retry, not to adopt.
        else if (run === runJob && this.o.shutdown.aborted)
          await store.updateJob(job.id, (current) =>
            ownedByMe(current) ? { ...current, detached: false } : undefined,
          );
      })
      .catch(async (error: unknown) => {
        this.o.log(`${job.id}: its end could not be recorded: ${oneLine(error)}`);
        // It must not hold a room for ever: `simjob status` on it names the fault once this worker has left.
        await store.unmarkRunning(job.id).catch(() => undefined);
      })
      .finally(() => {
        stops.dispose();
        this.simcEnded.delete(job.id);
        this.running.delete(job.id);
        this.wake();
      });
    this.running.set(job.id, { stop: stops.controller, done, pidRecorded: recorded });
  }

  private async stopAll(reason: StopReason): Promise<void> {
    for (const job of this.running.values()) if (!job.stop.signal.aborted) job.stop.abort(reason);
    await Promise.all([...this.running.values()].map((j) => j.done));
  }

  /**
   * Leave every run going, for the next worker to adopt: once its simc's pid is on the job (a claim a moment old
   * has none yet); a run whose simc has ended is finished here (its result is being written); one whose pid could
   * not be recorded is stopped, as nobody could adopt it.
   */
  private async letGoAll(): Promise<void> {
    await Promise.all(
      [...this.running.entries()].map(async ([id, run]) => {
        const canLetGo = await Promise.race([run.pidRecorded, run.done.then(() => false)]);
        if (!run.stop.signal.aborted && !this.simcEnded.has(id)) run.stop.abort(canLetGo ? LET_GO : 'shutdown');
        await run.done;
      }),
    );
  }

  /** After a hand-over: a background worker for what is left (the runs let go, the queue, webhook deliveries). */
  private async passOn(): Promise<void> {
    const { store } = this.o;
    try {
      const left =
        (await store.queuedIds()).length > 0 ||
        (await store.runningIds()).length > 0 ||
        (await pendingDeliveries(store)).length > 0;
      if (left) await ensureWorker(store, this.o.env);
    } catch (error) {
      // The runs and the queue stay on disk: the next simjob command starts a worker for them.
      this.o.log(`no background worker could start: ${oneLine(error)}`);
    }
  }
}

/** An error as one log line: simjob's own errors with their fix, anything else by its message. */
function oneLine(error: unknown): string {
  if (error instanceof SimjobError) return error.hint ? `${error.message} ${error.hint}` : error.message;
  return String((error as Error)?.message ?? error).replace(/\s+/g, ' ');
}
