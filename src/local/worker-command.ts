/**
 * `simjob __worker`: the hidden command that control.ts starts in the background. Not for users; it prints
 * nothing but log lines (to worker.log in the data dir).
 */
import { promises as fs } from 'node:fs';
import { dataDir } from '../config/paths.js';
import type { Context } from '../context.js';
import { LocalStore } from './store.js';
import { Worker } from './worker.js';

/** Keep worker.log from growing without bound: start afresh past this size. */
const MAX_LOG_BYTES = 1024 * 1024;
/** Linger this long after the queue empties: a burst of submissions then finds the worker already running. */
const IDLE_MS = 2_000;
/** simc gets this long after SIGTERM (cancel, runtime cap) before SIGKILL. */
const KILL_GRACE_MS = 3_000;

function concurrency(ctx: Context): number {
  const value = Number(ctx.config.setting('local.concurrency') ?? 1);
  return Number.isSafeInteger(value) && value >= 1 ? value : 1;
}

export async function run(ctx: Context): Promise<number> {
  const store = new LocalStore(dataDir(ctx.env));
  try {
    if ((await fs.stat(store.workerLogPath)).size > MAX_LOG_BYTES) await fs.truncate(store.workerLogPath, 0);
  } catch {
    // no log yet
  }
  const shutdown = new AbortController();
  const stop = () => shutdown.abort();
  for (const signal of ['SIGTERM', 'SIGHUP'] as const) process.on(signal, stop);
  ctx.signal.addEventListener('abort', stop, { once: true }); // SIGINT
  const worker = new Worker({
    store,
    env: ctx.env,
    concurrency: concurrency(ctx),
    idleMs: IDLE_MS,
    killGraceMs: KILL_GRACE_MS,
    log: (line) => process.stdout.write(`${new Date().toISOString()} ${line}\n`),
    shutdown: shutdown.signal,
  });
  await worker.run();
  return 0;
}
