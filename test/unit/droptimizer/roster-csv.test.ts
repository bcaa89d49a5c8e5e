/**
 * The roster CSV for wishlist tools (issue 38): `upgrade` only on gains beyond the error, character names made
 * unique only when two collide, and text cells a spreadsheet would run as a formula neutralised (OWASP), numbers
 * left as numbers.
 */
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import type { ResultRecord } from '../../../src/core/resources/schemas.js';
import type { DropPlan } from '../../../src/domain/droptimizer/plan.js';
import { buildRoster, characterLabels, rosterCsv, type RosterRow } from '../../../src/domain/droptimizer/roster.js';

/** A finished droptimizer job: the baseline at 1000 dps ± 10, and each drop at its mean ± 10. */
function record(sets: Array<[string, number]>): ResultRecord {
  const mainActor = {
    name: 'Examplewar',
    mean: 1000,
    mean_error: 10,
    profilesets: { count: sets.length, results: sets.map(([name, mean]) => ({ name, mean, mean_error: 10 })) },
  };
  return { result: { summary: { mainActor } } } as unknown as ResultRecord;
}

const planOf = (names: string[]): DropPlan => ({
  sets: names.map((name, i) => ({
    name,
    slot: 'head',
    options: '',
    drop: { item: { id: 100 + i, name: name.split(' (')[0]! }, from: 'Vorasius' },
  })) as unknown as DropPlan['sets'],
  leftOut: [],
  items: names.length,
});

describe('the upgrade column', () => {
  it('is true only for a gain beyond the error; significant says |Δ| is beyond it, either way', () => {
    const names = [
      'Big Gain (272) from Vorasius in head',
      'Small Gain (272) from Vorasius in head',
      'Big Loss (272) from Vorasius in head',
    ];
    const roster = buildRoster([
      {
        character: 'Examplewar',
        profile: 'x.txt',
        plan: planOf(names),
        state: 'completed',
        record: record([
          [names[0]!, 1100],
          [names[1]!, 1005],
          [names[2]!, 900],
        ]),
      },
    ]);
    const by = Object.fromEntries(roster.rows.map((r) => [r.itemName, [r.significant, r.upgrade]]));
    expect(by).toEqual({ 'Big Gain': [true, true], 'Small Gain': [false, false], 'Big Loss': [true, false] });
  });
});

describe('character names', () => {
  it('the name alone; with the realm when two share a name; with the file when the realm does not tell them apart', () => {
    expect(
      characterLabels([
        { name: 'Gulthrak', realm: 'dalaran', file: 'a/gulthrak.txt' },
        { name: 'Sozinn', realm: 'twisting_nether', file: 'b/sozinn.txt' },
        { name: 'Sozinn', realm: 'draenor', file: 'c/sozinn.txt' },
        { name: 'Examplewar', realm: 'silvermoon', file: 'roster/fury.txt' },
        { name: 'Examplewar', realm: 'silvermoon', file: 'roster/fury-bare.txt' },
        { name: 'Tester', realm: null, file: 'x/one.txt' },
        { name: 'Tester', realm: null, file: 'y/two.txt' },
      ]),
    ).toEqual([
      'Gulthrak',
      'Sozinn-twisting_nether',
      'Sozinn-draenor',
      'Examplewar (fury.txt)',
      'Examplewar (fury-bare.txt)',
      'Tester (one.txt)',
      'Tester (two.txt)',
    ]);
  });
});

describe('CSV injection (OWASP)', () => {
  const row = (over: Partial<RosterRow>): RosterRow => ({
    character: 'Examplewar',
    itemId: 1,
    itemName: 'Helm',
    source: 'Vorasius',
    slot: 'head',
    deltaDps: -1.5,
    deltaPercent: -0.25,
    significant: false,
    upgrade: false,
    ...over,
  });

  it("prefixes ' to text cells that start with = + - @ tab or CR; numbers stay numbers", () => {
    const rows = [
      row({ itemName: '=HYPERLINK("http://x","y")' }),
      row({ character: '+Examplewar', source: '-Vorasius' }),
      row({ itemName: '@SUM(A1)', source: '\tTab' }),
      row({ itemName: '\rCR' }),
      row({ itemName: 'Belo\'ren, "the" Ring' }),
    ];
    const back = parse(rosterCsv(rows), { columns: true }) as Array<Record<string, string>>;
    expect(back.map((r) => r['item name'])).toEqual([
      '\'=HYPERLINK("http://x","y")',
      'Helm',
      "'@SUM(A1)",
      "'\rCR",
      'Belo\'ren, "the" Ring',
    ]);
    expect(back[1]).toMatchObject({ character: "'+Examplewar", source: "'-Vorasius" });
    expect(back[2]!.source).toBe("'\tTab");
    for (const r of back) expect([r['Δ dps'], r['Δ %']]).toEqual(['-1.5', '-0.25']);
  });
});
