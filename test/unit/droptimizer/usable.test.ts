/**
 * Issue 38: droptimizer sims only what the character can use. The catalog's facts are checked against the facts
 * file they are built from, the trinkets' specs against the journal flags decoded here on their own, and the six
 * real exports in test/fixtures/addon/real against a table of their classes' armour and their specs' primary stats
 * written here (not read from src/domain/game): no drop of another armour type, another primary stat or another spec's
 * trinket is simmed without --all-items, and each class gets the count worked out from the fixtures alone.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseAddonExport, type AddonExport } from '../../../src/domain/addon/export.js';
import { parseDropName } from '../../../src/domain/droptimizer/analysis.js';
import { parseCatalog, type Catalog, type CatalogItem } from '../../../src/domain/droptimizer/catalog.js';
import { shippedCatalogPath } from '../../../src/core/catalog/load.js';
import { planDrops } from '../../../src/domain/droptimizer/plan.js';
import { selectDrops, type SelectOptions } from '../../../src/domain/droptimizer/sources.js';
import { headlineOf } from '../../../src/cli/output/views/droptimizer.js';
import { REPO_ROOT } from '../../helpers/shared.js';
import { tinyCatalog } from '../../helpers/tiny-catalog.js';

const FIXTURES = resolve(REPO_ROOT, 'test', 'fixtures');
const facts = JSON.parse(readFileSync(resolve(FIXTURES, 'droptimizer', 'item-facts-midnight-s1.json'), 'utf8')) as {
  journalClasses: Array<[string, string[]]>;
  items: Record<string, { armor?: string; journal?: string }>;
};
const catalog: Catalog = parseCatalog(readFileSync(shippedCatalogPath(), 'utf8'), 'shipped');
const items: CatalogItem[] = catalog.instances.flatMap((i) => i.encounters.flatMap((e) => e.items));
const exportOf = (name: string): AddonExport =>
  parseAddonExport(readFileSync(resolve(FIXTURES, 'addon', 'real', name), 'utf8'));

/** The journal flag's specs: 13 hex digits, the last for class 1; bit n of a digit is the class's spec n+1. */
function journalSpecs(flag: string): Set<string> {
  const specs = new Set<string>();
  facts.journalClasses.forEach(([cls, order], index) => {
    const digit = Number.parseInt(flag.charAt(12 - index), 16);
    order.forEach((spec, bit) => digit & (1 << bit) && specs.add(`${cls}/${spec}`));
  });
  return specs;
}

const ARMOR_SLOTS = ['head', 'shoulder', 'chest', 'wrist', 'hands', 'waist', 'legs', 'feet'];

describe('the shipped catalog has the facts of every item', () => {
  it('all 150 items: an armour type for armour pieces only, the primary stats each carries, who a trinket is for', () => {
    expect(items).toHaveLength(150);
    for (const item of items) {
      const fact = facts.items[String(item.id)];
      expect(item.stats, item.name).toBeDefined();
      if (ARMOR_SLOTS.includes(item.slot)) {
        expect(item.armor, item.name).toBe(fact?.armor);
        // the game's hybrid armour: cloth Int, leather and mail Agi/Int, plate Str/Int
        const hybrid = { cloth: ['intellect'], leather: ['agility', 'intellect'], mail: ['agility', 'intellect'] };
        expect(item.stats, item.name).toEqual(hybrid[item.armor as keyof typeof hybrid] ?? ['strength', 'intellect']);
      } else expect(item.armor, item.name).toBeNull();
      if (item.slot === 'back') expect(item.stats).toEqual(['strength', 'agility', 'intellect']);
      if (item.slot === 'neck' || item.slot === 'finger') expect(item.stats).toEqual([]);
      if (item.slot === 'trinket') {
        expect(new Set(item.for?.specs), item.name).toEqual(journalSpecs(fact!.journal!));
        expect(item.stats).toEqual(item.for?.stats);
      } else expect(item.for).toBeUndefined();
    }
  });

  it('holds the armour types of the facts file: about a quarter each, one of each type per dungeon boss', () => {
    const byType = new Map<string, number>();
    for (const item of items) if (item.armor) byType.set(item.armor, (byType.get(item.armor) ?? 0) + 1);
    expect(Object.fromEntries(byType)).toEqual({ plate: 27, mail: 26, leather: 27, cloth: 24 });
    for (const dungeon of catalog.instances.filter((i) => i.kind === 'dungeon'))
      for (const boss of dungeon.encounters) {
        const types = boss.items.flatMap((i) => (i.armor ? [i.armor] : []));
        expect(new Set(types).size, `${dungeon.name} / ${boss.name}`).toBe(types.length);
      }
  });

  it('says in the trinkets what the Encounter Journal says: tank, healer, strength and intellect ones', () => {
    const forOf = (name: string) => items.find((i) => i.name === name)!.for!;
    expect(forOf('The Eternal Egg')).toMatchObject({ roles: ['tank'], stats: ['strength', 'agility'] });
    expect(forOf('Light of the Cosmic Crescendo')).toMatchObject({ roles: ['healer'], stats: ['intellect'] });
    expect(forOf('Heart of Ancient Hunger').stats).toEqual(['strength']);
    expect(forOf("Vaelgor's Final Stare").stats).toEqual(['intellect']);
    expect(forOf('Gaze of the All-Seer').specs).toHaveLength(40); // every spec of the game
    expect(forOf("Locus-Walker's Ribbon").specs).toContain('demonhunter/devourer'); // an Intellect Demon Hunter
  });
});

