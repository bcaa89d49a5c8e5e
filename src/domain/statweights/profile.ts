/**
 * The profile a stat-weights job runs, by either method:
 *   - profilesets: the character as the baseline, then one profileset per stat adding `amount` points of it with
 *     `enchant_<stat>=` (on top of what the profile already sets: the option replaces, so the sum is written);
 *   - scale: simc's own scale factors, `calculate_scale_factors=1` with `scale_only=` the chosen stats.
 * Both end with the target error that makes each weight precise enough (see precision.ts).
 */
import type { Character } from './character.js';
import type { StatInfo } from './stats.js';

export type Method = 'profilesets' | 'scale';

export interface StatWeightsPlan {
  method: Method;
  stats: StatInfo[];
  /** Points added per profileset (profilesets method only). */
  amount?: number;
  targetError: number;
}

export function statWeightsProfile(character: Character, plan: StatWeightsPlan, source: string): string {
  const who = [character.spec, character.className].filter(Boolean).join(' ');
  const names = plan.stats.map((s) => s.label).join(', ');
  const lines = [
    `# simjob statweights: ${character.name} (${who}) from ${source.replace(/[\r\n]/g, ' ')}.`,
    plan.method === 'profilesets'
      ? `# Method profilesets: the baseline, then ${names}, each +${plan.amount} points (enchant_<stat>).`
      : `# Method scale: simc's scale factors for ${names}.`,
    character.text.trimEnd(),
    '',
    '# simjob statweights: precision',
    `target_error=${plan.targetError}`,
  ];
  if (plan.method === 'scale') {
    lines.push('calculate_scale_factors=1', `scale_only=${plan.stats.map((s) => s.scaleOnly).join(',')}`);
  } else {
    for (const stat of plan.stats) {
      const option = stat.enchant!;
      const total = (character.enchants.get(option) ?? 0) + plan.amount!;
      lines.push(`profileset."${stat.label}"+=${option}=${total}`);
    }
  }
  lines.push('');
  return lines.join('\n');
}
