/**
 * The answer of a top gear job (marked `metadata.kind = "topgear"`) in words, the same for `simjob result` and the
 * HTML report: what to equip, with the gain and its error; or that several combinations (or the equipped set) are
 * within the error of the best, which ones, and what would separate them; and, when the export had Great Vault
 * items, which one to take and what it is worth over the best without one.
 *
 * "Within the error" is the test of util/stats.ts: |Δ| ≤ the combined 95 % error of the two. Like Raidbots' Top
 * Gear, the ranking is never hidden; unlike a bare ranking, a tie is said to be one.
 */
import type { ResultRecord } from '../../core/resources/schemas.js';
import { exportCaveat, isTopGearJob } from '../job-kind.js';
import { formatNumber } from '../../util/format.js';
import { difference, rankByMean, type Difference, type Estimate } from '../../util/stats.js';
import { MIN_TARGET_ERROR } from '../profile/precision.js';

interface Row extends Estimate {
  name: string;
}

export interface TopGearAnswer {
  /** One sentence: "Equip …", "3 combinations are within the error of the best: …", "Keep what you wear: …". */
  headline: string;
  /** The combinations within the error of the best, the best first (empty when the best stands alone). */
  tied: Row[];
  /** What would separate a tie (a final stage at a lower target error, and the flag that runs it). */
  separate?: string;
  /** The Great Vault: which item to take and what it is worth over the best without a vault item. */
  vault?: string;
  /** The export had no checksum line: what was simmed is what it held, and nothing proved it whole. */
  unchecked?: string;
}

/** How many tied names the headline lists before "and N more". */
const LISTED = 10;
const EQUIPPED = 'the equipped set';

export function topGearAnswer(record: ResultRecord): TopGearAnswer | undefined {
  const answer = rankedAnswer(record);
  const caveat = exportCaveat(record.metadata);
  if (answer && caveat) answer.unchecked = caveat;
  return answer;
}

function rankedAnswer(record: ResultRecord): TopGearAnswer | undefined {
  if (!isTopGearJob(record.metadata)) return undefined;
  const summary = record.result.summary;
  const actor = summary?.mainActor;
  const ranked: Row[] = rankByMean(actor?.profilesets?.results ?? []);
  const best = ranked[0];
  if (!actor || !best) return undefined;
  const metric = summary?.metric ?? 'dps';
  const gain = (d: Difference) => gainText(d, metric);
  const base = difference(actor, best);
  const vault = vaultAdvice(actor, ranked, metric);

  const listed = (rows: Row[]) => list(rows.map((r) => `${r.name} (${gain(difference(actor, r))})`));
  if (base.delta <= 0) {
    // The equipped set leads; combinations within its error are a tie the sim could not break, not a loss.
    const close = ranked.filter((r) => difference(actor, r).significant === false);
    if (close.length === 0) {
      const headline =
        'Keep what you wear: no combination beats the equipped set ' + `(the best, ${best.name}, is ${gain(base)}).`;
      return { headline, tied: [], vault };
    }
    const headline =
      `Keep what you wear: the equipped set leads, and ${close.length === 1 ? 'one combination is' : `${close.length} combinations are`} ` +
      `within its error: ${listed(close)}.`;
    return { headline, tied: close, separate: separateAdvice(equippedRow(actor), best, metric), vault };
  }
  const tied = [best, ...ranked.slice(1).filter((r) => difference(best, r).significant === false)];
  if (base.significant === false) {
    const headline =
      tied.length === 1
        ? `Keep what you wear: the equipped set is within the error of the best, ${best.name} (${gain(base)}).`
        : `Keep what you wear: the equipped set and ${tied.length} combinations are within the error of the best: ` +
          `${listed(tied)}.`;
    return { headline, tied, separate: separateAdvice(best, equippedRow(actor), metric), vault };
  }
  if (tied.length > 1) {
    const headline = `${tied.length} combinations are within the error of the best: ${listed(tied)}.`;
    return { headline, tied, separate: separateAdvice(best, tied[1] as Row, metric), vault };
  }
  return { headline: `Equip ${best.name}: ${gain(base)} over the equipped set.`, tied: [], vault };
}

