/**
 * From simc's JSON report to the result summary of spec §2.4 and the CSV table of `artifacts.csv`, for single
 * passes and staged runs alike. The numbers come from report-rows.ts; the report file itself is never rewritten
 * (its `seed` exceeds 2^53, so a parse-and-serialise round trip would change it), and the JSON artifact is the
 * file simc wrote.
 */
import type {
  ActorResult,
  MainActor,
  MultiStageSummary,
  ProfilesetResult,
  Summary,
} from '../../core/resources/schemas.js';
import {
  rankRows,
  ReportError,
  readStageReport,
  type MainActorChoice,
  type RankedRow,
  type StageReport,
  type StageRow,
  type SummaryMetric,
} from './report-rows.js';

export { ReportError, type MainActorChoice, type SummaryMetric };
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

export interface SummaryExtras {
  /** The metric the baseline and the profilesets are in (simc's profileset results already are). */
  metric?: SummaryMetric;
  /** Every player of the report: a multi-actor run without profilesets lists them as `actors`. */
  players?: readonly StageRow[];
  /** The numbers came from the stand-in simc: the summary says so (`synthetic: true`). */
  synthetic?: boolean;
}

/**
 * `result.summary`: the main actor, the top `limit` profilesets with their count, the multistage block, and for a
 * multi-actor (`copy=`) comparison without profilesets every actor, ranked (openapi 1.19.1 `summary.actors`).
 */
export function summaryOf(
  baseline: StageRow,
  ranked: readonly RankedRow[],
  multiStage: MultiStageSummary,
  limit = SUMMARY_PROFILESET_LIMIT,
  extras: SummaryExtras = {},
): Summary {
  const mainActor: MainActor = {
    name: baseline.name,
    mean: baseline.mean,
    mean_error: baseline.meanError,
    mean_stddev: baseline.meanStdDev,
  };
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
  const summary: Summary = { metric: extras.metric ?? 'dps', mainActor, multiStage };
  if (extras.synthetic) summary.synthetic = true;
  const players = extras.players ?? [];
  if (ranked.length === 0 && players.length > 1) {
    const actors = rankRows(players.map((p) => ({ ...p, stage: 1 })));
    summary.actors = { count: actors.length, results: actors.slice(0, limit).map(actorResult) };
  }
  return summary;
}

function actorResult(row: StageRow): ActorResult {
  const optional = { stddev: row.stdDev, min: row.min, max: row.max };
  return {
    name: row.name,
    mean: row.mean,
    mean_error: row.meanError,
    mean_stddev: row.meanStdDev,
    ...Object.fromEntries(Object.entries(optional).filter(([, v]) => v !== null)),
  };
}

/** simc's warnings of the run (`notifications`, contract §3.2), one line each. */
export function notificationsOf(report: Json): string[] {
  const list = report.notifications;
  return Array.isArray(list)
    ? list.filter((n): n is string => typeof n === 'string' && n.trim() !== '').map((n) => n.trim())
    : [];
}

const CSV_HEADER = 'name,dps_mean,dps_min,dps_max,dps_std_dev,dps_mean_std_dev';

function csvField(value: string | number | null): string {
  if (value === null) return '';
  const text = String(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** `result.csv`: the baseline (main actor) first, then every profileset in the given (ranked) order. */
export function csvOf(baseline: StageRow, ranked: readonly StageRow[]): string {
  const lines = [baseline, ...ranked].map((r) =>
    [r.name, r.mean, r.min, r.max, r.stdDev, r.meanStdDev].map(csvField).join(','),
  );
  return `${[CSV_HEADER, ...lines].join('\n')}\n`;
}

/** The summary of a single pass, straight from its parsed report. */
export function summarize(report: Json, choice: MainActorChoice, multiStage: MultiStageSummary): Summary {
  const rows = readStageReport(report, choice);
  return summaryOf(rows.baseline, singlePassRows(rows), multiStage, SUMMARY_PROFILESET_LIMIT, {
    metric: choice.metric,
    players: rows.players,
    synthetic: rows.synthetic,
  });
}

/** The CSV of a single pass, straight from its parsed report. */
export function csvTable(report: Json, choice: MainActorChoice): string {
  const rows = readStageReport(report, choice);
  return csvOf(rows.baseline, singlePassRows(rows));
}
