/**
 * From simc's JSON report to the result summary of spec §2.4 and the CSV table of `artifacts.csv`. The numbers come
 * from report-rows.ts; the report file itself is never rewritten (its `seed` exceeds 2^53, so a parse-and-serialise
 * round trip would change it), and the JSON artifact is the file simc wrote.
 */
import type { MainActor, MultiStageSummary, ProfilesetResult, Summary } from '../api/schemas.js';
import { ReportError, readStageReport, type MainActorChoice, type StageRow } from './report-rows.js';

export { ReportError, type MainActorChoice };
export const SUMMARY_PROFILESET_LIMIT = 200;

type Json = Record<string, unknown>;

export function parseReport(text: string): Json {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new ReportError(`it is not valid JSON (${(error as Error).message})`);
  }
  const sim = (parsed as Json | null)?.sim;
  if (!sim || typeof sim !== 'object' || Array.isArray(sim)) throw new ReportError('it has no "sim" object');
  return parsed as Json;
}

/** The baseline and the profilesets ranked by mean (simc writes them unsorted). */
function rankedRows(report: Json, choice: MainActorChoice): { baseline: StageRow; profilesets: StageRow[] } {
  const { baseline, profilesets } = readStageReport(report, choice);
  return { baseline, profilesets: [...profilesets].sort((a, b) => b.mean - a.mean) };
}

export function summarize(report: Json, choice: MainActorChoice, multiStage: MultiStageSummary): Summary {
  const { baseline, profilesets } = rankedRows(report, choice);
  const mainActor: MainActor = {
    name: baseline.name,
    mean: baseline.mean,
    mean_error: baseline.meanError,
    mean_stddev: baseline.meanStdDev,
  };
  if (profilesets.length > 0) {
    const results: ProfilesetResult[] = profilesets.slice(0, SUMMARY_PROFILESET_LIMIT).map((s) => ({
      name: s.name,
      mean: s.mean,
      mean_error: s.meanError,
      mean_stddev: s.meanStdDev,
      stage: 1,
    }));
    mainActor.profilesets = { count: profilesets.length, results };
  }
  return { metric: 'dps', mainActor, multiStage };
}

const CSV_HEADER = 'name,dps_mean,dps_min,dps_max,dps_std_dev,dps_mean_std_dev';

function csvField(value: string | number | null): string {
  if (value === null) return '';
  const text = String(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** `result.csv`: the baseline (main actor) first, then every profileset ranked by mean (spec 2.1 `artifacts.csv`). */
export function csvTable(report: Json, choice: MainActorChoice): string {
  const { baseline, profilesets } = rankedRows(report, choice);
  const lines = [baseline, ...profilesets].map((r) => [r.name, r.mean, r.min, r.max, r.stdDev, r.meanStdDev].map(csvField).join(','));
  return `${[CSV_HEADER, ...lines].join('\n')}\n`;
}
