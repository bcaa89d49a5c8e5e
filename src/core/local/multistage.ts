/**
 * Staged runs of local jobs: `runStaged` driven by local mode's one pass (`runPass`, `readPass`), in the job folder.
 *
 * Files per stage k of K: `stage<k>.simc` (the rewritten input), `report.stage<k>.json` for k < K and the usual
 * `report.json` (and `report.html` when asked for) for the final stage, so everything that reads a job's report
 * finds the final one where it always is. Logs (`stdout.log`, `stderr.log`) are the last pass's: the final
 * stage's on success, the failing stage's otherwise. `result.csv` covers every profileset across the stages, and
 * so does `profilesets.json` (the compact list `result --all` reads).
 * The status record's `progress.stage` comes from `progress.json`, written here as the stages go.
 */
import { promises as fs } from 'node:fs';
import type { Ending } from './lifecycle.js';
import { ProgressTracker } from '../../domain/report/progress-line.js';
import { ProgressWriter } from './progress.js';
import { readPass, runPass, SINGLE_PASS_FILES, type PassFiles, type RunDeps } from './pass.js';
import {
  PROFILESET_LIST_FILE,
  ProfilesetMerger,
  profilesetListText,
  profilesetsFromReport,
} from '../../domain/report/profileset-list.js';
import type { LocalBuildInfo, LocalJob } from './store.js';
import { stageJsonFile } from '../../domain/multistage/files.js';
import { runStaged, type RunPass } from '../../domain/multistage/run.js';
import { stagedCsv, stagedSummary } from '../../domain/multistage/summary.js';

/** A pass that did not produce a report: how the job ends (undefined: the worker is shutting down). */
class PassEnded extends Error {
  constructor(readonly ending: Ending | undefined) {
    super('a stage ended the job');
  }
}

/** Run a local job with `runtime.multiStage` in stages. Returns how it ended (undefined: retry later). */
export async function runStagedJob(deps: RunDeps, job: LocalJob): Promise<Ending | undefined> {
  const input = await fs.readFile(deps.store.file(job.id, 'input.simc'), 'utf8');
  const writer = new ProgressWriter(deps.store, job.id);
  let phase: string | null = null;
  let simDurationMs = 0;
  let build: LocalBuildInfo | undefined;
  // every profileset at the last stage it reached, in the summary's metric (the compact list result --all reads)
  const listed = new ProfilesetMerger();
  const metric = job.mainActor.metric ?? 'dps';

  const runStage: RunPass = async (pass) => {
    const stageInput = `stage${pass.stage}.simc`;
    await deps.store.writeText(job.id, stageInput, pass.profile);
    const files: PassFiles = {
      ...SINGLE_PASS_FILES(job),
      input: stageInput,
      json: pass.final ? 'report.json' : stageJsonFile(pass.stage),
      html: pass.final && job.outputs.html ? 'report.html' : null,
    };
    const tracker = new ProgressTracker();
    const outcome = await runPass(deps, job, files, (line) => {
      const update = tracker.update(line);
      if (!update) return;
      phase = update.phase;
      pass.onProgress(update.percent);
    });
    const read = await readPass(deps, job, files, outcome);
    if (!read.ok) {
      if (read.ending?.simDurationMs != null) read.ending.simDurationMs += simDurationMs;
      throw new PassEnded(read.ending);
    }
    simDurationMs += read.pass.durationMs;
    build = read.build;
    listed.add(profilesetsFromReport(read.report, metric), pass.stage);
    return { report: read.report };
  };

  try {
    const run = await runStaged({
      profile: input,
      multiStage: true,
      runPass: runStage,
      mainActor: job.mainActor,
      onProgress: (p) => writer.set({ percent: p.percent, phase, stage: p.stage }),
    });
    await writer.flush();
    if (job.outputs.csv) await deps.store.writeText(job.id, 'result.csv', stagedCsv(run));
    await deps.store.writeText(job.id, PROFILESET_LIST_FILE, profilesetListText(listed.ranked()));
    await deps.store.writeResult(job.id, { summary: stagedSummary(run, undefined, job.mainActor.metric) });
    return {
      status: 'completed',
      errorCode: null,
      statusReason: null,
      simcExitCode: '0',
      simDurationMs,
      build,
      hasResult: true,
    };
  } catch (error) {
    await writer.flush();
    if (error instanceof PassEnded) return error.ending;
    throw error;
  }
}
