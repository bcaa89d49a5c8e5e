import type { ResultRecord } from '../../api/schemas.js';
import type { Context } from '../../context.js';
import { JobUnsuccessfulError, UsageError } from '../../errors.js';
import type { JobBackend } from '../../jobs/backend.js';
import { formatNumber } from '../../output/format.js';
import { readAllProfilesets, type RankedProfileset } from '../../output/report-profilesets.js';
import { difference, rankByMean, type Difference } from '../../output/stats.js';
import { printTable } from '../../output/table.js';
import { DEFAULT_TOP, signed } from '../../output/views/result.js';
import { checkJobId } from '../ids.js';

export interface CompareOptions {
  top?: number;
  all?: boolean;
}


/** The significance test, as printed under the table and carried in --json. */
const TEST_DESCRIPTION =
  'Δ = B − A. ±Δ = √(eA² + eB²), the 95% half-width of the difference from the two 95% half-widths (mean_error). ' +
  'Significant when |Δ| > ±Δ: a two-sided z-test at the 5% level, assuming the two sims are independent.';

interface Side {
  mean: number;
  mean_error: number | null;
}

export interface CompareRow extends Partial<Difference> {
  name: string;
  kind: 'actor' | 'profileset';
  a: Side | null;
  b: Side | null;
}

/**
 * `simjob compare A B`: two finished jobs side by side — the main actors, then every profileset by name — with
 * the difference, its combined error and whether it is statistically significant.
 */
export async function run(ctx: Context, [rawA, rawB]: string[], options: CompareOptions): Promise<number> {
  const idA = checkJobId(rawA);
  const idB = checkJobId(rawB);
  if (options.all && options.top !== undefined) throw new UsageError('--all and --top do not go together: --all compares every profileset.');
  const [backendA, backendB] = await Promise.all([ctx.backendFor(idA), ctx.backendFor(idB)]);
  const [a, b] = await Promise.all([backendA.result(idA), backendB.result(idB)]);
  for (const r of [a.data, b.data]) requireDps(r);
  const [setsA, setsB] = await Promise.all([profilesets(ctx, backendA, a.data, options), profilesets(ctx, backendB, b.data, options)]);
  const rows = compareRows(a.data, b.data, setsA, setsB);

  if (ctx.out.json) {
    ctx.out.printJson({ a: jobOf(a.data), b: jobOf(b.data), test: TEST_DESCRIPTION, rows });
    return 0;
  }
  printComparison(ctx, a.data, b.data, rows, options.all ? Number.POSITIVE_INFINITY : options.top ?? DEFAULT_TOP);
  return 0;
}

function requireDps(r: ResultRecord): void {
  if (r.result.summary?.mainActor) return;
  const why = r.status === 'completed' ? 'its result has no summary' : `it ended ${r.status}${r.errorCode ? ` (${r.errorCode})` : ''}`;
  throw new JobUnsuccessfulError(`Job ${r.id} has no DPS to compare: ${why}.`, `See it with: simjob result ${r.id}`);
}

async function profilesets(ctx: Context, backend: JobBackend, r: ResultRecord, options: CompareOptions): Promise<RankedProfileset[]> {
  const sets = r.result.summary?.mainActor?.profilesets;
  if (!sets) return [];
  if (options.all) return readAllProfilesets(backend, r, { signal: ctx.signal, env: ctx.env });
  return rankByMean(sets.results);
}

/** The actors, then the profilesets in A's ranking, then those only B has. */
function compareRows(a: ResultRecord, b: ResultRecord, setsA: RankedProfileset[], setsB: RankedProfileset[]): CompareRow[] {
  const side = (p: { mean: number; mean_error?: number | null } | undefined | null): Side | null => (p ? { mean: p.mean, mean_error: p.mean_error ?? null } : null);
  const row = (name: string, kind: CompareRow['kind'], x: Side | null, y: Side | null): CompareRow => ({
    name, kind, a: x, b: y, ...(x && y ? difference(x, y) : {}),
  });
  const actorA = a.result.summary!.mainActor!;
  const actorB = b.result.summary!.mainActor!;
  const name = actorA.name === actorB.name ? actorA.name : `${actorA.name} / ${actorB.name}`;
  const rows = [row(name, 'actor', side(actorA), side(actorB))];
  const inB = new Map(setsB.map((p) => [p.name, p]));
  for (const p of setsA) rows.push(row(p.name, 'profileset', side(p), side(inB.get(p.name))));
  const inA = new Set(setsA.map((p) => p.name));
  for (const p of setsB) if (!inA.has(p.name)) rows.push(row(p.name, 'profileset', null, side(p)));
  return rows;
}

function jobOf(r: ResultRecord) {
  return { id: r.id, status: r.status, build: r.build ?? null, metadata: r.metadata ?? null };
}

function printComparison(ctx: Context, a: ResultRecord, b: ResultRecord, rows: CompareRow[], top: number): void {
  const out = ctx.out;
  const c = out.c;
  const build = (r: ResultRecord) => (r.build ? [r.build.channel, r.build.commit?.slice(0, 10)].filter(Boolean).join(' @ ') : '');
  out.keyValues([
    ['A', `${a.id}  ${build(a)}`],
    ['B', `${b.id}  ${build(b)}`],
  ]);
  const shown = rows.slice(0, 1 + top);
  const verdict = (r: CompareRow) => (r.significant === undefined ? '—' : r.significant ? 'yes' : 'no');
  const paint = (text: string, r: CompareRow) => {
    if (r.significant !== true) return c.dim(text);
    return (r.delta ?? 0) > 0 ? c.green(text) : c.red(text);
  };
  out.line();
  printTable(out, shown, [
    { header: 'Name', value: (r) => (r.kind === 'actor' ? `${r.name} (actor)` : r.name), shrinkable: true, style: (t, r) => (r.kind === 'actor' ? c.cyan(t) : t) },
    { header: 'A', value: (r) => (r.a ? formatNumber(r.a.mean, 1) : '—'), align: 'right' },
    { header: '± A', value: (r) => (r.a ? formatNumber(r.a.mean_error, 1) : ''), align: 'right', style: (t) => c.dim(t) },
    { header: 'B', value: (r) => (r.b ? formatNumber(r.b.mean, 1) : '—'), align: 'right' },
    { header: '± B', value: (r) => (r.b ? formatNumber(r.b.mean_error, 1) : ''), align: 'right', style: (t) => c.dim(t) },
    { header: 'Δ', value: (r) => (r.delta === undefined ? '' : signed(r.delta, 1)), align: 'right', style: paint },
    { header: 'Δ %', value: (r) => (r.percent === undefined ? '' : `${signed(r.percent, 2)}%`), align: 'right', style: paint },
    { header: '± Δ', value: (r) => (r.combinedError === undefined ? '' : formatNumber(r.combinedError, 1)), align: 'right', style: (t) => c.dim(t) },
    { header: 'Significant', value: verdict, style: paint },
  ]);
  const compared = rows.filter((r) => r.significant !== undefined);
  const significant = compared.filter((r) => r.significant).length;
  if (shown.length < rows.length) out.notice(out.ce.dim(`Showing ${shown.length - 1} of ${rows.length - 1} profilesets; --top N or --all for more.`));
  out.notice(out.ce.dim(`${significant} of ${compared.length} differences are significant. ${TEST_DESCRIPTION}`));
  const onlyOne = rows.filter((r) => r.kind === 'profileset' && (!r.a || !r.b)).length;
  if (onlyOne) out.notice(out.ce.dim(`${onlyOne} profileset${onlyOne === 1 ? ' is' : 's are'} in one job only (—).`));
}
