import { formatNumber } from '../../../util/format.js';
import { difference } from '../../../util/stats.js';
import { signed } from '../views/result.js';
import { axisNote, barChart, type Bar } from './charts.js';
import { scriptJson, text } from './escape.js';
import { deltaNote, jobSection, legend, roleOf } from './job-section.js';
import {
  isTopGear,
  metadataString,
  profileLabel,
  scenarioMatrix,
  SCENARIO_KEY,
  type ReportJob,
  type ScenarioMatrix,
} from './model.js';
import { SCRIPT } from './script.js';
import { STYLE } from './style.js';
import { nodeCrypto } from '../../../util/crypto.js';
import { isSynthetic, SYNTHETIC_LABEL, SYNTHETIC_NOTE } from '../synthetic.js';

export interface ReportOptions {
  /** Profilesets in each bar chart (the tables list every one). */
  top: number;
  generatedAt: Date;
  /** "simjob 0.1.0", for the footer. */
  generator: string;
}

/** The hatch pattern the reference bars use, defined once per page. */
const DEFS =
  '<svg width="0" height="0" style="position:absolute" aria-hidden="true" focusable="false"><defs><pattern id="hatch" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)"><rect width="6" height="6" fill="none"/><line x1="0" y1="0" x2="0" y2="6" stroke="currentColor" stroke-width="2.5" style="stroke:var(--ref)"/></pattern></defs></svg>';

/**
 * One self-contained HTML page for one job, a batch, a scenario matrix or a comparison: inline CSS, inline SVG, one
 * small inline script and the data as JSON. Its Content-Security-Policy allows nothing else: no requests at all,
 * and no script but that one, so even a name that slipped past escaping could not run or fetch anything.
 */
