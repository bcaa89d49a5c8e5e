import { describe, expect, it } from 'vitest';
import { analyzeProfile } from '../../../src/domain/profile/analyze.js';
import {
  findStageSensitiveDirectives,
  multistageEligibility,
  planStages,
} from '../../../src/domain/profile/multistage.js';
import { MULTISTAGE_REASONS } from '../../../src/core/resources/enums.js';
import type { MultiStageReason } from '../../../src/domain/profile/types.js';
import { BASE, readProfile, withProfilesets } from './fixtures.js';

const check = (src: string, requested = true) => multistageEligibility(analyzeProfile(src), { requested });
const reasonOf = (src: string, requested = true): MultiStageReason => check(src, requested).reason;

describe('multistageEligibility: every reason', () => {
  const cases: Array<[MultiStageReason, string, boolean?]> = [
    ['disabled_by_option', withProfilesets(6), false],
    ['unsupported_stage_sensitive_directive', `${withProfilesets(5)}profileset."s1"+=target_error=0.5\n`],
    ['unsupported_copy_set_only', `${BASE}copy="B"\ntrinket1=,id=1\ncopy="C"\n`],
    ['unsupported_mixed_profileset_copy_set', `${withProfilesets(5)}copy="B"\n`],
    ['no_variants_in_input', BASE],
    ['unsupported_multi_actor', withProfilesets(5, `${BASE}mage="Second"\n`)],
    ['no_profileset_candidates', `${BASE}profileset."v1.0"=talents=A\nprofileset."v1.1"=talents=B\n`],
    ['below_min_candidates', withProfilesets(3)],
    ['eligible_profileset_only', withProfilesets(4)],
  ];

  it('covers exactly the spec enum, in check order', () => {
    expect(cases.map((c) => c[0])).toEqual([...MULTISTAGE_REASONS]);
  });

  it.each(cases)('%s', (reason, src, requested = true) => {
    const r = check(src, requested);
    expect(r.reason).toBe(reason);
    expect(r.enabled).toBe(reason === 'eligible_profileset_only');
    expect(r.detail).not.toMatch(/\n/);
    expect(r.detail.length).toBeGreaterThan(10);
  });

  it('explains the cause in detail', () => {
    expect(check(`${withProfilesets(5)}profileset."s2"+=iterations=50000\n`).detail).toBe(
      'profileset "s2" sets its own iterations=50000 (line 15), which would override every stage\'s precision',
    );
    expect(check(withProfilesets(3)).detail).toMatch(/^3 profileset candidates; multistage needs at least 4/);
    expect(check(withProfilesets(4)).detail).toBe(
      '4 profileset candidates run in 3 stages (initial 1, intermediate 0.2, final 0.05)',
    );
    expect(check(withProfilesets(5, `${BASE}mage="Second"\n`)).detail).toMatch(
      /2 players: warrior="Base" \(line 1\), mage="Second" \(line 5\)/,
    );
    expect(check(`${BASE}profileset."v1.0"=talents=A\n`).detail).toMatch(
      /line 5: profileset name 'v1\.0' contains '\.'/,
    );
  });
});

describe('multistageEligibility on the fixtures', () => {
  it('single-actor profiles without profilesets have no variants', () => {
    expect(reasonOf(readProfile('MID1_Warrior_Fury'))).toBe('no_variants_in_input');
    expect(reasonOf(readProfile('MID1_Mage_Frost'))).toBe('no_variants_in_input');
    expect(check(readProfile('character')).detail).toMatch(/2 included files not inspected/);
  });
  it('the trinket file is copy-only, also after a base profile', () => {
    expect(reasonOf(readProfile('trinkets_dragonflight_agi'))).toBe('unsupported_copy_set_only');
    expect(reasonOf(readProfile('MID1_Warrior_Fury') + readProfile('trinkets_dragonflight_agi'))).toBe(
      'unsupported_copy_set_only',
    );
    expect(check(readProfile('trinkets_dragonflight_agi')).detail).toMatch(/37 copy= lines/);
  });
  it('a real profile with four profilesets is eligible', () => {
    const src = `${readProfile('MID1_Mage_Frost')}\n${['a', 'b', 'c', 'd'].map((n) => `profileset."${n}"+=talents=X${n}`).join('\n')}\n`;
    expect(check(src)).toMatchObject({ enabled: true, reason: 'eligible_profileset_only' });
  });
});

describe('multistageEligibility: order of checks', () => {
  it('stage-sensitive wins over shape and counts', () => {
    expect(reasonOf(`${BASE}deterministic=1\ncopy="B"\n`)).toBe('unsupported_stage_sensitive_directive');
    expect(reasonOf(`${withProfilesets(1)}profileset."s1"+=target_error=0.1\n`)).toBe(
      'unsupported_stage_sensitive_directive',
    );
  });
  it('copy/set shape wins over the actor count (copies are players too)', () => {
    expect(reasonOf(`${BASE}mage="M"\ncopy="C"\n`)).toBe('unsupported_copy_set_only');
    expect(reasonOf(`${withProfilesets(4, `${BASE}mage="M"\n`)}set=x\n`)).toBe('unsupported_mixed_profileset_copy_set');
  });
  it('no variants wins over the actor count', () => {
    expect(reasonOf(`${BASE}mage="M"\n`)).toBe('no_variants_in_input');
  });
  it('multi-actor wins over the candidate count; enemies and pets are not players', () => {
    expect(reasonOf(withProfilesets(2, `${BASE}mage="M"\n`))).toBe('unsupported_multi_actor');
    expect(reasonOf(withProfilesets(4, `${BASE}enemy="Boss"\npet=felhunter\n`))).toBe('eligible_profileset_only');
    expect(reasonOf(withProfilesets(4, 'armory=us,illidan,A,B\n'))).toBe('unsupported_multi_actor');
  });
  it('a bundled base profile by name plus profilesets is eligible (no visible actor)', () => {
    expect(reasonOf(withProfilesets(4, 'MID1_Warrior_Fury.simc\n'))).toBe('eligible_profileset_only');
  });
});

