/**
 * From simc's JSON report to the result summary of spec §2.4 and the CSV table of `artifacts.csv`, for single
 * passes and staged runs alike. The numbers come from report-rows.ts; the report file itself is never rewritten
 * (its `seed` exceeds 2^53, so a parse-and-serialise round trip would change it), and the JSON artifact is the
 * file simc wrote.
 */
import type { MainActor, MultiStageSummary, ProfilesetResult, Summary } from '../api/schemas.js';
import { rankRows, ReportError, readStageReport, type MainActorChoice, type RankedRow, type StageReport, type StageRow } from './report-rows.js';

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

/** The profilesets of one pass, ranked, each at stage 1. */
export function singlePassRows(rows: StageReport): RankedRow[] {
  return rankRows(rows.profilesets.map((p) => ({ ...p, stage: 1 })));
}

/** `result.summary`: the main actor, the top `limit` profilesets with their count, and the multistage block. */
export function summaryOf(baseline: StageRow, ranked: readonly RankedRow[], multiStage: MultiStageSummary, limit = SUMMARY_PROFILESET_LIMIT): Summary {
  const mainActor: MainActor = { name: baseline.name, mean: baseline.mean, mean_error: baseline.meanError, mean_stddev: baseline.meanStdDev };
  if (ranked.length > 0) {
    const results: ProfilesetResult[] = ranked.slice(0, limit).map((p) => ({
      name: p.name,
      mean: p.mean,
      mean_error: p.meanError,
      mean_stddev: p.meanStdDev,
      stage: p.stage,
    }));
    mainActor.profilesets = { count: ranked.length, results };
  }
  return { metric: 'dps', mainActor, multiStage };
}

const CSV_HEADER = 'name,dps_mean,dps_min,dps_max,dps_std_dev,dps_mean_std_dev';

function csvField(value: string | number | null): string {
  if (value === null) return '';
  const text = String(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** `result.csv`: the baseline (main actor) first, then every profileset in the given (ranked) order. */
export function csvOf(baseline: StageRow, ranked: readonly StageRow[]): string {
  const lines = [baseline, ...ranked].map((r) => [r.name, r.mean, r.min, r.max, r.stdDev, r.meanStdDev].map(csvField).join(','));
  return `${[CSV_HEADER, ...lines].join('\n')}\n`;
}

/** The summary of a single pass, straight from its parsed report. */
export function summarize(report: Json, choice: MainActorChoice, multiStage: MultiStageSummary): Summary {
  const rows = readStageReport(report, choice);
  return summaryOf(rows.baseline, singlePassRows(rows), multiStage);
}

/** The CSV of a single pass, straight from its parsed report. */
export function csvTable(report: Json, choice: MainActorChoice): string {
  const rows = readStageReport(report, choice);
  return csvOf(rows.baseline, singlePassRows(rows));
}