export function renderReport(jobs: ReportJob[], options: ReportOptions): string {
  const matrix = scenarioMatrix(jobs);
  const title = pageTitle(jobs, matrix);
  const sections: string[] = [];
  if (jobs.length === 1) {
    sections.push(jobSection(jobs[0]!, { top: options.top, level: 2 }));
  } else {
    sections.push(matrix ? scenarioOverview(jobs, matrix) : comparisonOverview(jobs));
    jobs.forEach((job, i) => {
      sections.push(
        `<section id="job-${i + 1}" aria-labelledby="job-${i + 1}-h"><h2 id="job-${i + 1}-h">${i + 1}. ${text(jobTitle(job))}</h2>\n${jobSection(job, { top: options.top, level: 3 })}</section>`,
      );
    });
  }
  const hash = nodeCrypto().createHash('sha256').update(SCRIPT).digest('base64');
  const csp = `default-src 'none'; style-src 'unsafe-inline'; img-src data:; script-src 'sha256-${hash}'; base-uri 'none'; form-action 'none'`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="generator" content="${text(options.generator)}">
<title>${text(title)}</title>
<style>${STYLE}</style>
</head>
<body>
${DEFS}
<main>
${syntheticBanner(jobs)}<h1>${text(title)}</h1>
<p class="sub">${text(subtitle(jobs, options))}</p>
${sections.join('\n')}
<footer><p>Made by ${text(options.generator)} on ${text(
    options.generatedAt
      .toISOString()
      .replace('T', ' ')
      .replace(/\.\d+Z$/, ' UTC'),
  )}. The DPS figures and errors are the jobs' own; the page adds only the differences (Δ) and whether each is significant. The data is in this file as JSON (<code>#simjob-data</code>).</p></footer>
</main>
<script type="application/json" id="simjob-data">${scriptJson(pageData(jobs, options))}</script>
<script>${SCRIPT}</script>
</body>
</html>
`;
}

function pageTitle(jobs: ReportJob[], matrix: ScenarioMatrix | undefined): string {
  if (matrix)
    return `Scenario matrix: ${matrix.scenarios.length} scenario${matrix.scenarios.length === 1 ? '' : 's'} × ${matrix.profiles.length} profile${matrix.profiles.length === 1 ? '' : 's'}`;
  if (jobs.length > 1) return `Comparison of ${jobs.length} jobs`;
  const job = jobs[0]!;
  const actor = job.record.result.summary?.mainActor?.name;
  return `${isTopGear(job) ? 'Top gear' : 'Sim'}: ${actor ?? job.record.id}`;
}

function subtitle(jobs: ReportJob[], options: ReportOptions): string {
  const origins = [...new Set(jobs.map((j) => j.origin))].join(', ');
  const ids = jobs.length === 1 ? `Job ${jobs[0]!.record.id}` : `${jobs.length} jobs`;
  return `${ids}, from ${origins}. Generated ${options.generatedAt.toISOString().slice(0, 10)}.`;
}

/** "Patchwerk · fury.simc", or the actor's name. */
function jobName(job: ReportJob): string {
  const scenario = metadataString(job, SCENARIO_KEY);
  return `${scenario ? `${scenario} · ` : ''}${profileLabel(job)}`;
}

function jobTitle(job: ReportJob): string {
  return `${jobName(job)} (${job.record.id})`;
}

/** Jobs with DPS, as bars against a reference job (the first one with DPS). */
function jobBars(
  jobs: ReportJob[],
  label: (job: ReportJob) => string,
): { bars: Bar[]; reference: ReportJob | undefined } {
  const withDps = jobs.filter((j) => j.record.result.summary?.mainActor);
  const reference = withDps[0];
  const ref = reference?.record.result.summary?.mainActor;
  const bars = withDps.map((job, i): Bar => {
    const actor = job.record.result.summary!.mainActor!;
    const d = difference(ref!, actor);
    return {
      label: label(job),
      mean: actor.mean,
      error: actor.mean_error,
      role: i === 0 ? 'reference' : roleOf(d),
      note: i === 0 ? 'reference' : deltaNote(d),
    };
  });
  return { bars, reference };
}

/** Several jobs: one bar each with Δ against the first, and a table of them all. */
function comparisonOverview(jobs: ReportJob[]): string {
  const { bars, reference } = jobBars(jobs, (job) => `${jobs.indexOf(job) + 1}. ${jobName(job)}`);
  const parts = ['<h2>Jobs side by side</h2>'];
  if (reference) {
    const ref = reference.record.result.summary!.mainActor!;
    const title = `Main actor DPS of ${bars.length} jobs, Δ against the first`;
    const description = `${title} (${jobTitle(reference)}, ${formatNumber(ref.mean, 0)}). ${bars
      .slice(1)
      .map((b) => `${b.label}: ${formatNumber(b.mean, 0)} (${b.note})`)
      .join('; ')}.`;
    parts.push(
      `<figure>${barChart(bars, { title, description, reference: { value: ref.mean, label: `first job ${formatNumber(ref.mean, 0)}` } })}<figcaption>${text(title)}. ${legend('the first job')} ${text(axisNote(bars, ref.mean))}</figcaption></figure>`,
    );
  }
  parts.push(jobsTable(jobs, () => reference));
  parts.push(sharedProfilesets(jobs));
  return parts.join('\n');
}

/**
 * The profilesets the jobs have in common (the same profile on two builds, say), in the first job's ranking, with
 * each later job's DPS and Δ against the first job's figure for the same profileset.
 */
function sharedProfilesets(jobs: ReportJob[]): string {
  const withSets = jobs.filter((j) => j.profilesets.length > 0);
  if (withSets.length < 2) return '';
  const [first, ...others] = withSets as [ReportJob, ...ReportJob[]];
  const byName = others.map((j) => new Map(j.profilesets.map((p) => [p.name, p])));
  const names = first.profilesets.filter((p) => byName.some((m) => m.has(p.name)));
  if (names.length === 0) return '';
  const label = (job: ReportJob) => `${jobs.indexOf(job) + 1}. ${jobName(job)}`;
  const head = [
    '<th class="text" data-type="text" data-filter="name">Profileset</th>',
    `<th data-type="num">${text(label(first))}</th>`,
    ...others.map(
      (j) => `<th data-type="num">${text(label(j))}</th><th data-type="num">Δ % vs ${jobs.indexOf(first) + 1}</th>`,
    ),
  ].join('');
  const rows = names.map((p) => {
    const cells = byName.map((m) => {
      const q = m.get(p.name);
      if (!q) return '<td>—</td><td></td>';
      const d = difference(p, q);
      return `<td>${formatNumber(q.mean, 1)}</td><td class="${roleOf(d)}">${text(deltaNote(d))}</td>`;
    });
    return `<tr><td class="text">${text(p.name)}</td><td>${formatNumber(p.mean, 1)}</td>${cells.join('')}</tr>`;
  });
  const caption = `The ${formatNumber(names.length)} profilesets job ${jobs.indexOf(first) + 1} shares with the others, in its ranking; Δ % against its figure for the same profileset, n.s. when within the combined 95% error.`;
  return `<h3>Profilesets across jobs</h3><div class="table-wrap${rows.length > 40 ? ' tall' : ''}"><table class="sortable across"><caption class="visually-hidden">${text(caption)}</caption><thead><tr>${head}</tr></thead><tbody>\n${rows.join('\n')}\n</tbody></table></div><p class="caption">${text(caption)}</p>`;
}

/** Every job in the order given, with Δ against its reference: the first job, or the first profile of its scenario. */
function jobsTable(jobs: ReportJob[], referenceOf: (job: ReportJob) => ReportJob | undefined): string {
  const scenarios = jobs.some((j) => metadataString(j, SCENARIO_KEY));
  const rows = jobs.map((job, i) => {
    const reference = referenceOf(job);
    const ref = reference?.record.result.summary?.mainActor;
    const actor = job.record.result.summary?.mainActor;
    const d = actor && ref && job !== reference ? difference(ref, actor) : undefined;
    const role = d ? roleOf(d) : '';
    const build = job.record.build
      ? [job.record.build.channel, job.record.build.commit?.slice(0, 10)].filter(Boolean).join(' @ ')
      : '';
    return `<tr><td>${i + 1}</td><td class="text"><a href="#job-${i + 1}">${text(profileLabel(job))}</a></td>${scenarios ? `<td class="text">${text(metadataString(job, SCENARIO_KEY) ?? '')}</td>` : ''}<td>${actor ? formatNumber(actor.mean, 1) : '—'}</td><td>${actor ? formatNumber(actor.mean_error, 1) : ''}</td><td class="${role}">${d ? signed(d.delta, 1) : job === reference ? 'reference' : ''}</td><td class="${role}">${d?.percent !== undefined ? `${signed(d.percent, 2)}%` : ''}</td><td>${d ? (d.significant === undefined ? '—' : d.significant ? 'yes' : 'no') : ''}</td><td class="text status-${text(job.record.status)}">${text(job.record.status)}</td><td class="text nowrap">${text(build)}</td><td class="text"><code>${text(job.record.id)}</code></td></tr>`;
  });
  const head = `<th data-type="num">#</th><th class="text" data-type="text" data-filter="name">Profile</th>${scenarios ? '<th class="text" data-type="text">Scenario</th>' : ''}<th data-type="num">DPS</th><th data-type="num">± error</th><th data-type="num">Δ</th><th data-type="num">Δ %</th><th data-type="text">Significant</th><th class="text" data-type="text">Status</th><th class="text" data-type="text">Build</th><th class="text" data-type="text">Job</th>`;
  return `<div class="table-wrap"><table class="sortable jobs"><caption class="visually-hidden">Every job, in the order given, with Δ against its reference.</caption><thead><tr>${head}</tr></thead><tbody>${rows.join('\n')}</tbody></table></div>`;
}

