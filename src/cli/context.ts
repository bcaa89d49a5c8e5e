import type { RemoteBackend } from '../core/api/remote.js';
import { dataDir } from '../core/config/paths.js';
import { Config } from '../core/config/resolve.js';
import type { LocalOptions } from '../core/local/options.js';
import { debugLevelOf } from './debug.js';
import type { JobBackend } from '../core/jobs/backend.js';
import { isLocalId } from '../core/jobs/ids.js';
import { Output, type OutStream } from './output/io.js';
import { duration } from '../util/parse.js';
import { userAgent } from '../version.js';
import { terminalSafe } from '../util/safe.js';
import { handOverOnSignals } from './hand-over.js';

/** Flags every command accepts (defined once in program.ts). */
export interface GlobalFlags {
  json: boolean;
  color: boolean;
  quiet: boolean;
  debug: boolean;
  profile?: string;
  baseUrl?: string;
  /** `--timeout` of the commands that wait: it is also their budget for retrying transient failures. */
  timeoutMs?: number;
}

export interface ContextOptions {
  env: NodeJS.ProcessEnv;
  /** The folder relative paths on the command line are from (process.cwd() when not given). */
  cwd?: string;
  stdout: OutStream;
  stderr: OutStream;
  /** Opened on first use (see Runtime.stdin). */
  stdin: () => NodeJS.ReadableStream & { isTTY?: boolean };
  flags: GlobalFlags;
  signal: AbortSignal;
}

/**
 * What a command handler gets: the output module, the effective config, and the backends, created on first use
 * so a command pays only for what it touches.
 */
export class Context {
  readonly out: Output;
  readonly config: Config;
  readonly env: NodeJS.ProcessEnv;
  readonly cwd: string;
  readonly flags: GlobalFlags;
  private readonly openStdin: ContextOptions['stdin'];
  /** Aborted on Ctrl-C: long waits and requests stop with it. */
  readonly signal: AbortSignal;
  // Promises, so two lookups at once (compare's two jobs) share one backend instead of building two.
  private remoteBackend: Promise<RemoteBackend> | undefined;
  private localBackend: Promise<JobBackend> | undefined;

  /** When the command started: a --timeout counts from here, retries included. */
  private readonly startedAt = Date.now();

  constructor(opts: ContextOptions) {
    this.env = opts.env;
    this.cwd = opts.cwd ?? process.cwd();
    this.flags = opts.flags;
    this.openStdin = opts.stdin;
    this.signal = opts.signal;
    this.config = new Config(opts.env, { profile: opts.flags.profile, baseUrl: opts.flags.baseUrl });
    const json = opts.flags.json || this.safeSetting('output') === 'json';
    this.out = new Output({
      stdout: opts.stdout,
      stderr: opts.stderr,
      env: opts.env,
      json,
      noColor: !opts.flags.color,
      quiet: opts.flags.quiet,
    });
  }

  /** The `output` setting must not break commands that never need config, e.g. when config.json is broken. */
  private safeSetting(key: string): unknown {
    try {
      return this.config.setting(key);
    } catch {
      return undefined;
    }
  }

  get stdin(): ReturnType<ContextOptions['stdin']> {
    return this.openStdin();
  }

  get debugLevel(): 0 | 1 | 2 {
    return debugLevelOf(this.env, Boolean(this.flags.debug));
  }

  /** The API client of this command (one per command). */
  remote(): Promise<RemoteBackend> {
    return (this.remoteBackend ??= this.remoteClient());
  }

  /**
   * A new API client: the configured base URL, key and Ctrl-C signal unless overridden (login tries a key before
   * storing it; a cancel after Ctrl-C needs a signal that is not already aborted).
   */
  async remoteClient(
    overrides: { baseUrl?: string; apiKey?: string; signal?: AbortSignal } = {},
  ): Promise<RemoteBackend> {
    const baseUrl = overrides.baseUrl ?? this.config.baseUrl().value;
    const apiKey = overrides.apiKey ?? this.config.apiKey().value;
    this.out.addSecret(apiKey);
    const { RemoteBackend } = await import('../core/api/remote.js');
    return new RemoteBackend({
      baseUrl,
      apiKey,
      userAgent: userAgent(),
      debug: this.debugLevel,
      log: (line) => this.out.err(`${this.out.ce.dim(terminalSafe(line))}\n`), // debug lines quote server bodies
      notice: (line) => this.out.notice(this.out.ce.dim(terminalSafe(line))), // retry notices: --quiet hides them
      signal: overrides.signal ?? this.signal,
      env: this.env,
      ...httpLimits(this.env, this.flags.timeoutMs, this.startedAt),
    });
  }

  local(): Promise<JobBackend> {
    return (this.localBackend ??= import('../core/local/backend.js').then((m) =>
      m.createLocalBackend(this.localOptions()),
    ));
  }

  /** What local mode takes from this command: its env, config and data dir, and a warning line on stderr. */
  localOptions(): LocalOptions {
    // The worker reads its settings (local.concurrency) from the profile this command uses.
    const workerEnv =
      this.config.profileSource === 'flag' ? { ...this.env, SIMJOB_PROFILE: this.config.profile } : this.env;
    return {
      env: this.env,
      config: this.config,
      dataDir: dataDir(this.env),
      workerEnv,
      warn: (line) => this.out.warn(line),
      hostWhileWaiting: { onHosting: handOverOnSignals },
    };
  }

  /** The backend a `--local` flag asks for. */
  backend(local: boolean | undefined): Promise<JobBackend> {
    return local ? this.local() : this.remote();
  }

  /** Local ids carry a prefix, so any command finds a local job without a flag. */
  backendFor(jobId: string): Promise<JobBackend> {
    return isLocalId(jobId) ? this.local() : this.remote();
  }
}

/**
 * The HTTP limits, for slow links and tests: SIMJOB_HTTP_TIMEOUT (inactivity), SIMJOB_HTTP_DEADLINE (one whole
 * answer), SIMJOB_RETRY_BUDGET (retrying transient failures; a command's --timeout wins). Durations as 30s, 2m.
 */
function httpLimits(env: NodeJS.ProcessEnv, timeoutFlagMs: number | undefined, startedAt: number) {
  const read = (name: string): number | undefined => {
    const value = env[name];
    return value === undefined || value === '' ? undefined : duration(name)(value);
  };
  return {
    timeoutMs: read('SIMJOB_HTTP_TIMEOUT'),
    deadlineMs: read('SIMJOB_HTTP_DEADLINE'),
    retryBudgetMs: timeoutFlagMs ?? read('SIMJOB_RETRY_BUDGET'),
    // A poll late in a --wait must not retry past the command's own --timeout (its exit 8 would come late).
    retryUntil: timeoutFlagMs === undefined ? undefined : startedAt + timeoutFlagMs,
  };
}
