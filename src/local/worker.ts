/**
 * The local worker: a detached background process (dist/worker.js, started on demand by worker-process.ts),
 * single per data dir, that runs queued jobs by priority then submission order, at most `local.concurrency` at a
 * time, adopts the runs of waiting CLIs that went away, and exits once the queue has been empty for a short while.
 *
 * Single instance: it runs only while it holds worker.lock (a lock whose process is gone is taken over). Two processes that start a worker at the same moment both try
 * the lock; one wins, the other exits at once. Leaving is race-free too: the worker first releases the lock,
 * then looks at the queue once more and takes the lock back if a job arrived meanwhile; a submitter writes its
 * job first and looks for a live worker after, so one of the two always sees the other.
 */
import { watch, type FSWatcher } from 'node:fs';
import { isWaiting } from '../jobs/states.js';
import { exists, removeFile } from '../util/data-files.js';
import { readLockOwner, tryLock, type HeldLock } from './lock.js';
import { claimJob, watchStops } from './claim.js';
import { canAdopt, finishAdopted } from './adopt.js';
import { recoverInterrupted, recoverJob } from './control.js';
import { isOrphan } from './worker-process.js';
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
  /** Aborted when the worker itself is told to stop (SIGTERM, SIGINT, SIGHUP). */
  shutdown: AbortSignal;
}

const TICK_MS = 250;

export class Worker {
  private lock: HeldLock | undefined;
  private readonly running = new Map<string, { stop: AbortController; done: Promise<void> }>();
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

  constructor(private readonly o: WorkerOptions) {
    this.deliveries = new LocalDeliveries(o.store, o.env, o.log);
  }