/** A scenario matrix: a chart per scenario (its profiles, Δ against the first), then the matrix as a table. */
function scenarioOverview(jobs: ReportJob[], matrix: ScenarioMatrix): string {
  const parts = ['<h2>Scenarios</h2>', legend('the first profile of the scenario')];
  for (const scenario of matrix.scenarios) {
    const inScenario = matrix.profiles
      .map((p) => matrix.cell(scenario, p))
      .filter((j): j is ReportJob => j !== undefined);
    const { bars, reference } = jobBars(inScenario, profileLabel);
    parts.push(`<h3>${text(scenario)}</h3>`);
    if (!reference) {
      parts.push('<p>No job of this scenario has a result.</p>');
      continue;
    }
    const ref = reference.record.result.summary!.mainActor!;
    const title = `Scenario ${scenario}: DPS of ${bars.length} profile${bars.length === 1 ? '' : 's'}, Δ against ${profileLabel(reference)}`;
    const description = `${title}. ${bars.map((b) => `${b.label}: ${formatNumber(b.mean, 0)} (${b.note})`).join('; ')}.`;
    parts.push(
      `<figure class="scenario">${barChart(bars, { title, description, reference: { value: ref.mean, label: `${profileLabel(reference)} ${formatNumber(ref.mean, 0)}` } })}<figcaption>${text(title)}. ${text(axisNote(bars, ref.mean))}</figcaption></figure>`,
    );
  }
  parts.push('<h3>Matrix</h3>');
  const head = `<th scope="col" class="text">Profile</th>${matrix.scenarios.map((s) => `<th scope="col">${text(s)}</th>`).join('')}`;
  const rows = matrix.profiles.map((p) => {
    const cells = matrix.scenarios.map((s) => {
      const job = matrix.cell(s, p);
      const actor = job?.record.result.summary?.mainActor;
      if (!job) return '<td>—</td>';
      if (!actor) return `<td><a href="#job-${jobs.indexOf(job) + 1}">${text(job.record.status)}</a></td>`;
      return `<td><a href="#job-${jobs.indexOf(job) + 1}">${formatNumber(actor.mean, 0)}</a> ± ${formatNumber(actor.mean_error, 0)}</td>`;
    });
    return `<tr><th scope="row" class="text">${text(p)}</th>${cells.join('')}</tr>`;
  });
  parts.push(
    `<div class="table-wrap"><table class="matrix"><caption class="visually-hidden">Main actor DPS ± 95% error, one row per profile and one column per scenario.</caption><thead><tr>${head}</tr></thead><tbody>${rows.join('')}</tbody></table></div>`,
  );
  const firstOf = new Map(
    matrix.scenarios.map((s) => [
      s,
      matrix.profiles.map((p) => matrix.cell(s, p)).find((j) => j?.record.result.summary?.mainActor),
    ]),
  );
  parts.push(jobsTable(jobs, (job) => firstOf.get(metadataString(job, SCENARIO_KEY)!)));
  return parts.join('\n');
}

