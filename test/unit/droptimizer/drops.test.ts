/**
 * The droptimizer's drops and profilesets on the shipped catalog. Every generated item line is checked against the
 * bonus-id model (test/fixtures/droptimizer/difficulty_bonus_model.json) worked out here on its own: the difficulty
 * marker, the track and rank the boss or keystone gives, no tertiary or unconfirmed ids, and the socket bonus only
 * where the catalog gives the item a socket.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseAddonExport, type AddonExport } from '../../../src/domain/addon/export.js';
import { parseCatalog, type Catalog } from '../../../src/domain/droptimizer/catalog.js';
import { shippedCatalogPath } from '../../../src/core/catalog/load.js';
import { planDrops, type PlannedSet } from '../../../src/domain/droptimizer/plan.js';
import { SelectionError, selectDrops, type SelectOptions } from '../../../src/domain/droptimizer/sources.js';
import { parseDropName } from '../../../src/domain/droptimizer/analysis.js';
import { REPO_ROOT } from '../../helpers/shared.js';
import { tinyCatalog } from '../../helpers/tiny-catalog.js';

const FIXTURES = resolve(REPO_ROOT, 'test', 'fixtures');
const readJson = (path: string) => JSON.parse(readFileSync(resolve(FIXTURES, path), 'utf8'));
const model = readJson('droptimizer/difficulty_bonus_model.json');
const instancesTable = readJson('droptimizer/instances-midnight-s1.json');
const S1 = model.seasons['midnight-s1'];
const exportOf = (name: string): AddonExport =>
  parseAddonExport(readFileSync(resolve(FIXTURES, 'addon', name), 'utf8'));
const FURY = exportOf('fury-bags-vault.txt');
const HUNTER = exportOf('topgear-high-spread-sortbek-bm-gear.simc');
const PRIEST = exportOf('real/priest-holy-1.txt'); // Holy: a one-hander and an off-hand
const catalog: Catalog = parseCatalog(readFileSync(shippedCatalogPath(), 'utf8'), 'shipped');

/** Boss name → encounter id, from the instances table (the catalog's own ids are not trusted here). */
const encounterIds = new Map<string, number>(
  instancesTable.raids.flatMap((r: { encounters: Array<{ id: number; name: string }> }) =>
    r.encounters.map((e) => [e.name, e.id]),
  ),
);
const rankBonus = (track: string, rank: number): number =>
  S1.tracks[track].find((r: { rank: number }) => r.rank === rank).bonusId;
const ALL_TRACK_BONUSES = new Set<number>(
  Object.values(S1.tracks)
    .flat()
    .map((r) => (r as { bonusId: number }).bonusId),
);

/** What the model says the bonus ids of a set are: marker, track rank (or Rotmire's fixed bonus), socket. */
function expectedBonuses(set: PlannedSet, options: SelectOptions): { marker: number; level: number; socket: boolean } {
  const { drop } = set;
  const socket = drop.item.socket;
  if (drop.instance.kind === 'raid') {
    const difficulty = options.difficulty ?? 'heroic';
    const marker = model.difficultyMarkers.raid[difficulty];
    const encounter = encounterIds.get(drop.encounter.name)!;
    const fixed = S1.fixedDifficultyEncounters[String(encounter)];
    if (fixed) return { marker, level: fixed[difficulty].bonusId, socket };
    const rank = options.upgraded ? 6 : (S1.encounterStartRank[String(encounter)] ?? 1);
    return { marker, level: rankBonus(model.raidDifficultyTrack[difficulty], rank), socket };
  }
  const key = options.keystone ?? 10;
  const table = options.source === 'vault' ? S1.mythicPlus.vault : S1.mythicPlus.endOfRun;
  let reward: [string, number];
  if (options.source === 'vault') reward = key >= 10 ? table['+10-13'] : key >= 7 ? table['+7-9'] : ['Hero', 1];
  else if (key === 6) reward = [PLUS_SIX[0], PLUS_SIX[1]];
  else reward = key <= 1 ? table.mythic0 : table[`+${Math.min(key, 10)}`];
  return {
    marker: model.difficultyMarkers.mythicPlusAndVault,
    level: rankBonus(reward[0], options.upgraded ? 6 : reward[1]),
    socket,
  };
}

/*
 * +6 end of run: the model's table follows another tool (Champion 5/6); pybots' catalog is the game's bonus tree and
 * builds the +6 item with its own rank bonus, which decides (docs/droptimizer.md, "Keystone levels").
 */
const pybots = readJson('droptimizer/pybots-midnight-s1-catalog.json');
const plusSixBonuses: number[] = pybots.items
  .flatMap((i: { sources: Array<{ difficulty: string; category: string }> }) => i.sources)
  .find(
    (s: { difficulty: string; category: string }) => s.category === 'mythicplus' && s.difficulty === '+6',
  ).bonus_ids_base;
const PLUS_SIX = Object.entries(S1.tracks as Record<string, Array<{ rank: number; bonusId: number }>>)
  .flatMap(([track, ladder]) => ladder.map((r) => [track, r.rank, r.bonusId] as const))
  .find(([, , id]) => plusSixBonuses.includes(id))!;

