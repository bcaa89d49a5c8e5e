/**
 * The library's planDroptimizer (src/index.ts): in the core, not the domain, because the catalog it reads may be
 * fetched (core/catalog/); the plan itself is the domain's.
 */
import { loadCatalog } from './catalog/load.js';
import type { Difficulty, SourceKind } from '../domain/droptimizer/choices.js';
import { planDrops } from '../domain/droptimizer/plan.js';
import { droptimizerProfile } from '../domain/droptimizer/profile.js';
import { selectDrops } from '../domain/droptimizer/sources.js';
import { characterOf, readExport, type PlannedProfile } from '../domain/index.js';
import { DROPTIMIZER_KIND, TOPGEAR_META_KEY } from '../domain/job-kind.js';
import { UsageError } from '../errors.js';

export interface DroptimizerOptions {
  /** Raid or dungeon names (default: every raid, or every dungeon with `source: 'dungeons'`). */
  instances?: string[];
  source?: SourceKind;
  difficulty?: Difficulty;
  /** Mythic+ keystone level for dungeon drops. */
  keystone?: number;
  /** Sim the drops fully upgraded rather than as dropped. */
  upgraded?: boolean;
  /** A catalog file (simjob-droptimizer-catalog/1 JSON); default the one shipped with simjob. */
  catalog?: string;
}

/** Droptimizer: one profileset per drop of the chosen instances that fits one of the export's slots. */
export async function planDroptimizer(exportText: string, options: DroptimizerOptions = {}): Promise<PlannedProfile> {
  const exp = readExport(exportText);
  const catalog = await loadCatalog(options.catalog, { env: {} });
  const selection = selectDrops(catalog, {
    ...(options.instances ? { instances: options.instances } : {}),
    ...(options.source ? { source: options.source } : {}),
    ...(options.difficulty ? { difficulty: options.difficulty } : {}),
    ...(options.keystone !== undefined ? { keystone: options.keystone } : {}),
    ...(options.upgraded ? { upgraded: true } : {}),
  });
  const plan = planDrops(exp, selection.drops);
  if (plan.sets.length === 0)
    throw new UsageError(`Nothing in ${selection.description} fits ${exp.characterName}'s slots.`);
  return {
    character: characterOf(exp),
    text: droptimizerProfile(exp, plan, 'the export', selection.description),
    metadata: { [TOPGEAR_META_KEY]: DROPTIMIZER_KIND },
    profilesets: plan.sets.length,
    leftOut: plan.leftOut,
    warnings: exp.warnings,
  };
}
