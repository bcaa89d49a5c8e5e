/**
 * Stat weights from what a job left, by either method, into one shape: per stat the weight of one point, its 95%
 * error, the weight normalised to the primary stat, which stats are equal within the error, and the Pawn string.
 *
 * Errors (every `e` is a 95% half-width, simc's `mean_error`): a weight is (m_stat − m_base) / N, so its error is
 * sqrt(e_stat² + e_base²) / N. Two weights share the baseline, so their difference is (m_a − m_b) / N with error
 * sqrt(e_a² + e_b²) / N: the baseline cancels. The normalised weight r = D_i / D_p (D = m − m_base) has, to first
 * order, error sqrt((e_i/D_p)² + (D_i·e_p/D_p²)² + ((D_i − D_p)·e_base/D_p²)²): the shared baseline counted
 * once.
 * Each weight therefore keeps its own part (e_stat / N) and the baseline's part (e_base / N) apart.
 */
import { ALL_CLASSES, specFacts } from '../game/specs.js';
import { pawnString } from './pawn.js';
import { primaryStat, STATS, statByReportKey, type StatInfo, type StatKey } from './stats.js';
import type { Method } from './profile.js';

export interface CharacterInfo {
  name: string;
  className: string;
  spec: string | null;
}

export interface StatWeight {
  stat: StatKey;
  label: string;
  /** DPS (the job's metric) per point of the stat. */
  weight: number;
  /** 95% half-width of `weight`. */
  error: number;
  /**
   * The weight divided by the normalising stat's weight (1 for that stat); null, every one, when that weight is not
   * measurably positive (see StatWeights.referenceWarning).
   */
  normalised: number | null;
  normalisedError: number | null;
  /** The points added to measure it. */
  amount: number;
}

export interface StatWeights {
  character: CharacterInfo;
  method: Method;
  metric: string;
  /** The stat every weight is normalised to: the primary stat when it was weighed, else the first one. */
  normalisedTo: StatKey;
  weights: StatWeight[];
  /** Pairs of stats whose weights differ by less than the 95% error of the difference. */
  equalWithinError: Array<[StatKey, StatKey]>;
  pawn: string;
  /**
   * Set when the normalising stat's weight is ≤ 0 or within its 95% error of 0: dividing by it would print noise
   * (0.01 ± 0.98 gives 695.89 ± 55,979) or flip every sign, so no weight is normalised and this says why.
   */
  referenceWarning?: string;
  /** Scale factors: simc's report holds no per-weight error, so it is estimated (see fromScaleReport). */
  errorsEstimated: boolean;
}

/** One measured stat: the weight's own error part and the baseline's part, apart (see the module comment). */
interface Measured {
  stat: StatInfo;
  delta: number;
  amount: number;
  own: number;
  base: number;
}

export interface Estimate {
  name: string;
  mean: number;
  mean_error?: number | null;
}

/**
 * Profilesets method: the baseline actor and one profileset per stat, named by the stat's label (profile.ts).
 * Undefined when a stat's profileset is not among the results.
 */
export function fromProfilesets(
  character: CharacterInfo,
  baseline: Estimate,
  sets: readonly Estimate[],
  stats: readonly StatInfo[],
  amount: number,
  metric: string,
): StatWeights | undefined {
  const measured: Measured[] = [];
  for (const stat of stats) {
    const set = sets.find((s) => s.name === stat.label);
    if (!set) return undefined;
    const delta = set.mean - baseline.mean;
    measured.push({ stat, delta, amount, own: set.mean_error ?? 0, base: baseline.mean_error ?? 0 });
  }
  return build(character, 'profilesets', metric, measured, false);
}

/** The parts of a simc json2 report that scale factors are read from. */
export interface ReportPlayer {
  name: string;
  specialization?: string;
  scale_factors?: Record<string, number>;
  scale_deltas?: Record<string, number>;
  collected_data?: { dps?: { mean_std_dev?: number } };
}

export interface ScaleReport {
  sim: {
    options?: {
      confidence_estimator?: number;
      scaling?: { scale_only?: string; normalize_scale_factors?: number | boolean };
    };
    players: ReportPlayer[];
  };
}

/** simc's default scale delta at level 90 (spec/stat-weights.md), for reports that predate `scale_deltas`. */
const DEFAULT_SCALE_DELTA = 154;

/**
 * Scale factors: every player of the report with `scale_factors`, weights as simc computed them. simc writes no
 * error per factor, so each is estimated from the reference run's error: simc runs every delta run to the same
 * target error (or iterations) as the reference, so e_delta ≈ e_ref, and a weight's error is sqrt(2)·e_ref/delta.
 * `known`: the character as the job was made (class and spec), for the player of that name.
 */