const bonusIdsOf = (set: PlannedSet) => (/,bonus_id=([\d/]+)/.exec(set.options)?.[1] ?? '').split('/').map(Number);

const MODES: SelectOptions[] = [
  ...(['lfr', 'normal', 'heroic', 'mythic'] as const).flatMap((difficulty) => [
    { difficulty },
    { difficulty, upgraded: true },
  ]),
  ...[0, 2, 4, 5, 6, 7, 8, 10, 15].map((keystone) => ({ source: 'dungeons' as const, keystone })),
  ...[2, 7, 9, 10, 12].map((keystone) => ({ source: 'vault' as const, keystone })),
  { source: 'dungeons', keystone: 10, upgraded: true },
];

describe('the shipped catalog', () => {
  it('holds the 150 items of the source in 4 raids (10 bosses) and 4 dungeons, each item once', () => {
    const items = catalog.instances.flatMap((i) => i.encounters.flatMap((e) => e.items));
    expect(items).toHaveLength(150);
    expect(new Set(items.map((i) => i.id)).size).toBe(150);
    expect(catalog.instances.filter((i) => i.kind === 'raid').flatMap((i) => i.encounters)).toHaveLength(10);
    expect(catalog.instances.filter((i) => i.kind === 'dungeon').map((i) => i.name)).toEqual([
      'Windrunner Spire',
      "Magisters' Terrace",
      'Maisara Caverns',
      'Nexus-Point Xenas',
    ]);
    expect(items.find((i) => i.id === 249343)?.name).toBe('Gaze of the All-Seer');
    // sockets only on jewellery, as simc's profiles show them
    for (const item of items) expect(item.socket, item.name).toBe(item.slot === 'neck' || item.slot === 'finger');
  });
});

describe('every item line a run makes, against the bonus-id model', () => {
  it.each(MODES.map((m) => [JSON.stringify(m), m] as const))('%s', (_, options) => {
    for (const exp of [FURY, HUNTER]) {
      const { drops } = selectDrops(catalog, options);
      const plan = planDrops(exp, drops);
      expect(plan.sets.length).toBeGreaterThan(0);
      for (const set of plan.sets) {
        const ids = bonusIdsOf(set);
        const want = expectedBonuses(set, options);
        const expected = [want.marker, want.level, ...(want.socket ? [model.socketBonus.bonusId] : [])].sort(
          (a, b) => a - b,
        );
        expect(ids, set.name).toEqual(expected);
        expect(
          ids.filter((id) => id >= 40 && id <= 43),
          set.name,
        ).toEqual([]);
        expect(ids.filter((id) => ALL_TRACK_BONUSES.has(id)).length, set.name).toBeLessThanOrEqual(1);
        expect(new RegExp(`^,id=${set.drop.item.id},bonus_id=`).test(set.options), set.name).toBe(true);
      }
    }
  });

  it('gives the item level of Myth 6/6 (289) as simc profiles do, and Myth 1/6 (272) to the first boss', () => {
    const mythic = selectDrops(catalog, { instances: ['The Voidspire'], difficulty: 'mythic', upgraded: true });
    const guidon = planDrops(FURY, mythic.drops).sets.find((s) => s.slot === 'trinket1' && s.drop.item.id === 249344);
    expect(guidon?.name).toBe('Light Company Guidon (289) from Imperator Averzian in trinket1');
    expect(guidon?.options).toBe(',id=249344,bonus_id=12806/13335');
    const dropped = selectDrops(catalog, { instances: ['the voidspire'], difficulty: 'mythic' });
    expect(planDrops(FURY, dropped.drops).sets.find((s) => s.drop.item.id === 249344)?.name).toBe(
      'Light Company Guidon (272) from Imperator Averzian in trinket1',
    );
  });
});