/** Armour and primary stat of the six real exports' classes and specs, from the game (not from src/domain/game). */
const REAL: Array<[file: string, className: string, spec: string, armor: string, primary: string]> = [
  ['deathknight-unholy-1.txt', 'deathknight', 'unholy', 'plate', 'strength'],
  ['druid-restoration-1.txt', 'druid', 'restoration', 'leather', 'intellect'],
  ['hunter-marksmanship-1.txt', 'hunter', 'marksmanship', 'mail', 'agility'],
  ['priest-holy-1.txt', 'priest', 'holy', 'cloth', 'intellect'],
  ['shaman-enhancement-1.txt', 'shaman', 'enhancement', 'mail', 'agility'],
  ['warrior-fury-1.txt', 'warrior', 'fury', 'plate', 'strength'],
];
const SOURCES: Array<[string, SelectOptions]> = [
  ['every raid, heroic', {}],
  ['every dungeon, +10', { source: 'dungeons' }],
  ['the Great Vault', { source: 'vault', difficulty: 'mythic', keystone: 12 }],
];

/** Whether a character of this class and spec can use the item, worked out from the facts file alone. */
function canUse(item: CatalogItem, cls: string, spec: string, armor: string, primary: string): boolean {
  const fact = facts.items[String(item.id)];
  if (item.slot === 'trinket') return journalSpecs(fact!.journal!).has(`${cls}/${spec}`);
  if (fact?.armor) return fact.armor === armor;
  return primary !== ''; // cloaks carry every primary stat, necks and rings none: anyone wears them
}

describe('six real exports: only what the character can use is simmed', () => {
  describe.each(REAL)('%s', (file, cls, spec, armor, primary) => {
    const exp = exportOf(file);

    it.each(SOURCES)('%s', (_, options) => {
      expect([exp.className, exp.spec]).toEqual([cls, spec]);
      const { drops } = selectDrops(catalog, options);
      const plan = planDrops(exp, drops);
      for (const set of plan.sets) {
        const item = set.drop.item;
        if (item.armor) expect(item.armor, set.name).toBe(armor);
        if (item.stats?.length) expect(item.stats, set.name).toContain(primary);
        if (item.slot === 'trinket') expect(item.for?.specs, set.name).toContain(`${cls}/${spec}`);
      }
      const usable = new Set(drops.filter((d) => canUse(d.item, cls, spec, armor, primary)).map((d) => d.item.id));
      const planned = new Set(plan.sets.map((s) => s.drop.item.id));
      for (const id of planned) expect(usable.has(id), String(id)).toBe(true);
      // what is usable but not planned is what the character wears already (a worn ring or trinket, or the same item)
      const worn = new Set(Object.values(exp.equipped).map((i) => i?.id));
      for (const id of usable) if (!planned.has(id)) expect(worn.has(id), String(id)).toBe(true);
      const all = planDrops(exp, drops, { allItems: true });
      expect(all.notUsable).toBeUndefined();
      expect(all.items).toBeGreaterThan(plan.items);
      const off = new Set(drops.map((d) => d.item.id)).size - usable.size;
      expect(plan.notUsable).toMatch(
        /^left out: \d+ items? of other armour types(, \d+ trinkets? for other stats or roles)?; --all-items sims them too$/,
      );
      const counted = [...(plan.notUsable ?? '').matchAll(/(\d+) (?:items?|trinkets?)/g)].map((m) => Number(m[1]));
      expect(counted.reduce((a, b) => a + b, 0)).toBe(off);
    });
  });

  it('gives each class its count of items (every raid at heroic; every dungeon at +10)', () => {
    const count = (file: string, options: SelectOptions) =>
      planDrops(exportOf(file), selectDrops(catalog, options).drops).items;
    const table = REAL.map(([file]) => [file, count(file, {}), count(file, { source: 'dungeons' })]);
    expect(table).toEqual([
      ['deathknight-unholy-1.txt', 31, 26],
      ['druid-restoration-1.txt', 31, 26],
      ['hunter-marksmanship-1.txt', 31, 24],
      ['priest-holy-1.txt', 31, 23],
      ['shaman-enhancement-1.txt', 31, 26],
      ['warrior-fury-1.txt', 31, 26],
    ]);
  });

  it("a piece of another type worn today: the drops of the character's own type for that slot", () => {
    // The hunter's wrist swapped for a plate bracer of the catalog (Light's March Bracers)
    const text = readFileSync(resolve(FIXTURES, 'addon', 'real', 'hunter-marksmanship-1.txt'), 'utf8').replace(
      /^wrist=.*$/m,
      'wrist=,id=249326,bonus_id=12793/13334',
    );
    const exp = parseAddonExport(text);
    const wrists = planDrops(exp, selectDrops(catalog, {}).drops).sets.filter((s) => s.slot === 'wrist');
    expect(wrists.map((s) => s.drop.item.armor)).toEqual(['mail']);
    expect(wrists.map((s) => s.drop.item.name)).toEqual(["Fallen King's Cuffs"]);
  });
});