describe('findStageSensitiveDirectives', () => {
  it('flags profileset precision and deterministic=1, not seed or single_actor_batch', () => {
    const src = [
      BASE,
      'seed=42',
      'single_actor_batch=1',
      'target_error=0.1',
      'iterations=10000',
      'profileset.a=talents=A',
      'profileset.a+=target_error=0.3',
      'profileset.b=talents=B',
      'profileset.b+=iterations=100',
      'profileset.c=talents=C',
      'profileset.c+=deterministic=1',
      'profileset.d=talents=D',
      'profileset.d+=seed=7',
    ].join('\n');
    expect(findStageSensitiveDirectives(analyzeProfile(src)).map((s) => [s.line, s.directive, s.profileset])).toEqual([
      [11, 'target_error', 'a'],
      [13, 'iterations', 'b'],
      [15, 'deterministic', 'c'],
    ]);
    expect(findStageSensitiveDirectives(analyzeProfile(`${BASE}deterministic=1\n`))).toEqual([
      expect.objectContaining({ line: 5, directive: 'deterministic', profileset: null }),
    ]);
    expect(findStageSensitiveDirectives(analyzeProfile(`${BASE}deterministic=0\n`))).toEqual([]);
  });
});

describe('planStages', () => {
  const plan = (opts: string) => planStages(analyzeProfile(`${BASE}${opts}\n`));
  const shape = (opts: string) => plan(opts).stages.map((s) => [s.label, s.targetError]);

  it('no target_error: 1.0, 0.2, final 0.05', () => {
    const p = plan('');
    expect(p.stages.map((s) => [s.stage, s.label, s.targetError, s.final, s.deferFinalOnly])).toEqual([
      [1, 'initial', 1, false, true],
      [2, 'intermediate', 0.2, false, true],
      [3, 'final', 0.05, true, false],
    ]);
    expect(p.finalTargetErrorSource).toBe('default');
  });

  it('target_error 0.1: 1.0, 0.2, final 0.1', () => {
    expect(shape('target_error=0.1')).toEqual([
      ['initial', 1],
      ['intermediate', 0.2],
      ['final', 0.1],
    ]);
  });

  it('target_error 0.3: 1.0 then final 0.3 (the 0.2 stage is finer than required, so skipped)', () => {
    const p = plan('target_error=0.3');
    expect(p.stages.map((s) => [s.label, s.targetError])).toEqual([
      ['initial', 1],
      ['final', 0.3],
    ]);
    expect(p.skippedTargetErrors).toEqual([0.2]);
  });

  it('target_error 0.2 or 1.0: the equal default stage is dropped', () => {
    expect(shape('target_error=0.2')).toEqual([
      ['initial', 1],
      ['final', 0.2],
    ]);
    expect(shape('target_error=1')).toEqual([['final', 1]]);
    expect(shape('target_error=2.5')).toEqual([['final', 2.5]]);
  });

  it('target_error 0.005 is floored to 0.01; target_error=0 counts as none', () => {
    const p = plan('target_error=0.005');
    expect(p.stages.map((s) => s.targetError)).toEqual([1, 0.2, 0.01]);
    expect(p.finalTargetErrorSource).toBe('profile_floored');
    expect(plan('target_error=0').finalTargetError).toBe(0.05);
  });

  it('the last target_error wins, wherever it is', () => {
    expect(plan('target_error=0.5\nmax_time=300\ntarget_error=0.1').finalTargetError).toBe(0.1);
  });

  it('iterations caps every stage; clamped at 250,000; safety cap when absent', () => {
    const p = plan('target_error=0.1\niterations=5000');
    expect(p.stages.map((s) => s.iterations)).toEqual([5000, 5000, 5000]);
    expect(p.iterationsSource).toBe('profile');
    expect(plan('iterations=1000000')).toMatchObject({ iterations: 250000, iterationsSource: 'profile_clamped' });
    expect(plan('')).toMatchObject({ iterations: 250000, iterationsSource: 'safety_cap' });
  });

  it('lists final-only directives as deferred', () => {
    const p = plan('calculate_scale_factors=1\nscale_only=agility,crit\nreport_details=0\nmax_time=300');
    expect(p.deferred).toEqual([
      { key: 'calculate_scale_factors', value: '1', line: 5 },
      { key: 'scale_only', value: 'agility,crit', line: 6 },
      { key: 'report_details', value: '0', line: 7 },
    ]);
  });

  it('character.simc: 1.0, 0.2, final 0.1, capped at 5000, report_details deferred', () => {
    const p = planStages(analyzeProfile(readProfile('character')));
    expect(p.stages.map((s) => [s.label, s.targetError, s.iterations])).toEqual([
      ['initial', 1, 5000],
      ['intermediate', 0.2, 5000],
      ['final', 0.1, 5000],
    ]);
    expect(p.deferred).toEqual([{ key: 'report_details', value: '1', line: 4 }]);
  });
});
