/**
 * Finishing a detached run (detached.ts) whose waiting CLI went away: the worker takes the job over, waits for its
 * simc (stopping it on cancel or at the runtime cap, as for its own runs), then reads the outcome from the files
 * the run left: the logs and the report. The worker is not simc's parent, so simc's exit status is not known; the
 * files say how it ended (pass.ts, readPass).
 */
import { existsSync, promises as fs } from 'node:fs';
import { awaitGroup, groupAlive } from './detached.js';
import type { Ending } from './lifecycle.js';
import { readPass, SINGLE_PASS_FILES, type RunDeps } from './pass.js';
import { endSinglePass } from './runner.js';
import type { LocalJob, LocalStore } from './store.js';

/**
 * A detached run can be finished from its files: its simc still runs, or it ended and left a report. One that ended
 * with none while nobody watched is retried as an interrupted run: its files may not say why it ended.
 */
export function canAdopt(store: LocalStore, job: LocalJob): boolean {
  if (!job.detached || !job.simcPid) return false;
  return groupAlive(job.simcPid) || existsSync(store.file(job.id, SINGLE_PASS_FILES(job).json));
}

/** simc's version line: the first line of its stdout, when it is one. */
async function versionLineOf(path: string): Promise<string | null> {
  try {
    const handle = await fs.open(path, 'r');
    try {
      const buffer = Buffer.alloc(4096);
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
      const first = buffer.subarray(0, bytesRead).toString('utf8').split(/\r?\n/)[0]?.trim() ?? '';
      return first.startsWith('SimulationCraft ') ? first : null;
    } finally {
      await handle.close();
    }
  } catch {
    return null;
  }
}

/** The adopted job's end (undefined: the worker is stopping, and the job is left to be adopted again). */
export async function finishAdopted(deps: RunDeps, job: LocalJob): Promise<Ending | undefined> {
  const files = SINGLE_PASS_FILES(job);
  // cancel and the runtime cap stop simc; the worker's own shutdown leaves it running (adopted again later)
  const stop = new AbortController();
  let onStop: () => void = () => undefined;
  const leaving = new Promise<undefined>((leave) => {
    onStop = () => (deps.stop.reason === 'shutdown' ? leave(undefined) : stop.abort(deps.stop.reason));
    if (deps.stop.aborted) onStop();
    else deps.stop.addEventListener('abort', onStop, { once: true });
  });
  const exit = await Promise.race([awaitGroup(job.simcPid as number, { stop: stop.signal, killGraceMs: deps.killGraceMs }), leaving]);
  deps.stop.removeEventListener('abort', onStop);
  if (!exit) return undefined;
  const started = job.startedAt ? Date.parse(job.startedAt) : Date.now();
  const pass = { ...exit, spawnError: null, durationMs: Date.now() - started, versionLine: await versionLineOf(deps.store.file(job.id, files.stdout)) };
  return endSinglePass(deps, job, await readPass(deps, job, files, pass));
}
