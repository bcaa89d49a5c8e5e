/**
 * A stat-weights job in the HTML report: the weight per point of each stat as a bar with its 95% error bar, the
 * table (weight, error, normalised to the primary stat), the stats equal within the error, and the Pawn string.
 */
import { statByKey } from '../../statweights/stats.js';
import type { StatWeights } from '../../statweights/weights.js';
import { formatNumber } from '../format.js';
import { equalSentences } from '../views/statweights.js';
import { barChart, type Bar } from './charts.js';
import { text } from './escape.js';

export function statWeightsSection(sw: StatWeights, level: 2 | 3): string {
  const h = `h${level}`;
  const primary = statByKey(sw.normalisedTo).label;
  const how = sw.method === 'profilesets' ? `one profileset per stat adding ${formatNumber(sw.weights[0]?.amount ?? 0)} points` : "simc's scale factors";
  const bars: Bar[] = sw.weights.map((w) => ({
    label: w.label,
    mean: w.weight,
    error: w.error,
    role: w.stat === sw.normalisedTo ? 'reference' : w.weight >= 0 ? 'better' : 'worse',
    note: `${formatNumber(w.normalised, 2)} × ${primary}`,
  }));
  const title = `Stat weights of ${sw.character.name}: ${sw.metric} per point`;
  const description = `${title}, by ${how}, with 95% error bars. ${sw.weights.map((w) => `${w.label} ${formatNumber(w.weight, 2)} ± ${formatNumber(w.error, 2)}`).join('; ')}. ${equalSentences(sw).join(' ')}`;
  const chart = barChart(bars, { title, description, metric: `${sw.metric} per point`, digits: 2 });
  const rows = sw.weights.map((w) => `<tr><td class="text">${text(w.label)}</td><td>${formatNumber(w.weight, 2)}</td><td>${formatNumber(w.error, 2)}</td><td>${formatNumber(w.normalised, 2)}</td><td>${w.stat === sw.normalisedTo ? '' : formatNumber(w.normalisedError, 2)}</td></tr>`);
  const estimated = sw.errorsEstimated ? " simc's report has no error per scale factor: each is estimated as √2 × the baseline's error ÷ the delta." : '';
  return [
    `<${h}>Stat weights</${h}>`,
    `<figure>${chart}<figcaption>${text(title)}, by ${text(how)}. Whiskers: 95% error; hatched: ${text(primary)}, which the others are normalised to.${text(estimated)}</figcaption></figure>`,
    `<div class="table-wrap"><table class="sortable"><thead><tr><th class="text" data-type="text">Stat</th><th data-type="num">${text(sw.metric)} per point</th><th data-type="num">± error</th><th data-type="num">${text(primary)} = 1</th><th data-type="num">± error</th></tr></thead><tbody>${rows.join('')}</tbody></table></div>`,
    ...equalSentences(sw).map((s) => `<p>${text(s)}</p>`),
    `<p>Pawn string (Pawn → Import):</p><pre class="pawn"><code>${text(sw.pawn)}</code></pre>`,
  ].join('\n');
}
