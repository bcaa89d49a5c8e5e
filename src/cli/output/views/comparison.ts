import type { ResultRecord } from '../../../core/resources/schemas.js';
import { warnSynthetic } from '../synthetic.js';
import { formatNumber, scenarioLabel } from '../../../util/format.js';
import type { Output } from '../io.js';
import { terminalSafeLine } from '../../../util/safe.js';
import { printTable, type Column } from '../table.js';
import type { CompareRow } from '../../../domain/report/compare.js';
import { signed } from './result.js';

/** The significance test, as printed under the table and carried in --json. */
export const TEST_DESCRIPTION =
  'Δ = B − A. ±Δ = √(eA² + eB²), the 95% half-width of the difference from the two 95% half-widths (mean_error). ' +
  'Significant when |Δ| > ±Δ: a two-sided z-test at the 5% level, assuming the two sims are independent.';

export interface Match {
  profile: string;
  scenario: string;
  a: ResultRecord;
  b: ResultRecord;
  rows: CompareRow[];
  /** Why some profilesets could not be paired: a side's summary was cut and its full list could not be read. */
  incomplete?: string[];
}

export interface Unmatched {
  side: 'a' | 'b';
  profile: string;
  scenario: string;
  id: string;
  /** `only in A`, or why it cannot be compared (`no DPS: it ended failed (simc_error)`). */
  reason: string;
  /** It has a partner but no DPS (a job that failed, was cancelled or timed out): a regression gate cannot judge it. */
  noDps?: true;
}

/** One side of a comparison: a job id or a saved file, and how many results it held. */
export interface SourceInfo {
  arg: string;
  results: readonly unknown[];
}

export interface ComparisonView {
  a: SourceInfo;
  b: SourceInfo;
  matches: Match[];
  unmatched: Unmatched[];
  duplicates: string[];
  threshold: number | undefined;
  regressions: Array<{ profile: string; scenario: string; row: CompareRow }>;
  /** With --fail-on-regression (and no --allow-failed): the results without DPS, which fail the gate. */
  unjudged: Unmatched[];
  /** A side's numbers came from the stand-in simc. */
  synthetic: boolean;
}

interface Line extends CompareRow {
  match: Match;
  regression: boolean;
}

/**
 * One table: per match (profile and scenario; those columns only when there are several matches) the actor, then
 * its best `top` profilesets by A (every regression too), with Δ, Δ %, the combined error and significance.
 */
export function printComparison(out: Output, view: ComparisonView, top: number): void {
  const c = out.c;
  warnSynthetic(out, view.synthetic);
  const many = view.matches.length > 1 || view.unmatched.length > 0;
  const build = (r: ResultRecord) =>
    r.build ? [r.build.channel, r.build.commit?.slice(0, 10)].filter(Boolean).join(' @ ') : '';
  if (!many && view.matches[0]) {
    const m = view.matches[0];
    out.keyValues([
      ['A', terminalSafeLine(`${m.a.id}  ${build(m.a)}`)],
      ['B', terminalSafeLine(`${m.b.id}  ${build(m.b)}`)],
    ]);
  } else {
    const describe = (s: SourceInfo) => `${s.arg}  (${s.results.length} result${s.results.length === 1 ? '' : 's'})`;
    out.keyValues([
      ['A', terminalSafeLine(describe(view.a))],
      ['B', terminalSafeLine(describe(view.b))],
    ]);
  }
  const isRegression = new Set(view.regressions.map((r) => r.row));
  const lines: Line[] = [];
  let hidden = 0;
  for (const match of view.matches) {
    match.rows.forEach((row, i) => {
      const regression = isRegression.has(row);
      if (i <= top || regression) lines.push({ ...row, match, regression });
      else hidden++;
    });
  }
  const verdict = (r: Line) =>
    r.significant === undefined
      ? r.cut
        ? 'cut'
        : '—'
      : r.significant
        ? r.regression
          ? 'yes, regression'
          : 'yes'
        : 'no';
  const paint = (text: string, r: Line) => {
    if (r.significant !== true) return c.dim(text);
    return (r.delta ?? 0) > 0 ? c.green(text) : c.red(text);
  };
  const missing = (r: Line, side: 'a' | 'b') => (r.cut === side ? 'cut' : '—');
  const columns: Array<Column<Line>> = [
    ...(many
      ? [
          { header: 'Profile', value: (r: Line) => terminalSafeLine(r.match.profile) },
          { header: 'Scenario', value: (r: Line) => terminalSafeLine(r.match.scenario) },
        ]
      : []),
    {
      header: 'Name',
      value: (r) => terminalSafeLine(r.kind === 'actor' ? `${r.name} (actor)` : r.name),
      shrinkable: true,
      style: (t, r) => (r.kind === 'actor' ? c.cyan(t) : t),
    },
    { header: 'A', value: (r) => (r.a ? formatNumber(r.a.mean, 1) : missing(r, 'a')), align: 'right' },
    {
      header: '± A',
      value: (r) => (r.a ? formatNumber(r.a.mean_error, 1) : ''),
      align: 'right',
      style: (t) => c.dim(t),
    },
    { header: 'B', value: (r) => (r.b ? formatNumber(r.b.mean, 1) : missing(r, 'b')), align: 'right' },
    {
      header: '± B',
      value: (r) => (r.b ? formatNumber(r.b.mean_error, 1) : ''),
      align: 'right',
      style: (t) => c.dim(t),
    },
    { header: 'Δ', value: (r) => (r.delta === undefined ? '' : signed(r.delta, 1)), align: 'right', style: paint },
    {
      header: 'Δ %',
      value: (r) => (r.percent === undefined ? '' : `${signed(r.percent, 2)}%`),
      align: 'right',
      style: paint,
    },
    {
      header: '± Δ',
      value: (r) => (r.combinedError === undefined ? '' : formatNumber(r.combinedError, 1)),
      align: 'right',
      style: (t) => c.dim(t),
    },
    { header: 'Significant', value: verdict, style: paint },
  ];
  out.line();
  if (lines.length) printTable(out, lines, columns);

  const all = view.matches.flatMap((m) => m.rows);
  const compared = all.filter((r) => r.significant !== undefined);
  const note = (text: string) => out.notice(out.ce.dim(text));
  if (hidden) note(`${hidden} more profileset row${hidden === 1 ? '' : 's'} not shown; --top N or --all for more.`);
  note(
    `${compared.filter((r) => r.significant).length} of ${compared.length} differences are significant. ${TEST_DESCRIPTION}`,
  );
  const onlyOne = all.filter((r) => r.kind === 'profileset' && (!r.a || !r.b) && !r.cut).length;
  if (onlyOne) note(`${onlyOne} profileset${onlyOne === 1 ? ' is' : 's are'} in one job only (—).`);
  for (const m of view.matches) {
    for (const why of m.incomplete ?? [])
      out.notice(
        `Incomplete match ${terminalSafeLine(scenarioLabel(m))}: ${terminalSafeLine(why)}. Rows marked "cut" are unknown on that side, not missing.`,
      );
  }
  for (const u of view.unmatched)
    out.notice(
      `Not compared: ${terminalSafeLine(scenarioLabel(u))} (job ${terminalSafeLine(u.id)}): ${terminalSafeLine(u.reason)}.`,
    );
  for (const d of view.duplicates)
    out.warn(`${terminalSafeLine(d)} is given twice on one side; the first is compared.`);
}
