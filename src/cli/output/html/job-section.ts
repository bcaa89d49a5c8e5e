import { adviceFor } from '../../../core/jobs/states.js';
import { buildLabel } from '../build-label.js';
import { formatDuration, formatNumber, formatTime } from '../../../util/format.js';
import type { RankedProfileset } from '../../../domain/report/profileset-list.js';
import { difference, type Difference } from '../../../util/stats.js';
import { MULTISTAGE_REASON_WORDS, signed } from '../views/result.js';
import { axisNote, barChart, distributionChart, funnelChart, type Bar } from './charts.js';
import { link, text } from './escape.js';
import { isTopGear, type ReportJob } from './model.js';
import { statWeightsSection } from './statweights-section.js';
import { droptimizerSection } from './droptimizer.js';
import { topGearAnswer } from '../../../domain/topgear/answer.js';

export interface SectionOptions {
  /** Profilesets in the bar chart; the table always lists every one. */
  top: number;
  /** Heading level of the section's parts: 2 on a one-job page, 3 inside a job's section. */
  level: 2 | 3;
}

/** The colour class of a difference (always with a sign and words beside it). */
export function roleOf(d: Difference): Bar['role'] {
  if (d.significant === false || d.delta === 0) return 'same';
  return d.delta > 0 ? 'better' : 'worse';
}

/** "+1.20%", or "+0.02% n.s." when the difference is within the combined error. */
export function deltaNote(d: Difference): string {
  return `${d.percent === undefined ? signed(d.delta, 0) : `${signed(d.percent, 2)}%`}${d.significant === false ? ' n.s.' : ''}`;
}

export function legend(referenceWord: string): string {
  return `<p class="legend"><span><span class="swatch better"></span>better (significant, +)</span><span><span class="swatch worse"></span>worse (significant, −)</span><span><span class="swatch same"></span>within the error (n.s.)</span><span><span class="swatch reference"></span>${text(referenceWord)} (hatched, dashed line)</span><span>whiskers: 95% error</span></p>`;
}

/** One job: the top gear answer, headline, outcome, ranked profilesets (chart, overview, table), funnel, artifacts. */
export function jobSection(job: ReportJob, options: SectionOptions): string {
  const ranked = profilesets(job, options);
  const weights = job.statWeights ? statWeightsSection(job.statWeights, options.level) : '';
  const drops = droptimizerSection(job, options.level);
  const parts = [
    topGear(job),
    headline(job),
    outcome(job),
    weights,
    drops,
    ranked.charts,
    funnel(job, options),
    ranked.table,
  ];
  return [...parts, artifacts(job, options)].join('\n');
}

/** A top gear job opens with its answer, in the words of `simjob result`: what to equip, or the tie, and the vault. */
function topGear(job: ReportJob): string {
  const answer = topGearAnswer(job.record);
  if (!answer) return '';
  const more = [answer.separate, answer.vault, answer.unchecked]
    .filter((p): p is string => Boolean(p))
    .map((p) => `<p>${text(p)}</p>`);
  const first = `<p class="answer-headline"><strong>${text(answer.headline)}</strong></p>`;
  return `<section class="answer" aria-label="Answer">${first}${more.join('')}</section>`;
}

