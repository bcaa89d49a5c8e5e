/**
 * From simc's JSON report (json2 = 2.0.0, or 3.0.0-alpha1) to the result summary of spec §2.4 and the CSV table
 * of `artifacts.csv`. Reads only what it needs; the report file itself is never rewritten (its `seed` exceeds
 * 2^53, so a parse-and-serialise round trip would change it), and the JSON artifact is the file simc wrote.
 * Field facts: contract §4.3–§4.7.
 */
import type { MainActor, MultiStageSummary, ProfilesetResult, Summary } from '../api/schemas.js';

/** simc writes it in sim.options; this is the value for 95 % when a report lacks it. */
const DEFAULT_CONFIDENCE_ESTIMATOR = 1.959963984540054;
export const SUMMARY_PROFILESET_LIMIT = 200;

type Json = Record<string, unknown>;

const obj = (v: unknown): Json | undefined => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : undefined);
const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

export interface MainActorChoice {
  /** profileset_main_actor_index from the profile (0 when absent). */
  index: number;
  /** The name of that actor when the profile declares it (safer than the index: enemies and pets count too). */
  name: string | null;
}

/** One row of numbers for an actor or a profileset, in the CSV's terms. */
interface DpsRow {
  name: string;
  mean: number;
  min: number | undefined;
  max: number | undefined;
  stdDev: number | undefined;
  meanStdDev: number | undefined;
  meanError: number | undefined;
}

export class ReportError extends Error {}

function confidenceEstimator(report: Json): number {
  return num(obj(obj(report.sim)?.options)?.confidence_estimator) ?? DEFAULT_CONFIDENCE_ESTIMATOR;
}

function chooseMainPlayer(report: Json, choice: MainActorChoice): Json {
  const players = arr(obj(report.sim)?.players).map(obj).filter((p): p is Json => p !== undefined);
  if (players.length === 0) throw new ReportError('the report has no players');
  const byName = choice.name === null ? undefined : players.find((p) => p.name === choice.name);
  return byName ?? players[choice.index] ?? (players[0] as Json);
}

function actorRow(player: Json): DpsRow {
  const dps = obj(obj(player.collected_data)?.dps);
  const mean = num(dps?.mean);
  if (mean === undefined) throw new ReportError(`player ${String(player.name)} has no collected_data.dps.mean`);
  return {
    name: String(player.name ?? ''),
    mean,
    min: num(dps?.min),
    max: num(dps?.max),
    stdDev: num(dps?.std_dev),
    meanStdDev: num(dps?.mean_std_dev),
    meanError: undefined,
  };
}

/** v2: `{metric, results: [{name, mean, min, max, stddev, mean_stddev, mean_error, ...}]}`; v3: the primary metric is `metrics[0]`. */
function profilesetRows(report: Json): DpsRow[] {
  const results = arr(obj(obj(report.sim)?.profilesets)?.results);
  const rows: DpsRow[] = [];
  for (const item of results) {
    const entry = obj(item);
    if (!entry) continue;
    const metrics = Array.isArray(entry.metrics) ? obj(entry.metrics[0]) : entry;
    const mean = num(metrics?.mean);
    if (!metrics || mean === undefined) continue;
    rows.push({
      name: String(entry.name ?? ''),
      mean,
      min: num(metrics.min),
      max: num(metrics.max),
      stdDev: num(metrics.stddev),
      meanStdDev: num(metrics.mean_stddev),
      meanError: num(metrics.mean_error),
    });
  }
  return rows.sort((a, b) => b.mean - a.mean);
}

/** Half-width of the 95 % interval: mean_std_dev × confidence_estimator (what simc's HTML shows as the error). */
function meanError(row: DpsRow, estimator: number): number | null {
  if (row.meanStdDev !== undefined) return row.meanStdDev * estimator;
  return row.meanError ?? null;
}

export function parseReport(text: string): Json {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new ReportError(`it is not valid JSON (${(error as Error).message})`);
  }
  const report = obj(parsed);
  if (!report || !obj(report.sim)) throw new ReportError('it has no "sim" object');
  return report;
}

export function summarize(report: Json, choice: MainActorChoice, multiStage: MultiStageSummary): Summary {
  const estimator = confidenceEstimator(report);
  const main = actorRow(chooseMainPlayer(report, choice));
  const sets = profilesetRows(report);
  const mainActor: MainActor = {
    name: main.name,
    mean: main.mean,
    mean_error: meanError(main, estimator),
    mean_stddev: main.meanStdDev ?? null,
  };
  if (sets.length > 0) {
    const results: ProfilesetResult[] = sets.slice(0, SUMMARY_PROFILESET_LIMIT).map((s) => ({
      name: s.name,
      mean: s.mean,
      mean_error: meanError(s, estimator),
      mean_stddev: s.meanStdDev ?? null,
      stage: 1,
    }));
    mainActor.profilesets = { count: sets.length, results };
  }
  return { metric: 'dps', mainActor, multiStage };
}

const CSV_HEADER = 'name,dps_mean,dps_min,dps_max,dps_std_dev,dps_mean_std_dev';

function csvField(value: string | number | undefined): string {
  if (value === undefined) return '';
  const text = String(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** `result.csv`: the baseline (main actor) first, then every profileset ranked by mean (spec 2.1 `artifacts.csv`). */
export function csvTable(report: Json, choice: MainActorChoice): string {
  const rows = [actorRow(chooseMainPlayer(report, choice)), ...profilesetRows(report)];
  const lines = rows.map((r) => [r.name, r.mean, r.min, r.max, r.stdDev, r.meanStdDev].map(csvField).join(','));
  return `${[CSV_HEADER, ...lines].join('\n')}\n`;
}
