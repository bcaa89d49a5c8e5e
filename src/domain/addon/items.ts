/** Item lines of the addon export: `<slot>=,id=<id>[,key=value]…` (spec/addon-export.md §4). */

/** Gear slots in the order the addon writes them. */
const SLOTS = [
  'head',
  'neck',
  'shoulder',
  'back',
  'chest',
  'shirt',
  'tabard',
  'wrist',
  'hands',
  'waist',
  'legs',
  'feet',
  'finger1',
  'finger2',
  'trinket1',
  'trinket2',
  'main_hand',
  'off_hand',
] as const;
export type Slot = (typeof SLOTS)[number];

export const isSlot = (name: string): name is Slot => (SLOTS as readonly string[]).includes(name);

export type ItemSource = 'equipped' | 'bag' | 'vault';

export interface AddonItem {
  /** The slot the line names (for bag and vault items: the item's first slot, e.g. finger1 for every ring). */
  slot: Slot;
  /** The item's options as written after `<slot>=`, starting with the comma: `,id=249346,bonus_id=12806/13577`. */
  options: string;
  id: number;
  /** From the `# <Item Name> (<ilvl>)` comment above the line, when there is one. */
  name: string | null;
  ilvl: number | null;
  source: ItemSource;
  /** 1-based line in the export. */
  line: number;
}

/**
 * Item options whose values are numbers or `/`-separated lists of numbers: what the addon writes (`content_tuning`
 * and `redirected_base_stats` since 12.0), and the other numeric options of simc's item reader (`item_t::
 * parse_options` in engine/item/item.cpp).
 */
const NUMERIC_KEYS = new Set([
  'id',
  'enchant_id',
  'gem_id',
  'bonus_id',
  'crafted_stats',
  'drop_level',
  'crafting_quality',
  'ilevel',
  'context',
  'content_tuning',
  'redirected_base_stats',
  'titan_disc_id',
  'embellishment',
  'addon_id',
  'azerite_level',
]);

/**
 * simc's other item options (`item_t::parse_options`), whose values are text: an item line may carry these and the
 * numeric ones, nothing else. Anything else (`,html=/x`) is not an item option: simc would warn and ignore it, and
 * simjob would copy it into every profileset. Left out on purpose: `source=` makes simc fetch the item's data from
 * a web site, which a pasted export has no business asking.
 */
const TEXT_KEYS = new Set([
  'gem_bonus_id',
  'gem_ilevel',
  'relic_id',
  'relic_ilevel',
  'azerite_powers',
  'initial_cd',
  'stats',
  'gems',
  'enchant',
  'addon',
  'equip',
  'use',
  'weapon',
  'warforged',
  'lfr',
  'heroic',
  'mythic',
  'type',
  'quality',
]);

/**
 * Check one item's options the way simc's item reader splits them: comma-separated `key=value` pairs, no spaces,
 * a numeric `id`. Returns why simc could not read it, or null when it can.
 */
export function itemProblem(options: string): string | null {
  if (!options.startsWith(',')) return 'it should start with "=,id=" (the item has no name token)';
  if (/\s/.test(options)) return 'it contains a space';
  let id: string | undefined;
  for (const pair of options.slice(1).split(',')) {
    const eq = pair.indexOf('=');
    const key = eq > 0 ? pair.slice(0, eq) : '';
    const value = pair.slice(eq + 1);
    if (!/^[a-z_]+$/.test(key) || value === '') return `"${pair}" is not key=value`;
    if (key === 'source') return '"source=" would make simc fetch the item from the web';
    if (!NUMERIC_KEYS.has(key) && !TEXT_KEYS.has(key)) return `"${key}=" is not an item option of simc`;
    if (NUMERIC_KEYS.has(key) && !/^\d+(\/\d+)*$/.test(value)) return `${key}=${value} is not a number list`;
    if (key === 'id') id = value;
  }
  if (id === undefined) return 'it has no id=';
  if (Number(id) <= 0) return 'its id is 0';
  return null;
}

/** `# Night Ender's Tusks (289)` → name and item level. */
export function parseNameComment(comment: string): { name: string; ilvl: number } | null {
  const m = /^#\s*(.*\S)\s+\((\d{1,4})\)\s*$/.exec(comment);
  return m ? { name: m[1] as string, ilvl: Number(m[2]) } : null;
}

export function itemId(options: string): number {
  const m = /,id=(\d+)/.exec(options);
  return m ? Number(m[1]) : 0;
}
