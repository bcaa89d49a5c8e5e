/**
 * Which uncommented lines of an export describe the character, and so belong in the profile simjob generates from
 * it. The addon writes only such lines; anything else was added by hand (or by another tool) and would change
 * what the sim does or where it writes: `html=`, `json2=`, `output=`, `save=`, `threads=`, `iterations=`,
 * `fight_style=`… Those are left out and named, so that a pasted export can never make a local run write files
 * anywhere, and every combination of a top gear run is simmed under the same conditions.
 *
 * An allow-list, not a deny-list: simc has hundreds of global options, and a new one must not slip through.
 */
import { isSlot } from './items.js';
import { SIMC_CLASSES } from '../profile/classes.js';

/** Actor options that say who the character is, what it has learned, and what it brings (consumables). */
const CHARACTER_KEYS = new Set([
  'level',
  'race',
  'region',
  'server',
  'role',
  'professions',
  'profession',
  'spec',
  'position',
  'zandalari_loa',
  'talents',
  'class_talents',
  'spec_talents',
  'hero_talents',
  'potion',
  'flask',
  'food',
  'augmentation',
  'temporary_enchant',
  'set_bonus',
  'timeofday',
]);

/** Expansion-specific actor options (`thewarwithin.<name>=`, `midnight.<name>=`): choices the character makes. */
const EXPANSION_PREFIX = /^(legion|bfa|shadowlands|dragonflight|thewarwithin|midnight)\./;

export const isClassKey = (key: string): boolean => SIMC_CLASSES.includes(key);

/** True when an option of this key describes the character (the class line and gear slots included). */
export function describesCharacter(key: string): boolean {
  if (isClassKey(key) || isSlot(key) || CHARACTER_KEYS.has(key)) return true;
  // Trait systems the addon writes after the talents (`omnium_talents=` in 12.0.7), and any later one.
  if (/^[a-z]+_talents$/.test(key) && key !== 'offspec_talents') return true;
  return EXPANSION_PREFIX.test(key);
}
