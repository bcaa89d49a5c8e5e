/**
 * Property tests of simc report reading: real reports (test/fixtures/simc) mutated (fields removed, wrong types,
 * NaN and infinities, huge arrays, truncated or corrupted text). Local jobs read them (src/domain/report/) and
 * `result --all` reads them (src/core/jobs/report-profilesets.ts): the first may only throw its ReportError (a failed
 * job with a reason), the second never throws; every summary they make is valid for the result schema.
 */
import fc from 'fast-check';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Summary } from '../../src/core/resources/schemas.js';
import { csvTable, parseReport, ReportError, summarize, type MainActorChoice } from '../../src/domain/report/report.js';
import { profilesetsFromReport } from '../../src/domain/report/profileset-list.js';
import { FIXTURES_DIR } from '../helpers/shared.js';
import { expectOwnErrors, mutate, mutations, params } from './fuzz.js';

const REPORTS = [
  join(FIXTURES_DIR, 'reports-real', 'r09_df1026_vengeance_55ps_sab.json'),
  join(FIXTURES_DIR, 'reports-real', 'r08_df1015_brewmaster_4ps.json'),
  join(FIXTURES_DIR, 'reports', 'f560c5ca-f3c7-47cf-8463-00b422572ebe.json'),
].filter((p) => existsSync(p));

type Json = Record<string, any>;

/** What the readers look at, from a real report: small enough to copy for every generated input. */
function essentials(report: Json): Json {
  const sim = report.sim as Json;
  return {
    version: report.version,
    sim: {
      options: { iterations: sim.options?.iterations, confidence_estimator: sim.options?.confidence_estimator },
      players: (sim.players as Json[])
        .slice(0, 3)
        .map((p) => ({ name: p.name, collected_data: { dps: p.collected_data?.dps } })),
      profilesets: sim.profilesets
        ? { metric: sim.profilesets.metric, results: (sim.profilesets.results as Json[]).slice(0, 12) }
        : undefined,
    },
  };
}

const choices: fc.Arbitrary<MainActorChoice> = fc.record({
  index: fc.oneof(fc.nat(4), fc.constantFrom(-1, 1e9, Number.NaN)),
  name: fc.oneof(fc.constant(null), fc.string({ maxLength: 12 })),
});

/** Paths of the numbers in `value` that JSON cannot carry (NaN, ±Infinity). */
function nonFinite(value: unknown, path = ''): string[] {
  if (typeof value === 'number') return Number.isFinite(value) ? [] : [path];
  if (value && typeof value === 'object')
    return Object.entries(value).flatMap(([k, v]) => nonFinite(v, `${path}.${k}`));
  return [];
}

function readLocally(report: unknown, choice: MainActorChoice): void {
  const summary = expectOwnErrors(
    () => summarize(report as Json, choice, { enabled: false, reason: 'disabled_by_option', stages: [] }),
    [],
    [ReportError],
  );
  if (summary !== undefined) {
    // What a local job stores is what `result` later reads: it must pass the same schema, NaN-free.
    const stored = JSON.parse(JSON.stringify(summary)) as unknown;
    expect(Summary.safeParse(stored).success).toBe(true);
    expect(nonFinite(summary)).toEqual([]);
  }
  expectOwnErrors(() => csvTable(report as Json, choice), [], [ReportError]);
  for (const row of profilesetsFromReport(report, 'dps')) expect(Number.isFinite(row.mean)).toBe(true);
}

describe.skipIf(REPORTS.length === 0)('simc report reading', () => {
  const bases = REPORTS.map((p) => essentials(JSON.parse(readFileSync(p, 'utf8')) as Json));

  it('reads an unmutated real report', () => {
    for (const base of bases) {
      const summary = summarize(
        base,
        { index: 0, name: null },
        { enabled: false, reason: 'disabled_by_option', stages: [] },
      );
      expect(summary.mainActor?.mean).toBeGreaterThan(0);
    }
  });

  for (const [i, base] of bases.entries()) {
    it(`mutated fields, types, numbers and array sizes (${REPORTS[i]!.split('/').pop()})`, () => {
      fc.assert(
        fc.property(mutations(base, 5), choices, (list, choice) => readLocally(mutate(base, list), choice)),
        params(),
      );
    });
  }

  it('corrupted report text: not JSON, NaN, truncated, an empty file', () => {
    const text = readFileSync(REPORTS[0]!, 'utf8');
    const corrupt = fc.oneof(
      fc.nat(text.length).map((n) => text.slice(0, n)),
      fc
        .tuple(fc.nat(text.length), fc.constantFrom('NaN', 'nan', '-nan', 'Infinity', 'inf', '\u0000', '}', '"', ','))
        .map(([at, junk]) => text.slice(0, at) + junk + text.slice(at)),
      fc.constantFrom(
        '',
        'null',
        '[]',
        '{}',
        '{"sim":null}',
        '{"sim":[]}',
        '{"sim":{}}',
        '{"sim":{"players":{}}}',
        '{"sim":{"players":[1]}}',
      ),
    );
    fc.assert(
      fc.property(corrupt, (t) => {
        const parsed = expectOwnErrors(() => parseReport(t), [], [ReportError]);
        if (parsed !== undefined) readLocally(parsed, { index: 0, name: null });
      }),
      { ...params(), numRuns: Math.max(20, Math.floor(params().numRuns! / 4)) },
    );
  });
});
