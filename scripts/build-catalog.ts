#!/usr/bin/env node
/**
 * Build simjob's droptimizer catalog (src/domain/droptimizer/catalog.ts) from the pybots-format catalog, mending its known
 * defects (test/fixtures/droptimizer/README.md), and write it with the licence and a NOTICE of what changed.
 *
 * Usage: node scripts/tsrun.mjs scripts/build-catalog.ts [FIXTURE_DIR] [OUT_DIR]
 *   (defaults: test/fixtures/droptimizer, data/catalog) — or `npm run catalog`.
 *
 * What it does to each item (the rules the tests check independently):
 * - a drop's bonus ids are <track rank bonus>/<difficulty marker>[/<socket bonus>]: the union's tertiary stats
 *   (40-43) and the ids no public profile confirms are dropped;
 * - a raid boss drops at the rank `encounterStartRank` gives it (pybots gives every boss rank 1); Rotmire drops at
 *   its fixed item level; four Midnight Falls items whose lists were only [41] get the boss's track like the rest;
 * - Mythic+ and the Great Vault get one source per keystone bracket of the model (pybots has two coarse brackets);
 *   where the model (another tool's table) and pybots' game data disagree (+6 end of run), the game data wins;
 * - only rings and necks keep the socket bonus (the pybots union puts it on every item);
 * - instance and encounter ids come from the instances table; "Gaze of the Alnseer" is "Gaze of the All-Seer";
 * - who can use each item (item-facts-midnight-s1.json, each fact with its source): armour type, the primary stats
 *   it carries (armour: its type's hybrid stats; cloaks all three; necks and rings none), a trinket's specs from the
 *   game's Encounter Journal loot filter. The source has no weapons, so the catalog has none.
 */
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import {
  CATALOG_FORMAT,
  catalogSchema,
  type Catalog,
  type CatalogItem,
  type Difficulty,
  type ItemBuild,
  type ItemSlot,
  type ItemSource,
} from '../src/domain/droptimizer/catalog.js';
import { DIFFICULTIES } from '../src/domain/droptimizer/choices.js';
import { specFacts, type ArmorType, type PrimaryStat, type Role } from '../src/domain/game/specs.js';

const root = resolve(import.meta.dirname, '..');
const fixtures = resolve(process.argv[2] ?? join(root, 'test', 'fixtures', 'droptimizer'));
const outDir = resolve(process.argv[3] ?? join(root, 'data', 'catalog'));
const read = (name: string) => JSON.parse(readFileSync(join(fixtures, name), 'utf8'));

interface PybotsSource {
  category: 'raid' | 'mythicplus' | 'vault';
  label: string;
  difficulty: string;
  bonus_ids_base: number[];
}
interface PybotsItem {
  id: number;
  name: string;
  slot: string;
  sources: PybotsSource[];
}
const pybots = read('pybots-midnight-s1-catalog.json') as { items: PybotsItem[] };
const model = read('difficulty_bonus_model.json');
const instancesTable = read('instances-midnight-s1.json') as {
  raids: Array<{ name: string; journalInstanceId: number; encounters: Array<{ id: number; name: string }> }>;
  dungeons: Array<{ name: string; journalInstanceId?: number }>;
};
const season = model.seasons['midnight-s1'];
const markers: Record<Difficulty, number> = model.difficultyMarkers.raid;
const MYTHIC_PLUS_MARKER: number = model.difficultyMarkers.mythicPlusAndVault;
const SOCKET: number = model.socketBonus.bonusId;

/**
 * Item level of each rank: every S1 track climbs +4 +3 +3 +3 +4 from its first rank (the same ranks the sortbek
 * export in test/fixtures/addon shows: Champion 246/250/253/263, Hero 266/269/276, Myth 285/289, Veteran 237).
 */
const FIRST_LEVEL: Record<string, number> = { Veteran: 233, Champion: 246, Hero: 259, Myth: 272 };
const RANK_STEPS = [0, 4, 7, 10, 13, 17];

