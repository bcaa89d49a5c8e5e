/** A droptimizer job's answer on the report page: the best upgrade, then each boss or dungeon by its best drop. */
import { analyseDrops } from '../../../domain/droptimizer/analysis.js';
import { exportCaveat, isDroptimizerJob } from '../../../domain/job-kind.js';
import { formatNumber, signed } from '../../../util/format.js';
import { headlineOf } from '../views/droptimizer.js';
import { text } from './escape.js';
import type { ReportJob } from './model.js';

export function droptimizerSection(job: ReportJob, level: 2 | 3): string {
  const actor = job.record.result.summary?.mainActor;
  if (!isDroptimizerJob(job.record.metadata) || !actor || job.profilesets.length === 0) return '';
  // every profileset the page lists (the JSON report's, when it was read), not only the summary's top
  const answer = analyseDrops({
    ...actor,
    profilesets: { count: job.count, results: job.profilesets.map((p) => ({ ...p })) },
  });
  const metric = job.record.result.summary?.metric ?? 'dps';
  const h = `h${level}`;
  const rows = answer.bySource.map((s, i) => {
    const role = s.best.significant === false || s.best.delta === 0 ? 'same' : s.best.delta > 0 ? 'better' : 'worse';
    const drop = `${s.best.item}${s.best.itemLevel ? ` (${s.best.itemLevel})` : ''} in ${s.best.slot}`;
    const percent = s.best.percent === null ? '' : `${signed(s.best.percent, 2)}%`;
    const cells = [
      `<td>${i + 1}</td><td class="text">${text(s.source)}</td><td class="text">${text(drop)}</td>`,
      `<td class="${role}">${signed(s.best.delta, 1)}</td><td class="${role}">${percent}</td>`,
      `<td>${formatNumber(s.upgrades)} of ${formatNumber(s.drops)}</td>`,
    ];
    return `<tr>${cells.join('')}</tr>`;
  });
  const head =
    '<th data-type="num">#</th><th class="text" data-type="text">Source</th>' +
    '<th class="text" data-type="text">Best drop</th><th data-type="num">Δ</th><th data-type="num">Δ %</th>' +
    '<th data-type="text">Upgrades</th>';
  const caption =
    'Each boss or dungeon by its best drop against what is worn. Upgrades: its drops (in their best slot) ' +
    'that beat the equipped set by more than the combined 95% error.';
  return [
    `<${h}>Droptimizer</${h}>`,
    `<p><strong>${text(headlineOf(answer, metric))}</strong></p>`,
    ...[exportCaveat(job.record.metadata)].filter((c) => c !== undefined).map((c) => `<p>${text(c)}</p>`),
    `<div class="table-wrap"><table class="sortable"><caption class="visually-hidden">${text(caption)}</caption>` +
      `<thead><tr>${head}</tr></thead><tbody>\n${rows.join('\n')}\n</tbody></table></div>`,
    `<p class="caption">${text(caption)}</p>`,
  ].join('\n');
}
