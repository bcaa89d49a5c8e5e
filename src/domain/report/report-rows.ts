/**
 * The rows of numbers in one simc JSON report (json2 = 2.0.0, or 3.0.0-alpha1; contract §4.3–§4.8): the baseline
 * (main player) and every profileset, each with mean, spread and standard error, plus the iterations the pass ran.
 * The one reader of report numbers: the summary and CSV of a job (report.ts) and the staged runs build on it.
 */

import type { SummaryMetric } from '../profile/index.js';

export type { SummaryMetric };

/** simc writes it in `sim.options`; this is the 95 % value for a report that lacks it. */
const DEFAULT_CONFIDENCE_ESTIMATOR = 1.959963984540054;

/** One actor or profileset as a row of numbers (CSV column names in comments). */
export interface StageRow {
  readonly name: string;
  /** dps_mean */
  readonly mean: number;
  /** dps_min / dps_max / dps_std_dev */
  readonly min: number | null;
  readonly max: number | null;
  readonly stdDev: number | null;
  /** Standard error of the mean: dps_mean_std_dev. */
  readonly meanStdDev: number | null;
  /** Half-width of the 95 % interval (mean_stddev × confidence estimator). */
  readonly meanError: number | null;
  /** Iterations behind the numbers (the baseline's: `sim.options.iterations`). */
  readonly iterations: number | null;
}

/** A profileset as it ends up in a result: the numbers of the highest stage it reached (1 for a single pass). */
export interface RankedRow extends StageRow {
  readonly stage: number;
}

/** Best first; equal means by name, so the order never depends on the order simc wrote them in. */
export function rankRows(rows: Iterable<RankedRow>): RankedRow[] {
  return [...rows].sort((a, b) => b.mean - a.mean || a.name.localeCompare(b.name));
}

export interface StageReport {
  /** The main actor in the summary's metric (dps: its own; raid_dps: the group's total, `sim.statistics.raid_dps`). */
  readonly baseline: StageRow;
  /** Every player's own DPS, in report order (pets and enemies are not players). */
  readonly players: StageRow[];
  /** In report order (simc does not sort them). */
  readonly profilesets: StageRow[];
  /** Iterations of the whole pass: the baseline's plus every profileset's. */
  readonly iterations: number;
  /** The report says it came from the stand-in simc (`custom.stand_in_simc`): its numbers are made up. */
  readonly synthetic: boolean;
}

export interface MainActorChoice {
  /** `profileset_report_player_index` / `profileset_main_actor_index` (0 when absent). */
  readonly index: number;
  /** The actor's name when the profile declares it (safer than the index: enemies and pets count too). */
  readonly name: string | null;
  /** The summary's metric (`profileset_metric`'s first entry); dps when absent. */
  readonly metric?: SummaryMetric;
}

export class ReportError extends Error {}

type Json = Record<string, unknown>;
const obj = (v: unknown): Json | undefined =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : undefined;
const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

/** The 95% error from the std dev of the mean; null when it is not a finite number (e.g. 1e308 × 1.96). */
function errorOf(meanStdDev: number | null, written: number | null, estimator: number): number | null {
  return num(meanStdDev !== null ? meanStdDev * estimator : written);
}

function sampleRow(
  name: string,
  sample: Json | undefined,
  iterations: number | null,
  estimator: number,
): StageRow | null {
  const mean = num(sample?.mean);
  if (mean === null) return null;
  const meanStdDev = num(sample?.mean_std_dev);
  return {
    name,
    mean,
    min: num(sample?.min),
    max: num(sample?.max),
    stdDev: num(sample?.std_dev),
    meanStdDev,
    meanError: errorOf(meanStdDev, null, estimator),
    iterations,
  };
}

function playerObjects(sim: Json): Json[] {
  const players = arr(sim.players)
    .map(obj)
    .filter((p): p is Json => p !== undefined);
  if (players.length === 0) throw new ReportError('the report has no players');
  return players;
}

function baselineRow(sim: Json, players: Json[], choice: MainActorChoice, estimator: number): StageRow {
  const player =
    (choice.name === null ? undefined : players.find((p) => p.name === choice.name)) ??
    players[choice.index] ??
    (players[0] as Json);
  const name = String(player.name ?? '');
  const iterations = num(obj(sim.options)?.iterations);
  if (choice.metric === 'raid_dps') {
    // simc writes the group's damage per second over the fight into the sim-wide statistics
    const row = sampleRow(name, obj(obj(sim.statistics)?.raid_dps), iterations, estimator);
    if (!row) throw new ReportError('it has no sim.statistics.raid_dps.mean for profileset_metric=raid_dps');
    return row;
  }
  const row = sampleRow(name, obj(obj(player.collected_data)?.dps), iterations, estimator);
  if (!row) throw new ReportError(`player ${String(player.name)} has no collected_data.dps.mean`);
  return row;
}

/** Every player's own DPS (players without numbers, e.g. a healer that dealt none, are left out). */
function playerRows(sim: Json, players: Json[], estimator: number): StageRow[] {
  const iterations = num(obj(sim.options)?.iterations);
  return players.flatMap(
    (p) => sampleRow(String(p.name ?? ''), obj(obj(p.collected_data)?.dps), iterations, estimator) ?? [],
  );
}

/** v2: `{results: [{name, mean, …, iterations}]}`; v3: `{results: [{name, metrics: [{…primary…}, …]}]}`. */
function profilesetRows(sim: Json, estimator: number): StageRow[] {
  const rows: StageRow[] = [];
  for (const item of arr(obj(sim.profilesets)?.results)) {
    const entry = obj(item);
    if (!entry) continue;
    const m = Array.isArray(entry.metrics) ? obj(entry.metrics[0]) : entry;
    const mean = num(m?.mean);
    if (!m || mean === null || typeof entry.name !== 'string') continue;
    const meanStdDev = num(m.mean_stddev);
    rows.push({
      name: entry.name,
      mean,
      min: num(m.min),
      max: num(m.max),
      stdDev: num(m.stddev),
      meanStdDev,
      meanError: errorOf(meanStdDev, num(m.mean_error), estimator),
      iterations: num(m.iterations) ?? num(entry.iterations),
    });
  }
  return rows;
}

export function readStageReport(report: unknown, choice: MainActorChoice): StageReport {
  const sim = obj(obj(report)?.sim);
  if (!sim) throw new ReportError('it has no "sim" object');
  const estimator = num(obj(sim.options)?.confidence_estimator) ?? DEFAULT_CONFIDENCE_ESTIMATOR;
  const players = playerObjects(sim);
  const baseline = baselineRow(sim, players, choice, estimator);
  const profilesets = profilesetRows(sim, estimator);
  const iterations = (baseline.iterations ?? 0) + profilesets.reduce((sum, p) => sum + (p.iterations ?? 0), 0);
  const synthetic = isSynthetic(players);
  return { baseline, players: playerRows(sim, players, estimator), profilesets, iterations, synthetic };
}

/** The stand-in simc (test/fake-simc) marks every player it writes; real simc has no such field. */
function isSynthetic(players: Json[]): boolean {
  return players.some((p) => typeof obj(p.custom)?.stand_in_simc === 'string');
}
