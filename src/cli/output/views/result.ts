import type { Artifact, ResultRecord } from '../../../core/resources/schemas.js';
import { adviceFor } from '../../../core/jobs/states.js';
import { buildLabel } from '../build-label.js';
import { colourState, type Colours } from '../ansi.js';
import { formatDuration, formatNumber, signed } from '../../../util/format.js';
import { painted, type Output } from '../io.js';
import type { RankedProfileset } from '../../../domain/report/profileset-list.js';
import { terminalSafeLine as safe } from '../../../util/safe.js';
import { difference, rankByMean } from '../../../util/stats.js';
import { printTable, type Column } from '../table.js';
import { isTopGearJob } from '../../../domain/job-kind.js';
import { printTopGearHeadline } from './topgear.js';
import type { StatWeights } from '../../../domain/statweights/weights.js';
import { printStatWeights } from './statweights.js';
import { printDroptimizer } from './droptimizer.js';
import { isSynthetic, warnSynthetic } from '../synthetic.js';

export { signed };

/** How many profilesets a result or a comparison lists without --top. */
export const DEFAULT_TOP = 20;

export interface ResultViewOptions {
  /** How many profilesets to list (Infinity: all there are); DEFAULT_TOP when not given. */
  top?: number | undefined;
  /** Every profileset, read from the JSON report (--all); replaces the summary's top 200. */
  all?: RankedProfileset[];
  /** simc's warnings from the report (`notifications`). */
  notifications?: readonly string[];
  /** The weights of a stat-weights job (cli/show-job/statweights.ts), shown under its profilesets. */
  statWeights?: StatWeights;
}

/** Why multistage did not run, in words (spec 2.4 reasons; notes §15), here and in the HTML report. */
export const MULTISTAGE_REASON_WORDS: Record<string, string> = {
  unsupported_stage_sensitive_directive: 'the profile uses a stage-sensitive directive',
  unsupported_copy_set_only: 'copy=/set= comparisons cannot be split into stages',
  unsupported_mixed_profileset_copy_set: 'profilesets are mixed with copy=/set=',
  no_variants_in_input: 'the profile has no profileset.* lines',
  unsupported_multi_actor: 'the profile declares more than one player',
  no_profileset_candidates: 'the profilesets resolved to no candidates',
  below_min_candidates: 'fewer than 4 candidates',
};

/**
 * The human view of a result: headline, outcome and advice, ranked profilesets (with the difference from the
 * baseline and a bar), the multistage funnel, warnings, artifacts and the share link. Data goes to stdout; hints
 * and warnings to stderr.
 */
export function printResult(out: Output, record: ResultRecord, options: ResultViewOptions): void {
  warnSynthetic(out, isSynthetic(record));
  printHeadline(out, record);
  printTopGearHeadline(out, record);
  printDroptimizer(out, record);
  printOutcome(out, record);
  printProfilesets(out, record, options);
  printActors(out, record, options);
  printFunnel(out, record);
  if (options.statWeights) printStatWeights(out, options.statWeights);
  printWarnings(out, record);
  for (const note of options.notifications ?? []) out.warn(`simc notification: ${safe(note)}`);
  printArtifacts(out, record);
}

function printHeadline(out: Output, record: ResultRecord): void {
  const c = out.c;
  const summary = record.result.summary;
  const actor = summary?.mainActor;
  const runtime = record.runtime;
  const metric = summary?.metric === 'raid_dps' ? 'raid dps (group total)' : (summary?.metric ?? 'dps');
  const relative =
    actor?.mean && typeof actor.mean_error === 'number'
      ? ` (${formatNumber((actor.mean_error / actor.mean) * 100, 2)}%)`
      : '';
  const fee = runtime?.priorityFeeCredits ? ` (incl. ${formatNumber(runtime.priorityFeeCredits)} priority fee)` : '';
  out.keyValues([
    ['Job', record.id],
    [
      'Status',
      painted(`${colourState(c, record.status)}${record.retried ? c.dim(' (retried after a platform error)') : ''}`),
    ],
    [
      'Actor',
      actor
        ? painted(
            `${safe(actor.name)}  ${c.bold(formatNumber(actor.mean, 1))} ${safe(metric)} ± ${formatNumber(actor.mean_error, 1)}${relative}`,
          )
        : undefined,
    ],
    ['Build', buildLabel(record.id, record.build)],
    ['Sim time', formatDuration(runtime?.simDurationMs)],
    ['Total time', formatDuration(runtime?.totalDurationMs)],
    [
      'Credits',
      typeof runtime?.creditsConsumed === 'number' ? `${formatNumber(runtime.creditsConsumed)}${fee}` : undefined,
    ],
  ]);
}

