/** `compare --report`: each match as a JUnit test case (a regression fails it) and a Markdown summary. */
import { formatNumber, scenarioLabel } from '../../../util/format.js';
import { junitClassName, junitXml, type TestCase } from '../../output/reports/junit.js';
import { cell, markdownTable } from '../../output/reports/markdown.js';
import { writeReport } from '../../output/reports/files.js';
import type { ReportTarget } from '../../output/reports/spec.js';
import type { CompareRow } from '../../../domain/report/compare.js';
import type { ComparisonView, Match } from '../../output/views/comparison.js';
import { signed } from '../../output/views/result.js';
import { plural } from '../../../util/plural.js';
import { SYNTHETIC_MARKDOWN } from '../../output/synthetic.js';

/** Profileset rows listed in the Markdown summary besides the actors and the regressions: the largest changes. */
const MARKDOWN_CHANGES = 20;

export async function writeCompareReports(targets: readonly ReportTarget[], view: ComparisonView): Promise<void> {
  for (const t of targets) {
    if (t.format === 'junit') {
      const xml = junitXml('simjob compare', testCases(view), undefined, { synthetic: view.synthetic });
      await writeReport(t.path, xml, 'JUnit');
    } else await writeReport(t.path, markdown(view), 'Markdown');
  }
}

const figure = (r: CompareRow) =>
  `${r.name}${r.kind === 'actor' ? ' (actor)' : ''}: ${r.percent === undefined ? '?' : `${r.percent.toFixed(2)}%`} (Δ ${r.delta?.toFixed(1) ?? '?'} ± ${r.combinedError?.toFixed(1) ?? '?'})`;

function regressionsOf(view: ComparisonView, m: Match): CompareRow[] {
  return view.regressions.filter((r) => r.profile === m.profile && r.scenario === m.scenario).map((r) => r.row);
}

/**
 * One case per match; a match with no partner (or no DPS on one side) is skipped with the reason, never dropped, but
 * fails when the regression gate could not judge it (no DPS).
 */
function testCases(view: ComparisonView): TestCase[] {
  const cases: TestCase[] = view.matches.map((m) => {
    const bad = regressionsOf(view, m);
    const actor = m.rows[0];
    const output = [
      `A: job ${m.a.id}`,
      `B: job ${m.b.id}`,
      ...(actor ? [figure(actor)] : []),
      ...(m.incomplete ?? []).map((w) => `incomplete: ${w}`),
    ].join('\n');
    const base: TestCase = { name: scenarioLabel(m), classname: junitClassName('compare', m.profile), output };
    if (!bad.length) return base;
    return {
      ...base,
      failure: {
        type: 'regression',
        message: `${plural(bad.length, 'significant regression')} of more than ${view.threshold}%: ${bad.slice(0, 3).map(figure).join('; ')}${bad.length > 3 ? '; …' : ''}`,
        detail: bad.map(figure).join('\n'),
      },
    };
  });
  for (const u of view.unmatched) {
    const base = { name: scenarioLabel(u), classname: junitClassName('compare', u.profile) };
    const why = `job ${u.id}: ${u.reason}`;
    const judged = !view.unjudged.includes(u);
    cases.push(
      judged ? { ...base, skipped: why } : { ...base, failure: { type: 'no_dps', message: why, detail: why } },
    );
  }
  return cases;
}

function markdown(view: ComparisonView): string {
  const regressions = view.regressions.length;
  const unjudged = view.unjudged.length;
  const verdict =
    view.threshold === undefined
      ? `${plural(view.matches.length, 'match', 'matches')} compared.`
      : regressions || unjudged
        ? [
            regressions
              ? `:x: **${plural(regressions, 'significant regression')} of more than ${view.threshold}%.**`
              : '',
            unjudged ? `:x: **${plural(unjudged, 'result')} with no DPS to compare (see Not compared).**` : '',
          ]
            .filter(Boolean)
            .join(' ')
        : `:white_check_mark: No significant regression of more than ${view.threshold}%.`;
  const rows: Array<{ m: Match; r: CompareRow }> = [];
  for (const m of view.matches) {
    const bad = new Set(regressionsOf(view, m));
    const changes = m.rows
      .filter((r) => r.kind === 'profileset' && r.significant && !bad.has(r))
      .sort((x, y) => Math.abs(y.percent ?? 0) - Math.abs(x.percent ?? 0))
      .slice(0, MARKDOWN_CHANGES);
    for (const r of m.rows) if (r.kind === 'actor' || bad.has(r) || changes.includes(r)) rows.push({ m, r });
  }
  const isBad = new Set(view.regressions.map((r) => r.row));
  const table = markdownTable(
    ['Profile', 'Scenario', 'Name', 'A', 'B', 'Δ %', '± Δ', 'Significant'],
    rows.map(({ m, r }) => [
      cell(m.profile),
      cell(m.scenario),
      cell(r.kind === 'actor' ? `${r.name} (actor)` : r.name),
      r.a ? formatNumber(r.a.mean, 1) : '—',
      r.b ? formatNumber(r.b.mean, 1) : '—',
      r.percent === undefined ? '' : `${signed(r.percent, 2)}%`,
      r.combinedError === undefined ? '' : formatNumber(r.combinedError, 1),
      r.significant === undefined ? '—' : isBad.has(r) ? '**regression**' : r.significant ? 'yes' : 'no',
    ]),
    [3, 4, 5, 6],
  );
  const notes = [
    ...view.matches.flatMap((m) =>
      (m.incomplete ?? []).map((w) => `- Incomplete: ${cell(scenarioLabel(m))}: ${cell(w)}`),
    ),
    ...view.unmatched.map(
      (u) => `- Not compared: ${cell(scenarioLabel(u))} (job \`${cell(u.id)}\`): ${cell(u.reason)}`,
    ),
  ];
  return [
    `## simjob compare: ${cell(view.a.arg)} → ${cell(view.b.arg)}`,
    '',
    ...(view.synthetic ? [SYNTHETIC_MARKDOWN, ''] : []),
    verdict,
    '',
    table,
    '',
    'Actors, regressions and the largest significant profileset changes. Significant: |Δ| > √(eA² + eB²) (95%).',
    ...(notes.length ? ['', ...notes] : []),
    '',
  ].join('\n');
}
