import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Output } from '../../../src/cli/output/io.js';
import { printRoster, printStatWeights } from '../../../src/cli/output/views/statweights.js';
import { readCharacter } from '../../../src/domain/statweights/character.js';
import { readStatWeightsMarker, statWeightsMeta } from '../../../src/domain/job-kind.js';
import { pawnString } from '../../../src/domain/statweights/pawn.js';
import { statWeightsProfile } from '../../../src/domain/statweights/profile.js';
import { parseStats, primaryStat } from '../../../src/domain/statweights/stats.js';
import { fromProfilesets, fromScaleReport, type ScaleReport } from '../../../src/domain/statweights/weights.js';
import { REPO_ROOT } from '../../helpers/shared.js';
import { memoryStream } from '../../helpers/streams.js';

const REAL = resolve(
  REPO_ROOT,
  'test',
  'fixtures',
  'simc',
  'reports-scale-factors',
  'r12_mid1210_affliction_scalefactors.json',
);

function output() {
  const stdout = memoryStream(false);
  const stderr = memoryStream(false);
  return { out: new Output({ stdout, stderr, env: {}, json: false, noColor: true, quiet: false }), stdout, stderr };
}

describe('a real simc report with scale factors (simc 1210-01, Affliction, scale_only=crit,haste)', () => {
  const report = JSON.parse(readFileSync(REAL, 'utf8')) as ScaleReport;
  const [sw] = fromScaleReport(report);

  it('gives the Pawn string simc prints for it', () => {
    expect(sw!.pawn).toBe(
      '( Pawn: v1: "MID2_Warlock_Affliction_Hellcaller-Affliction": Class=Warlock, Spec=Affliction,  CritRating=26.16, HasteRating=35.93 )',
    );
  });

  it('reads the weights, deltas and an error estimated from the reference run into the table', () => {
    expect(sw!.character).toEqual({
      name: 'MID2_Warlock_Affliction_Hellcaller',
      className: 'warlock',
      spec: 'affliction',
    });
    expect(sw!.weights.map((w) => [w.stat, w.weight, w.amount])).toEqual([
      ['crit', 26.157696086154, 154],
      ['haste', 35.93422057892989, 154],
    ]);
    // mean_std_dev 1670.61 × 1.95996 (the report's confidence_estimator) × √2 / 154
    expect(sw!.weights[0]!.error).toBeCloseTo(
      (1670.6108079071423 * report.sim.options!.confidence_estimator! * Math.SQRT2) / 154,
      9,
    );
    // Intellect was not scaled: the first stat is the one the rest are normalised to. After 23 iterations its
    // weight (26.16 ± 30.07) is within its error of zero, so nothing is normalised to it, and a warning says why.
    expect(sw!.normalisedTo).toBe('crit');
    expect(sw!.weights.map((w) => [w.normalised, w.normalisedError])).toEqual([
      [null, null],
      [null, null],
    ]);
    expect(sw!.referenceWarning).toMatch(/^Crit, the stat the others are normalised to, came out 26\.16 ± 30\.07/);
    // 23 iterations: the two weights are within each other's error.
    expect(sw!.equalWithinError).toEqual([['crit', 'haste']]);

    const { out, stdout, stderr } = output();
    printStatWeights(out, sw!);
    expect(stdout.text()).toBe(
      [
        '',
        "Stat weights of MID2_Warlock_Affliction_Hellcaller (Affliction Warlock), dps per point (simc's scale factors):",
        'Stat\tdps/point\t±\tCrit = 1\t±',
        'Crit\t26.16\t30.07\t\t',
        'Haste\t35.93\t30.07\t\t',
        'Crit and Haste are equal within the error.',
        '',
        '( Pawn: v1: "MID2_Warlock_Affliction_Hellcaller-Affliction": Class=Warlock, Spec=Affliction,  CritRating=26.16, HasteRating=35.93 )',
        '',
      ].join('\n'),
    );
    expect(stderr.text()).toContain('each ± is estimated');
    expect(stderr.text()).toContain('within its error of zero, so no weight is normalised');
  });

  it('sits in a roster table with its Pawn string', () => {
    const { out, stdout } = output();
    printRoster(out, [{ weights: sw! }]);
    expect(stdout.text()).toContain(
      'Character\tPrimary\tHaste\nMID2_Warlock_Affliction_Hellcaller (Affliction Warlock)\tCrit —\t\n',
    );
    expect(stdout.text()).toContain(sw!.pawn);
  });
});