/** A banner above everything when any job's numbers came from the stand-in simc: a reader must not take them for real. */
function syntheticBanner(jobs: ReportJob[]): string {
  const made = jobs.filter((j) => isSynthetic(j.record)).length;
  if (made === 0) return '';
  const which = jobs.length === 1 || made === jobs.length ? '' : ` (${made} of ${jobs.length} jobs)`;
  const what = `${SYNTHETIC_NOTE[0]!.toUpperCase()}${SYNTHETIC_NOTE.slice(1)}${which}.`;
  return `<p class="synthetic" role="alert"><strong>${text(what.slice(0, SYNTHETIC_LABEL.length))}</strong>${text(what.slice(SYNTHETIC_LABEL.length))}</p>\n`;
}

/** The page's numbers, machine-readable: `JSON.parse(document.getElementById('simjob-data').textContent)`. */
function pageData(jobs: ReportJob[], options: ReportOptions) {
  return {
    generator: options.generator,
    generatedAt: options.generatedAt.toISOString(),
    jobs: jobs.map((job) => ({
      id: job.record.id,
      status: job.record.status,
      metadata: job.record.metadata ?? null,
      build: job.record.build ?? null,
      mainActor: job.record.result.summary?.mainActor
        ? {
            name: job.record.result.summary.mainActor.name,
            mean: job.record.result.summary.mainActor.mean,
            mean_error: job.record.result.summary.mainActor.mean_error ?? null,
          }
        : null,
      profilesetCount: job.count,
      synthetic: isSynthetic(job.record),
      /** [name, mean, mean_error, stage], best first. */
      profilesets: job.profilesets.map((p) => [p.name, p.mean, p.mean_error ?? null, p.stage ?? null]),
    })),
  };
}