function printOutcome(out: Output, record: ResultRecord): void {
  if (!record.errorCode && record.status === 'completed') return;
  out.line();
  const reason = record.statusReason ?? '';
  out.line(`${out.c.red(safe(record.errorCode ?? record.status))}: ${safe(reason)}`.trimEnd());
  const advice = adviceFor(record.errorCode, record.statusReason);
  if (advice) out.line(out.c.dim(advice));
}

interface Row extends RankedProfileset {
  baseline?: boolean;
}

function printProfilesets(out: Output, record: ResultRecord, options: ResultViewOptions): void {
  const actor = record.result.summary?.mainActor;
  const sets = actor?.profilesets;
  const source = options.all ?? (sets ? rankByMean(sets.results) : []);
  if (!actor || source.length === 0) return;

  const shown: Row[] = source.slice(0, options.top ?? DEFAULT_TOP);
  const base: Row = {
    name: isTopGearJob(record.metadata) ? `equipped set (${actor.name})` : `baseline (${actor.name})`,
    mean: actor.mean,
    mean_error: actor.mean_error,
    stage: null,
    baseline: true,
  };
  // On a terminal the baseline sits among the profilesets, where it ranks, when that place is within the list.
  const tty = out.stdoutIsTTY;
  const rows: Row[] = [...shown];
  let baseAt = -1;
  if (tty) {
    const at = rows.findIndex((r) => r.mean < actor.mean);
    baseAt = at >= 0 ? at : shown.length === source.length ? rows.length : -1;
    if (baseAt >= 0) rows.splice(baseAt, 0, base);
  }
  // A profileset's rank, from its row's place (the baseline's row not counted): not kept on a copy of each row,
  // which for the 20,000 rows of `result --all` cost about as much as formatting them.
  const rank = (index: number) => String(baseAt >= 0 && index > baseAt ? index : index + 1);

  const c = out.c;
  // two columns of a row need its difference: worked out once (20,000 rows of --all)
  let last: { row: Row; diff: ReturnType<typeof difference> } | undefined;
  const delta = (r: Row) => (last?.row === r ? last.diff : (last = { row: r, diff: difference(actor, r) }).diff);
  const noise = (text: string, r: Row) =>
    r.baseline ? c.dim(text) : delta(r).significant === false ? c.dim(text) : text;
  const columns: Array<Column<Row>> = [
    {
      header: '#',
      value: (r, i) => (r.baseline ? '—' : rank(i)),
      align: 'right',
      style: (t, r) => (r.baseline ? c.dim(t) : t),
    },
    { header: 'Profileset', value: (r) => r.name, shrinkable: true, style: (t, r) => (r.baseline ? c.cyan(t) : t) },
    {
      header: 'DPS',
      value: (r) => formatNumber(r.mean, 1),
      align: 'right',
      style: (t, r) => (r.baseline ? c.cyan(t) : c.bold(t)),
    },
    { header: '±', value: (r) => formatNumber(r.mean_error, 1), align: 'right', style: (t) => c.dim(t) },
    {
      header: 'Δ DPS',
      value: (r) => (r.baseline ? '' : signed(delta(r).delta, 1)),
      align: 'right',
      style: (t, r) => noise(colourSign(c, t), r),
    },
    {
      header: 'Δ %',
      value: (r) => (r.baseline ? '' : `${signed(delta(r).percent ?? 0, 2)}%`),
      align: 'right',
      style: (t, r) => noise(colourSign(c, t), r),
    },
    { header: 'Stage', value: (r) => (r.baseline ? '' : String(r.stage ?? 1)), align: 'right' },
  ];
  if (tty) {
    const width = barWidth(out, rows, columns, isTopGearJob(record.metadata) ? 40 : 24);
    if (width > 0) {
      // Drawn from the baseline: a row's bar is its Δ, so rows equal within the error look equal. reduce, not
      // Math.max(...rows): one argument per profileset overflows the stack past ~120,000.
      const up = rows.reduce((m, r) => Math.max(m, r.mean - actor.mean), 0);
      const down = rows.reduce((m, r) => Math.max(m, actor.mean - r.mean), 0);
      columns.push({
        header: '',
        value: (r) => (r.baseline ? '' : deltaBar(r.mean - actor.mean, up, down, width)),
        style: (t, r) => (r.baseline ? c.cyan(t) : r.mean >= actor.mean ? c.green(t) : c.red(t)),
      });
    }
  }
  out.line();
  printTable(out, rows, columns);

  const total = sets?.count ?? source.length;
  if (options.all) {
    const missing = total - source.length;
    out.notice(
      out.ce.dim(
        `All ${formatNumber(source.length)} profilesets, read from the JSON report${missing > 0 ? `; ${formatNumber(missing)} produced no result (mean 0) and are not listed` : ''}.`,
      ),
    );
  } else if (sets && sets.count > sets.results.length) {
    out.notice(
      out.ce.dim(
        `The summary holds the top ${formatNumber(sets.results.length)} of ${formatNumber(sets.count)} profilesets${shown.length < sets.results.length ? ` (showing ${shown.length}; --top N for more)` : ''}; --all reads every one from the JSON report.`,
      ),
    );
  } else if (source.length > shown.length) {
    out.notice(
      out.ce.dim(
        `Showing the top ${shown.length} of ${formatNumber(source.length)} profilesets; --top N or --all for more.`,
      ),
    );
  }
  if (tty && shown.some((r) => delta(r).significant === false)) {
    out.notice(out.ce.dim('Grey differences are within the combined 95% error of the baseline and the profileset.'));
  }
}

