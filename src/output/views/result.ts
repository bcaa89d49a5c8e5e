import type { ResultRecord } from '../../api/schemas.js';
import { ERROR_ADVICE } from '../../jobs/states.js';
import { colourState, formatDuration, formatNumber } from '../format.js';
import type { Output } from '../io.js';
import { printTable } from '../table.js';

export interface ResultViewOptions {
  top: number;
}

/** The human view of a result: headline, ranked profilesets, multistage funnel, errors, artifacts, share link. */
export function printResult(out: Output, record: ResultRecord, options: ResultViewOptions): void {
  const c = out.c;
  const summary = record.result.summary;
  const actor = summary?.mainActor;
  const runtime = record.runtime;
  const fee = runtime?.priorityFeeCredits ? ` (incl. ${formatNumber(runtime.priorityFeeCredits)} priority fee)` : '';
  out.keyValues([
    ['Job', record.id],
    ['Status', colourState(c, record.status)],
    ['Actor', actor ? `${actor.name}  ${c.bold(formatNumber(actor.mean, 1))} ${summary?.metric ?? 'dps'} ± ${formatNumber(actor.mean_error, 1)}` : undefined],
    ['Build', record.build ? [record.build.channel, record.build.commit?.slice(0, 10)].filter(Boolean).join(' @ ') : undefined],
    ['Sim time', formatDuration(runtime?.simDurationMs)],
    ['Total time', formatDuration(runtime?.totalDurationMs)],
    ['Credits', runtime?.creditsConsumed === null || runtime?.creditsConsumed === undefined ? undefined : `${formatNumber(runtime.creditsConsumed)}${fee}`],
  ]);
  if (record.errorCode) {
    out.line();
    out.line(`${c.red(record.errorCode)}: ${record.statusReason ?? ''}`.trimEnd());
    const advice = ERROR_ADVICE[record.errorCode];
    if (advice) out.line(c.dim(advice));
  }

  const sets = actor?.profilesets;
  if (actor && sets && sets.results.length > 0) {
    const ranked = [...sets.results].sort((a, b) => b.mean - a.mean).slice(0, options.top);
    const baseline = actor.mean;
    out.line();
    printTable(out, ranked, [
      { header: '#', value: (r) => String(ranked.indexOf(r) + 1), align: 'right' },
      { header: 'Profileset', value: (r) => r.name, shrinkable: true },
      { header: 'DPS', value: (r) => formatNumber(r.mean, 1), align: 'right' },
      { header: '±', value: (r) => formatNumber(r.mean_error, 1), align: 'right' },
      { header: 'Δ DPS', value: (r) => signed(r.mean - baseline, 1), align: 'right' },
      { header: 'Δ %', value: (r) => `${signed(((r.mean - baseline) / baseline) * 100, 2)}%`, align: 'right' },
      { header: 'Stage', value: (r) => String(r.stage ?? 1), align: 'right' },
    ]);
    if (sets.count > sets.results.length) {
      out.line(c.dim(`The summary holds the top ${sets.results.length} of ${sets.count} profilesets; use --all for every one.`));
    } else if (sets.results.length > options.top) {
      out.line(c.dim(`Showing ${options.top} of ${sets.results.length} profilesets; use --top or --all for more.`));
    }
  }

  const multi = summary?.multiStage;
  if (multi?.enabled && multi.stages?.length) {
    out.line();
    out.line(`Multistage: ${multi.stages.map((s) => `${s.label ?? `stage ${s.stage}`} ${s.profilesets ?? '?'} (−${s.culled ?? 0})`).join(' → ')}`);
  }

  const artifacts = record.result.artifacts ?? [];
  if (artifacts.length) {
    out.line();
    out.line(`Artifacts: ${artifacts.map((a) => (a.stage ? `${a.kind}@${a.stage}` : a.kind)).join(', ')}`);
  }
  if (record.links?.share) out.line(`Share: ${record.links.share}`);
}

function signed(n: number, digits: number): string {
  const text = formatNumber(Math.abs(n), digits);
  return n > 0 ? `+${text}` : n < 0 ? `−${text}` : text;
}