describe('the Great Vault, as the game has it', () => {
  const vault = selectDrops(catalog, { source: 'vault', keystone: 10, difficulty: 'mythic' });

  it('is one pool per row (dungeons at the highest key, the raid at its difficulty), each item once', () => {
    expect(vault.description).toBe('Great Vault (raid at mythic, dungeons at +10, as dropped)');
    expect(new Set(vault.drops.map((d) => d.from))).toEqual(
      new Set(['Great Vault (mythic raid)', 'Great Vault (+10)']),
    );
    for (const pool of ['Great Vault (mythic raid)', 'Great Vault (+10)']) {
      const ids = vault.drops.filter((d) => d.from === pool).map((d) => d.item.id);
      expect(new Set(ids).size, pool).toBe(ids.length);
    }
    const dungeonItems = catalog.instances.filter((i) => i.kind === 'dungeon').flatMap((i) => i.encounters);
    expect(vault.drops.filter((d) => d.from === 'Great Vault (+10)')).toHaveLength(
      dungeonItems.flatMap((e) => e.items).length,
    );
    // +10 in the vault is Myth 1/6 (272), above the +10 end-of-run reward (Hero 3/6, 266)
    for (const d of vault.drops.filter((x) => x.from === 'Great Vault (+10)')) expect(d.build.itemLevel).toBe(272);
  });

  it('names a vault drop as the vault, not a dungeon, and the answer names the best vault pick', () => {
    const exp = exportOf('warrior-fury-1.txt');
    const plan = planDrops(exp, vault.drops);
    for (const s of plan.sets) expect(s.name).toMatch(/^.+ \(\d{3}\) from Great Vault \((\+10|mythic raid)\) in \w+$/);
    const name = plan.sets.find((s) => s.drop.from === 'Great Vault (+10)')!.name;
    expect(parseDropName(name)?.from).toBe('Great Vault (+10)');
    const best = { ...parseDropName(name)!, name, mean: 2, delta: 1, error: 0.1, percent: 1, significant: true };
    expect(headlineOf({ verdict: 'upgrade', best, bySource: [], partial: false })).toMatch(
      /^Best Great Vault pick: .+ from Great Vault \(\+10\) in \w+: \+1\.0 dps/,
    );
  });

  it('named dungeons give the dungeon row alone', () => {
    const one = selectDrops(catalog, { source: 'vault', instances: ['Windrunner Spire'] });
    expect(one.description).toBe('Great Vault of Windrunner Spire (dungeons at +10, as dropped)');
    expect(new Set(one.drops.map((d) => d.from))).toEqual(new Set(['Great Vault (+10)']));
  });
});

describe('weapons, by their type (a catalog that has them)', () => {
  const tiny = parseCatalog(
    tinyCatalog([
      { id: 1, name: 'Greatsword', slot: 'two_hand', weaponType: 'sword_2h', armor: null, stats: ['strength'] },
      { id: 2, name: 'Staff', slot: 'two_hand', weaponType: 'staff', armor: null, stats: ['intellect'] },
      { id: 3, name: 'Wand', slot: 'one_hand', weaponType: 'wand', armor: null, stats: ['intellect'] },
    ]),
    'tiny',
  );
  const { drops } = selectDrops(tiny, {});

  it('a class gets only the weapon types it wields; a wand is not for a warrior', () => {
    const priest = planDrops(exportOf('priest-holy-1.txt'), drops);
    expect(priest.sets.map((s) => s.name)).toEqual(['Wand from Boss in main_hand']); // an off-hand is worn: no staff
    expect(priest.notUsable).toBe('left out: 1 weapon your class cannot wield; --all-items sims them too');
    const fury = planDrops(exportOf('warrior-fury-1.txt'), drops);
    expect(fury.sets.map((s) => s.name)).toEqual([
      'Greatsword from Boss in main_hand',
      'Greatsword from Boss in off_hand',
    ]);
    expect(fury.notUsable).toBe(
      'left out: 1 item without your primary stat, 1 weapon your class cannot wield; --all-items sims them too',
    );
  });
});
