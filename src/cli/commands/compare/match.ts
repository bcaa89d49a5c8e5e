/** Pairing two sources result by result (profile, scenario), and row by row (the actor, then profilesets by name). */
import type { ResultRecord } from '../../../core/resources/schemas.js';
import { isTerminal } from '../../../core/jobs/states.js';
import type { CompareRow } from '../../../domain/report/compare.js';
import type { Unmatched } from '../../output/views/comparison.js';
import { keyOf, type Source } from './sources.js';
import { scenarioLabel } from '../../../util/format.js';

export interface Pairing {
  pairs: Array<{ profile: string; scenario: string; a: ResultRecord; b: ResultRecord }>;
  unmatched: Unmatched[];
  /** Keys given twice on one side: the first is compared, the others named here. */
  duplicates: string[];
}

/**
 * One result on each side is a pair whatever its name (two single jobs, yesterday's and today's). Otherwise results
 * pair by profile and scenario; whatever has no partner is listed, never dropped, and so is a result with no DPS.
 */
export function pairResults(a: Source, b: Source): Pairing {
  const duplicates: string[] = [];
  const index = (side: Source) => {
    const map = new Map<string, ResultRecord>();
    for (const r of side.results) {
      const key = scenarioLabel(keyOf(r));
      if (map.has(key)) duplicates.push(`${key} (${side.arg}: job ${r.id})`);
      else map.set(key, r);
    }
    return map;
  };
  const unmatched: Unmatched[] = [];
  const pairs: Pairing['pairs'] = [];
  const add = (ra: ResultRecord, rb: ResultRecord) => {
    const key = keyOf(ra);
    const noDps = (
      [
        ['a', ra],
        ['b', rb],
      ] as const
    ).filter(([, r]) => !r.result.summary?.mainActor);
    if (noDps.length === 0) return void pairs.push({ ...key, a: ra, b: rb });
    for (const [side, r] of noDps) {
      unmatched.push({ side, ...keyOf(r), id: r.id, reason: `no DPS: ${whyNoDps(r)}`, noDps: true });
    }
  };
  if (a.results.length === 1 && b.results.length === 1) {
    add(a.results[0]!, b.results[0]!);
    return { pairs, unmatched, duplicates };
  }
  const inA = index(a);
  const inB = index(b);
  for (const [key, ra] of inA) {
    const rb = inB.get(key);
    if (rb) add(ra, rb);
    else unmatched.push({ side: 'a', ...keyOf(ra), id: ra.id, reason: `only in A (${a.arg})` });
  }
  for (const [key, rb] of inB)
    if (!inA.has(key)) unmatched.push({ side: 'b', ...keyOf(rb), id: rb.id, reason: `only in B (${b.arg})` });
  return { pairs, unmatched, duplicates };
}

export function whyNoDps(r: ResultRecord): string {
  if (r.status === 'completed') return 'its result has no summary';
  if (!isTerminal(r.status)) return `it had not ended (${r.status}) when it was saved`;
  return `it ended ${r.status}${r.errorCode ? ` (${r.errorCode})` : ''}`;
}

/** Significantly worse by more than `threshold` percent. */
export function isRegression(row: CompareRow, threshold: number | undefined): boolean {
  return threshold !== undefined && row.significant === true && row.percent !== undefined && row.percent < -threshold;
}
