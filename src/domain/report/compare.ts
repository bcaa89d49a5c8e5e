/**
 * Two finished jobs side by side, as `simjob compare` and the library's compareResults pair them: the main actor,
 * then the profilesets by name, each pair with its difference and whether it is beyond the error.
 */
import type { ResultRecord } from '../../core/resources/schemas.js';
import { difference, rankByMean, type Difference } from '../../util/stats.js';
import type { RankedProfileset } from './profileset-list.js';

export interface SideFigures {
  mean: number;
  mean_error: number | null;
}

export interface CompareRow extends Partial<Difference> {
  name: string;
  kind: 'actor' | 'profileset';
  a: SideFigures | null;
  b: SideFigures | null;
  /** The side without figures only lists the top of its profilesets (its summary was cut): not missing, unknown. */
  cut?: 'a' | 'b';
}

export interface SetList {
  sets: RankedProfileset[];
  /** Only the top of the job's profilesets (a cut summary that could not be completed). */
  cut: boolean;
}

/** The actor, then the profilesets in A's ranking, then those only B lists. */
export function compareRows(a: ResultRecord, b: ResultRecord, setsA: SetList, setsB: SetList): CompareRow[] {
  const side = (p: { mean: number; mean_error?: number | null } | undefined | null): SideFigures | null =>
    p ? { mean: p.mean, mean_error: p.mean_error ?? null } : null;
  const row = (name: string, kind: CompareRow['kind'], x: SideFigures | null, y: SideFigures | null): CompareRow => ({
    name,
    kind,
    a: x,
    b: y,
    ...(x && y ? difference(x, y) : {}),
    ...(!x && setsA.cut ? { cut: 'a' as const } : !y && setsB.cut ? { cut: 'b' as const } : {}),
  });
  const actorA = a.result.summary!.mainActor!;
  const actorB = b.result.summary!.mainActor!;
  const name = actorA.name === actorB.name ? actorA.name : `${actorA.name} / ${actorB.name}`;
  const rows = [row(name, 'actor', side(actorA), side(actorB))];
  const inB = new Map(setsB.sets.map((p) => [p.name, p]));
  for (const p of rankByMean(setsA.sets)) rows.push(row(p.name, 'profileset', side(p), side(inB.get(p.name))));
  const inA = new Set(setsA.sets.map((p) => p.name));
  for (const p of rankByMean(setsB.sets)) if (!inA.has(p.name)) rows.push(row(p.name, 'profileset', null, side(p)));
  return rows;
}
