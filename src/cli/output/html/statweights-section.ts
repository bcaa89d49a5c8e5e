/**
 * A stat-weights job in the HTML report: the weight per point of each stat as a bar with its 95% error bar, the
 * table (weight, error, normalised to the primary stat), the stats equal within the error, and the Pawn string.
 */
import { statByKey } from '../../../domain/statweights/stats.js';
import type { StatWeight, StatWeights } from '../../../domain/statweights/weights.js';
import { formatNumber } from '../../../util/format.js';
import { equalSentences } from '../views/statweights.js';
import { barChart, type Bar } from './charts.js';
import { text } from './escape.js';

export function statWeightsSection(sw: StatWeights, level: 2 | 3): string {
  const h = `h${level}`;
  const primary = statByKey(sw.normalisedTo).label;
  const how =
    sw.method === 'profilesets'
      ? `one profileset per stat adding ${formatNumber(sw.weights[0]?.amount ?? 0)} points`
      : "simc's scale factors";
  const bars: Bar[] = sw.weights.map((w) => ({
    label: w.label,
    mean: w.weight,
    error: w.error,
    role: w.stat === sw.normalisedTo ? 'reference' : w.weight >= 0 ? 'better' : 'worse',
    note: w.normalised === null ? '' : `${formatNumber(w.normalised, 2)} × ${primary}`,
  }));
  const title = `Stat weights of ${sw.character.name}: ${sw.metric} per point`;
  const values = sw.weights.map((w) => `${w.label} ${formatNumber(w.weight, 2)} ± ${formatNumber(w.error, 2)}`);
  const description = `${title}, by ${how}, with 95% error bars. ${values.join('; ')}. ${equalSentences(sw).join(' ')}`;
  const chart = barChart(bars, { title, description, metric: `${sw.metric} per point`, digits: 2 });
  const estimated = sw.errorsEstimated
    ? " simc's report has no error per scale factor: each is estimated as √2 × the baseline's error ÷ the delta."
    : '';
  const caption = `${title}, by ${how}. Whiskers: 95% error; hatched: ${primary}, which the others are normalised to.`;
  return [
    `<${h}>Stat weights</${h}>`,
    `<figure>${chart}<figcaption>${text(caption)}${text(estimated)}</figcaption></figure>`,
    table(sw, primary),
    ...(sw.referenceWarning ? [`<p><strong>Warning:</strong> ${text(sw.referenceWarning)}</p>`] : []),
    ...equalSentences(sw).map((s) => `<p>${text(s)}</p>`),
    `<p>Pawn string (Pawn → Import):</p><pre class="pawn"><code>${text(sw.pawn)}</code></pre>`,
  ].join('\n');
}

function table(sw: StatWeights, primary: string): string {
  const num = (label: string) => `<th data-type="num">${text(label)}</th>`;
  const head =
    `<th class="text" data-type="text">Stat</th>${num(`${sw.metric} per point`)}${num('± error')}` +
    `${num(`${primary} = 1`)}${num('± error')}`;
  const row = (w: StatWeight) => {
    const normalisedError =
      w.stat === sw.normalisedTo || w.normalisedError === null ? '' : formatNumber(w.normalisedError, 2);
    const cells = [
      formatNumber(w.weight, 2),
      formatNumber(w.error, 2),
      w.normalised === null ? '' : formatNumber(w.normalised, 2),
      normalisedError,
    ];
    return `<tr><td class="text">${text(w.label)}</td>${cells.map((c) => `<td>${c}</td>`).join('')}</tr>`;
  };
  return (
    `<div class="table-wrap"><table class="sortable"><thead><tr>${head}</tr></thead>` +
    `<tbody>${sw.weights.map(row).join('')}</tbody></table></div>`
  );
}
