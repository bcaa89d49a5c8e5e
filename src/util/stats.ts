/**
 * The statistics behind "is this difference real?", shared by the result view and `simjob compare`.
 *
 * simc reports each mean with `mean_error`, the half-width of its 95% confidence interval (1.96 × the standard error
 * of the mean). Two sims run independently (their own seeds), so the standard error of the difference of their means
 * is sqrt(seA² + seB²), and the 95% half-width of the difference is
 *
 *     combined = sqrt(eA² + eB²)
 *
 * A difference is called significant when |Δ| > combined: a two-sided z-test at the 5% level (normal approximation,
 * which simc's iteration counts justify). Caveats: profilesets of one job are not independent of its baseline in
 * every setup (same seed), which makes this test conservative, never optimistic; and when many profilesets are
 * compared, about 1 in 20 "significant" results among equal ones is expected by chance.
 */
export interface Estimate {
  mean: number;
  mean_error?: number | null;
}

export interface Difference {
  /** b − a */
  delta: number;
  /** (b − a) / a × 100, undefined when a is 0. */
  percent: number | undefined;
  /** 95% half-width of the difference; undefined when either error is unknown. */
  combinedError: number | undefined;
  /** |delta| > combinedError; undefined when the error is unknown. */
  significant: boolean | undefined;
}

export function combinedError(a: number | null | undefined, b: number | null | undefined): number | undefined {
  if (typeof a !== 'number' || typeof b !== 'number' || !Number.isFinite(a) || !Number.isFinite(b)) return undefined;
  return Math.sqrt(a * a + b * b);
}

export function difference(a: Estimate, b: Estimate): Difference {
  const delta = b.mean - a.mean;
  const combined = combinedError(a.mean_error, b.mean_error);
  return {
    delta,
    percent: a.mean === 0 ? undefined : (delta / a.mean) * 100,
    combinedError: combined,
    significant: combined === undefined ? undefined : Math.abs(delta) > combined,
  };
}

/** Best first (highest mean), in a new array. Rows already in that order (a ranked list read back) are not sorted again. */
export function rankByMean<T extends { mean: number }>(rows: readonly T[]): T[] {
  for (let i = 1; i < rows.length; i++) {
    if (rows[i]!.mean > rows[i - 1]!.mean) return [...rows].sort((a, b) => b.mean - a.mean);
  }
  return [...rows];
}