/** The actors of a multi-actor (`copy=`) comparison, best first, each against the headline actor. */
function printActors(out: Output, record: ResultRecord, options: ResultViewOptions): void {
  const summary = record.result.summary;
  const actors = summary?.actors;
  const main = summary?.mainActor;
  if (!actors?.results.length || !main) return;
  const rows = actors.results.slice(0, options.top ?? DEFAULT_TOP).map((a, i) => ({ ...a, rank: i + 1 }));
  const c = out.c;
  const columns: Array<Column<(typeof rows)[number]>> = [
    { header: '#', value: (r) => String(r.rank), align: 'right' },
    {
      header: 'Actor',
      value: (r) => safe(r.name),
      shrinkable: true,
      style: (t, r) => (r.name === main.name ? c.cyan(t) : t),
    },
    { header: 'DPS', value: (r) => formatNumber(r.mean, 1), align: 'right', style: (t) => c.bold(t) },
    { header: '±', value: (r) => formatNumber(r.mean_error, 1), align: 'right', style: (t) => c.dim(t) },
  ];
  // Against the headline actor's own DPS only: with raid_dps its mean is the group's total.
  if (summary.metric !== 'raid_dps') {
    columns.push({
      header: `Δ % vs ${safe(main.name)}`,
      value: (r) => (r.name === main.name ? '' : `${signed(((r.mean - main.mean) / main.mean) * 100, 2)}%`),
      align: 'right',
      style: (t) => colourSign(c, t),
    });
  }
  out.line();
  printTable(out, rows, columns);
  if (actors.count > rows.length)
    out.notice(
      out.ce.dim(
        `Showing the top ${rows.length} of ${formatNumber(actors.count)} actors${actors.count > actors.results.length ? '; the JSON report has every one' : '; --top N for more'}.`,
      ),
    );
}

function printFunnel(out: Output, record: ResultRecord): void {
  const multi = record.result.summary?.multiStage;
  if (!multi?.enabled || !multi.stages?.length) return;
  const steps = multi.stages.map((s) => {
    const culled = s.culled ? out.c.dim(` (${formatNumber(s.culled)} culled)`) : '';
    return `${formatNumber(s.profilesets ?? 0)} ${safe(s.label ?? `stage ${s.stage}`)}${culled}`;
  });
  out.line();
  out.keyValues([['Multistage', painted(steps.join(' → '))]]);
}