describe('weights from profilesets', () => {
  const character = { name: 'Axe', className: 'warrior', spec: 'fury' };
  const stats = parseStats('primary,crit,vers', 'strength', 'profilesets');
  const base = { name: 'Axe', mean: 100_000, mean_error: 30 };
  const sets = [
    { name: 'Strength', mean: 100_900, mean_error: 40 },
    { name: 'Crit', mean: 100_450, mean_error: 30 },
    { name: 'Versatility', mean: 100_420, mean_error: 30 },
  ];
  const sw = fromProfilesets(character, base, sets, stats, 300, 'dps')!;

  it('weight = (dps − baseline) / points, error from both means, normalised to the primary stat', () => {
    expect(sw.weights.map((w) => w.weight)).toEqual([3, 1.5, 1.4]);
    expect(sw.weights[0]!.error).toBeCloseTo(50 / 300, 12);
    expect(sw.weights[1]!.normalised).toBeCloseTo(0.5, 12);
    // r = D_c / D_s with D_c = 450 ± 30, D_s = 900 ± 40, the shared baseline ± 30 counted once
    const expected = Math.sqrt((30 / 900) ** 2 + ((450 * 40) / 900 ** 2) ** 2 + (((450 - 900) * 30) / 900 ** 2) ** 2);
    expect(sw.weights[1]!.normalisedError).toBeCloseTo(expected, 12);
  });

  it('says which stats are equal within the error (the baseline cancels in their difference)', () => {
    // Crit − Vers = 30 / 300 = 0.1, error sqrt(30² + 30²) / 300 ≈ 0.141
    expect(sw.equalWithinError).toEqual([['crit', 'vers']]);
    expect(sw.pawn).toBe(
      '( Pawn: v1: "Axe-Fury": Class=Warrior, Spec=Fury,  Strength=3.00, CritRating=1.50, Versatility=1.40 )',
    );
  });

  it("is undefined when a stat's profileset is missing from the results", () => {
    expect(fromProfilesets(character, base, sets.slice(1), stats, 300, 'dps')).toBeUndefined();
  });
});

describe('the Pawn string', () => {
  it('spells classes and specs as simc does, leaves zero weights out, escapes the name, keeps every sign', () => {
    const who = { name: 'A&B "x"', className: 'deathknight', spec: 'frost' };
    expect(
      pawnString(who, [
        { stat: 'strength', weight: 2 },
        { stat: 'haste', weight: 0 },
        { stat: 'crit', weight: 1 },
      ]),
    ).toBe(
      '( Pawn: v1: "A&amp;B &quot;x&quot;-Frost": Class=Deathknight, Spec=Frost,  Strength=2.00, CritRating=1.00 )',
    );
    expect(
      pawnString({ name: 'H', className: 'hunter', spec: 'beast_mastery' }, [
        { stat: 'agility', weight: -2 },
        { stat: 'vers', weight: 1 },
      ]),
    ).toBe('( Pawn: v1: "H-BeastMastery": Class=Hunter, Spec=BeastMastery,  Agility=-2.00, Versatility=1.00 )');
  });
});

describe('stats, characters and the profile', () => {
  it("knows each spec's primary stat", () => {
    expect(primaryStat('paladin', 'holy')).toBe('intellect');
    expect(primaryStat('paladin', 'retribution')).toBe('strength');
    expect(primaryStat('druid', 'guardian')).toBe('agility');
    expect(primaryStat('shaman', 'enhancement')).toBe('agility');
    expect(primaryStat('monk', 'mistweaver')).toBe('intellect');
    expect(primaryStat('evoker', 'augmentation')).toBe('intellect');
    expect(primaryStat('demonhunter', 'havoc')).toBe('agility');
    expect(primaryStat('demonhunter', 'devourer')).toBe('intellect');
    expect(primaryStat('Demon Hunter', 'Devourer')).toBe('intellect');
    // No spec: the class's stat when every spec shares it, else unknown (and `--stats primary` is refused).
    expect(primaryStat('warlock', null)).toBe('intellect');
    expect(primaryStat('demonhunter', null)).toBeUndefined();
    expect(primaryStat('unknown', null)).toBeUndefined();
    expect(() => parseStats('primary,crit', undefined, 'profilesets')).toThrow(/primary stat of this character/);
    expect(parseStats('intellect,crit', undefined, 'profilesets').map((s) => s.key)).toEqual(['intellect', 'crit']);
  });

  it('adds to the enchant a profile already has, and marks the job with what result needs', () => {
    const character = readCharacter('warrior="Axe"\nspec=fury\nenchant_crit_rating=120\n', 'a.simc');
    const plan = {
      method: 'profilesets' as const,
      stats: parseStats('primary,crit', 'strength', 'profilesets'),
      amount: 300,
      targetError: 0.05,
    };
    const text = statWeightsProfile(character, plan, 'a.simc');
    expect(text).toContain(
      'target_error=0.05\nprofileset."Strength"+=enchant_strength=300\nprofileset."Crit"+=enchant_crit_rating=420\n',
    );
    const meta = statWeightsMeta(plan, character.className, character.spec);
    expect(meta).toEqual(['kind=statweights', 'statweights=profilesets:300:warrior:fury:strength+crit']);
    const marker = readStatWeightsMarker(Object.fromEntries(meta.map((m) => m.split('='))));
    expect(marker).toMatchObject({ method: 'profilesets', amount: 300, className: 'warrior', spec: 'fury' });
    expect(marker!.stats.map((s) => s.key)).toEqual(['strength', 'crit']);
    expect(readStatWeightsMarker({ kind: 'topgear' })).toBeUndefined();
  });

  it('asks simc for scale factors of the chosen stats', () => {
    const character = readCharacter('warlock="Hex"\nspec=affliction\n', 'b.simc');
    const text = statWeightsProfile(
      character,
      { method: 'scale', stats: parseStats('crit,haste,int', 'intellect', 'scale'), targetError: 0.05 },
      'b.simc',
    );
    expect(text).toContain('calculate_scale_factors=1\nscale_only=crit,haste,int\n');
  });

  it('refuses a profile with profilesets of its own', () => {
    expect(() => readCharacter('warrior="Axe"\nprofileset."x"+=talents=abc\n', 'c.simc')).toThrow(
      /already has profilesets/,
    );
  });
});
