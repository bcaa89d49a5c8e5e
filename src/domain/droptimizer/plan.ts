/**
 * The profilesets of a droptimizer run (rules in docs/droptimizer.md, as Raidbots' Droptimizer does it):
 * - only drops the character can use (usable.ts), unless `allItems`;
 * - one per drop and slot it can go in, setting only that slot;
 * - rings and trinkets are tried in each of their two slots, but never beside a worn copy of the same item id
 *   (the game allows one of each);
 * - a drop identical to what is worn in that slot (same item id and item level) is left out;
 * - the drop takes the enchant and (where it has a socket) the gems of the item it replaces;
 * - off-hands only when an off-hand is worn; two-handers only when none is, except for Fury (Titan's Grip), whose
 *   two-handers go in either hand (the export cannot tell a caster's off-hand from a weapon, so one-handers go to
 *   the main hand only).
 */
import type { AddonExport } from '../addon/export.js';
import type { AddonItem, Slot } from '../addon/items.js';
import { GROUPS } from '../topgear/groups.js';
import { simcNameSafe, uniqueNames } from '../topgear/names.js';
import { noun } from '../../util/plural.js';
import type { ItemSlot } from './catalog.js';
import type { Drop } from './sources.js';
import { leftOutLine, usableDrops, wearerOf } from './usable.js';

export interface PlannedSet {
  name: string;
  slot: Slot;
  drop: Drop;
  /** The item options after `<slot>=`: `,id=…,bonus_id=…[,enchant_id=…][,gem_id=…]`. */
  options: string;
}

export interface DropPlan {
  sets: PlannedSet[];
  /** What the slot rules left out and why, one phrase each ("3 identical to what is worn"). */
  leftOut: string[];
  /** What the class filter left out, as one line ("left out: 33 items of other armour types; --all-items …"). */
  notUsable?: string;
  /** Distinct items simmed. */
  items: number;
}

export interface PlanOptions {
  /** Sim every drop, whoever can use it (`--all-items`). */
  allItems?: boolean;
}

/** The gear slots a catalog item can go in: top gear's groups, with the weapon group split by hand. */
const { weapon: _bothHands, ...ARMOUR_AND_JEWELLERY } = GROUPS;
const SLOTS_OF: Record<ItemSlot, readonly Slot[]> = {
  ...ARMOUR_AND_JEWELLERY,
  one_hand: ['main_hand'],
  two_hand: ['main_hand'],
  off_hand: ['off_hand'],
};
const PARTNER: Partial<Record<Slot, Slot>> = {
  finger1: 'finger2',
  finger2: 'finger1',
  trinket1: 'trinket2',
  trinket2: 'trinket1',
};

/** `Light Company Guidon (289) from Imperator Averzian in trinket1`: what drops, where, and the slot it goes in. */
function dropName(drop: Drop, slot: Slot): string {
  const level = drop.build.itemLevel === undefined ? '' : ` (${drop.build.itemLevel})`;
  return simcNameSafe(`${drop.item.name}${level} from ${drop.from} in ${slot}`);
}

export function planDrops(exp: AddonExport, all: readonly Drop[], options: PlanOptions = {}): DropPlan {
  const usable = usableDrops(exp, all, options.allItems);
  const wearer = wearerOf(exp);
  const drops = usable.drops;
  const unique = uniqueNames();
  const sets: PlannedSet[] = [];
  const left = new Map<string, { one: string; rest: string; n: number }>();
  const note = (one: string, rest: string) => {
    const entry = left.get(`${one} ${rest}`) ?? { one, rest, n: 0 };
    entry.n++;
    left.set(`${one} ${rest}`, entry);
  };
  for (const drop of drops) {
    const twoHandInBoth = drop.item.slot === 'two_hand' && wearer.twoHandersInBothHands;
    for (const slot of twoHandInBoth ? (['main_hand', 'off_hand'] as const) : SLOTS_OF[drop.item.slot]) {
      const worn = exp.equipped[slot];
      if (slot === 'off_hand' && !exp.equipped.off_hand) {
        note('off-hand drop', '(no off-hand is worn)');
        continue;
      }
      if (drop.item.slot === 'two_hand' && exp.equipped.off_hand && !twoHandInBoth) {
        note('two-hander', '(an off-hand is worn)');
        continue;
      }
      const partner = PARTNER[slot];
      if (partner && exp.equipped[partner]?.id === drop.item.id) {
        note(slot.startsWith('finger') ? 'ring' : 'trinket', `in ${slot} beside a worn copy of the same item`);
        continue;
      }
      if (worn && identical(worn, drop)) {
        note('drop', 'identical to what is worn');
        continue;
      }
      sets.push({ name: unique(dropName(drop, slot)), slot, drop, options: itemOptions(drop, worn) });
    }
  }
  return {
    sets,
    leftOut: [...left.values()].map((e) => `${e.n} ${noun(e.n, e.one)} ${e.rest}`),
    notUsable: options.allItems ? undefined : leftOutLine(usable, wearer),
    items: new Set(sets.map((s) => s.drop.item.id)).size,
  };
}

function identical(worn: AddonItem, drop: Drop): boolean {
  if (worn.id !== drop.item.id) return false;
  if (worn.ilvl !== null && drop.build.itemLevel !== undefined) return worn.ilvl === drop.build.itemLevel;
  const bonus = (optionValue(worn.options, 'bonus_id') ?? '')
    .split('/')
    .map(Number)
    .sort((a, b) => a - b)
    .join('/');
  return bonus === drop.build.bonusIds.join('/');
}

/** The drop's item options, with the enchant of the item it replaces and, when the drop has a socket, its gems. */
function itemOptions(drop: Drop, worn: AddonItem | undefined): string {
  const parts = [`id=${drop.item.id}`, `bonus_id=${drop.build.bonusIds.join('/')}`];
  const enchant = worn && optionValue(worn.options, 'enchant_id');
  const gems = worn && optionValue(worn.options, 'gem_id');
  if (enchant) parts.push(`enchant_id=${enchant}`);
  if (gems && drop.item.socket) parts.push(`gem_id=${gems}`);
  return `,${parts.join(',')}`;
}

function optionValue(options: string, name: string): string | undefined {
  return new RegExp(`,${name}=([^,]+)`).exec(options)?.[1];
}
