/**
 * simc run detached from the process that started it, for the jobs a waiting `submit --local --wait` runs itself
 * (inline.ts). simc runs under a tiny `sh` in a session and process group of its own, so the terminal's Ctrl-C never
 * reaches it; its stdout and stderr go straight to the job's files (no pipe to a process that may go away); and the
 * shell writes simc's exit status to `simc-exit` when it ends. Everything needed to finish the job is then in the
 * job folder, so if the runner goes away, the worker adopts the run (adopt.ts) and finishes it from those files.
 */
import { accessSync, constants as fsConstants, openSync, closeSync, readFileSync, readSync } from 'node:fs';
import { constants as osConstants } from 'node:os';
import type { SimcExit, SimcRunSpec } from './simc.js';
import { removeFile } from './fsutil.js';
import { childProcess } from '../util/child-process.js';

/** Written by the shell around simc: its exit status as the shell saw it (128 + n for signal n). */
export const EXIT_FILE = 'simc-exit';
/** How often the stdout file is read for new progress lines. */
const TAIL_MS = 100;
/** How often a process group is looked at while waiting for it to end. */
const POLL_MS = 20;

// "$@" is simc and its arguments (no shell parsing of them). The status is written in place, by the shell itself (a
// `mv` from a temp file cost a process start on every run): the file is read only once the group is gone
// (awaitGroup), when the write is complete, and an empty file (the shell killed mid-write) reads as no status.
const WRAPPER = `"$@"; echo "$?" > ${EXIT_FILE}`;

const monotonicMs = () => Number(process.hrtime.bigint()) / 1e6;

/** A pause that never keeps the process alive by itself (a waiting CLI that goes away must not wait for simc). */
const nap = (ms: number) => new Promise<void>((done) => setTimeout(done, ms).unref());

/** Is any process of this group alive? */
export function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function signalGroup(pgid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pgid, signal);
  } catch {
    // already gone
  }
}

/** The shell's status as simc's exit: 128 + n is signal n. */
export function exitFromStatus(status: number): Pick<SimcExit, 'exitCode' | 'signal'> {
  if (status > 128) {
    const name = Object.entries(osConstants.signals).find(([, n]) => n === status - 128)?.[0];
    if (name) return { exitCode: null, signal: name };
  }
  return { exitCode: status, signal: null };
}

export async function readExitFile(dir: string): Promise<number | undefined> {
  try {
    const status = Number.parseInt(readFileSync(`${dir}/${EXIT_FILE}`, 'utf8'), 10);
    return Number.isInteger(status) ? status : undefined;
  } catch {
    return undefined;
  }
}

/** Feeds the lines appended to a file to `onLine`, from where it stood when tailing began. */
class FileTail {
  private offset = 0;
  private pending = '';
  private reading: Promise<void> = Promise.resolve();
  private readonly timer: NodeJS.Timeout;

  constructor(private readonly path: string, private readonly onLine: (line: string) => void) {
    this.timer = setInterval(() => void this.read(), TAIL_MS).unref();
  }

  read(): Promise<void> {
    this.reading = this.reading.then(() => this.readMore()).catch(() => undefined);
    return this.reading;
  }

  /** Synchronous, like the job store's calls (local/fsutil.ts): what was appended since the last read is small. */
  private async readMore(): Promise<void> {
    const fd = openSync(this.path, 'r');
    try {
      for (;;) {
        const buffer = Buffer.alloc(64 * 1024);
        const bytesRead = readSync(fd, buffer, 0, buffer.length, this.offset);
        if (bytesRead === 0) return;
        this.offset += bytesRead;
        this.pending += buffer.subarray(0, bytesRead).toString('utf8');
        const lines = this.pending.split('\n');
        this.pending = lines.pop() ?? '';
        for (const line of lines) this.onLine(line.replace(/\r$/, ''));
        // simc's default progress bar rewrites one line with \r: never let an unterminated line grow without bound
        if (this.pending.length > 64 * 1024) this.pending = this.pending.slice(-1024);
      }
    } finally {
      closeSync(fd);
    }
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.read();
    if (this.pending) this.onLine(this.pending);
    this.pending = '';
  }
}

/**
 * Wait for a detached run (its process group) to end, stopping it when `stop` aborts (SIGTERM to the group, then
 * SIGKILL after killGraceMs); then read its status from the exit file. Used by the runner that started it and by
 * a worker that adopted it alike. `shellExit`, when the caller is the shell's parent, resolves with how it ended.
 */
