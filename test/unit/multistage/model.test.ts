/**
 * The bench's correctness trials use a statistical model of a stand-in simc run instead of spawning it hundreds of
 * times (bench/multistage-model.ts). These tests run the real stand-in and check that the model reproduces what the
 * culling depends on: how many iterations a target_error takes, how far the means fall from the truth, and the
 * standard errors the report gives.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { modelPhase, Rng } from '../../../bench/multistage-model.js';
import { REPO_ROOT } from '../../helpers/shared.js';
import { tempDir } from '../../helpers/temp.js';

const SIMC = resolve(REPO_ROOT, 'test', 'fake-simc', 'simc');
const dir = tempDir('simjob-model-');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface PsResult {
  name: string;
  mean: number;
  mean_stddev: number;
  iterations: number;
}

/** Run the stand-in on `count` profilesets of the given true DPS values (cycled) and return their results. */
function standIn(
  truths: number[],
  count: number,
  targetError: number,
  seed: number,
  extra: string[] = [],
): Array<PsResult & { truth: number }> {
  const lines = [
    'warrior=Model',
    'spec=fury',
    'level=80',
    'fake_dps=50000',
    'threads=2',
    'iterations=250000',
    `target_error=${targetError}`,
    ...extra,
  ];
  const truthOf = new Map<string, number>();
  for (let i = 0; i < count; i++) {
    const truth = truths[i % truths.length] as number;
    truthOf.set(`p${i}`, truth);
    lines.push(`profileset."p${i}"+=fake_dps=${truth}`);
  }
  const file = join(dir, `m-${seed}.simc`);
  const json = join(dir, `m-${seed}.json`);
  writeFileSync(file, `${lines.join('\n')}\n`);
  const run = spawnSync(SIMC, [file, `json2=${json}`, 'output=/dev/null', 'fake_iter_us=0', `seed=${seed}`], {
    encoding: 'utf8',
  });
  expect(run.status, run.stderr).toBe(0);
  const results = (JSON.parse(readFileSync(json, 'utf8')) as { sim: { profilesets: { results: PsResult[] } } }).sim
    .profilesets.results;
  return results.map((r) => ({ ...r, truth: truthOf.get(r.name) as number }));
}

const mean = (xs: number[]): number => xs.reduce((a, b) => a + b, 0) / xs.length;
const sd = (xs: number[]): number => {
  const m = mean(xs);
  return Math.sqrt(xs.reduce((a, b) => a + (b - m) ** 2, 0) / (xs.length - 1));
};

/** The model's iteration counts for one truth and settings, over many draws. */
function modelIterations(truth: number, targetError: number, noise: number, draws = 4000): number[] {
  const rng = new Rng(7);
  return Array.from(
    { length: draws },
    () => modelPhase(truth, { noise, threads: 2, targetError, iterations: 250_000 }, rng).iterations,
  );
}

describe.each([
  { targetError: 1.0, count: 150, noise: 0.03, extra: [] as string[] },
  { targetError: 0.2, count: 150, noise: 0.03, extra: [] as string[] },
  { targetError: 0.05, count: 40, noise: 0.03, extra: [] as string[] },
  { targetError: 0.2, count: 80, noise: 0.05, extra: ['fake_noise=0.05'] },
])('the model of a stand-in run at target_error $targetError, noise $noise', ({ targetError, count, noise, extra }) => {
  const real = standIn([50_000, 42_000], count, targetError, 1000 + count, extra);

  it('needs as many iterations as the stand-in (∝ noise²/target²)', () => {
    expect(real).toHaveLength(count);
    const modelled = modelIterations(50_000, targetError, noise);
    const realIts = real.map((r) => r.iterations);
    expect(Math.abs(mean(realIts) / mean(modelled) - 1)).toBeLessThan(0.03);
    expect(Math.min(...realIts)).toBeGreaterThanOrEqual(Math.min(...modelled));
    expect(Math.max(...realIts)).toBeLessThanOrEqual(Math.max(...modelled));
    // The law itself: n ≈ (1.96 · noise · 100 / target)², but never less than the first error check at 100.
    const law = ((1.96 * noise * 100) / targetError) ** 2;
    if (law < 98) {
      expect(new Set(realIts)).toEqual(new Set([101]));
    } else {
      expect(mean(realIts) / law).toBeGreaterThan(0.95);
      expect(mean(realIts) / law).toBeLessThan(1.25);
    }
  });

  it('puts the means around the truth with the reported standard error, as the model does', () => {
    const z = real.map((r) => (r.mean - r.truth) / r.mean_stddev);
    expect(Math.abs(mean(z))).toBeLessThan(0.3);
    expect(sd(z)).toBeGreaterThan(0.8);
    expect(sd(z)).toBeLessThan(1.2);
    const rng = new Rng(11);
    const mz = real.map((r) => {
      const m = modelPhase(r.truth, { noise, threads: 2, targetError, iterations: 250_000 }, rng);
      return (m.mean - r.truth) / m.meanStdDev;
    });
    expect(Math.abs(mean(mz))).toBeLessThan(0.3);
    expect(sd(mz)).toBeGreaterThan(0.8);
    expect(sd(mz)).toBeLessThan(1.2);
  });

  it('reports the standard error the model gives for the same iterations', () => {
    // Model: noise · truth / √(collected), collected = iterations − threads.
    const ratios = real.map((r) => r.mean_stddev / ((noise * r.truth) / Math.sqrt(r.iterations - 2)));
    expect(Math.abs(mean(ratios) - 1)).toBeLessThan(0.03);
  });
});
