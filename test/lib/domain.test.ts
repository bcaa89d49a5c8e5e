/**
 * The library's domain functions in-process: a /simc export in, a profile out; a result in, the answer out; simc's
 * own JSON report read into a summary. Bad input is a UsageError whose message says what is wrong.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  compareResults,
  droptimizerAnswer,
  planDroptimizer,
  planStatWeights,
  planTopGear,
  readReport,
  statWeights,
  topGearAnswer,
  UsageError,
  type ResultRecord,
  type Summary,
} from '../../src/index.js';
import { REPO_ROOT } from '../helpers/shared.js';

const fixture = (...path: string[]) => readFileSync(join(REPO_ROOT, 'test', 'fixtures', ...path), 'utf8');
const exportText = fixture('addon', 'fury-bags-vault.txt');

const resultOf = (summary: Summary, metadata: Record<string, string> = {}): ResultRecord => ({
  id: 'local-000000000000000001',
  status: 'completed',
  metadata,
  result: { summary, artifacts: [] },
});

describe('planning from an export', () => {
  it('top gear: every combination as profilesets, marked for the answer', () => {
    const plan = planTopGear(exportText, { slots: ['trinket'] });
    expect(plan.character).toEqual({ name: 'Examplewar', className: 'warrior', spec: 'fury' });
    expect(plan.metadata).toEqual({ kind: 'topgear' });
    expect(plan.profilesets).toBeGreaterThan(0);
    expect(plan.text.match(/^profileset\."/gm)?.length).toBeGreaterThanOrEqual(plan.profilesets);
    expect(plan.text).toContain('warrior="Examplewar"');
  });

  it('top gear: too many combinations names the slots that would fit; a bad export or slot says why', () => {
    expect(() => planTopGear(exportText, { maxCombos: 10 })).toThrow(/more than maxCombos 10: slots .* would make/);
    expect(() => planTopGear('hello')).toThrow(UsageError);
    expect(() => planTopGear('')).toThrow('The export is empty.');
    expect(() => planTopGear(exportText, { slots: ['nose'] })).toThrow(UsageError);
  });

  it('droptimizer: a profileset per drop of the shipped catalog that fits', async () => {
    const plan = await planDroptimizer(exportText, { source: 'dungeons' });
    expect(plan.metadata).toEqual({ kind: 'droptimizer' });
    expect(plan.profilesets).toBeGreaterThan(0);
    await expect(planDroptimizer(exportText, { instances: ['Nowhere Keep'] })).rejects.toBeInstanceOf(UsageError);
  });

  it('stat weights: one profileset per stat, from an export or a profile', () => {
    const plan = planStatWeights(exportText);
    expect(plan.character.name).toBe('Examplewar');
    expect(plan.profilesets).toBe(5);
    expect(plan.metadata.statweights).toBeDefined();
    expect(planStatWeights('warrior="P"\nspec=fury\nlevel=90\n', { stats: 'crit,haste' }).profilesets).toBe(2);
  });
});

describe('reading results', () => {
  const report = fixture('simc', 'reports-real', 'r08_df1015_brewmaster_4ps.json');

  it('reads a simc report into a summary: the main actor and its profilesets ranked', () => {
    const summary = readReport(report);
    const sets = summary.mainActor?.profilesets;
    expect(sets?.count).toBe(4);
    expect(sets?.results.map((p) => p.name).sort()).toEqual(['0-0', '0-1', '0-2', '0-3']);
    const means = sets!.results.map((p) => p.mean);
    expect(means).toEqual([...means].sort((a, b) => b - a));
    expect(() => readReport('{"no": "sim"}')).toThrow(/The report cannot be read: it has no "sim" object/);
  });

  it('compares two results row by row, and answers only for the kind of job it knows', () => {
    const summary = readReport(report);
    const rows = compareResults(resultOf(summary), resultOf(summary));
    expect(rows[0]).toMatchObject({ kind: 'actor', delta: 0, significant: false });
    expect(rows.filter((r) => r.kind === 'profileset')).toHaveLength(4);
    expect(() => compareResults(resultOf({}), resultOf(summary))).toThrow(/Result A .* has no DPS/);

    expect(topGearAnswer(resultOf(summary))).toBeUndefined(); // not marked as top gear
    expect(topGearAnswer(resultOf(summary, { kind: 'topgear' }))?.headline).toMatch(/\S/);
    expect(droptimizerAnswer(resultOf(summary))?.verdict).toBe('none'); // its names are no drops
    expect(statWeights(resultOf(summary))).toBeUndefined();
  });
});
