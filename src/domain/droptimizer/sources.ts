/**
 * Which drops a droptimizer run tries: the instances named (or every raid, or every dungeon, or for the Great Vault
 * both), at one raid difficulty and keystone level, as dropped or fully upgraded.
 */
import { UsageError } from '../../errors.js';
import { closest } from '../../util/similar.js';
import type { SourceKind } from './choices.js';
import type { Catalog, CatalogItem, Difficulty, Encounter, Instance, ItemBuild, ItemSource } from './catalog.js';

/** simjob's defaults when no --difficulty or --keystone is given. */
const DEFAULT_DIFFICULTY: Difficulty = 'heroic';
const DEFAULT_KEYSTONE = 10;

export interface SelectOptions {
  instances?: string[];
  source?: SourceKind;
  difficulty?: Difficulty;
  keystone?: number;
  upgraded?: boolean;
}

export interface Drop {
  item: CatalogItem;
  instance: Instance;
  encounter: Encounter;
  build: ItemBuild;
  /** Where it drops, as names and the by-source view say it: the boss of a raid, the dungeon, or a vault pool. */
  from: string;
}

export interface Selection {
  drops: Drop[];
  /** "The Voidspire, Sporefall (heroic, as dropped)", for the notice before the run. */
  description: string;
}

/** A selection (--instance, --source, --difficulty) that names nothing to sim: a bad input, exit 2. */
export class SelectionError extends UsageError {}

/** Instance names compared without case, apostrophes, dashes or a leading "the". */
const key = (name: string) =>
  name
    .toLowerCase()
    .replace(/['’`-]/g, '')
    .replace(/^the\s+/, '')
    .replace(/\s+/g, ' ')
    .trim();

function findInstance(catalog: Catalog, name: string): Instance {
  const found = catalog.instances.find((i) => key(i.name) === key(name));
  if (found) return found;
  const names = catalog.instances.map((i) => i.name);
  const keys = names.map(key);
  const guessed = closest(key(name), keys);
  const guess = guessed === undefined ? undefined : names[keys.indexOf(guessed)];
  throw new SelectionError(
    `--instance "${name}" is not in the ${catalog.title} catalog${guess ? `; did you mean "${guess}"?` : '.'}`,
    `Instances: ${names.join(', ')}.`,
  );
}

export function selectDrops(catalog: Catalog, options: SelectOptions): Selection {
  const named = (options.instances ?? []).map((n) => findInstance(catalog, n));
  const source = options.source ?? (named.length && named.every((i) => i.kind === 'dungeon') ? 'dungeons' : 'raid');
  const vault = source === 'vault';
  // Without --source, each named instance is taken as what it is; with it, every one must be of that kind. The
  // Great Vault offers raid and dungeon rewards both.
  const wantedKind = source === 'raid' ? 'raid' : 'dungeon';
  const mismatch = options.source && !vault ? named.find((i) => i.kind !== wantedKind) : undefined;
  if (mismatch) {
    const fix = `Drop --source, or name ${source === 'raid' ? 'a raid' : 'a dungeon'}.`;
    throw new SelectionError(`--instance "${mismatch.name}" is a ${mismatch.kind}, but --source is ${source}.`, fix);
  }
  const instances = named.length
    ? [...new Set(named)]
    : catalog.instances.filter((i) => vault || i.kind === wantedKind);
  const raids = instances.some((i) => i.kind === 'raid');
  const dungeons = instances.some((i) => i.kind === 'dungeon');
  if (options.difficulty && !raids)
    throw new SelectionError(
      '--difficulty chooses a raid difficulty, but no raid is chosen.',
      'Use --keystone N for dungeons.',
    );
  if (options.keystone !== undefined && !dungeons)
    throw new SelectionError(
      '--keystone chooses a Mythic+ level, but no dungeon is chosen.',
      'Use --difficulty for raids.',
    );
  const difficulty = options.difficulty ?? DEFAULT_DIFFICULTY;
  const keystone = options.keystone ?? DEFAULT_KEYSTONE;
  const pools = { raid: vaultPool('raid', difficulty, keystone), dungeon: vaultPool('dungeon', difficulty, keystone) };

  const drops: Drop[] = [];
  // In the vault each item is offered once per pool, whichever boss or dungeon it comes from.
  const offered = new Set<string>();
  for (const instance of instances) {
    for (const encounter of instance.encounters) {
      for (const item of encounter.items) {
        const found = item.sources.find((s) =>
          matches(s, instance.kind === 'raid' ? { difficulty } : { keystone, vault }),
        );
        if (!found) continue;
        const build = options.upgraded ? found.upgraded : found.dropped;
        const from = vault ? pools[instance.kind] : instance.kind === 'raid' ? encounter.name : instance.name;
        if (vault) {
          if (offered.has(`${from}\u0000${item.id}`)) continue;
          offered.add(`${from}\u0000${item.id}`);
        }
        drops.push({ item, instance, encounter, build, from });
      }
    }
  }
  const how = vault
    ? [raids ? `raid at ${difficulty}` : undefined, dungeons ? `dungeons at +${keystone}` : undefined].filter(Boolean)
    : [raids ? difficulty : undefined, dungeons ? `end of run +${keystone}` : undefined].filter(Boolean);
  how.push(options.upgraded ? 'fully upgraded' : 'as dropped');
  const where = vault
    ? named.length
      ? `Great Vault of ${instances.map((i) => i.name).join(', ')}`
      : 'Great Vault'
    : instances.map((i) => i.name).join(', ');
  return { drops, description: `${where} (${how.join(', ')})` };
}

/**
 * The Great Vault is one pool per row, not a dungeon's or a boss's: its dungeon row offers any of the season's
 * dungeon items at the level of the week's highest key, its raid row the raid's items at the difficulty cleared.
 */
function vaultPool(kind: 'raid' | 'dungeon', difficulty: Difficulty, keystone: number): string {
  return kind === 'raid' ? `Great Vault (${difficulty} raid)` : `Great Vault (+${keystone})`;
}

function matches(s: ItemSource, want: { difficulty?: Difficulty; keystone?: number; vault?: boolean }): boolean {
  if (s.kind === 'raid') return want.difficulty === s.difficulty;
  if (want.keystone === undefined || (s.kind === 'vault') !== want.vault) return false;
  return want.keystone >= s.keystone.min && (s.keystone.max === null || want.keystone <= s.keystone.max);
}
