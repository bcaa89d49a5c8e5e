/**
 * Entry of dist/worker.js: the background worker of local jobs, started by control.ts (never by users). A build
 * entry of its own rather than a hidden CLI command, because it sits on the path of every cold
 * `submit --local --wait`: it loads only the worker's modules (no commander, no output module), and starts
 * importing execa while it takes the lock and reads the queue. It prints nothing but log lines (worker.log).
 */
import { promises as fs } from 'node:fs';
import module from 'node:module';
import { dataDir } from '../config/paths.js';
import { Config } from '../config/resolve.js';
import { LocalStore } from './store.js';
import { Worker } from './worker.js';

/** Keep worker.log from growing without bound: start afresh past this size. */
const MAX_LOG_BYTES = 1024 * 1024;
/** Linger this long after the queue empties: a burst of submissions then finds the worker already running. */
const IDLE_MS = 2_000;
/** simc gets this long after SIGTERM (cancel, runtime cap) before SIGKILL. */
const KILL_GRACE_MS = 3_000;

(module as { enableCompileCache?: () => void }).enableCompileCache?.();
void import('execa').catch(() => undefined); // warm it up; the first run awaits the same import

function concurrency(env: NodeJS.ProcessEnv): number {
  let value: unknown = 1;
  try {
    value = new Config(env, {}).setting('local.concurrency') ?? 1;
  } catch {
    // a broken config.json: run one at a time rather than not at all
  }
  const n = Number(value);
  return Number.isSafeInteger(n) && n >= 1 ? n : 1;
}

async function main(): Promise<void> {
  const env = process.env;
  const store = new LocalStore(dataDir(env));
  try {
    if ((await fs.stat(store.workerLogPath)).size > MAX_LOG_BYTES) await fs.truncate(store.workerLogPath, 0);
  } catch {
    // no log yet
  }
  const shutdown = new AbortController();
  for (const signal of ['SIGTERM', 'SIGHUP', 'SIGINT'] as const) process.on(signal, () => shutdown.abort());
  const worker = new Worker({
    store,
    env,
    concurrency: concurrency(env),
    idleMs: IDLE_MS,
    killGraceMs: KILL_GRACE_MS,
    log: (line) => process.stdout.write(`${new Date().toISOString()} ${line}\n`),
    shutdown: shutdown.signal,
  });
  await worker.run();
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stdout.write(`${new Date().toISOString()} worker ${process.pid} failed: ${(error as Error).stack ?? String(error)}\n`);
    process.exit(1);
  },
);