describe('the profilesets of a character (every drop: --all-items)', () => {
  const { drops } = selectDrops(catalog, { difficulty: 'mythic' });
  const plan = planDrops(FURY, drops, { allItems: true });
  const slotsOf = (id: number) => plan.sets.filter((s) => s.drop.item.id === id).map((s) => s.slot);

  it('counts one per single-slot drop and two per ring and trinket, less those beside a worn copy', () => {
    const kinds = drops.map((d) => d.item.slot);
    const pairs = kinds.filter((k) => k === 'finger' || k === 'trinket').length;
    const singles = kinds.length - pairs;
    // worn: Gaze of the All-Seer in trinket1, Heart of Ancient Hunger in trinket2, Eye of Midnight in finger2
    expect(slotsOf(249343)).toEqual(['trinket1']);
    expect(slotsOf(249342)).toEqual(['trinket2']);
    expect(slotsOf(249920)).toEqual(['finger2']);
    expect(plan.sets).toHaveLength(singles + 2 * pairs - 3);
    expect(plan.sets.filter((s) => s.slot === 'trinket1')).toHaveLength(
      kinds.filter((k) => k === 'trinket').length - 1,
    );
    expect(plan.sets.filter((s) => s.slot === 'finger1')).toHaveLength(kinds.filter((k) => k === 'finger').length - 1);
    expect(plan.sets.filter((s) => s.slot === 'finger2')).toHaveLength(kinds.filter((k) => k === 'finger').length);
    expect(plan.leftOut).toEqual([
      '1 trinket in trinket1 beside a worn copy of the same item',
      '1 trinket in trinket2 beside a worn copy of the same item',
      '1 ring in finger1 beside a worn copy of the same item',
    ]);
    for (const s of plan.sets) expect(new Set(plan.sets.filter((o) => o.name === s.name))).toHaveProperty('size', 1);
  });

  it('carries the worn enchant, and the worn gems only into a drop with a socket', () => {
    const ring = plan.sets.find((s) => s.slot === 'finger1' && s.drop.item.socket)!;
    expect(ring.options).toMatch(/,bonus_id=\d+\/13335\/13668,enchant_id=7967,gem_id=240900$/);
    const helm = plan.sets.find((s) => s.slot === 'head')!;
    expect(helm.options).toMatch(/^,id=\d+,bonus_id=\d+\/13335,enchant_id=8017$/); // the worn helm's gem has no socket to go in
    const trinket = plan.sets.find((s) => s.slot === 'trinket1')!;
    expect(trinket.options).toMatch(/^,id=\d+,bonus_id=\d+\/13335$/);
  });

  it('leaves out a drop identical to the worn item', () => {
    const mythicUp = selectDrops(catalog, { instances: ['The Dreamrift'], difficulty: 'mythic', upgraded: true });
    // Fury wears Gaze of the All-Seer Myth 6/6 (289) in trinket1: the same drop fully upgraded is not a change
    const sets = planDrops(FURY, mythicUp.drops, { allItems: true });
    expect(sets.sets.filter((s) => s.drop.item.id === 249343)).toEqual([]);
    expect(sets.leftOut).toContain('1 drop identical to what is worn');
  });

  it('names say what drops where, and read back', () => {
    for (const s of plan.sets) {
      expect(s.name).toMatch(
        /^.+ \(\d{3}\) from .+ in (head|neck|shoulder|back|chest|wrist|hands|waist|legs|feet|finger[12]|trinket[12])$/,
      );
      expect(parseDropName(s.name)).toEqual({
        item: s.drop.item.name,
        itemLevel: s.drop.build.itemLevel,
        from: s.drop.from,
        slot: s.slot,
      });
    }
  });
});

describe('weapons and off-hands (a catalog of one off-hand and one two-hander)', () => {
  const tiny = parseCatalog(
    tinyCatalog([
      { id: 1001, name: 'Shield', slot: 'off_hand' },
      { id: 1002, name: 'Greataxe', slot: 'two_hand' },
    ]),
    'tiny',
  );
  const { drops } = selectDrops(tiny, {});

  it('an off-hand only when one is worn, a two-hander only when none is', () => {
    expect(planDrops(PRIEST, drops).sets.map((s) => s.name)).toEqual(['Shield from Boss in off_hand']);
    expect(planDrops(HUNTER, drops).sets.map((s) => s.name)).toEqual(['Greataxe from Boss in main_hand']);
  });

  it("Fury wields a two-hander in either hand (Titan's Grip), beside the off-hand it wears", () => {
    expect(planDrops(FURY, drops).sets.map((s) => s.name)).toEqual([
      'Shield from Boss in off_hand',
      'Greataxe from Boss in main_hand',
      'Greataxe from Boss in off_hand',
    ]);
  });
});

describe('choosing the drops', () => {
  const fails = (options: SelectOptions) => {
    try {
      selectDrops(catalog, options);
    } catch (error) {
      expect(error).toBeInstanceOf(SelectionError);
      return (error as Error).message;
    }
    throw new Error('no error');
  };

  it('matches instances without case or apostrophes, and suggests the one meant', () => {
    expect(
      selectDrops(catalog, { instances: ['magisters terrace'] }).drops.every((d) => d.from === "Magisters' Terrace"),
    ).toBe(true);
    expect(fails({ instances: ['Voidspyre'] })).toBe(
      '--instance "Voidspyre" is not in the Midnight Season 1 catalog; did you mean "The Voidspire"?',
    );
    expect(fails({ instances: ['Karazhan'] })).toBe('--instance "Karazhan" is not in the Midnight Season 1 catalog.');
  });

  it('refuses flags that do not fit the instances chosen', () => {
    expect(fails({ instances: ['Windrunner Spire'], source: 'raid' })).toBe(
      '--instance "Windrunner Spire" is a dungeon, but --source is raid.',
    );
    expect(fails({ source: 'dungeons', difficulty: 'mythic' })).toBe(
      '--difficulty chooses a raid difficulty, but no raid is chosen.',
    );
    expect(fails({ keystone: 10 })).toBe('--keystone chooses a Mythic+ level, but no dungeon is chosen.');
  });

  it('a dungeon alone means its end-of-run drops', () => {
    expect(selectDrops(catalog, { instances: ['Windrunner Spire'] }).description).toBe(
      'Windrunner Spire (end of run +10, as dropped)',
    );
  });
});