export function headline(job: ReportJob): string {
  const r = job.record;
  const actor = r.result.summary?.mainActor;
  const metric = r.result.summary?.metric ?? 'dps';
  const runtime = r.runtime;
  const rows: Array<[string, string | undefined]> = [];
  if (actor) {
    const relative =
      actor.mean && typeof actor.mean_error === 'number'
        ? ` (${formatNumber((actor.mean_error / actor.mean) * 100, 2)}%)`
        : '';
    rows.push(['Actor', text(actor.name)]);
    rows.push([
      metric.toUpperCase(),
      `<span class="dps">${formatNumber(actor.mean, 1)}</span> ± ${formatNumber(actor.mean_error, 1)}${relative}`,
    ]);
  }
  rows.push([
    'Status',
    `<span class="status-${text(r.status)}">${text(r.status)}</span>${r.retried ? ' (retried after a platform error)' : ''}`,
  ]);
  const build = buildLabel(r.id, r.build);
  if (build) rows.push(['Build', text(build)]);
  rows.push(['Sim time', text(formatDuration(runtime?.simDurationMs) ?? '')]);
  rows.push(['Total time', text(formatDuration(runtime?.totalDurationMs) ?? '')]);
  if (typeof runtime?.creditsConsumed === 'number') rows.push(['Credits', formatNumber(runtime.creditsConsumed)]);
  rows.push(['Job', `<code>${text(r.id)}</code>`]);
  if (r.links?.share) rows.push(['Share', link(r.links.share)]);
  const finished = formatTime(r.completedAt);
  if (finished) rows.push(['Finished', text(finished)]);
  const metadata = Object.entries(r.metadata ?? {}).map(
    ([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`,
  );
  if (metadata.length) rows.push(['Metadata', metadata.map((m) => `<code>${text(m)}</code>`).join(' ')]);
  return `<dl class="headline">${rows
    .filter(([, v]) => v)
    .map(([k, v]) => `<dt>${text(k)}</dt><dd>${v}</dd>`)
    .join('')}</dl>`;
}

function outcome(job: ReportJob): string {
  const r = job.record;
  if (r.status === 'completed' && !r.errorCode) return '';
  const advice = adviceFor(r.errorCode, r.statusReason);
  const what = r.errorCode ?? r.status;
  return `<p class="outcome"><strong>${text(what)}</strong>${r.statusReason ? `: ${text(r.statusReason)}` : ''}${advice ? `<br>${text(advice)}` : ''}</p>`;
}

interface Row extends RankedProfileset {
  rank: number | undefined;
  baseline: boolean;
  d: Difference | undefined;
}

/** The ranked rows with the baseline in its place by DPS. */
function rankedRows(job: ReportJob): Row[] {
  const actor = job.record.result.summary!.mainActor!;
  const rows: Row[] = job.profilesets.map((p, i) => ({ ...p, rank: i + 1, baseline: false, d: difference(actor, p) }));
  const name = `${isTopGear(job) ? 'equipped set' : 'baseline'} (${actor.name})`;
  const base: Row = {
    name,
    mean: actor.mean,
    mean_error: actor.mean_error,
    rank: undefined,
    baseline: true,
    d: undefined,
  };
  const at = rows.findIndex((r) => r.mean < actor.mean);
  rows.splice(at < 0 ? rows.length : at, 0, base);
  return rows;
}

/** The charts of the ranked profilesets, and (after the funnel) the table of every one. */
function profilesets(job: ReportJob, options: SectionOptions): { charts: string; table: string } {
  const summary = job.record.result.summary;
  const actor = summary?.mainActor;
  if (!actor || job.profilesets.length === 0) return { charts: '', table: '' };
  const h = `h${options.level}`;
  const metric = summary?.metric ?? 'dps';
  const noun = isTopGear(job) ? 'combinations' : 'profilesets';
  const rows = rankedRows(job);
  const shown = Math.min(options.top, job.profilesets.length);
  const parts = [`<${h}>Ranked ${noun}</${h}>`, topChart(job, rows, shown, metric, noun)];
  if (job.profilesets.length > shown) parts.push(overviewChart(job, shown, metric, noun));
  if (job.count > job.profilesets.length) {
    parts.push(
      `<p class="caption">The job's summary lists the top ${formatNumber(job.profilesets.length)} of its ${formatNumber(job.count)} ${noun}; <code>simjob report ${text(job.record.id)}</code> reads every one from its JSON report while the artifacts are kept.</p>`,
    );
  }
  return {
    charts: parts.join('\n'),
    table: `<${h}>Every ${noun.replace(/s$/, '')}</${h}>\n${table(job, rows, metric, noun)}`,
  };
}

/** Bars for the best `shown` and the baseline: where it ranks, or last (saying where it ranks) when below them all. */
function topChart(job: ReportJob, rows: Row[], shown: number, metric: string, noun: string): string {
  const actor = job.record.result.summary!.mainActor!;
  const above = rows.findIndex((r) => r.baseline);
  const baselineNote = above > shown ? `baseline (after #${formatNumber(above)})` : 'baseline';
  const bars: Bar[] = rows
    .filter((r) => r.baseline || (r.rank ?? Infinity) <= shown)
    .map((r) => ({
      label: r.baseline ? r.name : `${r.rank}. ${r.name}`,
      mean: r.mean,
      error: r.mean_error,
      role: r.baseline ? 'reference' : roleOf(r.d!),
      note: r.baseline ? baselineNote : deltaNote(r.d!),
    }));
  const total = job.profilesets.length;
  const best = job.profilesets[0]!;
  const better = job.profilesets.filter((p) => difference(actor, p).significant && p.mean > actor.mean).length;
  const title =
    shown < total
      ? `The best ${shown} of ${formatNumber(total)} ${noun}, with the baseline`
      : `All ${formatNumber(total)} ${noun}, with the baseline`;
  const description = `${title}, by mean ${metric} with 95% error bars. Best: ${best.name}, ${formatNumber(best.mean, 0)} (${deltaNote(difference(actor, best))} against the baseline's ${formatNumber(actor.mean, 0)}). ${better} of ${formatNumber(total)} are significantly better than the baseline. Every value is in the table below.`;
  const chart = barChart(bars, {
    title,
    description,
    reference: { value: actor.mean, label: `baseline ${formatNumber(actor.mean, 0)}` },
    metric,
  });
  return `<figure>${chart}<figcaption>${text(title)}. ${legend('baseline')} ${text(axisNote(bars, actor.mean))}</figcaption></figure>`;
}

/** Every profileset as one line with its error band, for when there are more than the bars show. */
function overviewChart(job: ReportJob, shown: number, metric: string, noun: string): string {
  const actor = job.record.result.summary!.mainActor!;
  const sets = job.profilesets;
  const title = `All ${formatNumber(sets.length)} ${noun}, best to worst`;
  const description = `${title}: mean ${metric} by rank with its 95% error band; the dashed line is the baseline (${formatNumber(actor.mean, 0)}). Ranks 1 to ${shown} are the chart above. Range: ${formatNumber(sets[sets.length - 1]!.mean, 0)} to ${formatNumber(sets[0]!.mean, 0)}.`;
  const chart = distributionChart(sets, { title, description, baseline: actor.mean, shown, metric });
  return `<figure>${chart}<figcaption>${text(title)}: the line is the mean, the band its 95% error, the dashed line the baseline.</figcaption></figure>`;
}

function table(job: ReportJob, rows: Row[], metric: string, noun: string): string {
  const staged = job.profilesets.some((p) => (p.stage ?? 1) > 1);
  const head = [
    '<th data-type="num">#</th>',
    `<th class="text" data-type="text" data-filter="name">${isTopGear(job) ? 'Combination' : 'Profileset'}</th>`,
    `<th data-type="num" aria-sort="descending">${text(metric.toUpperCase())}</th>`,
    '<th data-type="num">± error</th><th data-type="num">Δ</th><th data-type="num">Δ %</th><th data-type="text">Significant</th>',
    staged ? '<th data-type="num">Stage</th>' : '',
  ].join('');
  const body = rows.map((r) => {
    if (r.baseline) {
      return `<tr class="baseline"><td>—</td><td class="text">${text(r.name)}</td><td>${formatNumber(r.mean, 1)}</td><td>${formatNumber(r.mean_error, 1)}</td><td></td><td></td><td>baseline</td>${staged ? '<td></td>' : ''}</tr>`;
    }
    const d = r.d!;
    const role = roleOf(d);
    const verdict = d.significant === undefined ? '—' : d.significant ? 'yes' : 'no';
    return `<tr><td>${r.rank}</td><td class="text">${text(r.name)}</td><td>${formatNumber(r.mean, 1)}</td><td>${formatNumber(r.mean_error, 1)}</td><td class="${role}">${signed(d.delta, 1)}</td><td class="${role}">${d.percent === undefined ? '' : `${signed(d.percent, 2)}%`}</td><td>${verdict}</td>${staged ? `<td>${r.stage ?? 1}</td>` : ''}</tr>`;
  });
  const caption = `Every ${noun.replace(/s$/, '')} (${formatNumber(job.profilesets.length)}) and the baseline, best first. Δ is against the baseline; significant when |Δ| exceeds the combined 95% error √(e₁² + e₂²).${staged ? ' Stage: the last multistage stage it reached, whose figures these are.' : ''}`;
  return `<div class="table-wrap${rows.length > 40 ? ' tall' : ''}"><table class="sortable sets"><caption class="visually-hidden">${text(caption)}</caption><thead><tr>${head}</tr></thead><tbody>\n${body.join('\n')}\n</tbody></table></div><p class="caption">${text(caption)}</p>`;
}

function funnel(job: ReportJob, options: SectionOptions): string {
  const multi = job.record.result.summary?.multiStage;
  const h = `h${options.level}`;
  if (multi && !multi.enabled && multi.reason && multi.reason !== 'disabled_by_option') {
    return `<${h}>Multistage</${h}><p>Multistage did not run (<code>${text(multi.reason)}</code>): ${text(MULTISTAGE_REASON_WORDS[multi.reason] ?? 'see the reason')}; the job ran as a single pass.</p>`;
  }
  if (!multi?.enabled || !multi.stages?.length) return '';
  const stages = multi.stages.map((s) => ({
    label: s.label ?? `stage ${s.stage}`,
    profilesets: s.profilesets ?? 0,
    culled: s.culled ?? 0,
  }));
  const words = stages
    .map((s) => `${formatNumber(s.profilesets)} ${s.label}${s.culled ? ` (${formatNumber(s.culled)} culled)` : ''}`)
    .join(' → ');
  const title = 'Multistage funnel';
  return `<${h}>${title}</${h}><figure>${funnelChart(stages, { title, description: `Candidates per stage: ${words}.` })}<figcaption>${text(words)}. Each stage re-sims the survivors of the one before it more precisely.</figcaption></figure>`;
}

function artifacts(job: ReportJob, options: SectionOptions): string {
  const list = job.record.result.artifacts ?? [];
  if (list.length === 0) return '';
  const h = `h${options.level}`;
  const items = list.map((a) => `<li>${link(a.url, `${a.kind}${a.stage ? ` (stage ${a.stage})` : ''}`)}</li>`);
  return `<${h}>Artifacts</${h}><ul>${items.join('')}</ul><p class="caption">Artifact links expire; <code>simjob artifacts ${text(job.record.id)} --download</code> fetches fresh ones.</p>`;
}
