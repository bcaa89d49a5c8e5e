/**
 * The compact list of every profileset a local job writes beside its result (`profilesets.json` in the job folder),
 * so `result --all` (and compare/report) need not parse reports of many megabytes again. It holds exactly what
 * `profilesetsFromReport` reads from the report(s), merged across stages and ranked, in a small shape:
 *   {"version": 1, "rows": [[name, mean, mean_error|null, mean_stddev|null, stage], …]}
 * A list that is missing or not in this shape is ignored: the reader falls back to the reports.
 */
import { rankByMean } from '../../util/stats.js';

/** One profileset as the views rank it: the summary's entries and the JSON report's alike. */
export interface RankedProfileset {
  name: string;
  mean: number;
  mean_error?: number | null;
  mean_stddev?: number | null;
  /** Highest multistage stage reached (1 for single pass). */
  stage?: number | null;
}

/** Its name in the job folder. */
export const PROFILESET_LIST_FILE = 'profilesets.json';
const VERSION = 1;

const Z95 = 1.96;

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
const nullOrNum = (v: unknown): boolean => v === null || num(v) !== undefined;

/**
 * Every profileset of a simc JSON report (`sim.profilesets.results`). Two shapes (shared/simc/contract.md §4.5, §4.7):
 *   json2 (2.0.0): `{name, mean, mean_stddev, mean_error, ...}` per entry; sets whose mean is 0 are left out;
 *   3.0.0-alpha1:  `{name, metrics: [{metric, mean, mean_stddev, mean_error, ...}], ...}`, primary metric first.
 * Either way the entries are in input order (not ranked) and the baseline is not among them. `mean_error` is
 * recomputed from `mean_stddev` when absent, with the report's own confidence estimator.
 */
export function profilesetsFromReport(doc: unknown, metric?: string | null): RankedProfileset[] {
  const sim = isObject(doc) && isObject(doc.sim) ? doc.sim : undefined;
  const sets = sim && isObject(sim.profilesets) ? sim.profilesets : undefined;
  if (!sets || !Array.isArray(sets.results)) return [];
  const options = isObject(sim?.options) ? sim.options : {};
  const z = num(options.confidence_estimator) ?? Z95;
  const out: RankedProfileset[] = [];
  for (const entry of sets.results) {
    if (!isObject(entry) || typeof entry.name !== 'string') continue;
    let figures: Json = entry;
    if (Array.isArray(entry.metrics)) {
      const metrics = entry.metrics.filter(isObject);
      figures =
        metrics.find(
          (m) => metric && typeof m.metric === 'string' && m.metric.toLowerCase() === metric.toLowerCase(),
        ) ??
        metrics[0] ??
        {};
    }
    const mean = num(figures.mean);
    if (mean === undefined) continue;
    const stddev = num(figures.mean_stddev);
    out.push({
      name: entry.name,
      mean,
      mean_stddev: stddev,
      mean_error: num(figures.mean_error) ?? (stddev === undefined ? undefined : stddev * z),
    });
  }
  return out;
}

/**
 * Merges the profilesets of a job's reports, in stage order: a profileset's figures come from the last stage it
 * reached, and `stage` says which. Ranked by mean.
 */
export class ProfilesetMerger {
  private readonly byName = new Map<string, RankedProfileset>();

  add(rows: readonly RankedProfileset[], stage: number): void {
    for (const row of rows) this.byName.set(row.name, { ...row, stage });
  }

  ranked(): RankedProfileset[] {
    return rankByMean([...this.byName.values()]);
  }
}

/** The list's text, from the merged rows. */
export function profilesetListText(rows: readonly RankedProfileset[]): string {
  const encoded = rows.map((r) => [r.name, r.mean, r.mean_error ?? null, r.mean_stddev ?? null, r.stage ?? 1]);
  return `${JSON.stringify({ version: VERSION, rows: encoded })}\n`;
}

/** The rows of a list's text, ranked; undefined when it is not a list this version wrote. */
export function parseProfilesetList(text: string): RankedProfileset[] | undefined {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!isObject(doc) || doc.version !== VERSION || !Array.isArray(doc.rows)) return undefined;
  const out: RankedProfileset[] = [];
  for (const row of doc.rows as unknown[]) {
    if (!Array.isArray(row) || row.length !== 5) return undefined;
    // by index, not destructured: 20,000 rows, mostly before the JIT, where destructuring runs the array iterator
    const name: unknown = row[0],
      mean: unknown = row[1],
      error: unknown = row[2],
      stddev: unknown = row[3],
      stage: unknown = row[4];
    if (
      typeof name !== 'string' ||
      num(mean) === undefined ||
      !nullOrNum(error) ||
      !nullOrNum(stddev) ||
      !Number.isInteger(stage) ||
      (stage as number) < 1
    )
      return undefined;
    // the same keys, in the same order, as profilesetsFromReport's rows: --json output stays byte-identical
    out.push({
      name,
      mean: mean as number,
      mean_stddev: (stddev as number | null) ?? undefined,
      mean_error: (error as number | null) ?? undefined,
      stage: stage as number,
    });
  }
  return rankByMean(out);
}
