/**
 * `simjob submit --local --multistage` end to end: the built CLI, the background worker and the stand-in simc.
 * The profilesets' true DPS are set with the stand-in's `fake_dps` (two leaders 0.2 % apart, six clearly worse), so
 * what the staged run must do is known: all eight at target_error 1.0, the two leaders on to 0.2 and 0.05.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { freshLocalEnvs, json, profileFile, run, statusOf, submitLocal, waitFor } from './local-helpers.js';

const freshEnv = freshLocalEnvs();

// `tie` is 0.2 % below `top`: inseparable at the coarse stages (both go on), clearly second at the final 0.05 %.
// The losers sit 1,000 apart (over 5 combined standard errors at the coarse stage), so their order is never a coin toss.
const SETS: Record<string, number> = {
  top: 51_000,
  tie: 50_900,
  l1: 47_000,
  l2: 46_000,
  l3: 45_000,
  l4: 44_000,
  l5: 43_000,
  l6: 42_000,
};

function stagedProfile(extra: string[] = [], sets: Record<string, number> = SETS): string {
  return [
    'warrior="Staged"',
    'spec=fury',
    'level=90',
    'fake_dps=48000',
    'threads=2',
    'report_details=1',
    ...extra,
    ...Object.entries(sets).map(([name, dps]) => `profileset."${name}"+=fake_dps=${dps}`),
    '',
  ].join('\n');
}

describe('simjob submit --local --multistage', () => {
  it('runs the stages, culls the clear losers, and reports the funnel, per-profileset stages and per-stage artifacts', async () => {
    const env = freshEnv();
    const profile = profileFile(env, 'staged.simc', stagedProfile());
    const submitted = await run(
      env,
      ['submit', profile, '--local', '--multistage', '--wait', '--json', '--csv', '--html'],
      60_000,
    );
    expect(submitted.exitCode, submitted.stderr).toBe(0);
    const record = json(submitted);
    expect(record.status).toBe('completed');

    const summary = record.result.summary;
    expect(summary.multiStage).toEqual({
      enabled: true,
      reason: 'eligible_profileset_only',
      stages: [
        { stage: 1, label: 'initial', profilesets: 8, culled: 6 },
        { stage: 2, label: 'intermediate', profilesets: 2, culled: 0 },
        { stage: 3, label: 'final', profilesets: 2, culled: 0 },
      ],
    });
    const results = summary.mainActor.profilesets.results as Array<{
      name: string;
      mean: number;
      mean_error: number;
      stage: number;
    }>;
    expect(summary.mainActor.profilesets.count).toBe(8);
    expect(results.map((r) => [r.name, r.stage])).toEqual([
      ['top', 3],
      ['tie', 3],
      ['l1', 1],
      ['l2', 1],
      ['l3', 1],
      ['l4', 1],
      ['l5', 1],
      ['l6', 1],
    ]);
    // Culled after the coarse stage: that stage's error (~0.6 %); the finalists: under the final 0.05 %.
    for (const r of results) {
      if (r.stage === 3) expect(r.mean_error / r.mean).toBeLessThan(0.0005);
      else expect(r.mean_error / r.mean).toBeGreaterThan(0.003);
    }
    expect(summary.mainActor.name).toBe('Staged');
    expect(summary.mainActor.mean_error / summary.mainActor.mean).toBeLessThan(0.0005); // the final stage's baseline

    const artifacts = record.result.artifacts as Array<{ id: string; kind: string; stage: number | null; url: string }>;
    expect(artifacts.filter((a) => a.kind === 'json_report').map((a) => a.stage)).toEqual([1, 2, 3]);
    expect(artifacts.filter((a) => a.kind === 'html_report').map((a) => a.stage)).toEqual([3]);
    expect(
      artifacts.filter((a) => !['json_report', 'html_report'].includes(a.kind)).every((a) => a.stage === null),
    ).toBe(true);
    const reportOf = (stage: number) =>
      JSON.parse(
        readFileSync(
          fileURLToPath(artifacts.find((a) => a.kind === 'json_report' && a.stage === stage)?.url ?? ''),
          'utf8',
        ),
      );
    const stage1 = reportOf(1);
    expect(stage1.sim.profilesets.results).toHaveLength(8);
    expect(stage1.sim.options.target_error).toBe(1);
    expect(stage1.sim.players[0].buffs).toBeUndefined(); // report_details=0 in the coarse stages
    const stage3 = reportOf(3);
    expect(stage3.sim.profilesets.results.map((r: { name: string }) => r.name).sort()).toEqual(['tie', 'top']);
    expect(stage3.sim.options.target_error).toBe(0.05);

    // One CSV over every profileset (each with its highest stage's numbers) plus the baseline.
    const csv = readFileSync(fileURLToPath(artifacts.find((a) => a.kind === 'csv_report')?.url ?? ''), 'utf8')
      .trimEnd()
      .split('\n');
    expect(csv[0]).toBe('name,dps_mean,dps_min,dps_max,dps_std_dev,dps_mean_std_dev');
    expect(csv.slice(1).map((l) => l.split(',')[0])).toEqual([
      'Staged',
      'top',
      'tie',
      'l1',
      'l2',
      'l3',
      'l4',
      'l5',
      'l6',
    ]);

    // Each stage's JSON downloads by its own id.
    const out = join(env.SIMJOB_DATA_DIR, '..', 'downloads');
    const downloaded = await run(env, [
      'artifacts',
      record.id,
      '--download',
      '--kind',
      'json_report',
      '-o',
      out,
      '--json',
    ]);
    expect(downloaded.exitCode, downloaded.stderr).toBe(0);
    const saved = json<Array<{ stage: number; path: string }>>(downloaded);
    expect(saved.map((s) => s.stage)).toEqual([1, 2, 3]);
    expect(saved.map((s) => JSON.parse(readFileSync(s.path, 'utf8')).sim.profilesets.results.length)).toEqual([
      8, 2, 2,
    ]);
  }, 60_000);

  it('shows the stage running now in the status record', async () => {
    const env = freshEnv();
    // Slow the stand-in down (100 µs per iteration) so the final stage lasts a few seconds.
    const profile = profileFile(env, 'slow.simc', stagedProfile(['fake_iter_us=100']));
    const id = await submitLocal(env, profile, ['--multistage']);
    const seen = new Set<string>();
    const final = await waitFor(
      'the final stage',
      async () => {
        const status = await statusOf(env, id);
        const stage = status.progress?.stage;
        if (stage) seen.add(`${stage.current}/${stage.total} ${stage.label}`);
        return stage?.label === 'final' ? status : status.status === 'completed' ? null : undefined;
      },
      30_000,
    );
    expect(final, `stages seen: ${[...seen].join(', ')}`).not.toBeNull();
    expect(final?.status).toBe('running');
    expect(final?.progress.stage).toMatchObject({ current: 3, total: 3, label: 'final' });
    expect(final?.progress.percent).toBeGreaterThanOrEqual(200 / 3);
    expect([...seen].every((s) => ['1/3 initial', '2/3 intermediate', '3/3 final'].includes(s))).toBe(true);
    const done = await run(env, ['status', id, '--wait', '--json'], 60_000);
    expect(json(done).status).toBe('completed');
  }, 60_000);

  it('runs an ineligible profile in one pass and says why', async () => {
    const env = freshEnv();
    const profile = profileFile(env, 'three.simc', stagedProfile([], { a: 50_000, b: 49_000, c: 48_000 }));
    const submitted = await run(env, ['submit', profile, '--local', '--multistage', '--wait', '--json'], 60_000);
    expect(submitted.exitCode, submitted.stderr).toBe(0);
    expect(submitted.stderr).toMatch(/--multistage: 3 profileset candidates; multistage needs at least 4/);
    const record = json(submitted);
    expect(record.result.summary.multiStage).toEqual({ enabled: false, reason: 'below_min_candidates', stages: [] });
    expect(record.result.summary.mainActor.profilesets.results.map((r: { stage: number }) => r.stage)).toEqual([
      1, 1, 1,
    ]);
    expect(record.result.artifacts.every((a: { stage: number | null }) => a.stage === null)).toBe(true);
  }, 60_000);
});
