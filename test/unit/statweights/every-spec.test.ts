/**
 * Stat weights right for every spec (issue 38): simc's own Devourer profile (an Intellect Demon Hunter) is planned
 * and read by Intellect; a reference weight that is not measurably positive is warned about and nothing is
 * normalised to it, with the Pawn string carrying the table's own signs; the default +300 points is weighed
 * against simc's own scale-factor step for the character's level.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Output } from '../../../src/cli/output/io.js';
import { printStatWeights } from '../../../src/cli/output/views/statweights.js';
import { readCharacter } from '../../../src/domain/statweights/character.js';
import { statWeightsMeta } from '../../../src/domain/job-kind.js';
import { amountNote, DEFAULT_AMOUNT } from '../../../src/domain/statweights/precision.js';
import { statWeightsProfile } from '../../../src/domain/statweights/profile.js';
import { DEFAULT_STATS, parseStats, primaryStat } from '../../../src/domain/statweights/stats.js';
import {
  fromProfilesets,
  fromScaleReport,
  type ScaleReport,
  type StatWeights,
} from '../../../src/domain/statweights/weights.js';
import { FIXTURES_DIR } from '../../helpers/shared.js';
import { memoryStream } from '../../helpers/streams.js';
import { tempDir } from '../../helpers/temp.js';

const DEVOURER = join(FIXTURES_DIR, 'profiles', 'MID1', 'MID1_Demon_Hunter_Devourer.simc');

function output() {
  const stdout = memoryStream(false);
  const stderr = memoryStream(false);
  return { out: new Output({ stdout, stderr, env: {}, json: false, noColor: true, quiet: false }), stdout, stderr };
}

/** `Stat=value` pairs of a Pawn string. */
function pawnValues(pawn: string): Record<string, number> {
  return Object.fromEntries([...pawn.matchAll(/ (\w+)=(-?\d+\.\d\d)/g)].map((m) => [m[1]!, Number(m[2])]));
}

const PAWN_NAME: Record<string, string> = {
  strength: 'Strength',
  agility: 'Agility',
  intellect: 'Intellect',
  crit: 'CritRating',
  haste: 'HasteRating',
  mastery: 'MasteryRating',
  vers: 'Versatility',
};

/** Every weight the table shows is in the Pawn string with the same sign (and two decimals). */
function expectPawnSignsOfTable(sw: StatWeights): void {
  const pawn = pawnValues(sw.pawn);
  for (const w of sw.weights) {
    expect(pawn[PAWN_NAME[w.stat]!], w.stat).toBe(Number(w.weight.toFixed(2)));
    expect(Math.sign(pawn[PAWN_NAME[w.stat]!]!), w.stat).toBe(Math.sign(w.weight));
  }
}