function rankBuild(track: string, rank: number, marker: number, socket: boolean): ItemBuild {
  const ladder = season.tracks[track] as Array<{ rank: number; bonusId: number }> | undefined;
  const step = ladder?.find((r) => r.rank === rank);
  if (!step) throw new Error(`no rank ${rank} on track ${track}`);
  const bonusIds = [step.bonusId, marker, ...(socket ? [SOCKET] : [])].sort((a, b) => a - b);
  return { bonusIds, track, rank, itemLevel: FIRST_LEVEL[track]! + RANK_STEPS[rank - 1]! };
}

const NAME_FIXES: Record<string, string> = { 'Gaze of the Alnseer': 'Gaze of the All-Seer' };
const SLOT_OF: Record<string, ItemSlot> = {
  head: 'head',
  neck: 'neck',
  shoulder: 'shoulder',
  back: 'back',
  chest: 'chest',
  wrist: 'wrist',
  hands: 'hands',
  waist: 'waist',
  legs: 'legs',
  feet: 'feet',
  finger1: 'finger',
  trinket1: 'trinket',
};
const SOCKETED = new Set<ItemSlot>(['neck', 'finger']);

/** "Windrunner Spire — The Restless Heart (End of Run, +0-5)" → dungeon and boss; "Vorasius (Heroic)" → boss. */
function placeOf(label: string): { dungeon?: string; boss: string } {
  const bare = label.replace(/ \([^()]*\)$/, '');
  const parts = bare.split(' — ');
  return parts.length === 2 ? { dungeon: parts[0]!, boss: parts[1]! } : { boss: bare };
}

function raidSources(encounterId: number, socket: boolean): ItemSource[] {
  const fixed = season.fixedDifficultyEncounters[String(encounterId)];
  const startRank: number = season.encounterStartRank[String(encounterId)] ?? 1;
  return DIFFICULTIES.map((difficulty) => {
    if (fixed) {
      const built: ItemBuild = {
        bonusIds: [markers[difficulty], fixed[difficulty].bonusId, ...(socket ? [SOCKET] : [])].sort((a, b) => a - b),
        itemLevel: fixed[difficulty].itemLevel,
      };
      return { kind: 'raid', difficulty, dropped: built, upgraded: built };
    }
    const track: string = model.raidDifficultyTrack[difficulty];
    return {
      kind: 'raid',
      difficulty,
      dropped: rankBuild(track, startRank, markers[difficulty], socket),
      upgraded: rankBuild(track, 6, markers[difficulty], socket),
    };
  });
}

/** Keystone brackets: the model's key → (track, rank) tables folded into runs of equal rewards. */
function brackets(
  table: Record<string, [string, number]>,
): Array<{ min: number; max: number | null; track: string; rank: number }> {
  const rows: Array<{ level: number; track: string; rank: number }> = [];
  for (const [key, [track, rank]] of Object.entries(table)) {
    if (key === 'heroic') continue; // heroic dungeons have no keystone
    const m = /^\+?(\d+)(?:-(\d+))?$/.exec(key.replace('mythic0', '0'));
    if (!m) throw new Error(`keystone key ${key}`);
    for (let level = Number(m[1]); level <= Number(m[2] ?? m[1]); level++) rows.push({ level, track, rank });
  }
  rows.sort((a, b) => a.level - b.level);
  const out: Array<{ min: number; max: number | null; track: string; rank: number }> = [];
  for (const row of rows) {
    const last = out.at(-1);
    if (last && last.track === row.track && last.rank === row.rank) last.max = row.level;
    else out.push({ min: row.level, max: row.level, track: row.track, rank: row.rank });
  }
  out.at(-1)!.max = null; // rewards stop rising at the last level the table names
  return out;
}
/** The track and rank a pybots bonus list builds (its one track-rank bonus id), from the model's ladders. */
function trackRankOf(bonusIds: readonly number[]): [string, number] {
  for (const [track, ladder] of Object.entries(
    season.tracks as Record<string, Array<{ rank: number; bonusId: number }>>,
  ))
    for (const step of ladder) if (bonusIds.includes(step.bonusId)) return [track, step.rank];
  throw new Error(`no track rank bonus in ${bonusIds.join('/')}`);
}

