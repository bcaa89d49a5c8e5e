/**
 * The culling rule of a staged (multistage) run: after a stage, which candidates go on to the next one.
 *
 * ## The rule
 *
 * Every candidate's estimate `m` of the stage comes with its standard error `s` (simc's `mean_stddev`). Let N be
 * the number of candidates with such an estimate, α the tolerated probability that a round
 * culls any true contender (default 1e-3), `c` the upper α/(2N) quantile of Student's t with the stage's degrees
 * of freedom (iterations − 1; the normal quantile when unknown), `z = √2·c`, and `δ` the half-width of the final
 * stage's interval at the leader (`finalTargetError % × leader's mean`). Candidate i is culled when some estimate j
 * above it (the leader first, then the next best) beats it by more than the margin:
 *
 *     m_j − m_i  >  z · √(s_i² + s_j²)  +  δ
 *
 * Otherwise it survives. An estimate without a usable standard error (missing, zero, not a number) is never
 * culled and never used as a reference: no error, no evidence.
 *
 * The baseline (the main player) always stays — it is the sim every stage runs anyway — and it is **not** a
 * reference: the ranking asked for is among the profilesets, so a baseline that beats every candidate must not
 * cull them all; the best of the candidates still deserves the final stage's precision.
 *
 * ## Why this cannot cull a true contender (except with probability ≤ α per round)
 *
 * Call E the event "every one of the N estimates lies within c·s of its true value". Each estimate misses its
 * interval with probability α/N (two tails of α/(2N)), so by the union bound (Bonferroni) P(E) ≥ 1 − α, with no
 * assumption about how the candidates are spread or correlated. Under E, culling i because of j means
 *
 *     μ_j − μ_i  ≥  (m_j − c·s_j) − (m_i + c·s_i)  =  m_j − m_i − c·(s_i + s_j)  >  δ,
 *
 * because z·√(s_i² + s_j²) = c·√2·√(s_i² + s_j²) ≥ c·(s_i + s_j). So every culled candidate is truly more than δ
 * below some other estimate, hence more than δ below the true best: **no candidate within the final stage's
 * error of the best is culled, with probability at least 1 − α per culling round** (1 − 2α over the two rounds
 * of a three-stage run), whatever the number of candidates.
 *
 * ## Choices, and the alternatives they beat
 *
 * - **Multiple comparisons.** A per-pair z of 2 or 3 (a "95 %" band) is the usual mistake: with 1,000 candidates
 *   near the top, hundreds of one-sided comparisons are made per round and a 1-in-700 event happens every run.
 *   Here the quantile grows with N: for α = 1e-3, c ≈ 4.26 / 4.56 / 4.89 at N = 50 / 200 / 1,000 (z ≈ 6.0 / 6.5 /
 *   6.9), so a single comparison errs with probability ≤ 1e-9 — far below 1/N.
 * - **The leader's upward bias.** The leader is the maximum of many noisy estimates, so it overshoots its true value
 *   (the winner's curse: ≈ s·√(2 ln K) for K near-tied candidates, 3.7 s at K = 1,000). Comparing against the k-th
 *   best instead would blunt that, but it is a heuristic with no stated error rate, and it keeps clear losers
 *   whenever one candidate genuinely dominates. Under E the leader overshoots by at most c·s_L, and c ≥ √(2 ln N),
 *   so the margin already absorbs the bias; the leader (and anyone else above i) can then be used safely.
 * - **Combined standard error.** The leader's own error counts as much as the candidate's: at equal precision
 *   √(s_i² + s_L²) = √2·s; ignoring s_L would narrow the band by √2 where it matters most, among near-ties.
 * - **Student's t, not the normal.** s is estimated from the iterations of the stage (about 100 in the first one),
 *   and at tail probabilities of 1e-6 the t quantile is markedly larger (c = 5.2 instead of 4.9 at 99 degrees of
 *   freedom, α/2N = 5e-7). With few iterations (a small `iterations=` cap) it widens the band a lot, correctly.
 * - **δ.** The final stage can only tell apart candidates further apart than its own error; protecting the band δ
 *   below the leader keeps every candidate the final ranking could still put on top.
 * - **Cost.** The band is wide in the first stage (a few % of DPS at target_error 1.0) and narrow by the second
 *   (under 1 % at 0.2), which is where the savings come from: most candidates 1–5 % below the best are gone
 *   before the expensive final stage.
 */
import { tUpperQuantile } from './stats.js';

/** One estimate of a stage: a profileset, or the baseline. */
export interface CullEntry {
  readonly name: string;
  readonly mean: number;
  /** Standard error of the mean (simc's `mean_stddev`); missing or zero means "unknown": never culled. */
  readonly meanStdDev?: number | null;
  /** Iterations behind the estimate; sets the t quantile's degrees of freedom. */
  readonly iterations?: number | null;
}

export interface CullOptions {
  readonly candidates: readonly CullEntry[];
  /** The main player: always kept, and not a reference (see the module comment). */
  readonly baseline?: CullEntry | null;
  /** The final stage's target error (percent); candidates within it of the best are protected. */
  readonly finalTargetError: number;
  /** Probability that one round culls any true contender (default {@link DEFAULT_CULL_ALPHA}). */
  readonly alpha?: number;
}

