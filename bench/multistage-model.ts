/**
 * A statistical model of one stand-in simc run (test/fake-simc), used by `bench/multistage.ts` for its many
 * correctness trials: spawning the stand-in 3 × 100s of times would take minutes, the model takes milliseconds.
 * `test/unit/multistage/model.test.ts` checks it against real stand-in runs (iteration counts, the spread of the
 * means, the reported standard errors).
 *
 * What it reproduces of the stand-in (README "Synthetic numbers", engine.mjs `runPhase`):
 * - per iteration `dps = true × (1 + noise·N(0,1))`; the first iteration of each thread is not collected;
 * - with a target_error, every 100 iterations the error `s·1.96/√n / mean × 100` (s = the sample standard
 *   deviation so far) is compared with the target; once below, the other threads finish their iteration, so the
 *   run ends at `k·100 + threads − 1`; the `iterations` cap ends it in any case. Iterations needed ∝ 1/target².
 * - the mean is normal around the truth with standard error `noise·true/√n`; the reported standard error uses the
 *   sample deviation, whose relative error ≈ N(0,1)/√(2(n−1)) — one draw per run (successive checks share most
 *   samples), which also makes the stopping point vary as in the stand-in (e.g. 900 or 1,000 at target 0.2).
 * It returns a json2-shaped report, so the orchestrator under test (`runStaged`) is the real one.
 */
import { analyzeProfile } from '../src/domain/profile/index.js';
import type { RunPass } from '../src/domain/multistage/run.js';
import { Rng as StandInRng } from '../test/fake-simc/engine.mjs';

export const STAND_IN_CONFIDENCE_ESTIMATOR = 1.9599639854088815;

/** The stand-in's own generator (sfc32, Marsaglia polar normals), seeded from a trial number. */
export class Rng extends StandInRng {
  constructor(seed: number) {
    super(BigInt(seed), 'bench');
  }
}

export interface PhaseSettings {
  /** Relative standard deviation of one iteration (the stand-in's `noise`, default 0.03). */
  readonly noise: number;
  readonly threads: number;
  /** Percent; 0 = run the cap. */
  readonly targetError: number;
  /** Iteration cap. */
  readonly iterations: number;
  /** analyze_error_interval (100). */
  readonly interval?: number;
}

export interface PhaseOutcome {
  readonly iterations: number;
  readonly mean: number;
  readonly stddev: number;
  readonly meanStdDev: number;
}

/** One modelled phase (the baseline, or one profileset) of a stand-in run. */
export function modelPhase(truth: number, s: PhaseSettings, rng: Rng): PhaseOutcome {
  const interval = s.interval ?? 100;
  const threads = Math.max(1, Math.min(s.threads, s.iterations));
  const warmup = s.iterations === 1 ? 0 : threads;
  const zSd = rng.gauss();
  const zMean = rng.gauss();
  const sd = (n: number): number => s.noise * truth * Math.max(0.05, 1 + zSd / Math.sqrt(2 * Math.max(1, n - 1)));
  let total = s.iterations;
  if (s.targetError > 0) {
    for (let n = interval; n < s.iterations; n += interval) {
      const collected = n - warmup;
      if (collected < 2) continue;
      const errorPct = ((sd(collected) / Math.sqrt(collected)) * STAND_IN_CONFIDENCE_ESTIMATOR * 100) / truth;
      if (errorPct < s.targetError) {
        total = Math.min(s.iterations, n + threads - 1);
        break;
      }
    }
  }
  const collected = Math.max(1, total - warmup);
  const stddev = sd(collected);
  const trueSe = (s.noise * truth) / Math.sqrt(collected);
  return {
    iterations: total,
    mean: truth + trueSe * zMean,
    stddev,
    meanStdDev: collected > 1 ? stddev / Math.sqrt(collected) : 0,
  };
}

export interface ModelRunPassOptions {
  /** True DPS of the baseline. */
  readonly baseline: { readonly name: string; readonly dps: number };
  /** True DPS of each profileset by name. */
  readonly profilesets: ReadonlyMap<string, number>;
  readonly rng: Rng;
  readonly noise?: number;
  readonly threads?: number;
}

/** A `runPass` that models the stand-in instead of spawning it; reads the stage's precision from the profile. */
export function modelRunPass(o: ModelRunPassOptions): RunPass {
  const noise = o.noise ?? 0.03;
  const threads = o.threads ?? 2;
  return async (pass) => {
    const a = analyzeProfile(pass.profile);
    const te = a.simOptions.target_error?.numeric ?? 0;
    const it = a.simOptions.iterations?.numeric ?? 0;
    // simc: neither given → 0.2 and a 1,000,000 cap; only iterations → exactly that many.
    const settings: PhaseSettings =
      it > 0
        ? { noise, threads, targetError: te, iterations: it }
        : { noise, threads, targetError: te > 0 ? te : 0.2, iterations: 1_000_000 };
    const base = modelPhase(o.baseline.dps, settings, o.rng);
    const results = a.profilesets.map((ps) => {
      const truth = o.profilesets.get(ps.name);
      if (truth === undefined) throw new Error(`model: no true DPS for profileset "${ps.name}"`);
      const r = modelPhase(truth, settings, o.rng);
      return {
        name: ps.name,
        mean: r.mean,
        stddev: r.stddev,
        mean_stddev: r.meanStdDev,
        mean_error: r.meanStdDev * STAND_IN_CONFIDENCE_ESTIMATOR,
        iterations: r.iterations,
      };
    });
    pass.onProgress(100);
    return {
      report: {
        sim: {
          options: {
            iterations: base.iterations,
            confidence_estimator: STAND_IN_CONFIDENCE_ESTIMATOR,
            target_error: settings.targetError,
          },
          players: [
            {
              name: o.baseline.name,
              collected_data: { dps: { mean: base.mean, std_dev: base.stddev, mean_std_dev: base.meanStdDev } },
            },
          ],
          profilesets: { metric: 'Damage per Second', results },
        },
      },
    };
  };
}