describe("simc's MID1 Devourer profile is weighed by Intellect", () => {
  const character = readCharacter(readFileSync(DEVOURER, 'utf8'), 'MID1_Demon_Hunter_Devourer.simc');
  const primary = primaryStat(character.className, character.spec);

  it('reads an Intellect Demon Hunter at level 90', () => {
    expect(character).toMatchObject({ className: 'demonhunter', spec: 'devourer', level: 90 });
    expect(primary).toBe('intellect');
  });

  it('adds Intellect in the profilesets, never Agility, and marks the job so', () => {
    const stats = parseStats(DEFAULT_STATS, primary, 'profilesets');
    expect(stats.map((s) => s.key)).toEqual(['intellect', 'crit', 'haste', 'mastery', 'vers']);
    const plan = { method: 'profilesets' as const, stats, amount: DEFAULT_AMOUNT, targetError: 0.05 };
    const text = statWeightsProfile(character, plan, 'MID1_Demon_Hunter_Devourer.simc');
    expect(text).toContain('profileset."Intellect"+=enchant_intellect=300\n');
    expect(text).not.toMatch(/enchant_agility|enchant_strength/);
    expect(statWeightsMeta(plan, character.className, character.spec)).toContain(
      'statweights=profilesets:300:demonhunter:devourer:intellect+crit+haste+mastery+vers',
    );
    expect(amountNote(character.level, DEFAULT_AMOUNT, false)).toBeUndefined();
  });

  it('asks simc for the Intellect scale factor with --method scale', () => {
    const stats = parseStats(DEFAULT_STATS, primary, 'scale');
    const text = statWeightsProfile(character, { method: 'scale', stats, targetError: 0.05 }, 'devourer.simc');
    expect(text).toContain('calculate_scale_factors=1\nscale_only=int,crit,haste,mastery,vers\n');
  });

  it('normalises the result to Intellect, and the Pawn string carries Intellect', () => {
    const stats = parseStats(DEFAULT_STATS, primary, 'profilesets');
    const who = { name: character.name, className: character.className, spec: character.spec };
    const base = { name: character.name, mean: 200_000, mean_error: 100 };
    const sets = [
      { name: 'Intellect', mean: 201_200, mean_error: 100 },
      { name: 'Crit', mean: 200_450, mean_error: 100 },
      { name: 'Haste', mean: 200_600, mean_error: 100 },
      { name: 'Mastery', mean: 200_500, mean_error: 100 },
      { name: 'Versatility', mean: 200_400, mean_error: 100 },
    ];
    const sw = fromProfilesets(who, base, sets, stats, 300, 'dps')!;
    expect(sw.normalisedTo).toBe('intellect');
    expect(sw.referenceWarning).toBeUndefined();
    expect(sw.weights[0]).toMatchObject({ stat: 'intellect', weight: 4, normalised: 1 });
    expect(sw.weights[1]!.normalised).toBeCloseTo(1.5 / 4, 12);
    expect(sw.pawn).toMatch(/^\( Pawn: v1: "MID1_Demon_Hunter_Devourer_Annihilator-Devourer": Class=Demonhunter, /);
    expect(sw.pawn).toContain('  Intellect=4.00, CritRating=1.50');
    expect(sw.pawn).not.toContain('Agility');
  });
});

describe('a reference weight that is not measurably positive', () => {
  it('planted negative in a saved simc JSON report: warned about, nothing normalised, Pawn signs as the table', () => {
    // A report as simc writes it for a Devourer whose Intellect came out negative (planted: simc's numbers are
    // the scale factors, the run's std dev of the mean and the deltas).
    const report = {
      sim: {
        options: { confidence_estimator: 1.96, scaling: { scale_only: 'int,crit,haste', normalize_scale_factors: 0 } },
        players: [
          {
            name: 'Voidling',
            specialization: 'Devourer Demon Hunter',
            scale_factors: { Int: -1.5, Crit: 2.25, Haste: 1.1, Mastery: 0, Vers: 0 },
            scale_deltas: { Int: 154, Crit: 154, Haste: 154 },
            collected_data: { dps: { mean_std_dev: 20 } },
          },
        ],
      },
    };
    const file = join(tempDir('simjob-sw-negative-'), 'report.json');
    writeFileSync(file, JSON.stringify(report));
    const [sw] = fromScaleReport(JSON.parse(readFileSync(file, 'utf8')) as ScaleReport);

    expect(sw!.character).toEqual({ name: 'Voidling', className: 'demonhunter', spec: 'devourer' });
    expect(sw!.normalisedTo).toBe('intellect');
    expect(sw!.weights.map((w) => [w.stat, w.weight])).toEqual([
      ['intellect', -1.5],
      ['crit', 2.25],
      ['haste', 1.1],
    ]);
    expect(sw!.weights.every((w) => w.normalised === null && w.normalisedError === null)).toBe(true);
    expect(sw!.referenceWarning).toMatch(
      /^Intellect, the stat the others are normalised to, came out -1\.50 ± 0\.36 per point: not above zero/,
    );
    expect(sw!.pawn).toBe(
      '( Pawn: v1: "Voidling-Devourer": Class=Demonhunter, Spec=Devourer,  Intellect=-1.50, CritRating=2.25, HasteRating=1.10 )',
    );
    expectPawnSignsOfTable(sw!);

    const { out, stdout, stderr } = output();
    printStatWeights(out, sw!);
    expect(stdout.text()).toContain('\nIntellect\t-1.50\t0.36\t\t\nCrit\t2.25\t0.36\t\t\n');
    expect(stderr.text()).toContain('Intellect, the stat the others are normalised to, came out -1.50');
  });

  it('within its error of zero (0.01 ± 0.98): no 695.89 ± 55,979, a warning instead', () => {
    const who = { name: 'Axe', className: 'warrior', spec: 'fury' };
    const stats = parseStats('primary,crit,vers', 'strength', 'profilesets');
    // Strength +3 DPS for 300 points, each mean ± 208: 0.01 ± 0.98 per point; Versatility 9.52 per point.
    const base = { name: 'Axe', mean: 100_000, mean_error: 208 };
    const sets = [
      { name: 'Strength', mean: 100_003, mean_error: 208 },
      { name: 'Crit', mean: 102_400, mean_error: 208 },
      { name: 'Versatility', mean: 102_856, mean_error: 208 },
    ];
    const sw = fromProfilesets(who, base, sets, stats, 300, 'dps')!;
    expect(sw.weights[0]!.weight).toBeCloseTo(0.01, 12);
    expect(sw.weights[0]!.error).toBeCloseTo(0.98, 2);
    expect(sw.weights.map((w) => w.normalised)).toEqual([null, null, null]);
    expect(sw.referenceWarning).toMatch(/came out 0\.01 ± 0\.98 per point: within its error of zero/);
    expectPawnSignsOfTable(sw);
  });

  it('a negative secondary under a positive reference keeps its sign and is normalised as measured', () => {
    const who = { name: 'Axe', className: 'warrior', spec: 'arms' };
    const stats = parseStats('primary,haste', 'strength', 'profilesets');
    const base = { name: 'Axe', mean: 100_000, mean_error: 20 };
    const sets = [
      { name: 'Strength', mean: 100_900, mean_error: 20 },
      { name: 'Haste', mean: 99_700, mean_error: 20 },
    ];
    const sw = fromProfilesets(who, base, sets, stats, 300, 'dps')!;
    expect(sw.referenceWarning).toBeUndefined();
    expect(sw.weights[1]!.normalised).toBeCloseTo(-1 / 3, 12);
    expect(sw.pawn).toContain('  Strength=3.00, HasteRating=-1.00 )');
    expectPawnSignsOfTable(sw);
  });
});

describe("the default +300 points against simc's own step for the character's level", () => {
  it('says nothing at level 90 (simc steps 154 points there), without a level, or with --amount', () => {
    expect(amountNote(90, 300, false)).toBeUndefined();
    expect(amountNote(null, 300, false)).toBeUndefined();
    expect(amountNote(100, 300, true)).toBeUndefined();
  });

  it('says so above level 90 (the step grows past 154) and below it (300 is the larger step)', () => {
    expect(amountNote(95, 300, false)).toMatch(
      /^Level 95: simc's own scale-factor step .* is 154 points at level 90 and grows .* \+300 points may be small/,
    );
    expect(amountNote(80, 300, false)).toMatch(/^Level 80: .* \+300 points is a larger step than simc's/);
  });

  it('reads the level from the profile', () => {
    expect(readCharacter('mage="Frosty"\nspec=frost\nlevel=80\n', 'a.simc').level).toBe(80);
    expect(readCharacter('mage="Frosty"\nspec=frost\n', 'a.simc').level).toBeNull();
  });
});
