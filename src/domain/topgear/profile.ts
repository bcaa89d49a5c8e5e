/**
 * The top gear profile: the export's character with its equipped gear as the baseline actor, then one profileset per
 * other combination that sets only the slots (and talents) it changes, so every candidate runs the same APL,
 * consumables and options.
 */
import type { AddonExport } from '../addon/export.js';
import { combinations, type TopGearPlan } from './combinations.js';
import { combinationName, uniqueNames } from './names.js';
import { plural } from '../../util/plural.js';
import { terminalSafeLine } from '../../util/safe.js';
import { TOPGEAR_KIND, TOPGEAR_META_KEY } from '../job-kind.js';

export interface TopGearProfile {
  text: string;
  /** Profileset names in the order written. */
  names: string[];
}

export interface TopGearProfileOptions {
  /**
   * `target_error=` for the run: multistage makes it the final stage's, on the combinations that survive the
   * culling; none leaves simc's and the stage plan's default.
   */
  targetError?: number | undefined;
}

/**
 * The submit that runs a written top gear profile as topgear would: multistage, marked kind=topgear so that `result`
 * and `report` give the answer, the tie advice and the vault line (add --local, or --channel for the service).
 */
export function topGearSubmitCommand(file: string): string {
  return `simjob submit ${file} --multistage --meta ${TOPGEAR_META_KEY}=${TOPGEAR_KIND} --wait`;
}

export function topGearProfile(
  exp: AddonExport,
  plan: TopGearPlan,
  source: string,
  options: TopGearProfileOptions = {},
): TopGearProfile {
  const who = [exp.className, exp.spec].filter(Boolean).join(', ');
  const lines = [
    `# simjob topgear: ${exp.characterName} (${who}) from ${terminalSafeLine(source)}.`,
    `# ${plural(plan.count, 'combination')}: the equipped set (this actor, the baseline) and ${plural(plan.count - 1, 'profileset')},`,
    '# each setting only the slots it changes.',
    `# To run it and read the answer ("Equip …"): ${topGearSubmitCommand('<this file>')}`,
    ...exp.baseline,
    ...(options.targetError === undefined ? [] : [`target_error=${options.targetError}`]),
    '',
  ];
  const unique = uniqueNames();
  const names: string[] = [];
  for (const combo of combinations(plan)) {
    if (combo.changes.length === 0 && !combo.loadout) continue; // the baseline actor
    const name = unique(combinationName(combo));
    names.push(name);
    const set = `profileset."${name}"+=`;
    for (const change of combo.changes) lines.push(`${set}${change.slot}=${change.candidate.item.options}`);
    if (combo.loadout) lines.push(`${set}talents=${combo.loadout.talents}`);
  }
  lines.push('');
  return { text: lines.join('\n'), names };
}
