import { describe, expect, it } from 'vitest';
import { cullCandidates, DEFAULT_CULL_ALPHA, type CullEntry } from '../../../src/domain/multistage/cull.js';
import { normalUpperTail, tUpperQuantile, tUpperTail } from '../../../src/domain/multistage/stats.js';
import { Rng } from '../../../bench/multistage-model.js';

/** A candidate with standard error `se` measured over `iterations` iterations. */
const cand = (name: string, mean: number, se: number | null = 100, iterations: number | null = 10_000): CullEntry => ({
  name,
  mean,
  meanStdDev: se,
  iterations,
});

/** The margin multiplier the rule uses for n candidates with 10,000 iterations each. */
const zFor = (n: number, df = 9_999): number => Math.SQRT2 * tUpperQuantile(DEFAULT_CULL_ALPHA / (2 * n), df);

describe('distribution functions', () => {
  it('match published quantiles of the normal and of Student t', () => {
    expect(tUpperQuantile(0.025, Infinity)).toBeCloseTo(1.959964, 4);
    expect(tUpperQuantile(0.025, 10)).toBeCloseTo(2.228139, 4);
    expect(tUpperQuantile(0.005, 1)).toBeCloseTo(63.65674, 2);
    expect(tUpperQuantile(5e-7, Infinity)).toBeCloseTo(4.8916, 3);
    expect(normalUpperTail(6)).toBeCloseTo(9.8659e-10, 12);
    expect(tUpperTail(2.228139, 10)).toBeCloseTo(0.025, 5);
  });
});