/*
 * The model's end-of-run table follows another tool (SimHammer), which gives +6 Champion 5/6 (256). pybots' catalog
 * is built from the game's bonus trees and drops a +6 end-of-run item with 12793, Hero 1/6 (259), as two more
 * public key tables do (test/fixtures/droptimizer/README.md): the game data wins.
 */
const gameDataPlusSix = pybots.items
  .flatMap((i) => i.sources)
  .find((s) => s.category === 'mythicplus' && s.difficulty === '+6');
if (!gameDataPlusSix) throw new Error('pybots has no +6 end-of-run source');
const endOfRunTable: Record<string, [string, number]> = {
  ...season.mythicPlus.endOfRun,
  '+6': trackRankOf(gameDataPlusSix.bonus_ids_base),
};
// The end-of-run table starts at Mythic 0; a +1 key does not exist, so Mythic 0's bracket covers it.
const END_OF_RUN = brackets(endOfRunTable).map((b, i) => (i === 0 ? { ...b, max: Math.max(b.max ?? 1, 1) } : b));
// The model's vault table starts at +7; below it, pybots' game-data bracket (+0-9 gives Hero 1) is all there is.
const VAULT = [{ min: 0, max: 6, track: 'Hero', rank: 1 }, ...brackets(season.mythicPlus.vault)];

function mythicPlusSources(socket: boolean): ItemSource[] {
  const make =
    (kind: 'endOfRun' | 'vault') =>
    (b: (typeof VAULT)[number]): ItemSource => ({
      kind,
      keystone: { min: b.min, max: b.max },
      dropped: rankBuild(b.track, b.rank, MYTHIC_PLUS_MARKER, socket),
      upgraded: rankBuild(b.track, 6, MYTHIC_PLUS_MARKER, socket),
    });
  return [...END_OF_RUN.map(make('endOfRun')), ...VAULT.map(make('vault'))];
}

interface ItemFactsFile {
  journalClasses: Array<[className: string, specs: string[]]>;
  items: Record<string, { armor?: ArmorType; journal?: string; sources: string[] }>;
}
const facts = read('item-facts-midnight-s1.json') as ItemFactsFile;
const ARMOR_SLOTS = new Set<ItemSlot>(['head', 'shoulder', 'chest', 'wrist', 'hands', 'waist', 'legs', 'feet']);
/** The game's hybrid armour stats: every armour piece carries its type's wearers' primary stats. */
const ARMOR_STATS: Record<ArmorType, PrimaryStat[]> = {
  cloth: ['intellect'],
  leather: ['agility', 'intellect'],
  mail: ['agility', 'intellect'],
  plate: ['strength', 'intellect'],
};
const STAT_ORDER: PrimaryStat[] = ['strength', 'agility', 'intellect'];
const ROLE_ORDER: Role[] = ['tank', 'healer', 'damage'];

/** A journal flag (13 hex digits, class 13 first) as the specs it lets loot the trinket, and their stats and roles. */
function trinketFor(flag: string): NonNullable<CatalogItem['for']> {
  if (!/^[0-9A-F]{13}$/.test(flag)) throw new Error(`journal flag ${flag}`);
  const specs: string[] = [];
  facts.journalClasses.forEach(([className, order], index) => {
    const digit = parseInt(flag[flag.length - 1 - index]!, 16);
    order.forEach((spec, bit) => {
      if (digit & (1 << bit)) specs.push(`${className}/${spec}`);
    });
  });
  const known = specs.map((key) => {
    const [className, spec] = key.split('/') as [string, string];
    const found = specFacts(className, spec);
    if (!found) throw new Error(`journal spec ${key} is not in src/domain/game/specs.ts`);
    return found;
  });
  return {
    stats: STAT_ORDER.filter((s) => known.some((k) => k.primary === s)),
    roles: ROLE_ORDER.filter((r) => known.some((k) => k.role === r)),
    specs,
  };
}

