/**
 * Running one local job: a single simc pass (pass.ts), then the summary and the CSV. --multistage jobs go to the
 * staged runner (src/core/local/multistage.ts), which makes one pass per stage.
 */
import { ProgressTracker } from '../../domain/report/progress-line.js';
import { ProgressWriter } from './progress.js';
import type { Ending } from './lifecycle.js';
import { readPass, runPass, SINGLE_PASS_FILES, type PassResult, type RunDeps } from './pass.js';
import {
  csvOf,
  notificationsOf,
  singlePassRows,
  SUMMARY_PROFILESET_LIMIT,
  summaryOf,
} from '../../domain/report/report.js';
import type { LocalJob } from './store.js';
import {
  PROFILESET_LIST_FILE,
  ProfilesetMerger,
  profilesetListText,
  profilesetsFromReport,
} from '../../domain/report/profileset-list.js';

/** The single-pass runner. Returns how the job ended, or undefined when the worker is shutting down (retry later). */
export async function runJob(deps: RunDeps, job: LocalJob): Promise<Ending | undefined> {
  // enabled only when --multistage asked for it and the profile is eligible (else disabled_by_option or why not)
  if (job.multiStageSummary.enabled) return (await import('./multistage.js')).runStagedJob(deps, job);
  const files = SINGLE_PASS_FILES(job);
  const writer = new ProgressWriter(deps.store, job.id);
  const tracker = new ProgressTracker();
  const pass = await runPass(deps, job, files, (line) => writer.setLazy(() => tracker.update(line)));
  deps.onSimcEnded?.();
  const read = await readPass(deps, job, files, pass);
  // The last progress is what a failed job shows; a completed one shows 100 %, so its last write is not waited for.
  if (read.ok) writer.discard();
  else await writer.flush();
  return endSinglePass(deps, job, read);
}

/** The end of a single pass that was read: its summary, CSV and profileset list written, or how it failed. */
export async function endSinglePass(
  deps: Pick<RunDeps, 'store'>,
  job: LocalJob,
  read: PassResult,
): Promise<Ending | undefined> {
  if (!read.ok) return read.ending;
  const ranked = singlePassRows(read.rows);
  const summary = summaryOf(read.rows.baseline, ranked, job.multiStageSummary, SUMMARY_PROFILESET_LIMIT, {
    metric: job.mainActor.metric,
    players: read.rows.players,
    synthetic: read.rows.synthetic,
  });
  const list = new ProfilesetMerger();
  list.add(profilesetsFromReport(read.report, summary.metric), 1);
  await Promise.all([
    job.outputs.csv ? deps.store.writeText(job.id, 'result.csv', csvOf(read.rows.baseline, ranked)) : undefined,
    deps.store.writeText(job.id, PROFILESET_LIST_FILE, profilesetListText(list.ranked())), // what result --all reads
    deps.store.writeResult(job.id, { summary, notifications: notificationsOf(read.report) }),
  ]);
  return {
    status: 'completed',
    errorCode: null,
    statusReason: null,
    simcExitCode: '0',
    simDurationMs: read.pass.durationMs,
    build: read.build,
    hasResult: true,
  };
}
