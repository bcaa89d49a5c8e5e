/**
 * How the worker runs simc, for every local job: detached from it. simc runs in a session and process group of its
 * own, and its stdout and stderr go straight to the job's files (no pipe to a process that may go away, and none for
 * the worker to copy). Everything needed to finish the job is then in the job folder: if the worker is killed, the
 * next one adopts its run (adopt.ts) and finishes it from those files instead of running simc a second time.
 *
 * simc is started directly (no shell to write its exit status: a second process start on every run). The runner,
 * simc's parent, gets the status; a worker that adopted the run is not simc's parent and never learns it, so it
 * judges the run by what simc left (pass.ts: an ending with no known status).
 */
import { accessSync, constants as fsConstants, openSync, closeSync, readdirSync, readSync } from 'node:fs';
import type { SimcExit, SimcRunSpec } from './simc.js';
import { childProcess } from '../../util/child-process.js';
import { errnoCode } from '../../util/errno.js';
import { isAlive, procStat } from './pids.js';

/** How often the stdout file is read for new progress lines. */
const TAIL_MS = 100;
/** simc gets this long after SIGTERM (cancel, runtime cap) before SIGKILL. */
const KILL_GRACE_MS = 3_000;
/** How often a process group is looked at while waiting for it to end. */
const POLL_MS = 20;

const monotonicMs = () => Number(process.hrtime.bigint()) / 1e6;

/** A pause that never keeps the process alive by itself: the worker's loop decides when it leaves. */
const nap = (ms: number) => new Promise<void>((done) => setTimeout(done, ms).unref());

/** The target of a signal to a run's process group (Windows has none: there it is simc itself). */
const groupTarget = (pgid: number) => (process.platform === 'win32' ? pgid : -pgid);

/** Is any process of this group alive? */
export function groupAlive(pgid: number): boolean {
  try {
    process.kill(groupTarget(pgid), 0);
  } catch (error) {
    return errnoCode(error) === 'EPERM';
  }
  // An ended simc stays a zombie until its parent reaps it, and a stopped parent (a waiting command stopped by
  // Ctrl-Z, whose runs another worker adopted) does not: the run has ended when nothing else of its group lives.
  return process.platform !== 'linux' || isAlive(pgid) || othersLiveInGroup(pgid);
}

/** Linux: does a process other than a zombie belong to this process group? (Read only when its leader has ended.) */
function othersLiveInGroup(pgid: number): boolean {
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const [state, , group] = procStat(name) ?? []; // none: gone meanwhile
    if (Number(group) === pgid && state !== 'Z') return true;
  }
  return false;
}

export function signalGroup(pgid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(groupTarget(pgid), signal);
  } catch {
    // already gone
  }
}

/**
 * Feeds the lines appended to a file to `onLines`, a read's worth at a time, from where it stood when tailing
 * began. In batches: a short sim prints hundreds of progress lines between two reads, of which the reader wants
 * one or two (the newest progress, the version line), and the last read comes after simc's end, when the waiting
 * command is on its way to the answer.
 */
class FileTail {
  private offset = 0;
  private pending = '';
  private reading: Promise<void> = Promise.resolve();
  private timer: NodeJS.Timeout;

  constructor(
    private readonly path: string,
    private readonly onLines: (lines: readonly string[]) => void,
  ) {
    this.timer = setInterval(() => void this.read(), TAIL_MS).unref();
  }

  read(): Promise<void> {
    this.reading = this.reading.then(() => this.readMore()).catch(() => undefined);
    return this.reading;
  }