export type CullReason =
  /** Culled: an estimate above it beats it by more than the margin. */
  | 'outside_band'
  /** Kept: no estimate above it beats it by more than the margin. */
  | 'within_band'
  /** Kept: no usable standard error, so nothing can be concluded. */
  | 'no_error'
  /** Kept: the baseline always stays. */
  | 'baseline';

export interface CullVerdict {
  readonly name: string;
  readonly kept: boolean;
  readonly reason: CullReason;
  /** For `outside_band`: the estimate that beat it, its lead and the margin it exceeded. */
  readonly beatenBy?: string;
  readonly gap?: number;
  readonly margin?: number;
}

export interface CullResult {
  /** Candidates that go on, in input order. */
  readonly survivors: string[];
  /** Candidates dropped, in input order. */
  readonly culled: string[];
  /** One verdict per candidate, in input order. */
  readonly verdicts: CullVerdict[];
  /** The baseline's verdict (always kept), when one was given. */
  readonly baseline: CullVerdict | null;
  /** The margin multiplier of the combined standard error (√2·c). */
  readonly z: number;
  /** Per-estimate simultaneous quantile. */
  readonly c: number;
  /** Degrees of freedom used (Infinity: normal). */
  readonly df: number;
  /** Estimates with a usable error (N of the Bonferroni correction). */
  readonly estimates: number;
  /** The protected band below the leader, in DPS. */
  readonly delta: number;
  readonly alpha: number;
}

/** One round culls a true contender with probability at most this (two rounds: twice it). */
export const DEFAULT_CULL_ALPHA = 1e-3;

interface Usable {
  readonly name: string;
  readonly mean: number;
  readonly se: number;
  readonly iterations: number | null;
}

function usable(e: CullEntry): Usable | null {
  const se = e.meanStdDev;
  if (!Number.isFinite(e.mean) || typeof se !== 'number' || !Number.isFinite(se) || se <= 0) return null;
  const it = e.iterations;
  return {
    name: e.name,
    mean: e.mean,
    se,
    iterations: typeof it === 'number' && Number.isFinite(it) && it > 1 ? it : null,
  };
}

/** Decide who survives a stage. Pure; see the module comment for the rule and why. */
export function cullCandidates(opts: CullOptions): CullResult {
  const alpha = opts.alpha ?? DEFAULT_CULL_ALPHA;
  if (!(alpha > 0 && alpha < 1)) throw new RangeError(`alpha must be in (0, 1), got ${alpha}`);
  if (!(opts.finalTargetError >= 0)) throw new RangeError(`finalTargetError must be ≥ 0, got ${opts.finalTargetError}`);
  const names = new Set<string>();
  for (const c of opts.candidates) {
    if (names.has(c.name)) throw new RangeError(`candidate "${c.name}" appears twice`);
    names.add(c.name);
  }

  const byName = new Map<string, Usable>();
  for (const c of opts.candidates) {
    const u = usable(c);
    if (u) byName.set(c.name, u);
  }
  // References: every candidate with a usable estimate, best first.
  const refs = [...byName.values()].sort((a, b) => b.mean - a.mean);

  const n = refs.length;
  const known = refs.map((r) => r.iterations).filter((i): i is number => i !== null);
  // The fewest iterations decide (the widest quantile); with none reported, the normal quantile.
  const df = known.length > 0 ? known.reduce((m, i) => Math.min(m, i)) - 1 : Infinity;
  const c = n >= 2 ? tUpperQuantile(alpha / (2 * n), df) : Infinity;
  const z = Math.SQRT2 * c;
  const leader = refs[0];
  const delta = leader ? (Math.max(0, leader.mean) * opts.finalTargetError) / 100 : 0;

  const verdicts: CullVerdict[] = opts.candidates.map((cand) => {
    const me = byName.get(cand.name);
    if (!me) return { name: cand.name, kept: true, reason: 'no_error' };
    if (n < 2) return { name: cand.name, kept: true, reason: 'within_band' };
    for (const ref of refs) {
      const gap = ref.mean - me.mean;
      if (gap <= delta) break; // sorted: nobody further down can beat it by more than δ either
      if (ref.name === me.name) continue;
      const margin = z * Math.sqrt(me.se * me.se + ref.se * ref.se) + delta;
      if (gap > margin)
        return { name: cand.name, kept: false, reason: 'outside_band', beatenBy: ref.name, gap, margin };
    }
    return { name: cand.name, kept: true, reason: 'within_band' };
  });

  return {
    survivors: verdicts.filter((v) => v.kept).map((v) => v.name),
    culled: verdicts.filter((v) => !v.kept).map((v) => v.name),
    verdicts,
    baseline: opts.baseline ? { name: opts.baseline.name, kept: true, reason: 'baseline' } : null,
    z,
    c,
    df,
    estimates: n,
    delta,
    alpha,
  };
}
