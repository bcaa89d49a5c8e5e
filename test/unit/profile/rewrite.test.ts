import { describe, expect, it } from 'vitest';
import { analyzeProfile } from '../../../src/domain/profile/analyze.js';
import { planStages } from '../../../src/domain/profile/multistage.js';
import { rewriteForStage } from '../../../src/domain/profile/rewrite.js';
import { BASE, readProfile, withProfilesets } from './fixtures.js';

const keep = (...names: string[]) => new Set(names);

describe('rewriteForStage', () => {
  it('keeps only the surviving profilesets, all their lines, and everything else byte for byte', () => {
    const src = `# header\n${withProfilesets(5)}# trailer\n`;
    const out = rewriteForStage(src, { keepProfilesets: keep('s2', 's5'), targetError: 1, deferFinalOnly: true });
    const a = analyzeProfile(out);
    expect(a.profilesets.map((p) => [p.name, p.options.length])).toEqual([
      ['s2', 2],
      ['s5', 2],
    ]);
    const expectedLines = src.split('\n').filter((l) => !/^profileset\."s[134]"/.test(l));
    // original minus removed lines, then the appended precision block
    expect(out).toBe(`${expectedLines.join('\n')}# simjob: stage precision\ntarget_error=1\n`);
  });

  it('replaces top-level target_error and iterations in place', () => {
    const src = `target_error=0.1\niterations=5000\n${withProfilesets(4)}`;
    const out = rewriteForStage(src, {
      keepProfilesets: keep('s1', 's2', 's3', 's4'),
      targetError: 0.2,
      iterations: 5000,
      deferFinalOnly: true,
    });
    expect(out).toBe(`target_error=0.2\niterations=5000\n${withProfilesets(4)}`);
    const a = analyzeProfile(out);
    expect(a.simOptions.target_error).toMatchObject({ numeric: 0.2, line: 1 });
    expect(a.simOptions.iterations).toMatchObject({ numeric: 5000, line: 2 });
  });

  it('appends the precision lines when the profile has none (sim options are valid after an actor)', () => {
    const src = `${BASE}max_time=300`; // no final newline
    const out = rewriteForStage(src, {
      keepProfilesets: keep(),
      targetError: 0.05,
      iterations: 250000,
      deferFinalOnly: false,
    });
    expect(out).toBe(`${src}\n# simjob: stage precision\ntarget_error=0.05\niterations=250000\n`);
    const a = analyzeProfile(out);
    expect(a.simOptions.target_error?.numeric).toBe(0.05);
    expect(a.actors).toHaveLength(1);
  });

  it('leaves iterations alone when no cap is given', () => {
    const src = `${BASE}iterations=777\ntarget_error=0.3\n`;
    expect(rewriteForStage(src, { keepProfilesets: keep(), targetError: 1, deferFinalOnly: false })).toBe(
      `${BASE}iterations=777\ntarget_error=1\n`,
    );
  });

  it('also appends when an include follows the last occurrence (the included file could override it)', () => {
    const src = 'target_error=0.1\nbase.simc\n';
    const out = rewriteForStage(src, { keepProfilesets: keep(), targetError: 1, deferFinalOnly: false });
    expect(out).toBe('target_error=1\nbase.simc\n# simjob: stage precision\ntarget_error=1\n');
  });

  it('strips the final-only directives in non-final stages only', () => {
    const src = `${BASE}calculate_scale_factors=1\nscale_delta_multiplier=2 center_scale_delta=1\ndps_plot_stats=crit\nreport_details=0\nscale_only=crit\nmax_time=300\n`;
    const early = rewriteForStage(src, { keepProfilesets: keep(), targetError: 1, deferFinalOnly: true });
    expect(early).toBe(`${BASE}max_time=300\n# simjob: stage precision\ntarget_error=1\n`);
    const final = rewriteForStage(src, { keepProfilesets: keep(), targetError: 0.05, deferFinalOnly: false });
    expect(final).toBe(`${src}# simjob: stage precision\ntarget_error=0.05\n`);
  });

  it('removes single tokens from shared lines with their separating whitespace', () => {
    const src = `${BASE}iterations=100 profileset.a=talents=A calculate_scale_factors=1\nprofileset.b=talents=B  max_time=300\nmax_time=200 profileset.c=talents=C\n`;
    const out = rewriteForStage(src, {
      keepProfilesets: keep('b'),
      targetError: 0.2,
      iterations: 100,
      deferFinalOnly: true,
    });
    expect(out).toBe(
      `${BASE}iterations=100\nprofileset.b=talents=B  max_time=300\nmax_time=200\n# simjob: stage precision\ntarget_error=0.2\n`,
    );
  });

  it('preserves a BOM, CRLF line endings and quoted names', () => {
    const src =
      '\uFEFFwarrior="My Base"\r\ntarget_error=0.05\r\nprofileset."Set A"=talents=A\r\nprofileset."Set B"=talents=B\r\n';
    const out = rewriteForStage(src, {
      keepProfilesets: keep('Set B'),
      targetError: 0.2,
      iterations: 1000,
      deferFinalOnly: true,
    });
    expect(out).toBe(
      '\uFEFFwarrior="My Base"\r\ntarget_error=0.2\r\nprofileset."Set B"=talents=B\r\n# simjob: stage precision\r\niterations=1000\r\n',
    );
  });

  it('rejects invalid precision', () => {
    expect(() => rewriteForStage(BASE, { keepProfilesets: keep(), targetError: 0, deferFinalOnly: false })).toThrow(
      RangeError,
    );
    expect(() =>
      rewriteForStage(BASE, { keepProfilesets: keep(), targetError: 0.1, iterations: 1.5, deferFinalOnly: false }),
    ).toThrow(RangeError);
  });

  it('runs a whole plan: each stage keeps its survivors and gets its precision', () => {
    const src = `${withProfilesets(6)}target_error=0.1\niterations=20000\n`;
    const plan = planStages(analyzeProfile(src));
    const survivors = [keep('s1', 's2', 's3', 's4', 's5', 's6'), keep('s1', 's3', 's4', 's6'), keep('s3', 's6')];
    plan.stages.forEach((stage, i) => {
      const out = rewriteForStage(src, {
        keepProfilesets: survivors[i] ?? keep(),
        targetError: stage.targetError,
        iterations: stage.iterations,
        deferFinalOnly: stage.deferFinalOnly,
      });
      const a = analyzeProfile(out);
      expect(a.profilesets.map((p) => p.name)).toEqual([...(survivors[i] ?? [])]);
      expect(a.simOptions.target_error?.numeric).toBe(stage.targetError);
      expect(a.simOptions.iterations?.numeric).toBe(20000);
      expect(a.actors).toHaveLength(1);
      expect(a.diagnostics).toEqual([]);
    });
  });
});

describe('rewriteForStage on character.simc', () => {
  it('sets precision at the top and again after the input= includes, strips report_details', () => {
    const src = readProfile('character');
    const out = rewriteForStage(src, {
      keepProfilesets: keep(),
      targetError: 1,
      iterations: 5000,
      deferFinalOnly: true,
    });
    const srcLines = src.split('\n');
    const outLines = out.split('\n');
    expect(outLines.slice(0, 4)).toEqual([
      '# SimC configuration',
      'target_error=1',
      'iterations=5000',
      'single_actor_batch=1',
    ]);
    // apart from the edits, every line is unchanged
    expect(outLines.slice(3, 41)).toEqual(srcLines.slice(4, 42));
    expect(out.endsWith('manual_profiles.simc\n# simjob: stage precision\ntarget_error=1\niterations=5000\n')).toBe(
      true,
    );
    const a = analyzeProfile(out);
    expect(a.simOptions.report_details).toBeUndefined();
    expect(a.simOptions.target_error).toMatchObject({ numeric: 1, line: 43 });
    expect(a.includes).toHaveLength(2);
  });
});
