/**
 * Full names everywhere on a terminal: a top gear row says in full what it changes (wrapped, never cut), and the
 * scenario matrix fits 80 columns by wrapping and stacking, never by cutting a name or the #rank of a cell.
 */
import { stripVTControlCharacters } from 'node:util';
import { describe, expect, it } from 'vitest';
import type { ResultRecord } from '../../../src/core/resources/schemas.js';
import { Output } from '../../../src/cli/output/io.js';
import { wrap } from '../../../src/cli/output/table.js';
import { printResult } from '../../../src/cli/output/views/result.js';
import { printScenarioMatrix, type ScenarioJob } from '../../../src/cli/output/views/scenario-matrix.js';
import { memoryStream } from '../../helpers/streams.js';

function terminal(width: number) {
  const stdout = memoryStream(true, width);
  const out = new Output({
    stdout,
    stderr: memoryStream(true, width),
    env: {},
    json: false,
    noColor: false,
    quiet: false,
  });
  return {
    out,
    lines: () =>
      stdout
        .text()
        .split('\n')
        .map((l) => stripVTControlCharacters(l)),
  };
}

const NAMES = [
  'Heart of Ancient Hunger (298, vault) in trinket2',
  'Heart of Ancient Hunger (298, vault) in trinket1, Eye of Midnight (276) in finger2',
  "Voidbreaker's Veil (289) in head, Amulet of the Abyssal Hymn (282) in neck, Sin'dorei Band of Hope (282) in finger1",
  "Voidbreaker's Veil (289) in head, Amulet of the Abyssal Hymn (282) in neck, Sin'dorei Band of Hope (282) in finger2",
];

function topgear(): ResultRecord {
  const results = NAMES.map((name, i) => ({ name, mean: 50_600 - i * 5, mean_error: 25, mean_stddev: 12, stage: 3 }));
  return {
    id: 'local-01m86tj19efvvza325',
    status: 'completed',
    metadata: { kind: 'topgear' },
    result: {
      summary: {
        metric: 'dps',
        mainActor: {
          name: 'Examplewar',
          mean: 50_000,
          mean_error: 25,
          mean_stddev: 12,
          profilesets: { count: results.length, results },
        },
      },
      artifacts: [],
    },
  } as unknown as ResultRecord;
}

describe('full names on a terminal', () => {
  it.each([80, 120])('a top gear table at %i columns names every change in full, within the width', (width) => {
    const { out, lines } = terminal(width);
    printResult(out, topgear(), {});
    const all = lines();
    for (const line of all) expect([...line].length).toBeLessThanOrEqual(width);
    expect(all.join('\n')).not.toContain('…');
    // Each name is all there, its pieces on the lines of its row, in order.
    const table = all.slice(all.findIndex((l) => /^\s*#\s+Profileset/.test(l)));
    const text = table
      .map((l) => l.trim())
      .join(' ')
      .replace(/\s+/g, ' ');
    for (const name of NAMES) {
      for (const change of name.split(/, (?=[A-Z])/)) expect(text).toContain(change.split(' ').slice(0, 3).join(' '));
    }
    const slots = (
      table
        .join(' ')
        .replace(/\s+/g, ' ')
        .match(/ in (head|neck|trinket[12]|finger[12])\b/g) ?? []
    ).length;
    expect(slots).toBe(NAMES.reduce((n, name) => n + name.split(/, (?=[A-Z])/).length, 0));
  });

  it('wraps after a comma first, then at spaces, a long word in pieces', () => {
    expect(wrap("Voidbreaker's Veil (289) in head, Amulet of the Abyssal Hymn (282) in neck", 45)).toEqual([
      "Voidbreaker's Veil (289) in head,",
      'Amulet of the Abyssal Hymn (282) in neck',
    ]);
    expect(wrap('aaaa bbbb cccc', 9)).toEqual(['aaaa bbbb', 'cccc']);
    expect(wrap('x'.repeat(10), 4)).toEqual(['xxxx', 'xxxx', 'xx']);
    expect(wrap('fury-trinkets-long_name', 9)).toEqual(['fury-', 'trinkets-', 'long_name']);
    expect(wrap('short', 10)).toEqual(['short']);
  });

  it('the scenario matrix fits 80 columns, every name and every #rank whole', () => {
    const scenarios = [
      'Patchwerk 1 target',
      'DungeonSlice 5 targets',
      'HecticAddCleave',
      'LightMovement 300s',
      'CastingPatchwerk long',
    ];
    const jobs: ScenarioJob[] = scenarios.map((scenario, s) => ({
      profile: 'fury-trinkets-with-a-long-profile-name',
      scenario,
      state: 'completed',
      outcome: {
        status: 'completed',
        result: {
          summary: {
            mainActor: {
              name: 'Examplewar',
              mean: 1_234_567.8 + s,
              mean_error: 1_234.5,
              profilesets: {
                count: 2,
                results: NAMES.slice(0, 2).map((name, i) => ({
                  name,
                  mean: 1_234_000 + i * 1000 + s,
                  mean_error: 1_000,
                })),
              },
            },
          },
        },
      } as unknown as ResultRecord,
    }));
    const { out, lines } = terminal(80);
    printScenarioMatrix(out, jobs);
    const all = lines();
    for (const line of all) expect([...line].length).toBeLessThanOrEqual(80);
    const text = all.join('\n');
    expect(text).not.toContain('…');
    // 3 rows × 5 scenarios, each cell's rank whole: "#1", "#2" or "#3" as a word of its own
    expect(text.match(/(?<=\s)#[123](?=\s|$)/g)?.length).toBe(15);
    for (const s of scenarios) for (const word of s.split(' ')) expect(text).toContain(word);
    expect(text.match(/1,234,567\.8/g)?.length).toBe(1); // the first scenario's actor, whole
  });
});
