/** What `--max-combos` says when there are too many: the `--slots` that would bring the count under the limit. */
import { countCombinations, type TopGearPlan } from './combinations.js';
import type { Group } from './groups.js';

export interface SlotsSuggestion {
  slots: Group[];
  count: number;
}

/**
 * Of every subset of the varying groups, the one with the most combinations still within `max` (ties: more groups,
 * then the earlier slots). Thirteen groups at most: 8,192 subsets, each counted in closed form.
 */
export function suggestSlots(plan: TopGearPlan, max: number): SlotsSuggestion | null {
  const varying = plan.groups;
  const counts = varying.map((g) => g.counts);
  const loadouts = plan.loadouts.length;
  let best: SlotsSuggestion | null = null;
  for (let mask = 1; mask < 1 << varying.length; mask++) {
    const picked = counts.filter((_, i) => mask & (1 << i));
    const count = countCombinations(picked) * loadouts;
    if (count > max || count < 2) continue;
    const better = !best || count > best.count || (count === best.count && picked.length > best.slots.length);
    if (better) best = { slots: varying.filter((_, i) => mask & (1 << i)).map((g) => g.group), count };
  }
  return best;
}
