/**
 * What local mode takes from whoever uses it: plain values, not the CLI's Context, so the library's local client
 * (src/core/client.ts) runs jobs without the CLI. The CLI makes these from its Context (context.ts `localOptions`).
 */
import type { Config } from '../config/resolve.js';

/** The settings local mode reads: simc.<channel>, simc.path, local.concurrency, webhook.url, the webhook secret. */
export type LocalSettings = Pick<Config, 'setting' | 'stringSetting' | 'webhookSecret' | 'profile'>;

export interface LocalOptions {
  /** Where SIMJOB_SIMC and SIMJOB_WEBHOOK_URL are looked up, and what simc's own environment is made from. */
  env: NodeJS.ProcessEnv;
  config: LocalSettings;
  /** The store: jobs/, queue/, running/, keys/, the worker's lock and log. */
  dataDir: string;
  /** The background worker's environment (it finds the data dir and its settings there). */
  workerEnv: NodeJS.ProcessEnv;
  /** One line each: what the submission runs differently from the service, a record skipped in a list. */
  warn: (line: string) => void;
  /**
   * A wait that finds no worker running runs the queue in this process while it waits (host.ts), rather than a
   * background worker: one Node process where there would be two. `onHosting` is told when that starts, with how to
   * hand over (the CLI does on Ctrl-Z, SIGTERM and SIGHUP), and returns what undoes it. Unset: a wait only waits.
   */
  hostWhileWaiting?: { onHosting?: (handOver: () => Promise<void>) => () => void };
}
