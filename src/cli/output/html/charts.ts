import { formatNumber } from '../../../util/format.js';
import { wrap } from '../table.js';
import { text } from './escape.js';

/**
 * Hand-made SVG charts for the HTML report. Each is an `<svg role="img">` with a `<title>` and a `<desc>` (its text
 * alternative); colours come from the page's CSS classes, and every colour has a word or a pattern beside it.
 */

/** One bar: a profileset, a baseline or a job. */
export interface Bar {
  /** Shown in full left of the bar, wrapped onto more lines when long; also the row's tooltip. */
  label: string;
  mean: number;
  error?: number | null | undefined;
  /** `reference`: the baseline, or the job the others are compared with (hatched). */
  role: 'reference' | 'better' | 'worse' | 'same';
  /** Right of the bar, after the value: "+1.20%", "baseline", "−0.02% n.s.". */
  note: string;
}

export interface BarChartOptions {
  title: string;
  description: string;
  /** A dashed vertical line across the chart (the baseline's or the reference job's mean). */
  reference?: { value: number; label: string };
  metric?: string;
  /** Decimals of the values beside the bars (default 0: DPS); stat weights per point need 2. */
  digits?: number;
}

const WIDTH = 960;
const LABEL_WIDTH = 250;
const NOTE_WIDTH = 210;
const ROW = 22;
const TOP = 26;
const BOTTOM = 28;
/** Characters of a label line that fit LABEL_WIDTH at the chart's 12 px font, and of a value and note beside. */
const LABEL_CHARS = 34;
const NOTE_CHARS = 28;
/** Line height of a wrapped label. */
const LINE = 14;
const px = (n: number) => (Math.round(n * 10) / 10).toString();

/** Round steps (1, 2, 5 × 10ⁿ) for about `count` ticks between lo and hi. */
export function niceTicks(lo: number, hi: number, count = 5): number[] {
  const raw = (hi - lo) / count;
  if (!(raw > 0) || !Number.isFinite(raw)) return [lo];
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * power).find((s) => s >= raw) ?? raw;
  const ticks: number[] = [];
  for (let t = Math.ceil(lo / step) * step; t <= hi + step * 1e-9; t += step) ticks.push(Math.round(t / step) * step);
  return ticks;
}

/**
 * The value range of a bar chart. Bars start below the lowest value (so the lowest bar still shows) rather than at 0,
 * since DPS differences of 1% would otherwise be invisible; the caption says where the axis starts. When starting
 * at 0 costs little (the spread is large next to the values) it starts at 0.
 */
export function barDomain(
  values: Array<{ mean: number; error?: number | null | undefined }>,
  extra: number[] = [],
): { lo: number; hi: number } {
  // A loop, not Math.min(...list): a call with one argument per profileset overflows the stack past ~120,000.
  let min = Math.min(Number.POSITIVE_INFINITY, ...extra);
  let max = Math.max(Number.NEGATIVE_INFINITY, ...extra);
  for (const v of values) {
    min = Math.min(min, v.mean - (v.error ?? 0));
    max = Math.max(max, v.mean + (v.error ?? 0));
  }
  const span = max - min || Math.abs(max) * 0.01 || 1;
  const hi = max + span * 0.05;
  let lo = min - span * 0.15;
  if (min >= 0 && (lo < 0 || min < span)) return { lo: 0, hi };
  // Start on a round number, one tick step below.
  const ticks = niceTicks(lo, hi);
  const step = ticks.length > 1 ? ticks[1]! - ticks[0]! : 0;
  if (step > 0) lo = Math.floor(lo / step) * step;
  return { lo, hi };
}

/**
 * How one bar's row is laid out: its label in lines that fit the label column (the whole name, never cut: the
 * combinations of a top gear run may differ only in their last words), and its value and note on one line or, when
 * they would run past the chart's right edge, on two.
 */
interface RowLayout {
  y: number;
  height: number;
  label: string[];
  /** "162,000 ± 120", with the note on the next line when both would not fit on one. */
  value: string;
  noteBelow: boolean;
}

function layoutRows(bars: Bar[], digits: number): RowLayout[] {
  let y = TOP;
  return bars.map((bar) => {
    const label = wrap(bar.label, LABEL_CHARS);
    const value = `${formatNumber(bar.mean, digits)}${bar.error ? ` ± ${formatNumber(bar.error, digits)}` : ''}`;
    const noteBelow = [...`${value} ${bar.note}`].length > NOTE_CHARS;
    const lines = Math.max(label.length, noteBelow ? 2 : 1);
    const row = { y, height: (lines - 1) * LINE + ROW, label, value, noteBelow };
    y += row.height;
    return row;
  });
}

/** Lines of a text element, each at the same x, one LINE below the other. */
function lines(x: number, parts: string[]): string {
  return parts.map((line, i) => `<tspan x="${x}"${i ? ` dy="${LINE}"` : ''}>${text(line)}</tspan>`).join('');
}

