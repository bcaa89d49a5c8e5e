/**
 * How precise the weights are by default, and why.
 *
 * A weight is (m_stat − m_base) / N. With simc's target_error t (the 95% half-width of each mean, in percent of
 * it) both means carry about t/100 × DPS, so a weight's 95% error is about √2 × t/100 × DPS / N, and the error of
 * the difference of two weights (the baseline cancels) is the same. Real weights are of the order of DPS / 10,000
 * per point (simc 1210-01's Affliction report: 26 and 36 per point at 240k DPS), and the stats worth telling apart
 * differ by a few per cent of a weight. So:
 *   - N = 300 points: about twice simc's own delta at level 90 (154), big enough to lift the difference well above
 *     the noise, small enough to stay on the same side of most breakpoints and diminishing returns;
 *   - t = 0.05 %: simc's default target error when it computes scale factors.
 * Then a weight's 95% error is about √2 × 0.0005 × DPS / 300 ≈ DPS / 424,000 per point, about 2% of a typical
 * weight: weights further apart than that are told apart, closer ones are reported as equal within the error.
 * The cost: iterations grow as 1/t², so each run needs about 16 times those of simc's default 0.2 %, and the job
 * makes one run per stat plus the baseline (six for the default stats): about 100 times one default sim.
 */
export const DEFAULT_AMOUNT = 300;
export { DEFAULT_TARGET_ERROR } from '../profile/precision.js';