const equippedRow = (actor: Estimate): Row => ({ name: EQUIPPED, mean: actor.mean, mean_error: actor.mean_error });

/** "+600.0 dps ± 50.0 (+1.20%)". */
function gainText(d: Difference, metric: string): string {
  const sign = (n: number) => (n >= 0 ? '+' : '−');
  const error = d.combinedError === undefined ? '' : ` ± ${formatNumber(d.combinedError, 1)}`;
  const percent = d.percent === undefined ? '' : ` (${sign(d.percent)}${formatNumber(Math.abs(d.percent), 2)}%)`;
  return `${sign(d.delta)}${formatNumber(Math.abs(d.delta), 1)} ${metric}${error}${percent}`;
}

function list(items: string[]): string {
  const more = items.length - LISTED;
  return more > 0 ? `${items.slice(0, LISTED).join('; ')}; and ${more} more` : items.join('; ');
}

/**
 * The target error at which a gap like the one measured between the best and its closest rival would stand out:
 * both at relative 95 % error x (percent of the mean) give a combined error of √2·x·mean/100, so x must be below
 * gap·100/(√2·mean); half that, since the gap itself is only measured to within the present error.
 */
function separateAdvice(best: Row, rival: Row, metric: string): string {
  const gap = best.mean - rival.mean;
  const needed = best.mean > 0 ? (gap * 100) / (Math.SQRT2 * best.mean) / 2 : 0;
  const apart = `${formatNumber(gap, 1)} ${metric} apart`;
  if (needed < MIN_TARGET_ERROR) {
    const next = rival.name === EQUIPPED ? EQUIPPED : 'the next';
    return (
      `What would separate them: nothing on offer. The best and ${next} are ${apart}; even --target-error ` +
      `${MIN_TARGET_ERROR}, the finest the service runs, would not tell them apart: they are as good as each ` +
      'other, so wear either.'
    );
  }
  const target = Number(needed.toPrecision(1));
  return (
    `What would separate them: a final stage at a lower target error (they are ${apart}). Run the top gear ` +
    `again with --target-error ${target}: multistage culls the rest cheaply and spends that precision only on ` +
    "the few still in the running, as Raidbots' Smart Sim does."
  );
}

/**
 * Combination names carry "(<ilvl>, vault)" after a Great Vault item's name, or "(vault)" when the export gave the
 * item no name comment ("item 162541 (vault)"): the export's vault section decides, never the name
 * (topgear/combinations.ts labels).
 */
const VAULT_ITEM = /(?:^|, )([^,]+?\((?:\d+, )?vault\)(?: #\d+)?) in ([a-z_0-9]+)/;

function vaultAdvice(actor: Estimate, ranked: readonly Row[], metric: string): string | undefined {
  const withVault = ranked.find((r) => VAULT_ITEM.test(r.name));
  if (!withVault) return undefined;
  const bestOther = ranked.find((r) => !VAULT_ITEM.test(r.name));
  const without: Row = bestOther && bestOther.mean > actor.mean ? bestOther : equippedRow(actor);
  const [, item, slot] = VAULT_ITEM.exec(withVault.name) as RegExpExecArray;
  const d = difference(without, withVault);
  const against = without.name === EQUIPPED ? EQUIPPED : without.name;
  const gain = gainText(d, metric);
  if (d.delta > 0 && d.significant !== false) {
    return (
      `Great Vault: take ${item} in ${slot}: the best set with it, ${withVault.name}, is ${gain} over the best ` +
      `without a vault item, ${against}.`
    );
  }
  if (d.significant === false) {
    return (
      `Great Vault: ${item} in ${slot} is the best vault item, but within the error of the best without one: ` +
      `${withVault.name} is ${gain} against ${against}.`
    );
  }
  return (
    `Great Vault: no vault item beats the best without one: the best with one, ${withVault.name}, is ${gain} ` +
    `against ${against}.`
  );
}
