/**
 * A staged run's outcome in the service's terms: `result.summary` (interface §2.4) and the `result.csv` table
 * (`artifacts.csv`: one row per profileset across all stages plus the baseline), built as a single pass's are.
 */
import type { Summary } from '../../core/resources/schemas.js';
import { csvOf, SUMMARY_PROFILESET_LIMIT, summaryOf, type SummaryMetric } from '../report/report.js';
import type { StagedRunResult } from './run.js';

/** The summary lists the top 200 profilesets; the count says how many there were (the JSON artifacts have all). */
export function stagedSummary(run: StagedRunResult, limit = SUMMARY_PROFILESET_LIMIT, metric?: SummaryMetric): Summary {
  const { enabled, reason, stages } = run.multiStage;
  return summaryOf(run.baseline, run.profilesets, { enabled, reason, stages: stages.map((s) => ({ ...s })) }, limit, {
    metric,
    synthetic: run.synthetic,
  });
}

/** The baseline first, then every profileset best first, each with the numbers of the highest stage it reached. */
export function stagedCsv(run: StagedRunResult): string {
  return csvOf(run.baseline, run.profilesets);
}
