/**
 * Entry of dist/worker.js: the background worker of local jobs, started by worker-process.ts (never by users). A
 * build entry of its own rather than a hidden CLI command: it loads only the worker's modules (no commander, no
 * output module). It prints nothing but log lines (worker.log).
 */
import { promises as fs } from 'node:fs';
import module from 'node:module';
import { dataDir } from '../config/paths.js';
import { Config } from '../config/resolve.js';
import { localConcurrency } from './claim.js';
import { LocalStore } from './store.js';
import { Worker } from './worker.js';

/** Keep worker.log from growing without bound: start afresh past this size. */
const MAX_LOG_BYTES = 1024 * 1024;
/** Linger this long after the queue empties: a burst of submissions then finds the worker already running. */
const IDLE_MS = 2_000;

(module as { enableCompileCache?: () => void }).enableCompileCache?.();

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
  let concurrency = 1; // a broken config.json: one at a time rather than not at all
  try {
    // The settings are read only when the environment gives no count (a broken config.json then does not matter).
    concurrency = localConcurrency({ setting: (key) => new Config(env, {}).setting(key) }, env);
  } catch {
    // as above
  }
  const worker = new Worker({
    store,
    env,
    concurrency,
    idleMs: IDLE_MS,
    log: (line) => process.stdout.write(`${new Date().toISOString()} ${line}\n`),
    shutdown: shutdown.signal,
  });
  await worker.run();
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    // one line, as every fault in the log (a full disk must not fill it with stack traces)
    const message = String((error as Error)?.message ?? error).replace(/\s+/g, ' ');
    process.stdout.write(`${new Date().toISOString()} worker ${process.pid} failed: ${message}\n`);
    process.exit(1);
  },
);
