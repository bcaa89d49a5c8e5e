/**
 * How a job says it is a stat-weights run, so that `--wait`, `simjob result` and `simjob report` (here or on another
 * machine) read its weights: `metadata.kind = "statweights"` (the key topgear uses) and one entry `statweights`
 * holding the method, the points added, the character's class and spec, and the stats in order:
 *   statweights=profilesets:300:warlock:affliction:intellect+crit+haste+mastery+vers
 * Two short entries, so a user's own --meta still fits the service's 20 entries and 1 KB.
 */
import { TOPGEAR_META_KEY } from '../../core/jobs/topgear-marker.js';
import { STATS, statByKey, type StatInfo, type StatKey } from './stats.js';
import type { Method, StatWeightsPlan } from './profile.js';

const STATWEIGHTS_KIND = 'statweights';
export const STATWEIGHTS_META_KEY = 'statweights';

export interface StatWeightsMarker {
  method: Method;
  amount?: number;
  className: string;
  spec: string | null;
  stats: StatInfo[];
}

export function statWeightsMeta(plan: StatWeightsPlan, className: string, spec: string | null): string[] {
  const stats = plan.stats.map((s) => s.key).join('+');
  const value = [plan.method, plan.amount ?? '-', className, spec ?? '-', stats].join(':');
  return [`${TOPGEAR_META_KEY}=${STATWEIGHTS_KIND}`, `${STATWEIGHTS_META_KEY}=${value}`];
}

/** The marker of a job's metadata; undefined when the job is not a stat-weights run (or its entry is unreadable). */
export function readStatWeightsMarker(
  metadata: Record<string, unknown> | null | undefined,
): StatWeightsMarker | undefined {
  if (metadata?.[TOPGEAR_META_KEY] !== STATWEIGHTS_KIND) return undefined;
  const raw = metadata[STATWEIGHTS_META_KEY];
  if (typeof raw !== 'string') return undefined;
  const [method, amount, className, spec, list] = raw.split(':');
  if ((method !== 'profilesets' && method !== 'scale') || !className || !list) return undefined;
  const keys = list.split('+');
  if (!keys.every((k) => STATS.some((s) => s.key === k))) return undefined;
  const points = Number(amount);
  return {
    method,
    amount: Number.isFinite(points) && points > 0 ? points : undefined,
    className,
    spec: spec && spec !== '-' ? spec : null,
    stats: keys.map((k) => statByKey(k as StatKey)),
  };
}