describe('cullCandidates', () => {
  it('culls clear losers and names the estimate that beat them', () => {
    const r = cullCandidates({
      candidates: [cand('a', 50_000), cand('b', 49_950), cand('loser', 45_000), cand('c', 49_900)],
      finalTargetError: 0.05,
    });
    expect(r.survivors).toEqual(['a', 'b', 'c']);
    expect(r.culled).toEqual(['loser']);
    expect(r.verdicts[2]).toMatchObject({
      name: 'loser',
      kept: false,
      reason: 'outside_band',
      beatenBy: 'a',
      gap: 5_000,
    });
  });

  it('keeps near-ties: a gap of a few combined standard errors is not evidence across many comparisons', () => {
    // Combined se = 100·√2 ≈ 141; a gap of 4 combined se would be "significant" for one comparison at 99.99 %.
    const gap = 4 * Math.SQRT2 * 100;
    const r = cullCandidates({
      candidates: [cand('a', 50_000), cand('b', 50_000 - gap), cand('c', 50_000 - gap / 2), cand('d', 49_999)],
      finalTargetError: 0.05,
    });
    expect(r.culled).toEqual([]);
  });

  it('with 4 candidates uses the Bonferroni quantile for 4 and culls just past it', () => {
    const z = zFor(4);
    const delta = 50_000 * 0.0005;
    const margin = z * Math.SQRT2 * 100 + delta;
    const r = cullCandidates({
      candidates: [
        cand('a', 50_000),
        cand('in', 50_000 - margin + 1),
        cand('out', 50_000 - margin - 1),
        cand('d', 49_990),
      ],
      finalTargetError: 0.05,
    });
    expect(r.estimates).toBe(4);
    expect(r.z).toBeCloseTo(z, 9);
    expect(r.delta).toBeCloseTo(delta, 9);
    expect(r.survivors).toEqual(['a', 'in', 'd']);
    expect(r.culled).toEqual(['out']);
  });

  it('widens the band with the number of candidates (multiple comparisons)', () => {
    const gap = 6 * Math.SQRT2 * 100 + 25; // 6 combined se past the protected band
    const few = cullCandidates({
      candidates: [cand('a', 50_000), cand('x', 50_000 - gap), cand('b', 49_990), cand('c', 49_980)],
      finalTargetError: 0.05,
    });
    const filler = Array.from({ length: 996 }, (_, i) => cand(`f${i}`, 49_990 - (i % 5)));
    const many = cullCandidates({
      candidates: [cand('a', 50_000), cand('x', 50_000 - gap), ...filler],
      finalTargetError: 0.05,
    });
    expect(few.culled).toEqual(['x']);
    expect(many.estimates).toBe(998);
    expect(many.z).toBeGreaterThan(6.5);
    expect(many.culled).not.toContain('x');
  });

  it('keeps everyone when all are tied', () => {
    const r = cullCandidates({
      candidates: Array.from({ length: 50 }, (_, i) => cand(`t${i}`, 50_000)),
      finalTargetError: 0.05,
    });
    expect(r.culled).toEqual([]);
    expect(r.survivors).toHaveLength(50);
  });

  it('keeps only the leader when it is far ahead of everyone', () => {
    const r = cullCandidates({
      candidates: [cand('x', 40_000), cand('y', 41_000), cand('leader', 50_000), cand('z', 40_500)],
      finalTargetError: 0.05,
    });
    expect(r.survivors).toEqual(['leader']);
    expect(r.verdicts.filter((v) => !v.kept).every((v) => v.beatenBy === 'leader')).toBe(true);
  });

  it('never culls the baseline, and a baseline above every candidate does not cull them', () => {
    const r = cullCandidates({
      candidates: [cand('a', 40_000), cand('b', 39_990), cand('c', 35_000), cand('d', 39_000)],
      baseline: cand('Baseline', 60_000),
      finalTargetError: 0.05,
    });
    expect(r.baseline).toEqual({ name: 'Baseline', kept: true, reason: 'baseline' });
    // Ranked among themselves: the best candidates stay for the final stage; c and d are far below a.
    expect(r.survivors).toEqual(['a', 'b']);
    expect(r.estimates).toBe(4);
    expect(r.verdicts.map((v) => v.beatenBy).filter(Boolean)).toEqual(['a', 'a']);
  });

  it('keeps candidates with missing or zero errors and never compares against them', () => {
    const r = cullCandidates({
      candidates: [
        cand('no-se-leader', 60_000, null),
        cand('a', 50_000),
        cand('no-se-loser', 10_000, null),
        cand('zero-se', 10_000, 0),
        cand('nan-mean', Number.NaN, 100),
        cand('loser', 40_000),
        { name: 'no-fields', mean: 1 },
      ],
      finalTargetError: 0.05,
    });
    expect(r.survivors).toEqual(['no-se-leader', 'a', 'no-se-loser', 'zero-se', 'nan-mean', 'no-fields']);
    expect(r.culled).toEqual(['loser']);
    expect(r.verdicts.find((v) => v.name === 'no-se-loser')?.reason).toBe('no_error');
    expect(r.verdicts.find((v) => v.name === 'loser')?.beatenBy).toBe('a');
    expect(r.estimates).toBe(2);
  });

  it('keeps everyone when fewer than two candidates have an estimate', () => {
    const r = cullCandidates({ candidates: [cand('a', 50_000), cand('b', 10_000, null)], finalTargetError: 0.05 });
    expect(r.culled).toEqual([]);
  });

  it('protects the band of the final stage: δ = final target error × leader', () => {
    const zBand = zFor(4) * Math.SQRT2 * 10;
    const cands = [
      cand('a', 50_000, 10),
      cand('b', 50_000 - zBand - 200, 10),
      cand('c', 49_999, 10),
      cand('d', 49_998, 10),
    ];
    expect(cullCandidates({ candidates: cands, finalTargetError: 0.05 }).culled).toEqual(['b']); // δ = 25 < 200
    expect(cullCandidates({ candidates: cands, finalTargetError: 0.5 }).culled).toEqual([]); // δ = 250 > 200
  });

  it('uses Student t: with few iterations the same gap is not enough', () => {
    const gap = 7 * Math.SQRT2 * 100;
    const cands = (it: number) => [
      cand('a', 50_000, 100, it),
      cand('b', 50_000 - gap, 100, it),
      cand('c', 49_990, 100, it),
      cand('d', 49_980, 100, it),
    ];
    const many = cullCandidates({ candidates: cands(10_000), finalTargetError: 0 });
    const few = cullCandidates({ candidates: cands(12), finalTargetError: 0 });
    expect(many.df).toBe(9_999);
    expect(few.df).toBe(11);
    expect(many.culled).toEqual(['b']);
    expect(few.culled).toEqual([]);
    // Unknown iterations: the normal quantile.
    expect(cullCandidates({ candidates: cands(Number.NaN), finalTargetError: 0 }).df).toBe(Infinity);
  });

  it('rejects duplicate names and a nonsensical alpha', () => {
    expect(() => cullCandidates({ candidates: [cand('a', 1), cand('a', 2)], finalTargetError: 0.05 })).toThrow(/twice/);
    expect(() => cullCandidates({ candidates: [], finalTargetError: 0.05, alpha: 0 })).toThrow(/alpha/);
  });

  it('culls a true contender in far fewer than α of rounds, where a per-comparison 95 % band nearly always would', () => {
    // 300 rounds of 200 exactly tied candidates with normal noise: the worst case for multiple comparisons.
    const rng = new Rng(42);
    const rounds = 300;
    let ruleRounds = 0;
    let naiveRounds = 0;
    for (let k = 0; k < rounds; k++) {
      const cands = Array.from({ length: 200 }, (_, i) => cand(`t${i}`, 50_000 + 100 * rng.gauss(), 100, 900));
      if (cullCandidates({ candidates: cands, finalTargetError: 0.05 }).culled.length > 0) ruleRounds += 1;
      const best = Math.max(...cands.map((c) => c.mean));
      if (cands.some((c) => best - c.mean > 1.96 * Math.SQRT2 * 100)) naiveRounds += 1;
    }
    expect(ruleRounds).toBe(0);
    expect(naiveRounds).toBeGreaterThan(rounds * 0.95);
  });
});
