import type { ResultRecord } from '../../../core/resources/schemas.js';
import type { Context } from '../../context.js';
import type { CompareOptions } from './command.js';
import { ExitCode, JobUnsuccessfulError, SimjobError, UsageError } from '../../../errors.js';
import { readAllProfilesets } from '../../../core/jobs/report-profilesets.js';
import { rankByMean } from '../../../util/stats.js';
import { printComparison, TEST_DESCRIPTION, type ComparisonView, type Match } from '../../output/views/comparison.js';
import { DEFAULT_TOP } from '../../output/views/result.js';
import { compareRows, type SetList } from '../../../domain/report/compare.js';
import { isRegression, pairResults, whyNoDps } from './match.js';
import { loadSource, type Source } from './sources.js';
import { scenarioLabel } from '../../../util/format.js';
import { terminalSafeLine } from '../../../util/safe.js';
import { plural } from '../../../util/plural.js';
import { anySynthetic } from '../../output/synthetic.js';

/**
 * `simjob compare A B`: two finished jobs, or two saved `--json` outputs (single results or a batch's array), side by
 * side — per profile and scenario the main actor, then every profileset by name — with the difference, its combined
 * error and whether it is significant. `--fail-on-regression PCT` makes a significant drop of more than PCT exit 3.
 */
export async function run(ctx: Context, [argA, argB]: string[], options: CompareOptions): Promise<number> {
  if (options.all && options.top !== undefined)
    throw new UsageError('--all and --top do not go together: --all compares every profileset.');
  if (argA === '-' && argB === '-') throw new UsageError('Only one side can come from stdin ("-").');
  if (options.allowFailed && options.failOnRegression === undefined) {
    throw new UsageError(
      '--allow-failed lets a result without DPS pass --fail-on-regression; it needs that flag.',
      'Add --fail-on-regression PCT, or drop --allow-failed.',
    );
  }
  if (options.report?.length) await (await import('../../output/reports/files.js')).checkReportTargets(options.report);
  // Read at once, but a fault is said in argument order, so the same bad input always gets the same line.
  const [a, b] = await inArgumentOrder(loadSource(ctx, argA!), loadSource(ctx, argB!));
  // A job named by its id must have DPS (exit 3 if not) unless --allow-failed lets it through; a saved file's results
  // without DPS are listed, not compared.
  if (!options.allowFailed) for (const side of [a, b]) if (!side.file) requireDps(side.results[0]!);

  const pairing = pairResults(a, b);
  const matches: Match[] = [];
  for (const pair of pairing.pairs) {
    const incomplete: string[] = [];
    const [setsA, setsB] = await Promise.all([
      profilesets(ctx, a, pair.a, options, incomplete),
      profilesets(ctx, b, pair.b, options, incomplete),
    ]);
    matches.push({
      ...pair,
      rows: compareRows(pair.a, pair.b, setsA, setsB),
      ...(incomplete.length ? { incomplete } : {}),
    });
  }
  const threshold = options.failOnRegression;
  const regressions = matches.flatMap((m) =>
    m.rows.filter((r) => isRegression(r, threshold)).map((row) => ({ profile: m.profile, scenario: m.scenario, row })),
  );

  // A gate that could not compare a job (it failed, say) must not pass: a night whose sims failed is no good night.
  const unjudged = threshold !== undefined && !options.allowFailed ? pairing.unmatched.filter((u) => u.noDps) : [];

  const { unmatched, duplicates } = pairing;
  const synthetic = anySynthetic([...a.results, ...b.results]);
  const view: ComparisonView = { a, b, matches, unmatched, duplicates, threshold, regressions, unjudged, synthetic };
  if (ctx.out.json) ctx.out.printJson(jsonOf(view));
  else printComparison(ctx.out, view, options.all ? Number.POSITIVE_INFINITY : (options.top ?? DEFAULT_TOP));
  if (options.report?.length) {
    const { writeCompareReports } = await import('./reports.js');
    await writeCompareReports(options.report, view);
  }
  if (regressions.length) {
    ctx.out.err(`${plural(regressions.length, 'regression')} of more than ${threshold}% (significant):\n`);
    for (const { profile, scenario, row } of regressions) {
      ctx.out.err(
        `  ${scenarioLabel({ profile, scenario })}  ${row.name}${row.kind === 'actor' ? ' (actor)' : ''}: ${row.percent!.toFixed(2)}% (${row.delta!.toFixed(1)} ± ${row.combinedError!.toFixed(1)})\n`,
      );
    }
  }
  if (unjudged.length) {
    const some = plural(unjudged.length, 'result');
    ctx.out.err(
      `${some} with no DPS to compare, so --fail-on-regression cannot pass (--allow-failed lets them through):\n`,
    );
    for (const u of unjudged) {
      ctx.out.err(
        `  ${terminalSafeLine(scenarioLabel(u))}  job ${terminalSafeLine(u.id)}: ${terminalSafeLine(u.reason)}\n`,
      );
    }
  }
  return regressions.length || unjudged.length ? ExitCode.JOB_UNSUCCESSFUL : 0;
}

