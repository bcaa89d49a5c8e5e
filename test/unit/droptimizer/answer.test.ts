/**
 * The droptimizer's answer read from a result alone (names → item, source, slot), the roster rows, and the shipped
 * catalog being exactly what the build script makes from the fixtures.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { execa } from 'execa';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { analyseDrops } from '../../../src/domain/droptimizer/analysis.js';
import { rosterCsv, type RosterRow } from '../../../src/domain/droptimizer/roster.js';
import { REPO_ROOT } from '../../helpers/shared.js';

const actor = (mean: number, sets: Array<[string, number]>) => ({
  name: 'Examplewar',
  mean,
  mean_error: 10,
  profilesets: { count: sets.length, results: sets.map(([name, m]) => ({ name, mean: m, mean_error: 10 })) },
});

describe('the answer of a droptimizer job', () => {
  it('the best upgrade, then each source by its best drop, counting items (not slots) that beat what is worn', () => {
    const answer = analyseDrops(
      actor(1000, [
        ['Ring A (272) from Vorasius in finger1', 1100],
        ['Ring A (272) from Vorasius in finger2', 1090],
        ['Helm B (272) from Vorasius in head', 1005], // within the error (±14.1)
        ['Neck C (259) from Windrunner Spire (Great Vault) in neck', 1050],
        ['Boots D (272) from Imperator Averzian in feet', 900],
      ]),
    );
    expect(answer.verdict).toBe('upgrade');
    expect(answer.best).toMatchObject({
      item: 'Ring A',
      itemLevel: 272,
      from: 'Vorasius',
      slot: 'finger1',
      delta: 100,
      significant: true,
    });
    expect(answer.bySource.map((s) => [s.source, s.best.item, s.upgrades, s.drops])).toEqual([
      ['Vorasius', 'Ring A', 1, 2],
      ['Windrunner Spire (Great Vault)', 'Neck C', 1, 1],
      ['Imperator Averzian', 'Boots D', 0, 1],
    ]);
  });

  it('says when nothing beats what is worn, or only within the error', () => {
    expect(analyseDrops(actor(1000, [['Helm B (272) from Vorasius in head', 990]])).verdict).toBe('none');
    expect(analyseDrops(actor(1000, [['Helm B (272) from Vorasius in head', 1005]])).verdict).toBe('within_error');
  });
});

describe('the roster CSV', () => {
  it('quotes what needs quoting and reads back field for field', () => {
    const rows: RosterRow[] = [
      {
        character: 'Sørtbek',
        itemId: 1,
        itemName: 'Belo\'ren, "the" Ring',
        source: "Belo'ren, Child of Al'ar",
        slot: 'finger1',
        deltaDps: -12.5,
        deltaPercent: -0.03,
        significant: false,
        upgrade: false,
      },
      {
        character: 'Examplewar',
        itemId: 2,
        itemName: 'Helm',
        source: 'Vorasius',
        slot: 'head',
        deltaDps: 100,
        deltaPercent: null,
        significant: null,
        upgrade: false,
      },
    ];
    const back = parse(rosterCsv(rows), { columns: true }) as Array<Record<string, string>>;
    expect(back).toEqual([
      {
        character: 'Sørtbek',
        'item id': '1',
        'item name': 'Belo\'ren, "the" Ring',
        source: "Belo'ren, Child of Al'ar",
        slot: 'finger1',
        'Δ dps': '-12.5',
        'Δ %': '-0.03',
        significant: 'false',
        upgrade: 'false',
      },
      {
        character: 'Examplewar',
        'item id': '2',
        'item name': 'Helm',
        source: 'Vorasius',
        slot: 'head',
        'Δ dps': '100',
        'Δ %': '',
        significant: '',
        upgrade: 'false',
      },
    ]);
  });
});

describe('scripts/build-catalog.ts', () => {
  it('makes the shipped catalog, byte for byte, from test/fixtures/droptimizer', async () => {
    const out = mkdtempSync(join(tmpdir(), 'simjob-catalog-'));
    try {
      await execa(
        process.execPath,
        ['scripts/tsrun.mjs', 'scripts/build-catalog.ts', 'test/fixtures/droptimizer', out],
        { cwd: REPO_ROOT },
      );
      for (const file of ['midnight-s1.json', 'LICENSE-pybots-Apache-2.0']) {
        expect(readFileSync(join(out, file), 'utf8')).toBe(
          readFileSync(resolve(REPO_ROOT, 'data', 'catalog', file), 'utf8'),
        );
      }
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });
});
