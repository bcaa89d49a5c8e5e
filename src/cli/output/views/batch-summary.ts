import type { ResultRecord } from '../../../core/resources/schemas.js';
import { colourState } from '../ansi.js';
import { formatDuration, formatNumber } from '../../../util/format.js';
import type { Output } from '../io.js';
import { rankByMean } from '../../../util/stats.js';
import { printTable } from '../table.js';
import { signed } from './result.js';
import { plural } from '../../../util/plural.js';

export interface BatchRow {
  label: string;
  id?: string;
  /** The result resource, or the job record of a job that ended without one. */
  outcome?: ResultRecord;
  /** The last state seen, for jobs with no outcome (still running, interrupted). */
  state?: string;
  /** Why there is no job or no outcome: `not submitted`, `wait failed`. */
  problem?: string;
}

/** One line per profile of a batch: its job, how it ended, the headline DPS, the best profileset, cost and time. */
export function printBatchSummary(out: Output, rows: readonly BatchRow[]): void {
  const c = out.c;
  out.line();
  printTable(out, rows, [
    { header: 'Profile', value: (r) => r.label, shrinkable: true },
    { header: 'Job', value: (r) => r.id ?? '' },
    {
      header: 'Status',
      value: (r) => statusOf(r),
      style: (t, r) =>
        r.outcome ? t.replace(r.outcome.status, colourState(c, r.outcome.status)) : r.problem ? c.red(t) : c.yellow(t),
    },
    {
      header: 'DPS',
      value: (r) => (actorOf(r) ? formatNumber(actorOf(r)!.mean, 1) : ''),
      align: 'right',
      style: (t) => c.bold(t),
    },
    {
      header: '±',
      value: (r) => (actorOf(r) ? formatNumber(actorOf(r)!.mean_error, 1) : ''),
      align: 'right',
      style: (t) => c.dim(t),
    },
    { header: 'Best profileset', value: (r) => best(r) },
    {
      header: 'Credits',
      value: (r) =>
        typeof r.outcome?.runtime?.creditsConsumed === 'number' ? formatNumber(r.outcome.runtime.creditsConsumed) : '',
      align: 'right',
    },
    { header: 'Time', value: (r) => formatDuration(r.outcome?.runtime?.totalDurationMs) ?? '', align: 'right' },
  ]);
  const counts = new Map<string, number>();
  for (const r of rows) {
    const key = r.outcome?.status ?? r.problem ?? r.state ?? 'unknown';
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  out.notice(out.ce.dim(`${plural(rows.length, 'profile')}: ${[...counts].map(([k, n]) => `${n} ${k}`).join(', ')}.`));
}

function statusOf(r: BatchRow): string {
  if (r.outcome) return r.outcome.errorCode ? `${r.outcome.status} (${r.outcome.errorCode})` : r.outcome.status;
  return r.problem ?? r.state ?? '';
}

function actorOf(r: BatchRow) {
  return r.outcome?.result.summary?.mainActor ?? undefined;
}

/** `name (+1.23%)`: the best profileset against this job's baseline. */
function best(r: BatchRow): string {
  const actor = actorOf(r);
  const top = actor?.profilesets ? rankByMean(actor.profilesets.results)[0] : undefined;
  if (!actor || !top) return '';
  return `${top.name} (${signed(actor.mean ? ((top.mean - actor.mean) / actor.mean) * 100 : 0, 2)}%)`;
}