  /** Synchronous, like the job store's calls (util/data-files.ts): what was appended since the last read is small. */
  private async readMore(): Promise<void> {
    const fd = openSync(this.path, 'r');
    try {
      const buffer = Buffer.allocUnsafe(64 * 1024);
      for (;;) {
        const bytesRead = readSync(fd, buffer, 0, buffer.length, this.offset);
        if (bytesRead === 0) return;
        this.offset += bytesRead;
        const lines = (this.pending + buffer.toString('utf8', 0, bytesRead)).split('\n');
        this.pending = lines.pop() ?? '';
        if (lines.length > 0) this.onLines(lines.map((line) => line.replace(/\r$/, '')));
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
    if (this.pending) this.onLines([this.pending]);
    this.pending = '';
  }
}

/** How simc ended, as its parent saw it. */
export interface ChildExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** The reason a run is let go rather than stopped: its simc runs on, for the next worker to adopt (adopt.ts). */
export const LET_GO = 'handover';

/**
 * Wait for a detached run (its process group) to end, stopping it when `stop` aborts (SIGTERM to the group, then
 * SIGKILL after KILL_GRACE_MS), or letting it go when `stop` aborts with LET_GO (the wait ends at once; simc runs on).
 * Used by the runner that started it and by a worker that adopted it alike. `exit`, when the caller is simc's parent,
 * resolves with how simc ended; without it the status is not known (both null).
 */
export async function awaitGroup(
  pgid: number,
  opts: { stop: AbortSignal; exit?: Promise<ChildExit> },
): Promise<Pick<SimcExit, 'exitCode' | 'signal'>> {
  let killTimer: NodeJS.Timeout | undefined;
  let letGo: () => void = () => undefined;
  const lettingGo = new Promise<'let go'>((resolve) => (letGo = () => resolve('let go')));
  const onStop = () => {
    if (opts.stop.reason === LET_GO) return letGo();
    signalGroup(pgid, 'SIGTERM');
    killTimer = setTimeout(() => signalGroup(pgid, 'SIGKILL'), KILL_GRACE_MS).unref();
  };
  if (opts.stop.aborted) onStop();
  else opts.stop.addEventListener('abort', onStop, { once: true });
  const unknown = { exitCode: null, signal: null };
  try {
    const exit = opts.exit ? await Promise.race([opts.exit, lettingGo]) : undefined;
    if (exit === 'let go') return unknown;
    // anything simc started in its group ends with the run
    while (groupAlive(pgid)) if ((await Promise.race([nap(POLL_MS), lettingGo])) === 'let go') return unknown;
    return { exitCode: exit?.code ?? null, signal: exit?.signal ?? null };
  } finally {
    opts.stop.removeEventListener('abort', onStop);
    clearTimeout(killTimer);
  }
}

/** One simc run, detached (see the top of this file), followed to its end: its pid reported, its progress lines fed. */
export async function runSimcDetached(spec: SimcRunSpec): Promise<SimcExit> {
  const notStarted = (why: string) => ({ exitCode: null, signal: null, spawnError: why, durationMs: 0 });
  try {
    accessSync(spec.simcPath, fsConstants.X_OK);
  } catch (error) {
    return notStarted(errnoCode(error) ?? 'it could not be started');
  }
  const startedAt = monotonicMs();
  const stdout = openSync(spec.stdoutFile, 'w');
  const stderr = openSync(spec.stderrFile, 'w');
  let child;
  try {
    child = childProcess().spawn(spec.simcPath, spec.args, {
      cwd: spec.cwd,
      env: spec.env,
      detached: true,
      stdio: ['ignore', stdout, stderr],
    });
  } finally {
    closeSync(stdout);
    closeSync(stderr);
  }
  const exit = new Promise<ChildExit>((done) => {
    child.once('exit', (code, signal) => done({ code, signal }));
    child.once('error', () => done({ code: null, signal: null })); // not started: its pid is undefined (below)
  });
  child.unref(); // the run goes on without this process if it is killed (adopt.ts)
  const pid = child.pid;
  if (pid === undefined) return notStarted('it could not be started');
  spec.onSpawn(pid);
  const tail = new FileTail(spec.stdoutFile, spec.onStdoutLines);
  const ended = await awaitGroup(pid, { stop: spec.stop, exit });
  await tail.stop();
  return { ...ended, spawnError: null, durationMs: Math.round(monotonicMs() - startedAt) };
}
