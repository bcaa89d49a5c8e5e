/**
 * A waiting command that finds no worker running becomes the worker while it waits: the one worker loop
 * (worker.ts), hosted in this process, so that a `submit --local --wait` on a cold queue starts one Node process, not
 * two. When the wait ends (the job ended, Ctrl-C, --timeout) the host hands over: runs still going are let go (their
 * simc runs on, detached), and a background worker is started for them and the queue; it adopts the runs
 * (adopt.ts). docs/design.md, "One local runner", says why.
 */
import { appendFileSync } from 'node:fs';
import type { LocalStore } from './store.js';
import { Worker } from './worker.js';

export interface HostOptions {
  /** The environment simc and webhook deliveries are made from: the background worker's. */
  env: NodeJS.ProcessEnv;
  concurrency: number;
  /** Told when this process starts running the queue, with how to hand over; returns what undoes it. */
  onHosting?: (handOver: () => Promise<void>) => () => void;
}

/** A hosted worker never idles out: it leaves when its command stops waiting. */
const NEVER = new AbortController().signal;

export class QueueHost {
  private hosted: { handOver: AbortController; done: Promise<void> } | undefined;

  constructor(
    private readonly store: LocalStore,
    private readonly options: HostOptions,
  ) {}

  /** Run the queue in this process unless a worker runs it already: true when this process runs it. */
  async host(): Promise<boolean> {
    if (this.hosted) return true;
    const handOver = new AbortController();
    const worker = new Worker({
      store: this.store,
      env: this.options.env,
      concurrency: this.options.concurrency,
      idleMs: Number.POSITIVE_INFINITY,
      log: (line) => this.log(line),
      shutdown: NEVER,
      handOver: handOver.signal,
    });
    if (!(await worker.take())) return false;
    const undo = this.options.onHosting?.(() => this.handOver());
    const done = worker.runTaken().finally(() => {
      undo?.();
      this.hosted = undefined;
    });
    this.hosted = { handOver, done };
    return true;
  }

  /** Stop running the queue here: runs let go, the lock released, a background worker started for what is left. */
  async handOver(): Promise<void> {
    const hosted = this.hosted;
    if (!hosted) return;
    hosted.handOver.abort();
    await hosted.done;
  }

  /** The worker's lines go to worker.log, as a background worker's do; a log that cannot be written loses them. */
  private log(line: string): void {
    try {
      appendFileSync(this.store.workerLogPath, `${new Date().toISOString()} ${line}\n`);
    } catch {
      // the log is for reading afterwards; the job's own record says how it went
    }
  }
}
