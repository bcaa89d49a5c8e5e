/**
 * Finishing a detached run (detached.ts) whose worker was killed: the next worker takes the job over, waits for its
 * simc (stopping it on cancel or at the runtime cap, as for its own runs), then reads the outcome from the files
 * the run left: the logs and the report. The worker is not simc's parent, so simc's exit status is not known; the
 * files say how it ended (pass.ts, readPass).
 */
import { existsSync, readlinkSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { awaitGroup, groupAlive } from './detached.js';
import type { Ending } from './lifecycle.js';
import { leavesRun, readLog, readPass, SINGLE_PASS_FILES, type RunDeps } from './pass.js';
import { endSinglePass } from './runner.js';
import type { LocalJob, LocalStore } from './store.js';

/**
 * A detached run can be finished from its files: its simc still runs, or it ended and left a report. One that ended
 * with none while nobody watched is retried as an interrupted run: its files may not say why it ended.
 */
export function canAdopt(store: LocalStore, job: LocalJob): boolean {
  if (!job.detached || !job.simcPid) return false;
  return isJobsSimc(store, job) || existsSync(store.file(job.id, SINGLE_PASS_FILES(job).json));
}

/**
 * Is the process group the job names still its simc? A pid given since to another program is not: on Linux, simc
 * runs in the job folder. Checked before anything waits on a group or signals it.
 */
export function isJobsSimc(store: LocalStore, job: LocalJob): boolean {
  const pid = job.simcPid;
  if (!pid || !groupAlive(pid)) return false;
  if (process.platform !== 'linux') return true;
  try {
    return resolve(readlinkSync(`/proc/${pid}/cwd`)) === resolve(store.jobDir(job.id));
  } catch {
    return false;
  }
}

const unknownExit = Promise.resolve({ exitCode: null, signal: null });

/** The adopted job's end (undefined: the worker is stopping, and the job is left to be adopted again). */
export async function finishAdopted(deps: RunDeps, job: LocalJob): Promise<Ending | undefined> {
  const files = SINGLE_PASS_FILES(job);
  // cancel and the runtime cap stop simc; the worker's own shutdown or hand-over leaves it running (adopted again)
  const stop = new AbortController();
  let onStop: () => void = () => undefined;
  const leaving = new Promise<undefined>((leave) => {
    onStop = () => (leavesRun(deps.stop.reason) ? leave(undefined) : stop.abort(deps.stop.reason));
    if (deps.stop.aborted) onStop();
    else deps.stop.addEventListener('abort', onStop, { once: true });
  });
  // a group that is no longer this job's simc (its pid given to another program) is neither waited for nor stopped
  const ran = isJobsSimc(deps.store, job) ? awaitGroup(job.simcPid as number, { stop: stop.signal }) : unknownExit;
  const exit = await Promise.race([ran, leaving]);
  deps.stop.removeEventListener('abort', onStop);
  if (!exit) return undefined;
  // simc's time: from its start to its last write (not to now: the worker may adopt a run long after it ended)
  const started = job.startedAt ? Date.parse(job.startedAt) : Date.now();
  const writes = [files.stdout, files.stderr, files.json].map(
    (name) => statSync(deps.store.file(job.id, name), { throwIfNoEntry: false })?.mtimeMs ?? 0,
  );
  const ended = Math.max(...writes) || Date.now();
  // simc's version line: the first line of its stdout, when it is one
  const firstLine = (await readLog(deps.store.file(job.id, files.stdout), 4096, 'start')).split(/\r?\n/)[0]?.trim();
  const pass = {
    ...exit,
    spawnError: null,
    durationMs: Math.max(0, Math.round(ended - started)),
    versionLine: firstLine?.startsWith('SimulationCraft ') ? firstLine : null,
  };
  return endSinglePass(deps, job, await readPass(deps, job, files, pass));
}
