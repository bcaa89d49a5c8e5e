/**
 * Which drops a character can use, as Raidbots' Droptimizer decides it (docs/droptimizer.md, "What is simmed"):
 * armour of its class's type, items that carry its spec's primary stat, trinkets the game's Encounter Journal lets
 * its spec loot, weapons its class can wield. simc itself checks none of this (a hybrid item's stats turn into the
 * spec's own, and a plate shoulder on a Hunter sims fine), so a run that did not filter would rank drops the player
 * can never wear. `--all-items` keeps everything.
 */
import type { AddonExport } from '../addon/export.js';
import {
  classFacts,
  dualWieldsTwoHanders,
  specFacts,
  type ArmorType,
  type PrimaryStat,
  type Role,
  type WeaponType,
} from '../game/specs.js';
import { noun } from '../../util/plural.js';
import type { CatalogItem } from './catalog.js';
import type { Drop } from './sources.js';

/** What the filter knows of a character; null fields are unknown (then nothing is left out on their account). */
export interface Wearer {
  className: string;
  spec: string | null;
  armor: ArmorType | null;
  primary: PrimaryStat | null;
  role: Role | null;
  weapons: readonly WeaponType[] | null;
  /** Fury: a two-hander in each hand. */
  twoHandersInBothHands: boolean;
}

export function wearerOf(exp: Pick<AddonExport, 'className' | 'spec'>): Wearer {
  const cls = classFacts(exp.className);
  const spec = specFacts(exp.className, exp.spec);
  return {
    className: cls?.className ?? exp.className,
    spec: spec?.spec ?? exp.spec,
    armor: cls?.armor ?? null,
    primary: spec?.primary ?? null,
    role: spec?.role ?? null,
    weapons: cls?.weapons ?? null,
    twoHandersInBothHands: dualWieldsTwoHanders(exp.className, exp.spec),
  };
}

export type Unusable = 'armor' | 'stat' | 'trinket' | 'weapon';

/** Why the character cannot use the item, or null when it can (or when a fact to tell is missing). */
function unusable(w: Wearer, item: CatalogItem): Unusable | null {
  if (item.armor && w.armor && item.armor !== w.armor) return 'armor';
  if (item.slot === 'trinket' && item.for) {
    if (item.for.specs && w.spec) return item.for.specs.includes(`${w.className}/${w.spec}`) ? null : 'trinket';
    if (w.primary && w.role)
      return item.for.stats.includes(w.primary) && item.for.roles.includes(w.role) ? null : 'trinket';
    return null;
  }
  if (item.weaponType && w.weapons && !w.weapons.includes(item.weaponType)) return 'weapon';
  // Necks and rings carry no primary stat (an empty list): any character can wear them.
  if (item.stats?.length && w.primary && !item.stats.includes(w.primary)) return 'stat';
  return null;
}

export interface Usable {
  drops: Drop[];
  /** Items (not profilesets) left out, by reason. */
  left: Record<Unusable, number>;
  /** Items kept because the catalog gives no fact to judge them by (a catalog without the facts fields). */
  unjudged: number;
}

const PHRASES: Record<Unusable, [one: string, rest: string]> = {
  armor: ['item', 'of other armour types'],
  stat: ['item', 'without your primary stat'],
  trinket: ['trinket', 'for other stats or roles'],
  weapon: ['weapon', 'your class cannot wield'],
};

/** The drops a character can use; with `all`, every drop (and nothing is counted as left out). */
export function usableDrops(exp: Pick<AddonExport, 'className' | 'spec'>, drops: readonly Drop[], all = false): Usable {
  const left: Record<Unusable, number> = { armor: 0, stat: 0, trinket: 0, weapon: 0 };
  const counted = new Set<number>();
  let unjudged = 0;
  const w = wearerOf(exp);
  const kept: Drop[] = [];
  for (const drop of drops) {
    const why = all ? null : unusable(w, drop.item);
    const first = !counted.has(drop.item.id);
    counted.add(drop.item.id);
    if (why) {
      if (first) left[why]++;
      continue;
    }
    if (first && !all && !judged(drop.item)) unjudged++;
    kept.push(drop);
  }
  return { drops: kept, left, unjudged };
}

function judged(item: CatalogItem): boolean {
  if (item.slot === 'trinket') return item.for !== undefined;
  if (['one_hand', 'two_hand', 'off_hand'].includes(item.slot)) return item.weaponType !== undefined;
  return item.armor !== undefined && item.stats !== undefined;
}

/**
 * The one line that says what the class filter left out and how to get it back, or undefined when it left out
 * nothing: "left out: 33 items of other armour types, 11 trinkets for other stats or roles; --all-items sims them too".
 */
export function leftOutLine(u: Usable, w: Wearer): string | undefined {
  const parts = (Object.keys(PHRASES) as Unusable[])
    .filter((k) => u.left[k] > 0)
    .map((k) => `${u.left[k]} ${noun(u.left[k], PHRASES[k][0])} ${PHRASES[k][1]}`);
  const kept = u.unjudged
    ? `; kept ${u.unjudged} ${noun(u.unjudged, 'item')} the catalog gives no armour, stat or trinket facts for`
    : '';
  if (parts.length === 0) {
    if (w.armor === null || w.primary === null)
      return `class or spec not known to simjob (${[w.className, w.spec].filter(Boolean).join(' ')}): every drop is simmed`;
    return kept ? kept.slice(2) : undefined;
  }
  return `left out: ${parts.join(', ')}; --all-items sims them too${kept}`;
}
