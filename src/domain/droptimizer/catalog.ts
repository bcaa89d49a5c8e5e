/**
 * simjob's droptimizer catalog: what each raid boss and dungeon drops, and the `bonus_id` list that makes simc build
 * each item as it drops and fully upgraded. simc works out an item's stat amounts from `id=` and `bonus_id=`; the
 * catalog holds only what decides who can use an item (armour type, primary stats, a trinket's specs, weapon type).
 * Format (docs/droptimizer.md, "Catalog format"): season → instances (raids and dungeons) → encounters → items →
 * sources (one per raid difficulty or keystone bracket).
 */
import * as z from 'zod';
import { UsageError } from '../../errors.js';
import { ARMOR_TYPES, PRIMARY_STATS, ROLES, WEAPON_TYPES } from '../game/specs.js';
import { DIFFICULTIES, type Difficulty } from './choices.js';

export const CATALOG_FORMAT = 'simjob-droptimizer-catalog/1';

export type { Difficulty };

/**
 * What an item is worn as. finger and trinket fit either slot of their pair; one_hand and two_hand are weapons for
 * the main hand; off_hand is a shield or a held-in-off-hand item.
 */
const ITEM_SLOTS = [
  'head',
  'neck',
  'shoulder',
  'back',
  'chest',
  'wrist',
  'hands',
  'waist',
  'legs',
  'feet',
  'finger',
  'trinket',
  'one_hand',
  'two_hand',
  'off_hand',
] as const;
export type ItemSlot = (typeof ITEM_SLOTS)[number];

const id = z.number().int().positive();

/** One build of an item: its bonus ids and, where known, its upgrade track, rank and item level. */
const build = z
  .object({
    bonusIds: z.array(id).min(1),
    track: z.string().min(1).optional(),
    rank: z.number().int().positive().optional(),
    itemLevel: z.number().int().positive().optional(),
  })
  .strict();
export type ItemBuild = z.infer<typeof build>;

/** Where and how an item drops: a raid difficulty, or a keystone bracket at the end of a run or in the Great Vault. */
const source = z.union([
  z.object({ kind: z.literal('raid'), difficulty: z.enum(DIFFICULTIES), dropped: build, upgraded: build }).strict(),
  z
    .object({
      kind: z.enum(['endOfRun', 'vault']),
      /** The keystone levels this bracket covers; max null: this level and above. */
      keystone: z
        .object({ min: z.number().int().nonnegative(), max: z.number().int().nonnegative().nullable() })
        .strict(),
      dropped: build,
      upgraded: build,
    })
    .strict(),
]);
export type ItemSource = z.infer<typeof source>;

/** Who a trinket is for: the game's Encounter Journal loot filter, as specs (`warrior/arms`) and in summary. */
const trinketFor = z
  .object({
    stats: z.array(z.enum(PRIMARY_STATS)).min(1),
    roles: z.array(z.enum(ROLES)).min(1),
    /** `class/spec` in simc's tokens; when present it decides, else stats and roles do. */
    specs: z.array(z.string().regex(/^[a-z]+\/[a-z_]+$/)).optional(),
  })
  .strict();

/*
 * The facts fields are optional so that a catalog of the first format (without them) still loads: an item without
 * a fact is simmed for every character, and the run says how many such items it kept. The shipped catalog has them
 * all (test/unit/droptimizer/usable.test.ts).
 */
const item = z
  .object({
    id,
    name: z.string().min(1),
    slot: z.enum(ITEM_SLOTS),
    /** The item drops with a socket (its bonus lists carry the socket bonus); gems carry over only then. */
    socket: z.boolean(),
    /** cloth, leather, mail or plate; null for what has no armour type (cloaks, necks, rings, trinkets, weapons). */
    armor: z.enum(ARMOR_TYPES).nullable().optional(),
    /** The primary stats the item carries; empty for necks and rings (they carry none). */
    stats: z.array(z.enum(PRIMARY_STATS)).optional(),
    for: trinketFor.optional(),
    weaponType: z.enum(WEAPON_TYPES).optional(),
    sources: z.array(source).min(1),
  })
  .strict();
export type CatalogItem = z.infer<typeof item>;

const encounter = z.object({ id: id.nullable(), name: z.string().min(1), items: z.array(item) }).strict();
export type Encounter = z.infer<typeof encounter>;

const instance = z
  .object({
    /** The journal instance id, when known. */
    id: id.nullable(),
    name: z.string().min(1),
    kind: z.enum(['raid', 'dungeon']),
    encounters: z.array(encounter).min(1),
  })
  .strict();
export type Instance = z.infer<typeof instance>;

export const catalogSchema = z
  .object({
    format: z.literal(CATALOG_FORMAT),
    /** A short key (midnight-s1) and a title (Midnight Season 1). */
    season: z.string().min(1),
    title: z.string().min(1),
    /** Where the data came from and what was changed (shown by --catalog users' tools; the NOTICE says it in full). */
    notice: z.string().optional(),
    instances: z.array(instance).min(1),
  })
  .strict();
export type Catalog = z.infer<typeof catalogSchema>;

class CatalogError extends Error {}

/** Parse and check a catalog; a failure is one line naming the first wrong field. */
export function parseCatalog(text: string, where: string): Catalog {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new CatalogError(`Catalog ${where} is not JSON: ${(error as Error).message}.`);
  }
  const parsed = catalogSchema.safeParse(data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const path = issue.path.length ? issue.path.join('.') : '(top level)';
    throw new CatalogError(`Catalog ${where} does not fit the ${CATALOG_FORMAT} format: ${path}: ${issue.message}.`);
  }
  return parsed.data;
}

/** A catalog's text (`where`: its file or URL, for messages) read and checked; a bad one is a UsageError. */
export function catalogFromText(text: string, where: string): Catalog {
  try {
    return checkText(parseCatalog(text, where), where);
  } catch (error) {
    if (error instanceof CatalogError)
      throw new UsageError(error.message, 'See docs/droptimizer.md, "Catalog format".');
    throw error;
  }
}

// Control characters (C0 but tab, DEL, C1), line and paragraph separators and bidirectional overrides (as safe.ts).
const UNSAFE_TEXT = /[\u0000-\u0008\u000a-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

/**
 * A catalog's names reach the terminal, profileset names and reports: one holding a control character (a line feed
 * that would fake a second line, an escape sequence) is refused, naming where it is.
 */
function checkText(catalog: Catalog, where: string): Catalog {
  const walk = (value: unknown, path: string): void => {
    if (typeof value === 'string') {
      const bad = UNSAFE_TEXT.exec(value);
      if (!bad) return;
      const code = `U+${bad[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`;
      throw new CatalogError(
        `Catalog ${where}: ${path} holds a control character (${code}); names must be plain text.`,
      );
    }
    if (Array.isArray(value)) value.forEach((v, i) => walk(v, `${path}.${i}`));
    else if (value && typeof value === 'object')
      for (const [k, v] of Object.entries(value)) walk(v, path ? `${path}.${k}` : k);
  };
  walk(catalog, '');
  return catalog;
}