export async function awaitGroup(
  pgid: number,
  dir: string,
  opts: { stop: AbortSignal; killGraceMs: number; shellExit?: Promise<{ code: number | null; signal: NodeJS.Signals | null }> },
): Promise<Pick<SimcExit, 'exitCode' | 'signal'>> {
  let killTimer: NodeJS.Timeout | undefined;
  const onStop = () => {
    signalGroup(pgid, 'SIGTERM');
    killTimer = setTimeout(() => signalGroup(pgid, 'SIGKILL'), opts.killGraceMs).unref();
  };
  if (opts.stop.aborted) onStop();
  else opts.stop.addEventListener('abort', onStop, { once: true });
  try {
    const shell = opts.shellExit ? await opts.shellExit : undefined;
    while (groupAlive(pgid)) await nap(POLL_MS);
    const status = await readExitFile(dir);
    if (status !== undefined) return exitFromStatus(status);
    // No status written: the shell itself was stopped (cancel, runtime cap) or killed.
    return { exitCode: shell?.code ?? null, signal: shell?.signal ?? (shell ? null : 'SIGKILL') };
  } finally {
    opts.stop.removeEventListener('abort', onStop);
    clearTimeout(killTimer);
  }
}

/** A detached run that was started: the shell's pid (also its process group) and how the shell ended. */
export interface DetachedRun {
  pid: number;
  shellExit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** When it was spawned, in ms of process.hrtime (performance.now() would load perf_hooks on the way to simc). */
  startedAt: number;
  /** Keep this process alive until the shell has ended (the run is unref'd so that it never does by itself). */
  keepAlive(): void;
}

export type DetachedSpawnSpec = Pick<SimcRunSpec, 'simcPath' | 'args' | 'cwd' | 'env' | 'stdoutFile' | 'stderrFile'>;

/**
 * Start simc detached (see the top of this file), without waiting for anything: also used by the head start
 * (head-start.ts), before the CLI has loaded. Returns why it could not be started instead when it could not.
 */
export function spawnDetached(spec: DetachedSpawnSpec): DetachedRun | { spawnError: string } {
  const startedAt = monotonicMs();
  const stdout = openSync(spec.stdoutFile, 'w');
  const stderr = openSync(spec.stderrFile, 'w');
  let child;
  try {
    child = childProcess().spawn('/bin/sh', ['-c', WRAPPER, 'sh', spec.simcPath, ...spec.args], {
      cwd: spec.cwd,
      env: spec.env,
      detached: true,
      stdio: ['ignore', stdout, stderr],
    });
  } finally {
    closeSync(stdout);
    closeSync(stderr);
  }
  const shellExit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) => {
    child.once('exit', (code, signal) => done({ code, signal }));
    child.once('error', () => done({ code: 127, signal: null }));
  });
  child.unref(); // the run goes on without this process if it leaves (see inline.ts)
  if (child.pid === undefined) return { spawnError: 'sh could not be started' };
  return { pid: child.pid, shellExit, startedAt, keepAlive: () => child.ref() };
}

/** Follow a detached run to its end: its pid reported, its progress lines fed, stopped on `spec.stop`. */
export async function followDetached(run: DetachedRun, spec: SimcRunSpec): Promise<SimcExit> {
  spec.onSpawn(run.pid);
  const tail = new FileTail(spec.stdoutFile, spec.onStdoutLine);
  const exit = await awaitGroup(run.pid, spec.cwd, { stop: spec.stop, killGraceMs: spec.killGraceMs, shellExit: run.shellExit });
  await tail.stop();
  return { ...exit, spawnError: null, durationMs: Math.round(monotonicMs() - run.startedAt) };
}

/** One simc run, detached (see the top of this file). Same contract as runSimcOnce. */
export async function runSimcDetached(spec: SimcRunSpec): Promise<SimcExit> {
  try {
    accessSync(spec.simcPath, fsConstants.X_OK);
  } catch (error) {
    return { exitCode: null, signal: null, spawnError: (error as NodeJS.ErrnoException).code ?? 'it could not be started', durationMs: 0 };
  }
  await removeFile(`${spec.cwd}/${EXIT_FILE}`);
  const run = spawnDetached(spec);
  if ('spawnError' in run) return { exitCode: null, signal: null, spawnError: run.spawnError, durationMs: 0 };
  return followDetached(run, spec);
}
