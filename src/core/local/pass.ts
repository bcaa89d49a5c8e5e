/**
 * One simc pass of a local job in its folder, read: its outcome mapped to the spec's terminal states and error
 * codes, or its parsed report. The single-pass runner (runner.ts) makes one; the staged runner
 * (src/core/local/multistage.ts) one per stage.
 */
import { promises as fs, readFileSync } from 'node:fs';
import type { Ending } from './lifecycle.js';
import { ReportError, parseReport } from '../../domain/report/report.js';
import { readStageReport, type StageReport } from '../../domain/report/report-rows.js';
import { LET_GO, runSimcDetached } from './detached.js';
import { findCrashLine, findErrorLine, localBuildId, parseVersionLine, simcEnv, type SimcExit } from './simc.js';
import type { LocalBuildInfo, LocalJob, LocalStore } from './store.js';

export interface PassFiles {
  /** Profile to run, relative to the job folder (simc's cwd). */
  input: string;
  jsonVersion: '2' | '3';
  json: string;
  html: string | null;
  text: string;
  stdout: string;
  stderr: string;
}

/** The files of a job run in one pass; a staged job (src/core/local/multistage.ts) names its own for each stage. */
export const SINGLE_PASS_FILES = (job: Pick<LocalJob, 'outputs'>): PassFiles => ({
  input: 'input.simc',
  jsonVersion: job.outputs.jsonVersion,
  json: 'report.json',
  html: job.outputs.html ? 'report.html' : null,
  text: 'simc-output.txt',
  stdout: 'stdout.log',
  stderr: 'stderr.log',
});

/** simc's argv for one pass: the profile, then the report options (sim options, so their place after it is fine). */
export function simcArgs(files: PassFiles): string[] {
  const json = files.jsonVersion === '3' ? `json=${files.json},version=3.0.0-alpha1` : `json2=${files.json}`;
  return [
    files.input,
    json,
    ...(files.html ? [`html=${files.html}`] : []),
    `output=${files.text}`,
    'progressbar_type=1',
  ];
}

/**
 * Why a run is stopped: a cancel request, its runtime cap, or its worker's shutdown (simc stopped, the job retried),
 * or let go (`handover`, detached.ts LET_GO): its worker leaves and simc runs on, for the next worker to adopt.
 */
export type StopReason = 'cancel' | 'timeout' | 'shutdown' | typeof LET_GO;

/** A stop that leaves the job to another run of it (a retry, or an adoption): no ending is recorded. */
export const leavesRun = (reason: unknown): boolean => reason === 'shutdown' || reason === LET_GO;

export interface RunDeps {
  store: LocalStore;
  env: NodeJS.ProcessEnv;
  /** Aborted with a StopReason to stop simc (SIGTERM, then SIGKILL: detached.ts). */
  stop: AbortSignal;
  /** Record simc's pid on the job, so a dead worker's simc can be found and stopped. */
  onSimcPid: (pid: number) => Promise<void>;
  /** A single pass's simc has ended: the worker gives its room to the next job while this one's result is written. */
  onSimcEnded?: () => void;
}

export interface PassOutcome extends SimcExit {
  versionLine: string | null;
}

/** simc's machine-readable progress lines (progressbar_type=1, contract §3.4) are the tab-separated ones. */
const isProgressLine = (line: string) => line.includes('\t');

/**
 * One simc run in the job folder. `onProgress` gets the newest progress line of each read of simc's stdout: a
 * short sim prints hundreds between two reads, and only the newest says how far it is.
 */
export async function runPass(
  deps: RunDeps,
  job: LocalJob,
  files: PassFiles,
  onProgress?: (line: string) => void,
): Promise<PassOutcome> {
  const dir = deps.store.jobDir(job.id);
  let versionLine: string | null = null;
  if (deps.stop.aborted) return { exitCode: null, signal: null, spawnError: null, durationMs: 0, versionLine };
  const exit = await runSimcDetached({
    simcPath: job.simc.path,
    args: simcArgs(files),
    cwd: dir,
    env: simcEnv(deps.env),
    stdoutFile: deps.store.file(job.id, files.stdout),
    stderrFile: deps.store.file(job.id, files.stderr),
    onStdoutLines: (lines) => {
      versionLine ??= lines.find((line) => line.startsWith('SimulationCraft '))?.trim() ?? null;
      const progress = onProgress && lines.findLast(isProgressLine);
      if (progress) onProgress(progress);
    },
    onSpawn: (pid) => void deps.onSimcPid(pid).catch(() => undefined),
    stop: deps.stop,
  });
  return { ...exit, versionLine };
}

function buildInfo(job: LocalJob, versionLine: string | null, report?: Record<string, unknown>): LocalBuildInfo {
  const parsed = versionLine ? parseVersionLine(versionLine) : undefined;
  const fromReport = (key: string) => (report && typeof report[key] === 'string' ? (report[key] as string) : null);
  return {
    id: localBuildId(job.simc.path, versionLine),
    channel: job.channel,
    path: job.simc.path,
    simcVersion: parsed?.simcVersion ?? fromReport('version'),
    commit: parsed?.commit ?? fromReport('git_revision'),
    gitBranch: parsed?.gitBranch ?? fromReport('git_branch'),
    versionLine,
  };
}

/**
 * Up to `limit` bytes of a log from its start or its end ('' when it cannot be read): simc's version line is at
 * the start of stdout, its fatal line at the end of stderr (a huge one, of warnings, is read from its tail).
 */
