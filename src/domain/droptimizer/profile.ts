/**
 * The droptimizer profile: the export's character as worn is the baseline actor, then one profileset per drop and
 * slot that sets only that slot, so every drop runs the same APL, consumables and options.
 */
import type { AddonExport } from '../addon/export.js';
import { plural } from '../../util/plural.js';
import type { DropPlan } from './plan.js';

export function droptimizerProfile(exp: AddonExport, plan: DropPlan, source: string, description: string): string {
  const who = [exp.className, exp.spec].filter(Boolean).join(', ');
  const lines = [
    `# simjob droptimizer: ${exp.characterName} (${who}) from ${source.replace(/[\r\n]/g, ' ')}.`,
    `# Drops of ${description.replace(/[\r\n]/g, ' ')}:`,
    `# ${plural(plan.sets.length, 'profileset')}, each setting one slot;`,
    '# the equipped set is this actor, the baseline.',
    ...exp.baseline,
    '',
    ...plan.sets.map((s) => `profileset."${s.name}"+=${s.slot}=${s.options}`),
    '',
  ];
  return lines.join('\n');
}
