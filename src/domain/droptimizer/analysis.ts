/**
 * The droptimizer's answer, read from a finished job alone (so `simjob result`, `--json` and `simjob report` give it
 * on any machine): the best upgrade, and per source (boss or dungeon) its best drop and how many of its drops are
 * upgrades, ranked. Each profileset's name says what it is: `<item> (<item level>) from <source> in <slot>`.
 */
import type { MainActor, ProfilesetResult } from '../../core/resources/schemas.js';
import { difference, rankByMean } from '../../util/stats.js';

export interface DropResult {
  name: string;
  item: string;
  itemLevel: number | null;
  from: string;
  slot: string;
  mean: number;
  /** Against the equipped set: Δ, its 95% error, Δ %, and whether |Δ| is beyond the error. */
  delta: number;
  error: number | null;
  percent: number | null;
  significant: boolean | null;
}

export interface SourceSummary {
  source: string;
  best: DropResult;
  /** Drops (items, whatever the slot) whose best slot beats what is worn beyond the error. */
  upgrades: number;
  /** Drops of this source that were simulated. */
  drops: number;
}

export interface DroptimizerAnswer {
  /** upgrade: the best beats what is worn beyond the error; within_error: it beats it, but not beyond; none. */
  verdict: 'upgrade' | 'within_error' | 'none';
  best: DropResult | null;
  bySource: SourceSummary[];
  /** The summary lists the top N of more profilesets: the ranking covers those listed. */
  partial: boolean;
}

const NAME = /^(.+) \((\d+)\) from (.+) in ([a-z_0-9]+)(?: #\d+)?$/;
const NAME_NO_LEVEL = /^(.+?) from (.+) in ([a-z_0-9]+)(?: #\d+)?$/;

export function parseDropName(name: string): Pick<DropResult, 'item' | 'itemLevel' | 'from' | 'slot'> | undefined {
  const m = NAME.exec(name);
  if (m) return { item: m[1]!, itemLevel: Number(m[2]), from: m[3]!, slot: m[4]! };
  const n = NAME_NO_LEVEL.exec(name);
  return n ? { item: n[1]!, itemLevel: null, from: n[2]!, slot: n[3]! } : undefined;
}

function dropResult(actor: MainActor, p: ProfilesetResult): DropResult | undefined {
  const parts = parseDropName(p.name);
  if (!parts) return undefined;
  const d = difference(actor, p);
  return {
    name: p.name,
    ...parts,
    mean: p.mean,
    delta: d.delta,
    error: d.combinedError ?? null,
    percent: d.percent ?? null,
    significant: d.significant ?? null,
  };
}

export const isUpgrade = (r: Pick<DropResult, 'delta' | 'significant'>) => r.delta > 0 && r.significant !== false;

export function analyseDrops(actor: MainActor): DroptimizerAnswer {
  const listed = actor.profilesets?.results ?? [];
  const results = rankByMean(listed)
    .map((p) => dropResult(actor, p))
    .filter((r): r is DropResult => r !== undefined);
  const best = results[0] ?? null;
  const verdict = !best || best.delta <= 0 ? 'none' : isUpgrade(best) ? 'upgrade' : 'within_error';
  const groups = new Map<string, DropResult[]>();
  for (const r of results) groups.set(r.from, [...(groups.get(r.from) ?? []), r]);
  const bySource = [...groups].map(([source, rows]) => {
    const items = new Map<string, DropResult>();
    for (const r of rows) if (!items.has(r.item)) items.set(r.item, r); // rows are best first: an item's best slot
    return { source, best: rows[0]!, upgrades: [...items.values()].filter(isUpgrade).length, drops: items.size };
  });
  bySource.sort((a, b) => b.best.delta - a.best.delta);
  return { verdict, best, bySource, partial: (actor.profilesets?.count ?? 0) > listed.length };
}
