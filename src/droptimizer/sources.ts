/**
 * Which drops a droptimizer run tries: the instances named (or every raid, or every dungeon), at one raid difficulty
 * or keystone level, as dropped or fully upgraded.
 */
import { closest } from '../util/similar.js';
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
  /** Where it drops, as names and the by-source view say it: the boss of a raid, the dungeon, or its vault. */
  from: string;
}

export interface Selection {
  drops: Drop[];
  /** "The Voidspire, Sporefall (heroic, as dropped)", for the notice before the run. */
  description: string;
}

export class SelectionError extends Error {
  constructor(
    message: string,
    readonly hint?: string,
  ) {
    super(message);
  }
}

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
  const wantedKind = source === 'raid' ? 'raid' : 'dungeon';
  // Without --source, each named instance is taken as what it is; with it, every one must be of that kind.
  const mismatch = options.source ? named.find((i) => i.kind !== wantedKind) : undefined;
  if (mismatch) {
    const fix = `Drop --source, or name ${source === 'raid' ? 'a raid' : 'a dungeon'}.`;
    throw new SelectionError(`--instance "${mismatch.name}" is a ${mismatch.kind}, but --source is ${source}.`, fix);
  }
  const instances = named.length ? [...new Set(named)] : catalog.instances.filter((i) => i.kind === wantedKind);
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
  const vault = source === 'vault';

  const drops: Drop[] = [];
  for (const instance of instances) {
    for (const encounter of instance.encounters) {
      for (const item of encounter.items) {
        const found = item.sources.find((s) =>
          matches(s, instance.kind === 'raid' ? { difficulty } : { keystone, vault }),
        );
        if (!found) continue;
        const build = options.upgraded ? found.upgraded : found.dropped;
        const from =
          instance.kind === 'raid' ? encounter.name : vault ? `${instance.name} (Great Vault)` : instance.name;
        drops.push({ item, instance, encounter, build, from });
      }
    }
  }
  const how = [
    raids ? difficulty : undefined,
    dungeons ? `${vault ? 'Great Vault' : 'end of run'} +${keystone}` : undefined,
  ].filter(Boolean);
  how.push(options.upgraded ? 'fully upgraded' : 'as dropped');
  const description = `${instances.map((i) => i.name).join(', ')} (${how.join(', ')})`;
  return { drops, description };
}

function matches(s: ItemSource, want: { difficulty?: Difficulty; keystone?: number; vault?: boolean }): boolean {
  if (s.kind === 'raid') return want.difficulty === s.difficulty;
  if (want.keystone === undefined || (s.kind === 'vault') !== want.vault) return false;
  return want.keystone >= s.keystone.min && (s.keystone.max === null || want.keystone <= s.keystone.max);
}
