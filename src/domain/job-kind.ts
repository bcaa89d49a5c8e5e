/**
 * What kind a job is, in one place: top gear, droptimizer or stat weights. A job says it in its metadata,
 * `metadata.kind = "topgear" | "droptimizer" | "statweights"` (one short entry, so a user's own --meta still fits the
 * service's 20 entries and 1 KB), so that `--wait`, `simjob result`, `--json` and `simjob report`, here or on another
 * machine, read its answer: the top gear headline, the best upgrade and the by-source ranking, the weights.
 */
import { STATS, statByKey, type StatInfo, type StatKey } from './statweights/stats.js';
import type { Method, StatWeightsPlan } from './statweights/profile.js';

/** The metadata key of a job's kind; the name is top gear's, which used it first. */
export const TOPGEAR_META_KEY = 'kind';
export const TOPGEAR_KIND = 'topgear';
export const DROPTIMIZER_KIND = 'droptimizer';
const STATWEIGHTS_KIND = 'statweights';

/**
 * `metadata.export = "no-checksum"`: the export had no checksum line, so nothing proved it whole; the answer says so
 * wherever it is shown.
 */
export const EXPORT_META_KEY = 'export';
export const EXPORT_UNCHECKED = 'no-checksum';

/** What a top gear or droptimizer answer adds when its export had no checksum line. */
export function exportCaveat(metadata: Record<string, unknown> | null | undefined): string | undefined {
  if (metadata?.[EXPORT_META_KEY] !== EXPORT_UNCHECKED) return undefined;
  return (
    'The export had no "# Checksum:" line: it read whole, but nothing proved that it was not cut short; ' +
    'if an item you own is not named above, copy the whole /simc text and run it again.'
  );
}

export function isTopGearJob(metadata: Record<string, unknown> | null | undefined): boolean {
  return metadata?.[TOPGEAR_META_KEY] === TOPGEAR_KIND;
}

export function isDroptimizerJob(metadata: Record<string, unknown> | null | undefined): boolean {
  return metadata?.[TOPGEAR_META_KEY] === DROPTIMIZER_KIND;
}

/**
 * A stat-weights run carries a second entry, `statweights`, holding the method, the points added, the character's
 * class and spec, and the stats in order:
 *   statweights=profilesets:300:warlock:affliction:intellect+crit+haste+mastery+vers
 */
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
