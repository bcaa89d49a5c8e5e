import { describe, expect, it } from 'vitest';
import { analyzeProfile } from '../../../src/domain/profile/index.js';
import { runStaged, type StagePass, type StagedProgress } from '../../../src/domain/multistage/run.js';
import { stagedCsv, stagedSummary } from '../../../src/domain/multistage/summary.js';
import { readStageReport } from '../../../src/domain/report/report-rows.js';

const CE = 1.9599639854088815;

/**
 * A fake simc: deterministic means (the truth), a standard error that exactly meets the pass's target_error,
 * iterations ∝ 1/target², a json2-shaped report. It records every pass it is given.
 */
function fakeSimc(truths: Record<string, number>, baseline = 48_000, opts: { omit?: string[] } = {}) {
  const passes: Array<StagePass & { names: string[]; targetError: number | null; iterations: number | null }> = [];
  const runPass = async (pass: StagePass) => {
    const a = analyzeProfile(pass.profile);
    const te = a.simOptions.target_error?.numeric ?? null;
    const cap = a.simOptions.iterations?.numeric ?? null;
    passes.push({ ...pass, names: a.profilesets.map((p) => p.name), targetError: te, iterations: cap });
    pass.onProgress(50);
    const err = te ?? 0.2;
    const iterations = Math.min(cap ?? 1e9, Math.ceil((5.88 / err) ** 2));
    const row = (mean: number) => ({ mean, se: (mean * err) / 100 / CE });
    const b = row(baseline);
    const results = a.profilesets
      .filter((p) => !(opts.omit ?? []).includes(p.name))
      .map((p) => {
        const truth = truths[p.name];
        if (truth === undefined) throw new Error(`no truth for ${p.name}`);
        const r = row(truth);
        return {
          name: p.name,
          mean: r.mean,
          min: r.mean * 0.9,
          max: r.mean * 1.1,
          stddev: r.mean * 0.03,
          mean_stddev: r.se,
          mean_error: r.se * CE,
          iterations,
        };
      });
    const artifacts = [{ kind: 'json_report', path: `/jobs/x/stage-${pass.stage}.json` }];
    if (pass.final) artifacts.push({ kind: 'html_report', path: `/jobs/x/report.html` });
    return {
      report: {
        sim: {
          options: { iterations, confidence_estimator: CE },
          players: [
            { name: 'Hero', collected_data: { dps: { mean: b.mean, min: 1, max: 2, std_dev: 3, mean_std_dev: b.se } } },
          ],
          profilesets: { metric: 'Damage per Second', results },
        },
      },
      artifacts,
    };
  };
  return { passes, runPass };
}

function profile(names: string[], extra: string[] = []): string {
  return (
    ['warrior=Hero', 'spec=fury', ...extra, ...names.map((n) => `profileset."${n}"+=talents=${n}`)].join('\n') + '\n'
  );
}

/** 10 candidates: a leader, two near-ties, seven clearly worse. */
const TRUTHS: Record<string, number> = {
  lead: 50_000,
  tie1: 49_990,
  tie2: 49_975,
  w1: 47_000,
  w2: 46_500,
  w3: 46_000,
  w4: 45_000,
  w5: 44_000,
  w6: 43_000,
  w7: 42_000,
};
const NAMES = Object.keys(TRUTHS);