function printWarnings(out: Output, record: ResultRecord): void {
  const raw = (record as { warnings?: unknown }).warnings;
  for (const w of Array.isArray(raw) ? raw : []) {
    const entry = w as { line?: number; message?: string; kind?: string };
    out.warn(`${entry.line ? `line ${entry.line}: ` : ''}${entry.message ?? entry.kind ?? 'warning'}`);
  }
  const multi = record.result.summary?.multiStage;
  if (multi && !multi.enabled && multi.reason && multi.reason !== 'disabled_by_option') {
    out.warn(
      `Multistage did not run (${multi.reason}): ${MULTISTAGE_REASON_WORDS[multi.reason] ?? 'see the reason'}; the job ran as a single pass.`,
    );
  }
  if (record.status === 'completed' && (record.result.artifacts ?? []).length === 0) {
    out.warn(
      `The artifacts of this job have expired${record.retentionDays ? ` (kept ${record.retentionDays} days after completion)` : ''}.`,
    );
  }
}

function printArtifacts(out: Output, record: ResultRecord): void {
  const artifacts = record.result.artifacts ?? [];
  const html = [...artifacts].reverse().find((a) => a.kind === 'html_report');
  const pairs: Array<[string, string | undefined]> = [
    ['Artifacts', artifacts.length ? describeArtifacts(artifacts) : undefined],
    ['HTML report', html?.url],
    ['Share', record.links?.share ?? undefined],
  ];
  if (!pairs.some(([, v]) => v)) return;
  out.line();
  out.keyValues(pairs);
  if (artifacts.length) out.notice(out.ce.dim(`Download them with: simjob artifacts ${record.id} --download`));
}

/** `json_report (stages 1–3), html_report, input, stdout_log`. */
function describeArtifacts(artifacts: Artifact[]): string {
  const kinds = new Map<string, number[]>();
  for (const a of artifacts) {
    const stages = kinds.get(a.kind) ?? [];
    if (a.stage) stages.push(a.stage);
    kinds.set(a.kind, stages);
  }
  return [...kinds]
    .map(([kind, stages]) => (stages.length > 1 ? `${kind} (stages ${stages.join(', ')})` : kind))
    .join(', ');
}

/** How many cells the bar may take so the table still fits the terminal (0: no bar). */
function barWidth(out: Output, rows: Row[], columns: Array<Column<Row>>, minName: number): number {
  const width = out.width ?? 100;
  // reduce, not Math.max(...rows): one argument per row overflows the stack past ~120,000 rows.
  const natural = columns.map((col) =>
    rows.reduce((widest, r, i) => Math.max(widest, [...col.value(r, i)].length), col.header.length),
  );
  const nameIndex = columns.findIndex((col) => col.shrinkable);
  // Names give up width for the bar down to `minName` characters (they wrap, never cut); below that the bar goes
  // instead. A top gear name lists several changes, and reads better on fewer lines than beside a bar.
  const name = Math.min(natural[nameIndex] ?? 0, minName);
  const fixed = natural.reduce((a, b, i) => a + (i === nameIndex ? name : b), 0) + 2 * columns.length;
  const room = width - fixed;
  return room >= 6 ? Math.min(20, room) : 0;
}

const EIGHTHS = ['', '▏', '▎', '▍', '▌', '▋', '▊', '▉'];

/**
 * A bar of a difference from the baseline, within `width` cells: gains grow to the right, losses to the left of
 * the same axis (when the rows hold both, the cells are shared in proportion to the largest of each).
 */
export function deltaBar(delta: number, maxUp: number, maxDown: number, width: number): string {
  const left = maxUp + maxDown > 0 ? Math.round((width * maxDown) / (maxUp + maxDown)) : 0;
  if (delta < 0) {
    const cells = Math.max(1, Math.round((-delta / maxDown) * left));
    return ' '.repeat(left - cells) + '█'.repeat(cells);
  }
  const right = width - left;
  const eighths = maxUp > 0 ? Math.round((delta / maxUp) * right * 8) : 0;
  return ' '.repeat(left) + '█'.repeat(Math.floor(eighths / 8)) + (EIGHTHS[eighths % 8] ?? '');
}

function colourSign(c: Colours, text: string): string {
  if (text.startsWith('+')) return c.green(text);
  if (text.startsWith('−')) return c.red(text);
  return text;
}
