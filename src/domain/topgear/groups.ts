/** Slot groups: what `--slots` names, and the gear slots each one varies together. */
import { UsageError } from '../../errors.js';
import type { Slot } from '../addon/items.js';

export const GROUPS = {
  head: ['head'],
  neck: ['neck'],
  shoulder: ['shoulder'],
  back: ['back'],
  chest: ['chest'],
  wrist: ['wrist'],
  hands: ['hands'],
  waist: ['waist'],
  legs: ['legs'],
  feet: ['feet'],
  finger: ['finger1', 'finger2'],
  trinket: ['trinket1', 'trinket2'],
  weapon: ['main_hand', 'off_hand'],
} as const satisfies Record<string, readonly Slot[]>;
export type Group = keyof typeof GROUPS;
export const GROUP_NAMES = Object.keys(GROUPS) as Group[];

/** Other words people use for a group (slot names, plurals, Raidbots' words). */
const ALIASES: Record<string, Group> = {
  shoulders: 'shoulder',
  cloak: 'back',
  wrists: 'wrist',
  bracers: 'wrist',
  gloves: 'hands',
  hand: 'hands',
  belt: 'waist',
  leg: 'legs',
  boots: 'feet',
  foot: 'feet',
  ring: 'finger',
  rings: 'finger',
  fingers: 'finger',
  finger1: 'finger',
  finger2: 'finger',
  trinkets: 'trinket',
  trinket1: 'trinket',
  trinket2: 'trinket',
  weapons: 'weapon',
  main_hand: 'weapon',
  off_hand: 'weapon',
};

/** A --slots list with an unknown or no group: a bad input, exit 2. */
export class SlotsError extends UsageError {}

/** `--slots trinket,finger` → the groups, in their usual order. Unknown names throw with the list of valid ones. */
export function parseSlots(list: string): Group[] {
  const wanted = new Set<Group>();
  for (const raw of list
    .split(',')
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean)) {
    const group = (GROUP_NAMES as string[]).includes(raw) ? (raw as Group) : ALIASES[raw];
    if (!group) throw new SlotsError(`--slots: "${raw}" is not a slot group; use any of ${GROUP_NAMES.join(',')}.`);
    wanted.add(group);
  }
  if (wanted.size === 0) throw new SlotsError(`--slots needs at least one of ${GROUP_NAMES.join(',')}.`);
  return GROUP_NAMES.filter((g) => wanted.has(g));
}

/**
 * Default of `--max-combos`. Every combination beyond the equipped set is one profileset; 1,000 keeps a full top
 * gear run of a well-stocked bag (the fixture's 744) in one job while stopping an accidental all-slots run of a
 * hoarder's bags (tens of thousands) before it costs anything.
 */
export const DEFAULT_MAX_COMBOS = 1000;