export function barChart(bars: Bar[], options: BarChartOptions): string {
  const { lo, hi } = barDomain(bars, options.reference ? [options.reference.value] : []);
  const x0 = LABEL_WIDTH + 10;
  const x1 = WIDTH - NOTE_WIDTH;
  const x = (v: number) => x0 + ((v - lo) / (hi - lo || 1)) * (x1 - x0);
  const rows = layoutRows(bars, options.digits ?? 0);
  const plotBottom = rows.length ? rows[rows.length - 1]!.y + rows[rows.length - 1]!.height : TOP;
  const height = plotBottom + BOTTOM;
  const out: string[] = [];
  out.push(
    `<svg class="chart bars" viewBox="0 0 ${WIDTH} ${height}" width="${WIDTH}" height="${height}" role="img" aria-labelledby="${chartIds.next('t')} ${chartIds.current('d')}">`,
  );
  out.push(
    `<title id="${chartIds.current('t')}">${text(options.title)}</title><desc id="${chartIds.current('d')}">${text(options.description)}</desc>`,
  );
  for (const tick of niceTicks(lo, hi)) {
    if (tick < lo) continue;
    out.push(`<line class="grid" x1="${px(x(tick))}" x2="${px(x(tick))}" y1="${TOP - 4}" y2="${plotBottom}"/>`);
    out.push(
      `<text class="tick" x="${px(x(tick))}" y="${plotBottom + 16}" text-anchor="middle">${text(compact(tick))}</text>`,
    );
  }
  bars.forEach((bar, i) => {
    const { y, label, value, noteBelow } = rows[i]!;
    // The bar and its whiskers sit on the row's first line, beside the label's first line.
    const mid = y + ROW / 2;
    const end = x(bar.mean);
    out.push(
      `<g class="row ${bar.role}"><title>${text(`${bar.label}: ${value} ${options.metric ?? 'dps'}${bar.note ? ` (${bar.note})` : ''}`)}</title>`,
    );
    const labelText = lines(LABEL_WIDTH, label);
    out.push(`<text class="label" x="${LABEL_WIDTH}" y="${px(mid + 4)}" text-anchor="end">${labelText}</text>`);
    out.push(`<rect class="bar" x="${x0}" y="${y + 4}" width="${px(Math.max(1, end - x0))}" height="${ROW - 8}"/>`);
    if (bar.error && bar.error > 0) {
      const a = px(x(bar.mean - bar.error));
      const b = px(x(bar.mean + bar.error));
      out.push(`<path class="err" d="M${a} ${mid}H${b}M${a} ${mid - 4}v8M${b} ${mid - 4}v8"/>`);
    }
    const note = noteBelow
      ? `<tspan class="note" x="${x1 + 8}" dy="${LINE}">${text(bar.note)}</tspan>`
      : `<tspan class="note"> ${text(bar.note)}</tspan>`;
    out.push(`<text class="value" x="${x1 + 8}" y="${px(mid + 4)}">${text(value)}${note}</text></g>`);
  });
  if (options.reference) {
    const rx = px(x(options.reference.value));
    out.push(`<line class="ref-line" x1="${rx}" x2="${rx}" y1="${TOP - 8}" y2="${plotBottom}"/>`);
    out.push(
      `<text class="ref-label" x="${rx}" y="${TOP - 12}" text-anchor="middle">${text(options.reference.label)}</text>`,
    );
  }
  out.push('</svg>');
  return out.join('');
}

/** Where a truncated axis starts, for the caption. */
export function axisNote(bars: Bar[], reference?: number): string {
  const { lo } = barDomain(bars, reference === undefined ? [] : [reference]);
  return lo > 0 ? `The axis starts at ${formatNumber(lo, 0)}, not at 0: bar lengths show differences, not ratios.` : '';
}

/**
 * Every profileset at once, best to worst: the mean as a line with its ±error band, the baseline as a dashed line,
 * and the ranks the bar chart shows shaded. Readable at 1,000 rows where a bar each would not be.
 */