export async function readLog(path: string, limit: number, from: 'start' | 'end'): Promise<string> {
  try {
    const handle = await fs.open(path, 'r');
    try {
      const { size } = await handle.stat();
      const start = from === 'end' ? Math.max(0, size - limit) : 0;
      const buffer = Buffer.alloc(Math.min(limit, size - start));
      await handle.read(buffer, 0, buffer.length, start);
      return buffer.toString('utf8');
    } finally {
      await handle.close();
    }
  } catch {
    return '';
  }
}

/** How much of each log's end is read: stderr's fatal line, stdout's "Simulation was canceled." */
const STDERR_TAIL = 4 * 1024 * 1024;
const STDOUT_TAIL = 64 * 1024;

function lastLine(text: string): string | undefined {
  return text.trim().split(/\r?\n/).pop()?.trim() || undefined;
}

/**
 * How a run failed whose exit status nobody saw (a run adopted by the worker, which is not simc's parent), from the
 * traces simc leaves of every failure its contract lists: a fatal `Error:` line or a crash line of its signal
 * handler on stderr, "Simulation was canceled." on stdout (exit 1, although a report may be written). Undefined:
 * no such trace, and the report decides, as after exit 0. A run that was killed leaves no report.
 */
export function tracedFailure(
  stderr: string,
  stdout: string,
): { errorCode: 'simulation_error' | 'execution_failed'; statusReason: string } | undefined {
  const errorLine = findErrorLine(stderr);
  if (errorLine) return { errorCode: 'simulation_error', statusReason: errorLine };
  const crash = findCrashLine(stderr);
  if (crash && !crash.startsWith('sim_signal_handler: Interrupt!'))
    return { errorCode: 'execution_failed', statusReason: `simc crashed: ${crash}` };
  if (/^Simulation was canceled\./m.test(stdout)) {
    const last = lastLine(stderr);
    return { errorCode: 'execution_failed', statusReason: `simc canceled the simulation${last ? `: ${last}` : ''}` };
  }
  return undefined;
}

/** What one pass came to: simc's parsed report, or how the job ends because of this pass. */
export type PassResult =
  | { ok: true; report: Record<string, unknown>; rows: StageReport; pass: PassOutcome; build: LocalBuildInfo }
  | { ok: false; ending: Ending | undefined };

/**
 * What a pass that ended came to, from its exit and the files it left (also for a run adopted by the worker): its
 * parsed JSON report, or the failure mapped to the terminal state and errorCode of the spec (undefined: the worker
 * is shutting down, so the job is left to be retried).
 */
export async function readPass(
  deps: Pick<RunDeps, 'store' | 'stop'>,
  job: LocalJob,
  files: PassFiles,
  pass: PassOutcome,
): Promise<PassResult> {
  const stopped = deps.stop.aborted ? (deps.stop.reason as StopReason) : undefined;
  const base = {
    simcExitCode: pass.signal ?? (pass.exitCode === null ? null : String(pass.exitCode)),
    simDurationMs: pass.spawnError ? null : pass.durationMs,
    build: buildInfo(job, pass.versionLine),
    hasResult: true,
  };
  const end = (status: Ending['status'], errorCode: string, statusReason: string): PassResult => ({
    ok: false,
    ending: { ...base, status, errorCode, statusReason },
  });

  if (leavesRun(stopped)) return { ok: false, ending: undefined };
  if (stopped === 'cancel')
    return end('cancelled', 'user_cancelled', 'Cancelled on request while running; simc was stopped.');
  if (stopped === 'timeout') {
    const why = `simc ran longer than maxRuntimeSeconds (${job.maxRuntimeSeconds} s) and was stopped.`;
    return end('timed_out', 'execution_timeout', why);
  }
  if (pass.spawnError)
    return end('failed', 'build_unavailable', `simc at ${job.simc.path} could not be started: ${pass.spawnError}`);
  const statusKnown = pass.exitCode !== null || pass.signal !== null;
  if (statusKnown && pass.exitCode !== 0) {
    const stderr = await readLog(deps.store.file(job.id, files.stderr), STDERR_TAIL, 'end');
    const errorLine = findErrorLine(stderr);
    if (errorLine && !pass.signal) return end('failed', 'simulation_error', errorLine);
    const crash = findCrashLine(stderr) ?? lastLine(stderr);
    const how = pass.signal ? `was killed by ${pass.signal}` : `exited with code ${pass.exitCode}`;
    return end('failed', 'execution_failed', `simc ${how}${crash ? `: ${crash}` : ''}`);
  }
  if (!statusKnown) {
    const failure = tracedFailure(
      await readLog(deps.store.file(job.id, files.stderr), STDERR_TAIL, 'end'),
      await readLog(deps.store.file(job.id, files.stdout), STDOUT_TAIL, 'end'),
    );
    if (failure) return end('failed', failure.errorCode, failure.statusReason);
  }
  // Exit 0 is a success only with a readable JSON report: simc does not fail its exit code when a report fails.
  const ended = statusKnown ? 'simc exited 0' : 'simc ended';
  let text: string;
  try {
    text = readFileSync(deps.store.file(job.id, files.json), 'utf8'); // at once: faster than in chunks through the thread pool
  } catch {
    return end('failed', 'execution_failed', `${ended} but wrote no JSON report.`);
  }
  try {
    const report = parseReport(text);
    const rows = readStageReport(report, job.mainActor); // throws when the baseline's numbers are missing
    return { ok: true, report, rows, pass, build: buildInfo(job, pass.versionLine, report) };
  } catch (error) {
    if (!(error instanceof ReportError)) throw error;
    return end('failed', 'execution_failed', `${ended} but its JSON report is unreadable: ${error.message}.`);
  }
}
