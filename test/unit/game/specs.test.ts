/**
 * The game facts table held to simc's own MID1 profiles (test/fixtures/simc/profiles/MID1, sources in
 * test/fixtures/simc/SOURCES.md): every profile's class and spec is in the table, and the primary stat simc
 * summarises for its gear (`# gear_strength=` / `gear_agility=` / `gear_intellect=`) is the spec's primary stat.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  ALL_CLASSES,
  CLASS_TOKENS,
  classFacts,
  dualWieldsTwoHanders,
  specFacts,
  type PrimaryStat,
} from '../../../src/domain/game/specs.js';
import { SIMC_CLASSES } from '../../../src/domain/profile/classes.js';
import { FIXTURES_DIR } from '../../helpers/shared.js';

const MID1_DIR = join(FIXTURES_DIR, 'profiles', 'MID1');

interface ProfileFacts {
  file: string;
  className: string;
  spec: string;
  gear: Partial<Record<PrimaryStat, number>>;
}

function readProfile(file: string): ProfileFacts {
  const text = readFileSync(join(MID1_DIR, file), 'utf8');
  const classLine = text.split('\n').find((l) => /^[a-z]+="/.test(l));
  const className = classLine?.slice(0, classLine.indexOf('=')) ?? '';
  const spec = /^spec=(\S+)$/m.exec(text)?.[1] ?? '';
  const gear: ProfileFacts['gear'] = {};
  for (const stat of ['strength', 'agility', 'intellect'] as const) {
    const m = new RegExp(`^# gear_${stat}=(\\d+)$`, 'm').exec(text);
    if (m) gear[stat] = Number(m[1]);
  }
  return { file, className, spec, gear };
}

const profiles = readdirSync(MID1_DIR)
  .filter((f) => f.endsWith('.simc'))
  .sort()
  .map(readProfile);

/**
 * simc ships no MID1 profile for these specs (profiles/MID1 in simulationcraft/simc has healers and Augmentation
 * nowhere), so the table's facts for them rest on the class modules alone.
 */
const SPECS_WITHOUT_MID1_PROFILE = [
  'druid/restoration',
  'evoker/augmentation',
  'evoker/preservation',
  'monk/mistweaver',
  'paladin/holy',
  'priest/discipline',
  'priest/holy',
  'shaman/restoration',
];

describe('game facts: classes and specs', () => {
  it('has every class simc declares, each spelt as simc, a label or snake case would spell it', () => {
    expect(CLASS_TOKENS).toEqual([
      'deathknight',
      'demonhunter',
      'druid',
      'evoker',
      'hunter',
      'mage',
      'monk',
      'paladin',
      'priest',
      'rogue',
      'shaman',
      'warlock',
      'warrior',
    ]);
    expect(SIMC_CLASSES).toEqual(CLASS_TOKENS);
    for (const name of ['deathknight', 'Death Knight', 'death_knight', 'DEATH-KNIGHT']) {
      expect(classFacts(name)?.className).toBe('deathknight');
    }
    expect(classFacts('bard')).toBeUndefined();
  });

  it('has 40 specs, Devourer an Intellect damage spec of the Demon Hunter', () => {
    expect(ALL_CLASSES.flatMap((c) => c.specs)).toHaveLength(40);
    expect(classFacts('demonhunter')?.specs.map((s) => s.spec)).toEqual(['havoc', 'vengeance', 'devourer']);
    expect(specFacts('Demon Hunter', 'devourer')).toMatchObject({ primary: 'intellect', role: 'damage' });
    expect(specFacts('demonhunter', 'havoc')?.primary).toBe('agility');
    expect(classFacts('evoker')?.specs.map((s) => s.spec)).toEqual(['devastation', 'preservation', 'augmentation']);
    expect(specFacts('hunter', 'Beast Mastery')?.spec).toBe('beast_mastery');
    expect(specFacts('hunter', null)).toBeUndefined();
    expect(specFacts('hunter', 'fury')).toBeUndefined();
  });

  it('gives each class its armour type and the weapons it wields', () => {
    const armor = Object.fromEntries(ALL_CLASSES.map((c) => [c.className, c.armor]));
    expect(armor).toMatchObject({ warrior: 'plate', hunter: 'mail', evoker: 'mail', demonhunter: 'leather' });
    expect(armor).toMatchObject({ warlock: 'cloth', monk: 'leather', deathknight: 'plate', shaman: 'mail' });
    expect(classFacts('warlock')?.weapons).not.toContain('mace_2h');
    expect(classFacts('hunter')?.weapons).toContain('bow');
    expect(classFacts('demonhunter')?.weapons).toContain('warglaive');
    expect(classFacts('rogue')?.weapons).not.toContain('sword_2h');
    expect(classFacts('paladin')?.weapons).toContain('shield');
    expect(classFacts('druid')?.weapons).not.toContain('shield');
  });

  it('lets Fury alone wield a two-hander in each hand', () => {
    expect(dualWieldsTwoHanders('warrior', 'fury')).toBe(true);
    expect(dualWieldsTwoHanders('warrior', 'arms')).toBe(false);
    expect(dualWieldsTwoHanders('deathknight', 'frost')).toBe(false);
    expect(dualWieldsTwoHanders('warrior', null)).toBe(false);
  });
});

describe("game facts against simc's MID1 profiles", () => {
  it('reads one profile per spec simc ships, and names the specs it ships none for', () => {
    const covered = new Set(profiles.map((p) => `${p.className}/${p.spec}`));
    expect(profiles.length).toBe(covered.size);
    const all = ALL_CLASSES.flatMap((c) => c.specs.map((s) => `${c.className}/${s.spec}`));
    expect(all.filter((s) => !covered.has(s)).sort()).toEqual(SPECS_WITHOUT_MID1_PROFILE);
    expect(profiles.length).toBe(32);
  });

  it.each(profiles.map((p) => [p.file, p] as const))('%s: class and spec are in the table', (_file, p) => {
    expect(classFacts(p.className), `class ${p.className}`).toBeDefined();
    expect(specFacts(p.className, p.spec), `spec ${p.spec}`).toBeDefined();
  });

  it.each(profiles.map((p) => [p.file, p] as const))(
    "%s: simc's gear summary carries the spec's primary stat, more of it than any other",
    (_file, p) => {
      const primary = specFacts(p.className, p.spec)!.primary;
      const amount = p.gear[primary];
      expect(amount, `gear_${primary}`).toBeGreaterThan(0);
      for (const [stat, other] of Object.entries(p.gear)) {
        if (stat !== primary) expect(other, `gear_${stat} against gear_${primary}`).toBeLessThan(amount!);
      }
    },
  );

  it('finds the Devourer profile geared in Intellect only', () => {
    const devourer = profiles.find((p) => p.spec === 'devourer')!;
    expect(devourer.gear).toEqual({ intellect: 1831 });
  });
});