export function distributionChart(
  values: Array<{ mean: number; error?: number | null | undefined }>,
  options: { title: string; description: string; baseline: number; shown: number; metric?: string },
): string {
  const height = 230;
  const left = 70;
  const right = WIDTH - 20;
  const top = 16;
  const bottom = height - 30;
  const { lo, hi } = barDomain(values, [options.baseline]);
  const n = values.length;
  const x = (i: number) => left + (n > 1 ? (i / (n - 1)) * (right - left) : (right - left) / 2);
  const y = (v: number) => bottom - ((v - lo) / (hi - lo || 1)) * (bottom - top);
  const out: string[] = [];
  out.push(
    `<svg class="chart distribution" viewBox="0 0 ${WIDTH} ${height}" width="${WIDTH}" height="${height}" role="img" aria-labelledby="${chartIds.next('t')} ${chartIds.current('d')}">`,
  );
  out.push(
    `<title id="${chartIds.current('t')}">${text(options.title)}</title><desc id="${chartIds.current('d')}">${text(options.description)}</desc>`,
  );
  if (options.shown > 0 && options.shown < n) {
    out.push(
      `<rect class="shown" x="${left}" y="${top}" width="${px(x(options.shown - 1) - left)}" height="${bottom - top}"/>`,
    );
    out.push(
      `<text class="tick" x="${px(x(options.shown - 1) + 4)}" y="${bottom - 6}">← top ${options.shown}: the bar chart</text>`,
    );
  }
  for (const tick of niceTicks(lo, hi, 4)) {
    if (tick < lo) continue;
    out.push(`<line class="grid" x1="${left}" x2="${right}" y1="${px(y(tick))}" y2="${px(y(tick))}"/>`);
    out.push(
      `<text class="tick" x="${left - 6}" y="${px(y(tick) + 4)}" text-anchor="end">${text(compact(tick))}</text>`,
    );
  }
  for (const rank of [1, ...niceTicks(1, n, 5).filter((r) => r > 1 && r <= n && r / n > 0.05)]) {
    out.push(
      `<text class="tick" x="${px(x(rank - 1))}" y="${bottom + 18}" text-anchor="middle">#${formatNumber(rank)}</text>`,
    );
  }
  const upper = values.map((v, i) => `${px(x(i))} ${px(y(v.mean + (v.error ?? 0)))}`);
  const lower = values.map((v, i) => `${px(x(i))} ${px(y(v.mean - (v.error ?? 0)))}`).reverse();
  out.push(`<path class="band" d="M${[...upper, ...lower].join('L')}Z"/>`);
  out.push(`<path class="line" d="M${values.map((v, i) => `${px(x(i))} ${px(y(v.mean))}`).join('L')}"/>`);
  const by = px(y(options.baseline));
  out.push(`<line class="ref-line" x1="${left}" x2="${right}" y1="${by}" y2="${by}"/>`);
  out.push(
    `<text class="ref-label" x="${right}" y="${px(y(options.baseline) - 5)}" text-anchor="end">baseline ${text(formatNumber(options.baseline, 0))}</text>`,
  );
  out.push('</svg>');
  return out.join('');
}

export interface FunnelStage {
  label: string;
  profilesets: number;
  culled: number;
}

/** The multistage funnel: one bar per stage, as wide as its candidates, with the candidates and culled in words. */
export function funnelChart(stages: FunnelStage[], options: { title: string; description: string }): string {
  const rowHeight = 40;
  const height = stages.length * rowHeight + 10;
  const max = Math.max(1, ...stages.map((s) => s.profilesets));
  const full = 520;
  const centre = 20 + full / 2;
  const out: string[] = [];
  out.push(
    `<svg class="chart funnel" viewBox="0 0 ${WIDTH} ${height}" width="${WIDTH}" height="${height}" role="img" aria-labelledby="${chartIds.next('t')} ${chartIds.current('d')}">`,
  );
  out.push(
    `<title id="${chartIds.current('t')}">${text(options.title)}</title><desc id="${chartIds.current('d')}">${text(options.description)}</desc>`,
  );
  stages.forEach((stage, i) => {
    const width = Math.max(2, (stage.profilesets / max) * full);
    const y = 5 + i * rowHeight;
    out.push(
      `<rect class="stage" x="${px(centre - width / 2)}" y="${y}" width="${px(width)}" height="${rowHeight - 8}" rx="3"/>`,
    );
    const words = `${i + 1}. ${stage.label}: ${formatNumber(stage.profilesets)} candidate${stage.profilesets === 1 ? '' : 's'}${stage.culled ? `, ${formatNumber(stage.culled)} culled` : ''}`;
    out.push(`<text class="value" x="${20 + full + 20}" y="${y + rowHeight / 2}">${text(words)}</text>`);
  });
  out.push('</svg>');
  return out.join('');
}

/** 123456 → "123k", 1234567 → "1.23M": tick labels that fit. */
function compact(n: number): string {
  const abs = Math.abs(n);
  if (abs >= 1e6) return `${formatNumber(n / 1e6, abs % 1e6 === 0 ? 0 : 2)}M`;
  if (abs >= 1e4) return `${formatNumber(n / 1e3, abs % 1e3 === 0 ? 0 : 1)}k`;
  return formatNumber(n, Number.isInteger(n) ? 0 : 1);
}

/** Unique ids for each chart's title and description within one page. */
const chartIds = (() => {
  let n = 0;
  return {
    next: (kind: string) => `chart${++n}-${kind}`,
    current: (kind: string) => `chart${n}-${kind}`,
  };
})();