/** Who can use an item: from the facts file where the slot leaves it open, else from the slot. */
function usability(raw: PybotsItem, slot: ItemSlot): Pick<CatalogItem, 'armor' | 'stats' | 'for'> {
  const fact = facts.items[String(raw.id)];
  if (ARMOR_SLOTS.has(slot)) {
    if (!fact?.armor) throw new Error(`item ${raw.id} ${raw.name}: no armour type in item-facts-midnight-s1.json`);
    return { armor: fact.armor, stats: ARMOR_STATS[fact.armor] };
  }
  if (slot === 'trinket') {
    if (!fact?.journal) throw new Error(`item ${raw.id} ${raw.name}: no journal flag in item-facts-midnight-s1.json`);
    const who = trinketFor(fact.journal);
    return { armor: null, stats: who.stats, for: who };
  }
  if (slot === 'back') return { armor: null, stats: [...STAT_ORDER] };
  return { armor: null, stats: [] }; // necks and rings carry no primary stat
}

const catalog: Catalog = {
  format: CATALOG_FORMAT,
  season: 'midnight-s1',
  title: 'Midnight Season 1',
  notice:
    'Built by simjob from scatari69/pybots app/data/droptimizer_catalog.json @1a64943 (Apache-2.0), ' +
    'mended, with who can use each item from public game facts; see NOTICE.',
  instances: [],
};
const raidEncounters = new Map<string, { instance: string; id: number }>();
for (const raid of instancesTable.raids) {
  catalog.instances.push({
    id: raid.journalInstanceId,
    name: raid.name,
    kind: 'raid',
    encounters: raid.encounters.map((e) => ({ id: e.id, name: e.name, items: [] })),
  });
  for (const e of raid.encounters) raidEncounters.set(e.name, { instance: raid.name, id: e.id });
}
for (const dungeon of instancesTable.dungeons) {
  catalog.instances.push({
    id: dungeon.journalInstanceId ?? null,
    name: dungeon.name,
    kind: 'dungeon',
    encounters: [],
  });
}

for (const raw of pybots.items) {
  const slot = SLOT_OF[raw.slot];
  if (!slot) throw new Error(`item ${raw.id}: slot ${raw.slot}`);
  const socket = SOCKETED.has(slot);
  const place = placeOf(raw.sources[0]!.label);
  const base = { id: raw.id, name: NAME_FIXES[raw.name] ?? raw.name, slot, socket, ...usability(raw, slot) };
  let item: CatalogItem;
  let instanceName: string;
  if (place.dungeon) {
    instanceName = place.dungeon;
    item = { ...base, sources: mythicPlusSources(socket) };
  } else {
    const encounter = raidEncounters.get(place.boss);
    if (!encounter) throw new Error(`item ${raw.id}: boss ${place.boss} is in no raid`);
    instanceName = encounter.instance;
    item = { ...base, sources: raidSources(encounter.id, socket) };
  }
  const instance = catalog.instances.find((i) => i.name === instanceName);
  if (!instance) throw new Error(`item ${raw.id}: instance ${instanceName}`);
  let encounter = instance.encounters.find((e) => e.name === place.boss);
  if (!encounter) instance.encounters.push((encounter = { id: null, name: place.boss, items: [] }));
  encounter.items.push(item);
}

const checked = catalogSchema.parse(catalog);
mkdirSync(outDir, { recursive: true });
writeFileSync(join(outDir, 'midnight-s1.json'), `${JSON.stringify(checked)}\n`);
copyFileSync(join(fixtures, 'LICENSE-pybots-Apache-2.0'), join(outDir, 'LICENSE-pybots-Apache-2.0'));
const items = checked.instances.flatMap((i) => i.encounters.flatMap((e) => e.items)).length;
console.log(`Wrote ${join(outDir, 'midnight-s1.json')}: ${checked.instances.length} instances, ${items} items.`);