describe('runStaged', () => {
  it('runs the funnel: every candidate at 1.0, survivors at 0.2 and at the final 0.05; the last stage culls 0', async () => {
    const sim = fakeSimc(TRUTHS);
    const r = await runStaged({ profile: profile(NAMES), multiStage: true, runPass: sim.runPass });
    expect(r.multiStage).toEqual({
      enabled: true,
      reason: 'eligible_profileset_only',
      stages: [
        { stage: 1, label: 'initial', profilesets: 10, culled: 7 },
        { stage: 2, label: 'intermediate', profilesets: 3, culled: 0 },
        { stage: 3, label: 'final', profilesets: 3, culled: 0 },
      ],
    });
    expect(
      sim.passes.map((p) => [p.stage, p.totalStages, p.label, p.final, p.staged, p.targetError, p.profilesets]),
    ).toEqual([
      [1, 3, 'initial', false, true, 1, 10],
      [2, 3, 'intermediate', false, true, 0.2, 3],
      [3, 3, 'final', true, true, 0.05, 3],
    ]);
    // Later passes hold only the survivors.
    expect(sim.passes[1]?.names).toEqual(['lead', 'tie1', 'tie2']);
    expect(sim.passes[2]?.names).toEqual(['lead', 'tie1', 'tie2']);
  });

  it('gives each profileset the highest stage it reached, with that stage’s numbers, best first', async () => {
    const sim = fakeSimc(TRUTHS);
    const r = await runStaged({ profile: profile(NAMES), multiStage: true, runPass: sim.runPass });
    expect(r.profilesets.map((p) => [p.name, p.stage])).toEqual([
      ['lead', 3],
      ['tie1', 3],
      ['tie2', 3],
      ['w1', 1],
      ['w2', 1],
      ['w3', 1],
      ['w4', 1],
      ['w5', 1],
      ['w6', 1],
      ['w7', 1],
    ]);
    const lead = r.profilesets[0];
    const w1 = r.profilesets.find((p) => p.name === 'w1');
    expect(lead?.meanError).toBeCloseTo(50_000 * 0.0005, 6); // final stage: 0.05 %
    expect(w1?.meanError).toBeCloseTo(47_000 * 0.01, 6); // culled after stage 1: 1.0 %
    expect(r.baseline.meanError).toBeCloseTo(48_000 * 0.0005, 6); // the baseline of the last pass
    expect(r.iterations).toBe(r.passes.reduce((s, p) => s + p.iterations, 0));
  });

  it('keeps a JSON artifact per stage with its stage number and the HTML of the final stage only', async () => {
    const sim = fakeSimc(TRUTHS);
    const r = await runStaged({ profile: profile(NAMES), multiStage: true, runPass: sim.runPass });
    expect(r.artifacts).toEqual([
      { kind: 'json_report', path: '/jobs/x/stage-1.json', stage: 1 },
      { kind: 'json_report', path: '/jobs/x/stage-2.json', stage: 2 },
      { kind: 'json_report', path: '/jobs/x/stage-3.json', stage: 3 },
      { kind: 'html_report', path: '/jobs/x/report.html', stage: 3 },
    ]);
  });

  it('defers final-only directives, appends report_details=0 to coarse stages, and caps every stage with the profile’s iterations', async () => {
    const sim = fakeSimc(TRUTHS);
    const text = profile(NAMES, [
      'iterations=5000',
      'calculate_scale_factors=1',
      'report_details=1',
      'target_error=0.1',
    ]);
    await runStaged({ profile: text, multiStage: true, runPass: sim.runPass });
    expect(sim.passes.map((p) => [p.targetError, p.iterations])).toEqual([
      [1, 5000],
      [0.2, 5000],
      [0.1, 5000],
    ]);
    for (const pass of sim.passes.slice(0, 2)) {
      const a = analyzeProfile(pass.profile);
      expect(a.simOptions.calculate_scale_factors).toBeUndefined();
      expect(a.simOptions.report_details?.value).toBe('0');
    }
    const last = analyzeProfile(sim.passes[2]?.profile ?? '');
    expect(last.simOptions.calculate_scale_factors?.value).toBe('1');
    expect(last.simOptions.report_details?.value).toBe('1');
  });

  it('skips the stages a coarse profile target_error already meets', async () => {
    const coarse = fakeSimc(TRUTHS);
    const r = await runStaged({
      profile: profile(NAMES, ['target_error=0.5']),
      multiStage: true,
      runPass: coarse.runPass,
    });
    expect(r.multiStage.stages.map((s) => [s.stage, s.label, s.profilesets, s.culled])).toEqual([
      [1, 'initial', 10, 7],
      [2, 'final', 3, 0],
    ]);
    expect(coarse.passes.map((p) => p.targetError)).toEqual([1, 0.5]);

    const single = fakeSimc(TRUTHS);
    const one = await runStaged({
      profile: profile(NAMES, ['target_error=1.5']),
      multiStage: true,
      runPass: single.runPass,
    });
    expect(one.multiStage.stages).toEqual([{ stage: 1, label: 'final', profilesets: 10, culled: 0 }]);
    expect(one.profilesets.every((p) => p.stage === 1)).toBe(true);
    expect(single.passes[0]?.final).toBe(true);
  });

  it('runs an ineligible profile once, unchanged, with the eligibility reason and stage 1 everywhere', async () => {
    const sim = fakeSimc(TRUTHS);
    const text = profile(['lead', 'tie1', 'w1']);
    const r = await runStaged({ profile: text, multiStage: true, runPass: sim.runPass });
    expect(r.multiStage).toEqual({ enabled: false, reason: 'below_min_candidates', stages: [] });
    expect(sim.passes).toHaveLength(1);
    expect(sim.passes[0]?.profile).toBe(text);
    expect(sim.passes[0]).toMatchObject({ staged: false, label: null, final: true });
    expect(r.profilesets.map((p) => p.stage)).toEqual([1, 1, 1]);
    expect(r.artifacts.every((a) => a.stage === null)).toBe(true);

    const off = await runStaged({ profile: profile(NAMES), multiStage: false, runPass: fakeSimc(TRUTHS).runPass });
    expect(off.multiStage).toEqual({ enabled: false, reason: 'disabled_by_option', stages: [] });
  });

  it('reports the current stage while it runs; the overall percentage never goes back and ends at 100', async () => {
    const seen: StagedProgress[] = [];
    await runStaged({
      profile: profile(NAMES),
      multiStage: true,
      runPass: fakeSimc(TRUTHS).runPass,
      onProgress: (p) => seen.push(p),
    });
    expect(seen.map((p) => `${p.stage?.current}/${p.stage?.total} ${p.stage?.label} ${p.stage?.percent}`)).toEqual([
      '1/3 initial 0',
      '1/3 initial 50',
      '1/3 initial 100',
      '2/3 intermediate 0',
      '2/3 intermediate 50',
      '2/3 intermediate 100',
      '3/3 final 0',
      '3/3 final 50',
      '3/3 final 100',
    ]);
    const overall = seen.map((p) => p.percent);
    expect(overall).toEqual([...overall].sort((a, b) => a - b));
    expect(overall.at(-1)).toBe(100);
  });

  it('keeps a profileset the report left out (simc drops zero-mean results) and stops when aborted', async () => {
    const sim = fakeSimc(TRUTHS, 48_000, { omit: ['w7'] });
    const r = await runStaged({ profile: profile(NAMES), multiStage: true, runPass: sim.runPass });
    expect(sim.passes[1]?.names).toContain('w7');
    expect(r.profilesets.find((p) => p.name === 'w7')).toBeUndefined();

    const controller = new AbortController();
    const aborting = fakeSimc(TRUTHS);
    const run = runStaged({
      profile: profile(NAMES),
      multiStage: true,
      signal: controller.signal,
      runPass: async (pass) => {
        const out = await aborting.runPass(pass);
        controller.abort(new Error('cancelled'));
        return out;
      },
    });
    await expect(run).rejects.toThrow('cancelled');
    expect(aborting.passes).toHaveLength(1);
  });

  it('summarises in the service’s shapes: summary.multiStage, per-profileset stage, one CSV over every profileset', async () => {
    const r = await runStaged({ profile: profile(NAMES), multiStage: true, runPass: fakeSimc(TRUTHS).runPass });
    const s = stagedSummary(r);
    expect(s.multiStage?.stages).toHaveLength(3);
    expect(s.mainActor?.name).toBe('Hero');
    expect(s.mainActor?.profilesets?.count).toBe(10);
    expect(s.mainActor?.profilesets?.results[0]).toMatchObject({ name: 'lead', mean: 50_000, stage: 3 });
    expect(stagedSummary(r, 4).mainActor?.profilesets?.results).toHaveLength(4);
    const csv = stagedCsv(r).trimEnd().split('\n');
    expect(csv[0]).toBe('name,dps_mean,dps_min,dps_max,dps_std_dev,dps_mean_std_dev');
    expect(csv[1]?.startsWith('Hero,48000,1,2,3,')).toBe(true);
    expect(csv.slice(2).map((l) => l.split(',')[0])).toEqual(NAMES);
  });
});