function requireDps(r: ResultRecord): void {
  if (r.result.summary?.mainActor) return;
  throw new JobUnsuccessfulError(
    `Job ${r.id} has no DPS to compare: ${whyNoDps(r)}.`,
    `See it with: simjob result ${r.id}`,
  );
}

/**
 * A result's profilesets. A summary lists the top 200; when it was cut (count > listed), or with --all, every
 * profileset is read from the job's JSON report, so no profileset is reported missing when it was only cut. A saved
 * file is compared offline: a cut list stays cut (unless --all), and the match says so and how to complete it.
 */
async function profilesets(
  ctx: Context,
  source: Source,
  r: ResultRecord,
  options: CompareOptions,
  incomplete: string[],
): Promise<SetList> {
  const listed = r.result.summary?.mainActor?.profilesets;
  if (!listed) return { sets: [], cut: false };
  const cut = listed.count > listed.results.length;
  const side = source.arg;
  if (options.all || (cut && source.backend)) {
    try {
      const backend = source.backend ?? (await ctx.backendFor(r.id));
      return { sets: await readAllProfilesets(backend, r, { signal: ctx.signal, env: ctx.env }), cut: false };
    } catch (error) {
      if (!cut) return { sets: rankByMean(listed.results), cut: false };
      if (options.all && !source.file) throw error;
      incomplete.push(
        `${side}: job ${r.id} lists ${listed.results.length} of ${listed.count} profilesets, and its JSON report could not be read (${error instanceof SimjobError ? error.message : String(error)})`,
      );
      return { sets: rankByMean(listed.results), cut: true };
    }
  }
  if (cut) {
    incomplete.push(
      `${side}: job ${r.id} lists its top ${listed.results.length} of ${listed.count} profilesets; add --all to read the rest from its JSON report while it is kept${r.retentionDays ? ` (${r.retentionDays} days)` : ''}`,
    );
  }
  return { sets: rankByMean(listed.results), cut };
}

function jobOf(r: ResultRecord) {
  return { id: r.id, status: r.status, build: r.build ?? null, metadata: r.metadata ?? null };
}

/** One pair keeps the shape `compare` always printed (a, b, rows); every output also lists matches and what had no partner. */
function jsonOf(v: ComparisonView) {
  const matches = v.matches.map((m) => ({
    profile: m.profile,
    scenario: m.scenario || null,
    a: jobOf(m.a),
    b: jobOf(m.b),
    incomplete: m.incomplete ?? null,
    rows: m.rows,
  }));
  const single =
    v.matches.length === 1 && v.unmatched.length === 0
      ? { a: matches[0]!.a, b: matches[0]!.b, rows: matches[0]!.rows }
      : {
          a: { source: v.a.arg, results: v.a.results.length },
          b: { source: v.b.arg, results: v.b.results.length },
        };
  return {
    ...single,
    test: TEST_DESCRIPTION,
    threshold: v.threshold ?? null,
    matches,
    unmatched: v.unmatched.map((u) => ({ ...u, scenario: u.scenario || null })),
    notJudged: v.unjudged.map((u) => ({ ...u, scenario: u.scenario || null })),
    regressions: v.regressions.map(({ profile, scenario, row }) => ({
      profile,
      scenario: scenario || null,
      name: row.name,
      kind: row.kind,
      delta: row.delta,
      percent: row.percent,
      combinedError: row.combinedError,
    })),
    // only when true, so a real comparison's document keeps its shape
    ...(v.synthetic ? { synthetic: true } : {}),
  };
}

/** Both values, or the first argument's rejection before the second's (Promise.all's is whichever fails first). */
async function inArgumentOrder<A, B>(first: Promise<A>, second: Promise<B>): Promise<[A, B]> {
  const [a, b] = await Promise.allSettled([first, second]);
  if (a.status === 'rejected') throw a.reason;
  if (b.status === 'rejected') throw b.reason;
  return [a.value, b.value];
}
