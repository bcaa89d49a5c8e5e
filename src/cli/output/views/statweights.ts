/**
 * Stat weights on the terminal: one character's table (stat, weight per point ± its 95% error, normalised to the
 * primary stat ± error), which stats are equal within the error, and the Pawn string; a roster (several characters)
 * as one character × stat table and one Pawn string each.
 */
import { classFacts, specFacts } from '../../../domain/game/specs.js';
import type { StatWeights } from '../../../domain/statweights/weights.js';
import { statByKey, type StatKey } from '../../../domain/statweights/stats.js';
import { formatNumber } from '../../../util/format.js';
import type { Output } from '../io.js';
import { terminalSafeLine as safe } from '../../../util/safe.js';
import { printTable } from '../table.js';

export function printStatWeights(out: Output, sw: StatWeights): void {
  const c = out.c;
  out.line();
  const name = safe(sw.character.name);
  out.line(c.bold(`Stat weights of ${name} (${who(sw)}), ${sw.metric} per point (${howMeasured(sw)}):`));
  const norm = statByKey(sw.normalisedTo).label;
  const dim = (t: string) => c.dim(t);
  printTable(out, sw.weights, [
    { header: 'Stat', value: (w) => w.label },
    { header: `${sw.metric}/point`, value: (w) => formatNumber(w.weight, 2), align: 'right', style: (t) => c.bold(t) },
    { header: '±', value: (w) => formatNumber(w.error, 2), align: 'right', style: dim },
    {
      header: `${norm} = 1`,
      value: (w) => (w.normalised === null ? '' : formatNumber(w.normalised, 2)),
      align: 'right',
    },
    {
      header: '±',
      value: (w) =>
        w.stat === sw.normalisedTo || w.normalisedError === null ? '' : formatNumber(w.normalisedError, 2),
      align: 'right',
      style: dim,
    },
  ]);
  for (const sentence of equalSentences(sw)) out.line(sentence);
  out.line();
  out.line(sw.pawn);
  if (sw.referenceWarning) out.warn(safe(sw.referenceWarning));
  notes(out, [sw]);
}

/** Several characters: one row each, a column per stat (normalised weight ± error), then every Pawn string. */
export function printRoster(out: Output, rows: ReadonlyArray<{ scenario?: string; weights: StatWeights }>): void {
  type Row = (typeof rows)[number];
  // The primary stats share one column (each character's own is 1); then every other stat weighed, in order.
  const others = [
    ...new Set(
      rows.flatMap((r) => r.weights.weights.map((w) => w.stat).filter((stat) => stat !== r.weights.normalisedTo)),
    ),
  ];
  const cell = (r: Row, stat: StatKey) => {
    const w = r.weights.weights.find((x) => x.stat === stat);
    return w && w.normalised !== null ? `${formatNumber(w.normalised, 2)} ± ${formatNumber(w.normalisedError, 2)}` : '';
  };
  const where = (r: Row) => (r.scenario ? ` [${r.scenario}]` : '');
  out.line();
  out.line(out.c.bold("Stat weights, normalised to each character's primary stat = 1 (± 95% error):"));
  printTable(out, rows, [
    {
      header: 'Character',
      value: (r) => `${r.weights.character.name} (${who(r.weights)})${where(r)}`,
      shrinkable: true,
    },
    {
      header: 'Primary',
      value: (r) => `${statByKey(r.weights.normalisedTo).label} ${r.weights.referenceWarning ? '—' : '1.00'}`,
    },
    ...others.map((stat) => ({
      header: statByKey(stat).label,
      value: (r: Row) => cell(r, stat),
      align: 'right' as const,
    })),
  ]);
  for (const r of rows) {
    const equal = equalSentences(r.weights);
    if (equal.length) out.line(`${safe(r.weights.character.name)}${safe(where(r))}: ${equal.join(' ')}`);
  }
  for (const r of rows) {
    if (r.weights.referenceWarning)
      out.warn(`${safe(r.weights.character.name)}${safe(where(r))}: ${safe(r.weights.referenceWarning)}`);
  }
  out.line();
  for (const r of rows) {
    // Scenarios of one character give Pawn strings of the same name: say which is which on the line above.
    if (r.scenario) out.line(`${safe(r.weights.character.name)}${safe(where(r))}:`);
    out.line(r.weights.pawn);
  }
  notes(
    out,
    rows.map((r) => r.weights),
  );
}

/** "Crit and Versatility are equal within the error." for every such pair. */
export function equalSentences(sw: StatWeights): string[] {
  const label = (key: StatKey) => statByKey(key).label;
  return sw.equalWithinError.map(([a, b]) => `${label(a)} and ${label(b)} are equal within the error.`);
}

/** "+300 points each", or "simc's scale factors". */
function howMeasured(sw: StatWeights): string {
  if (sw.method !== 'profilesets') return "simc's scale factors";
  return `+${formatNumber(sw.weights[0]?.amount ?? 0)} points each`;
}

function who(sw: StatWeights): string {
  const words = (t: string) =>
    t
      .split(/[_\s]+/)
      .map((w) => (w ? w[0]!.toUpperCase() + w.slice(1) : w))
      .join(' ');
  const { className, spec } = sw.character;
  const cls = classFacts(className)?.label ?? words(className);
  const specLabel = specFacts(className, spec)?.label ?? (spec ? words(spec) : '');
  return safe([specLabel, cls].filter(Boolean).join(' '));
}

function notes(out: Output, all: readonly StatWeights[]): void {
  out.notice(
    out.ce.dim(
      '± is the 95% error. Two weights are equal within the error when they differ by less than ' +
        'the 95% error of their difference.',
    ),
  );
  if (all.some((sw) => sw.errorsEstimated)) {
    out.notice(
      out.ce.dim(
        "simc's report has no error per scale factor: each ± is estimated as √2 × the baseline's " +
          'error ÷ the delta.',
      ),
    );
  }
}