describe('readStageReport', () => {
  it('reads json2 and 3.0.0-alpha1 profilesets and the main player by name', () => {
    const players = [
      { name: 'Other', collected_data: { dps: { mean: 1, mean_std_dev: 1 } } },
      { name: 'Hero', collected_data: { dps: { mean: 100, mean_std_dev: 2 } } },
    ];
    const v2 = readStageReport(
      {
        sim: {
          options: { iterations: 50 },
          players,
          profilesets: { results: [{ name: 'a', mean: 90, mean_stddev: 3, iterations: 40 }] },
        },
      },
      { index: 0, name: 'Hero' },
    );
    expect(v2.baseline).toMatchObject({ name: 'Hero', mean: 100, meanStdDev: 2 });
    expect(v2.profilesets[0]).toMatchObject({ name: 'a', mean: 90, meanStdDev: 3, iterations: 40 });
    expect(v2.iterations).toBe(90);
    const v3 = readStageReport(
      {
        sim: {
          players,
          profilesets: { results: [{ name: 'b', metrics: [{ mean: 80, mean_stddev: 4, iterations: 7 }] }] },
        },
      },
      { index: 0, name: null },
    );
    expect(v3.baseline.name).toBe('Other');
    expect(v3.profilesets[0]).toMatchObject({ name: 'b', mean: 80, meanStdDev: 4, iterations: 7 });
    expect(() => readStageReport({}, { index: 0, name: null })).toThrow(/sim/);
  });
});
