/**
 * A waiting `submit --local --wait` runs its own job, when the queue is free (local.concurrency) and the job is
 * next: no background worker to start or wake on the way to simc. simc runs detached (detached.ts), so the job
 * outlives this process: when the CLI leaves first (Ctrl-C, --timeout), it hands the job over to the worker, which
 * adopts the run (adopt.ts); if the CLI dies, the next simjob call sees its pid gone and does the same.
 */
import { randomHex } from '../../util/random.js';
import { claimJob, watchStops } from './claim.js';
import { runToEnd } from './lifecycle.js';
import { processStart } from './pids.js';
import { runJob } from './runner.js';
import type { LocalJob, LocalStore } from './store.js';
import { ensureWorker } from './worker-process.js';

interface InlineOptions {
  env: NodeJS.ProcessEnv;
  /** What a worker started for the hand-over gets. */
  workerEnv: NodeJS.ProcessEnv;
  concurrency: number;
  /** The job's end could not be recorded (a disk that stays full): the waiting command reports this error. */
  onUnrecordable: (error: unknown) => void;
}

/**
 * Claim job `id` and start running it in this process; false when it is not this process's to run (the queue is
 * busy), and the worker runs it. Nothing of the run keeps the process alive: the waiting does.
 */
export async function runInline(store: LocalStore, id: string, opts: InlineOptions): Promise<boolean> {
  // This process as the job's runner: alive exactly while its pid (with the same start time) is.
  const owner = { pid: process.pid, nonce: randomHex(32), cli: true, processStart: processStart(process.pid) };
  const job = await claimJob(store, id, owner, opts.concurrency, { onlyIfFirst: true, detached: true });
  if (!job) return false;
  const ownedByMe = (current: LocalJob) => current.owner?.nonce === owner.nonce;
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
    await store
      .updateJob(id, (current) => (ownedByMe(current) ? { ...current, owner: null } : undefined))
      .catch(() => undefined);
    await ensureWorker(store, opts.workerEnv).catch(() => undefined);
  };
  const onBeforeExit = () => void handOver();
  process.once('beforeExit', onBeforeExit);

  const deps = {
    store,
    env: opts.env,
    stop: stops.controller.signal,
    onSimcPid: async (pid: number) => {
      pidWritten = store
        .updateJob(id, (current) => (ownedByMe(current) ? { ...current, simcPid: pid } : undefined))
        .catch(() => undefined);
      await pidWritten;
    },
  };
  // A hand-over leaves the run's end to the worker: runToEnd then records nothing (the job is no longer ours).
  const owned = (current: LocalJob) => !handedOver && ownedByMe(current);
  runToEnd(store, job, () => runJob(deps, job), owned)
    .catch((error: unknown) => {
      if (!handedOver) opts.onUnrecordable(error);
    })
    .finally(() => {
      running = false;
      stops.dispose();
      process.off('beforeExit', onBeforeExit);
    });
  return true;
}
