/**
 * A staged run's outcome in the service's terms: `result.summary` (interface §2.4) and the `result.csv` table
 * (`artifacts.csv`: one row per profileset across all stages plus the baseline).
 */
import type { Summary } from '../api/schemas.js';
import { SUMMARY_PROFILESET_LIMIT } from '../local/report.js';
import type { StagedRunResult } from './run.js';

/** The summary lists the top 200 profilesets; the count says how many there were (the JSON artifacts have all). */
export function stagedSummary(run: StagedRunResult, limit = SUMMARY_PROFILESET_LIMIT): Summary {
  const b = run.baseline;
  const mainActor: NonNullable<Summary['mainActor']> = { name: b.name, mean: b.mean, mean_error: b.meanError, mean_stddev: b.meanStdDev };
  if (run.profilesets.length > 0) {
    mainActor.profilesets = {
      count: run.profilesets.length,
      results: run.profilesets.slice(0, limit).map((p) => ({
        name: p.name,
        mean: p.mean,
        mean_error: p.meanError,
        mean_stddev: p.meanStdDev,
        stage: p.stage,
      })),
    };
  }
  return { metric: 'dps', mainActor, multiStage: { enabled: run.multiStage.enabled, reason: run.multiStage.reason, stages: run.multiStage.stages.map((s) => ({ ...s })) } };
}

const CSV_HEADER = 'name,dps_mean,dps_min,dps_max,dps_std_dev,dps_mean_std_dev';

function field(value: string | number | null): string {
  if (value === null) return '';
  const text = String(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** The baseline first, then every profileset best first, each with the numbers of the highest stage it reached. */
export function stagedCsv(run: StagedRunResult): string {
  const rows = [run.baseline, ...run.profilesets].map((r) => [r.name, r.mean, r.min, r.max, r.stdDev, r.meanStdDev].map(field).join(','));
  return `${[CSV_HEADER, ...rows].join('\n')}\n`;
}
