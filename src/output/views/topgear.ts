/**
 * The top gear headline of a result (jobs marked `metadata.kind = "topgear"`): what to change against what is
 * equipped, with the gain and its error, or plainly that the equipped set is as good as the best within the error.
 */
import type { ResultRecord } from '../../api/schemas.js';
import { isTopGearJob } from '../../jobs/topgear-marker.js';
import { formatNumber } from '../format.js';
import type { Output } from '../io.js';
import { terminalSafe } from '../safe.js';
import { difference, rankByMean } from '../stats.js';

/** The headline in words, or undefined when the job is not a top gear run or has no ranked profilesets. */
export function topGearHeadline(record: ResultRecord): string | undefined {
  if (!isTopGearJob(record.metadata)) return undefined;
  const summary = record.result.summary;
  const actor = summary?.mainActor;
  const best = rankByMean(actor?.profilesets?.results ?? [])[0];
  if (!actor || !best) return undefined;
  const metric = summary?.metric ?? 'dps';
  const d = difference(actor, best);
  const gain = `${d.delta >= 0 ? '+' : '−'}${formatNumber(Math.abs(d.delta), 1)} ${metric}${d.combinedError === undefined ? '' : ` ± ${formatNumber(d.combinedError, 1)}`}${d.percent === undefined ? '' : ` (${d.percent >= 0 ? '+' : '−'}${formatNumber(Math.abs(d.percent), 2)}%)`}`;
  const name = terminalSafe(best.name);
  if (d.delta <= 0) return `Keep what you wear: no combination beats the equipped set (the best, ${name}, is ${gain}).`;
  if (d.significant === false) return `Keep what you wear: the equipped set is within the error of the best, ${name} (${gain}).`;
  return `Equip ${name}: ${gain} over the equipped set.`;
}

export function printTopGearHeadline(out: Output, record: ResultRecord): void {
  const headline = topGearHeadline(record);
  if (!headline) return;
  out.line();
  out.line(out.c.bold(headline));
}
