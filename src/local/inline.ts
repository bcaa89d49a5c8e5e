/**
 * A waiting `submit --local --wait` runs its own job, when the queue is free (local.concurrency) and the job is
 * next: no background worker to start or wake, so what local mode adds to simc is about one Node start-up (see
 * docs/design.md). simc runs detached (detached.ts), so the job outlives this process: when the CLI leaves first
 * (Ctrl-C, --timeout), it hands the job over to the worker, which adopts the run (adopt.ts); if the CLI dies, the
 * next simjob call sees its pid gone and does the same.
 */
import { claimJob, inlineOwner, watchStops } from './claim.js';
import { runSimcDetached } from './detached.js';
import { finishJob } from './lifecycle.js';
import type { RunDeps } from './pass.js';
import { runJob } from './runner.js';
import type { LocalJob, LocalStore } from './store.js';
import { ensureWorker } from './worker-process.js';

const KILL_GRACE_MS = 3_000;

export interface InlineOptions {
  env: NodeJS.ProcessEnv;
  /** What a worker started for the hand-over gets. */
  workerEnv: NodeJS.ProcessEnv;
  concurrency: number;
}

/**
 * Claim job `id` and start running it in this process; false when it is not this process's to run (the queue is
 * busy, or it is a staged job), and the worker runs it. Nothing of the run keeps the process alive: the waiting
 * does.
 */
export async function runInline(store: LocalStore, id: string, opts: InlineOptions): Promise<boolean> {
  const job = await claimJob(store, id, inlineOwner(), opts.concurrency, { onlyIfFirst: true, detached: true });
  if (!job) return false;
  runClaimed(store, job, opts, runSimcDetached);
  return true;
}

/**
 * Run a job this process has claimed (`job.owner` is this process), with `runSimc`: a new detached run, or one
 * already going (a head start's).
 */
export function runClaimed(store: LocalStore, job: LocalJob, opts: InlineOptions, runSimc: NonNullable<RunDeps['runSimc']>): void {
  const { id } = job;
  const nonce = job.owner?.nonce;
  const ownedByMe = (current: LocalJob) => current.owner?.nonce === nonce;
  const stops = watchStops(store, job, { unref: true });
  let pidWritten: Promise<unknown> = Promise.resolve();
  let handedOver = false;
  let running = true;

  // This process is leaving with the job still running: give the run to the worker.
  const handOver = async () => {
    if (handedOver || !running) return;
    handedOver = true;
    stops.dispose();
    await pidWritten;
    await store.updateJob(id, (current) => (ownedByMe(current) ? { ...current, owner: null } : undefined)).catch(() => undefined);
    await ensureWorker(store, opts.workerEnv).catch(() => undefined);
  };
  const onBeforeExit = () => void handOver();
  process.once('beforeExit', onBeforeExit);

  const started = Date.parse(job.startedAt ?? '') || Date.now();
  void (async () => {
    try {
      const ending = await runJob(
        {
          store,
          env: opts.env,
          stop: stops.controller.signal,
          killGraceMs: KILL_GRACE_MS,
          runSimc,
          onSimcPid: async (pid) => {
            if (pid === job.simcPid) return; // a head start's run: its job was made with it
            pidWritten = store.updateJob(id, (current) => (ownedByMe(current) ? { ...current, simcPid: pid } : undefined)).catch(() => undefined);
            await pidWritten;
          },
        },
        job,
      );
      if (ending && !handedOver) await finishJob(store, id, { ...ending, totalDurationMs: Date.now() - started }, ownedByMe);
    } catch (error) {
      if (!handedOver) {
        await finishJob(
          store,
          id,
          { status: 'failed', errorCode: 'internal', statusReason: `simjob failed running the job: ${(error as Error).message}`, hasResult: true, totalDurationMs: Date.now() - started },
          ownedByMe,
        ).catch(() => undefined);
      }
    } finally {
      running = false;
      stops.dispose();
      process.off('beforeExit', onBeforeExit);
    }
  })();
}
