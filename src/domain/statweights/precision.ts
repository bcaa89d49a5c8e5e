import { UsageError } from '../../errors.js';
import { positiveInteger } from '../../util/parse.js';

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
/**
 * The most `--amount` may add: a weight is the slope of DPS at the character's own stats, and simc's own delta is
 * 154 points at level 90. 10,000 points is more than a level-90 character's whole rating in one stat, so the slope
 * would be measured across breakpoints and diminishing returns, at another character; beyond it simc's stats also
 * stop being the same numbers (2,147,483,648 wraps as a 32-bit integer).
 */
const MAX_AMOUNT = 10_000;

/** `--amount`: a positive whole number of points, at most MAX_AMOUNT, with why in the error. */
export function amountPoints(value: string): number {
  const n = positiveInteger('--amount')(value);
  if (n <= MAX_AMOUNT) return n;
  throw new UsageError(
    `--amount ${n.toLocaleString('en-US')} is more than ${MAX_AMOUNT.toLocaleString('en-US')} points: a weight is what one point ` +
      "is worth at the character's own stats, and that many points is more than its whole rating in a stat, past " +
      'its breakpoints.',
    `Use a few hundred (the default is ${DEFAULT_AMOUNT}; simc's own scale delta is 154).`,
  );
}

/**
 * simc's own scale-factor step (engine/sim/scale_factor_control.cpp, `init_deltas`): round(the haste rating of
 * 100 % at the sim's highest player level × 0.035), i.e. 3.5 % haste worth of rating, the same for every stat.
 * 154 points at level 90 with Midnight's data (the `scale_deltas` of simc 1210-01's report in
 * test/fixtures/simc/reports-scale-factors). Rating per percent grows with the level, so the step is smaller below
 * 90 and larger above; simjob does not carry simc's rating table, so it says so rather than guess a number.
 */
const SIMC_STEP_LEVEL = 90;
const SIMC_STEP_AT_LEVEL = 154;

/**
 * A line for a character whose level puts the default +N points far from simc's own step: above level 90 the step
 * grows past 154 and N may be too small to lift a weight above the noise; below it, N is a bigger step than simc's
 * and may cross breakpoints. Undefined at level 90, without a level, or when the user chose --amount.
 */
export function amountNote(level: number | null, amount: number, chosen: boolean): string | undefined {
  if (chosen || level === null || level === SIMC_STEP_LEVEL) return undefined;
  const step =
    `simc's own scale-factor step (3.5% haste worth of rating) is ${SIMC_STEP_AT_LEVEL} points ` +
    `at level ${SIMC_STEP_LEVEL}`;
  const choose = 'Set --amount, or use --method scale to let simc pick the step for the level.';
  if (level > SIMC_STEP_LEVEL) {
    return (
      `Level ${level}: ${step} and grows with the level, so +${amount} points may be small against it and the ` +
      `weights may not rise above their error. ${choose}`
    );
  }
  return (
    `Level ${level}: ${step} and shrinks below it, so +${amount} points is a larger step than simc's and may ` +
    `cross breakpoints. ${choose}`
  );
}