export function fromScaleReport(report: ScaleReport, only?: readonly StatInfo[], known?: CharacterInfo): StatWeights[] {
  const z = report.sim.options?.confidence_estimator ?? 1.959963984540054;
  const scaling = report.sim.options?.scaling;
  if (scaling?.normalize_scale_factors && Number(scaling.normalize_scale_factors) !== 0) {
    throw new Error('the report holds normalised scale factors (normalize_scale_factors); statweights reads raw ones');
  }
  const listed = only ?? statsOfScaleOnly(scaling?.scale_only);
  const out: StatWeights[] = [];
  for (const player of report.sim.players) {
    const factors = player.scale_factors;
    if (!factors) continue;
    const scaled = (s: StatInfo | undefined): s is StatInfo => s !== undefined && factors[s.reportKey] !== 0;
    const stats = listed ?? Object.keys(factors).map(statByReportKey).filter(scaled);
    const eRef = (player.collected_data?.dps?.mean_std_dev ?? 0) * z;
    const measured = stats
      .filter((s) => typeof factors[s.reportKey] === 'number')
      .map((stat): Measured => {
        const amount = player.scale_deltas?.[stat.reportKey] ?? DEFAULT_SCALE_DELTA;
        return { stat, delta: factors[stat.reportKey]! * amount, amount, own: eRef, base: eRef };
      });
    if (measured.length === 0) continue;
    const character = known?.name === player.name ? known : characterOfReport(player);
    out.push(build(character, 'scale', 'dps', measured, true));
  }
  return out;
}

function statsOfScaleOnly(list: string | undefined): StatInfo[] | undefined {
  if (!list) return undefined;
  const names = list.split(',').map((s) => s.trim().toLowerCase());
  const stats = STATS.filter((s) => names.some((n) => n === s.scaleOnly || n === s.key || n === `${s.key}_rating`));
  return stats.length ? stats : undefined;
}

/** simc writes `specialization` as "<Spec> <Class>", e.g. "Beast Mastery Hunter", "Frost Death Knight". */
function characterOfReport(player: ReportPlayer): CharacterInfo {
  const text = (player.specialization ?? '').trim();
  const cls = ALL_CLASSES.find((c) => text === c.label || text.endsWith(` ${c.label}`));
  const spec = cls ? text.slice(0, text.length - cls.label.length).trim() : '';
  return {
    name: player.name,
    className: cls ? cls.className : 'unknown',
    spec: spec ? (specFacts(cls!.className, spec)?.spec ?? spec.toLowerCase().replace(/\s+/g, '_')) : null,
  };
}

function build(
  character: CharacterInfo,
  method: Method,
  metric: string,
  measured: Measured[],
  errorsEstimated: boolean,
): StatWeights {
  const primary = primaryStat(character.className, character.spec);
  const norm = measured.find((m) => m.stat.key === primary) ?? measured[0]!;
  const referenceWarning = unusableReference(norm);
  const weights = measured.map((m): StatWeight => ({
    stat: m.stat.key,
    label: m.stat.label,
    ...perPoint(m),
    ...(referenceWarning ? { normalised: null, normalisedError: null } : normalised(m, norm)),
    amount: m.amount,
  }));
  const equalWithinError: Array<[StatKey, StatKey]> = [];
  for (let i = 0; i < measured.length; i++) {
    for (let j = i + 1; j < measured.length; j++) {
      const a = measured[i]!;
      const b = measured[j]!;
      const diff = Math.abs(a.delta / a.amount - b.delta / b.amount);
      if (diff <= Math.hypot(a.own / a.amount, b.own / b.amount)) equalWithinError.push([a.stat.key, b.stat.key]);
    }
  }
  return {
    character,
    method,
    metric,
    normalisedTo: norm.stat.key,
    weights,
    equalWithinError,
    pawn: pawnString(character, weights),
    ...(referenceWarning ? { referenceWarning } : {}),
    errorsEstimated,
  };
}

/** A stat's weight per point and its error (its run's and the baseline's, combined). */
function perPoint(m: Measured): { weight: number; error: number } {
  return { weight: m.delta / m.amount, error: Math.hypot(m.own, m.base) / m.amount };
}

/** Why the normalising stat's weight cannot be divided by: ≤ 0, or within its 95% error of 0. */
function unusableReference(p: Measured): string | undefined {
  const { weight, error } = perPoint(p);
  if (weight > error) return undefined;
  const measuredAs = `${round2(weight)} ± ${round2(error)} per point`;
  const why = weight <= 0 ? 'not above zero' : 'within its error of zero';
  return (
    `${p.stat.label}, the stat the others are normalised to, came out ${measuredAs}: ${why}, so no weight is ` +
    'normalised. Check the profile (spec, gear), or measure again with a larger --amount or a smaller --target-error.'
  );
}

const round2 = (n: number): string => (Math.round(n * 100) / 100).toFixed(2);

/**
 * r = w_i / w_p with the first-order error of the module comment (per point: D/N, e/N). Only for a reference that
 * unusableReference accepts, so w_p is above its error and above zero.
 */
function normalised(m: Measured, p: Measured): { normalised: number; normalisedError: number } {
  const di = m.delta / m.amount;
  const dp = p.delta / p.amount;
  if (m === p) return { normalised: 1, normalisedError: 0 };
  const ei = m.own / m.amount;
  const ep = p.own / p.amount;
  const eb = m.base / m.amount; // the same baseline for both
  const ebp = p.base / p.amount;
  const error = Math.sqrt((ei / dp) ** 2 + ((di * ep) / dp ** 2) ** 2 + ((di * ebp - dp * eb) / dp ** 2) ** 2);
  return { normalised: di / dp, normalisedError: error };
}