  /** Returns when the worker is done: the queue stayed empty, another worker holds the lock, or it was told to stop. */
  async run(): Promise<void> {
    const { store } = this.o;
    await store.init();
    this.lock = await tryLock(store.workerLockPath);
    await removeFile(store.workerSpawnPath);
    if (!this.lock) return; // another worker runs
    this.o.log(`worker ${process.pid} holds the lock (concurrency ${this.o.concurrency})`);
    this.watchQueue();
    this.o.shutdown.addEventListener('abort', () => this.wake(), { once: true });
    try {
      await recoverInterrupted(store);
      await this.loop();
    } finally {
      await this.stopAll('shutdown');
      await this.deliveries.stop();
      for (const watcher of this.watchers) watcher.close();
      await this.releaseLock();
    }
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
      // a job queued, or one run by a waiting CLI (inline.ts) ending: it frees a slot for the queue
      for (const dir of [this.o.store.queueDir, this.o.store.runningDir])
        this.watchers.push(watch(dir, () => this.wake()).on('error', () => undefined));
    } catch {
      // No file watching here (some network file systems): the tick still finds new jobs.
    }
  }

  private wake(): void {
    this.wakeRequested = true;
    this.wakeUp?.();
  }

  private nap(ms: number): Promise<void> {
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
      this.wakeUp = done;
    });
  }

  private async loop(): Promise<void> {
    let idleSince = Date.now();
    while (!this.o.shutdown.aborted) {
      try {
        // Our lock file must still be there and ours (not taken over as stale, nor gone with a deleted data dir).
        if ((await readLockOwner(this.o.store.workerLockPath))?.nonce !== this.nonce) {
          // Another worker owns the data dir now: touch nothing more (our runs are its orphans to recover).
          this.o.log(`worker ${process.pid} lost the lock; stopping`);
          this.lock = undefined;
          return;
        }
        const queued = await this.o.store.queuedIds();
        // Files no submitter makes (an unknown rank, a stray name) would otherwise be looked at for ever.
        for (const stray of await this.o.store.strayQueueFiles()) await removeFile(stray);
        await this.adoptDetached();
        await this.fill(queued);
        await this.deliveries.tick();
        if (this.running.size > 0 || queued.length > 0 || this.deliveries.active) idleSince = Date.now();
        else if (Date.now() - idleSince >= this.o.idleMs) {
          if (await this.leave()) return;
          idleSince = Date.now();
        }
      } catch (error) {
        if (!(await exists(this.o.store.jobsDir))) {
          this.o.log('the data dir is gone; stopping');
          return;
        }
        this.o.log(`error: ${(error as Error).stack ?? String(error)}`);
      }
      await this.nap(TICK_MS);
    }
  }

  /** Release the lock, then look once more: a job that arrived meanwhile makes the worker take the lock back. */
  private async leave(): Promise<boolean> {
    await this.releaseLock();
    if ((await this.o.store.queuedIds()).length === 0 && (await pendingDeliveries(this.o.store)).length === 0)
      return true;
    this.lock = await tryLock(this.o.store.workerLockPath);
    if (!this.lock) return true; // another worker took over
    this.o.log(`worker ${process.pid} holds the lock again (a job arrived)`);
    return false;
  }

  /** Expire queued jobs past maxQueueSeconds, and start the next ones while there is room. */
  private async fill(queued: string[]): Promise<void> {
    const waiting = new Set(queued);
    for (const id of this.deadlines.keys()) if (!waiting.has(id)) this.deadlines.delete(id);
    // Jobs run by waiting CLIs (inline.ts) take room too: counted once per tick from the running markers, so a
    // long queue behind them is not tried job by job (each claim re-checks under the claim lock).
    let othersRunning =
      queued.length > 0 ? (await this.o.store.runningIds()).filter((id) => !this.running.has(id)).length : 0;
    for (const id of queued) {
      if (this.running.has(id)) continue;
      const full = this.running.size - this.simcEnded.size + othersRunning >= this.o.concurrency;
      // A full worker only looks for queue timeouts, from deadlines read once per queued job (a long queue is
      // then not re-read every tick); the claim and the expiry re-check the job under its lock.
      let deadline = this.deadlines.get(id);
      if (deadline === undefined || !full || isDue(deadline)) {
        const job = await this.o.store.readJob(id);
        if (!job || !isWaiting(job.status)) {
          await this.o.store.dequeue({ id });
          continue;
        }
        deadline = queueDeadline(job);
        this.deadlines.set(id, deadline);
        if (isDue(deadline)) {
          await expireIfDue(this.o.store, job);
          continue;
        }
      }
      if (!full && !(await this.claim(id))) othersRunning += 1; // no room after all (or taken): try again next tick
    }
  }

  /** Room is counted from the running markers (waiting CLIs' runs too), and jobs whose simc ended leave theirs. */
  private async claim(id: string): Promise<boolean> {
    const claimed = await claimJob(
      this.o.store,
      id,
      { pid: process.pid, nonce: this.nonce },
      this.o.concurrency + this.simcEnded.size,
    );
    if (claimed) this.start(claimed, runJob);
    return Boolean(claimed);
  }

  /**
   * Jobs whose waiting CLI went away (Ctrl-C, or it died) while their detached simc runs on, or ended with its
   * status in the job folder: this worker takes them over and finishes them from their files.
   */
  private async adoptDetached(): Promise<void> {
    const { store } = this.o;
    const ids = await store.runningIds();
    if (ids.length === 0) return;
    const live = { pid: process.pid, nonce: this.nonce };
    for (const id of ids) {
      if (this.running.has(id)) continue;
      const job = await store.readJob(id);
      if (!job?.detached || !isOrphan(job, live)) continue;
      if (!canAdopt(store, job)) {
        await recoverJob(store, job); // simc is gone without a word: an interrupted run, as a dead worker's
        continue;
      }
      const adopted = await store.updateJob(id, (current) =>
        current.detached && isOrphan(current, live) && current.simcPid === job.simcPid
          ? { ...current, owner: live }
          : undefined,
      );
      if (!adopted || adopted.owner?.nonce !== this.nonce) continue;
      this.o.log(`${id} adopted (its waiting CLI went away)`);
      this.start(adopted, (deps, j) => finishAdopted(deps, j));
    }
  }

  private start(job: LocalJob, run: (deps: RunDeps, job: LocalJob) => Promise<Ending | undefined>): void {
    const { store } = this.o;
    // `simjob cancel` only records the request on the job; the worker owns simc and stops it.
    const stops = watchStops(store, job, { unref: false });
    const ownedByMe = (current: LocalJob) => current.owner?.nonce === job.owner?.nonce;
    const deps: RunDeps = {
      store,
      env: this.o.env,
      stop: stops.controller.signal,
      onSimcPid: async (pid) => {
        await store.updateJob(job.id, (current) => (ownedByMe(current) ? { ...current, simcPid: pid } : undefined));
      },
      onSimcEnded: () => {
        this.simcEnded.add(job.id);
        this.wake();
      },
    };
    const done = runToEnd(store, job, () => run(deps, job), ownedByMe)
      .then((ending) => {
        if (ending) this.o.log(`${job.id} ${ending.status}${ending.errorCode ? ` (${ending.errorCode})` : ''}`);
      })
      .catch((error: unknown) => this.o.log(`${job.id}: its end could not be recorded: ${(error as Error).message}`))
      .finally(() => {
        stops.dispose();
        this.simcEnded.delete(job.id);
        this.running.delete(job.id);
        this.wake();
      });
    this.running.set(job.id, { stop: stops.controller, done });
  }

  private async stopAll(reason: StopReason): Promise<void> {
    for (const job of this.running.values()) if (!job.stop.signal.aborted) job.stop.abort(reason);
    await Promise.all([...this.running.values()].map((j) => j.done));
  }
}
