/**
 * The droptimizer's answer under a result (jobs marked `metadata.kind = "droptimizer"`): the best upgrade with its
 * gain and error, or that nothing beats what is worn; then every source (boss or dungeon), ranked by its best drop.
 */
import type { ResultRecord } from '../../../core/resources/schemas.js';
import { analyseDrops, type DropResult, type DroptimizerAnswer } from '../../../domain/droptimizer/analysis.js';
import { exportCaveat, isDroptimizerJob } from '../../../domain/job-kind.js';
import { formatNumber, signed } from '../../../util/format.js';
import type { Output } from '../io.js';
import { terminalSafe } from '../../../util/safe.js';
import { printTable, type Column } from '../table.js';

function droptimizerAnswer(record: ResultRecord): DroptimizerAnswer | undefined {
  const actor = record.result.summary?.mainActor;
  if (!isDroptimizerJob(record.metadata) || !actor?.profilesets) return undefined;
  return analyseDrops(actor);
}

/** `+1,234.5 dps ± 210.0 (+1.23%)` */
export function gainText(r: DropResult, metric = 'dps'): string {
  const error = r.error === null ? '' : ` ± ${formatNumber(r.error, 1)}`;
  const percent = r.percent === null ? '' : ` (${signed(r.percent, 2)}%)`;
  return `${signed(r.delta, 1)} ${metric}${error}${percent}`;
}

export function headlineOf(answer: DroptimizerAnswer, metric = 'dps'): string {
  const best = answer.best;
  if (!best || answer.verdict === 'none')
    return `Nothing here beats what you wear${best ? ` (the best, ${best.name}, is ${gainText(best, metric)})` : ''}.`;
  if (answer.verdict === 'within_error')
    return `Nothing here beats what you wear beyond the error: the best, ${best.name}, is ${gainText(best, metric)}.`;
  const what = best.from.startsWith('Great Vault') ? 'Best Great Vault pick' : 'Best upgrade';
  return `${what}: ${best.name}: ${gainText(best, metric)} over what you wear.`;
}

export function printDroptimizer(out: Output, record: ResultRecord): void {
  const answer = droptimizerAnswer(record);
  if (!answer) return;
  const metric = record.result.summary?.metric ?? 'dps';
  out.line();
  out.line(out.c.bold(terminalSafe(headlineOf(answer, metric))));
  const caveat = exportCaveat(record.metadata);
  if (caveat) out.line(caveat);
  if (answer.bySource.length === 0) return;
  const c = out.c;
  const columns: Array<Column<DroptimizerAnswer['bySource'][number]>> = [
    { header: '#', value: (_, i) => String(i + 1), align: 'right' },
    { header: 'Source', value: (s) => terminalSafe(s.source), shrinkable: true },
    {
      header: 'Best drop',
      value: (s) => terminalSafe(`${s.best.item}${s.best.itemLevel ? ` (${s.best.itemLevel})` : ''} in ${s.best.slot}`),
      shrinkable: true,
    },
    {
      header: `Δ ${metric.toUpperCase()}`,
      value: (s) => signed(s.best.delta, 1),
      align: 'right',
      style: (t, s) => (s.best.significant === false ? c.dim(t) : t),
    },
    { header: 'Δ %', value: (s) => (s.best.percent === null ? '' : `${signed(s.best.percent, 2)}%`), align: 'right' },
    { header: 'Upgrades', value: (s) => `${s.upgrades} of ${s.drops}`, align: 'right' },
  ];
  out.line();
  out.line(c.bold('By source (the best boss or dungeon first):'));
  printTable(out, answer.bySource, columns);
  if (answer.partial)
    out.notice(out.ce.dim('The ranking covers the profilesets the summary lists; `simjob report ID` reads every one.'));
}

/**
 * What `--json` prints for a droptimizer job: the API resource with the answer added as `droptimizer` ({verdict,
 * best, bySource, partial}); any other job's resource as it is.
 */
export function withDroptimizerAnswer(raw: unknown, record: ResultRecord): unknown {
  const answer = droptimizerAnswer(record);
  if (!answer || typeof raw !== 'object' || raw === null || Array.isArray(raw)) return raw;
  return { ...(raw as Record<string, unknown>), droptimizer: answer };
}
