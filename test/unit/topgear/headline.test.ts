import { describe, expect, it } from 'vitest';
import type { ResultRecord } from '../../../src/core/resources/schemas.js';
import { Output } from '../../../src/cli/output/io.js';
import { printResult } from '../../../src/cli/output/views/result.js';
import { topGearHeadline } from '../../../src/cli/output/views/topgear.js';
import { topGearAnswer } from '../../../src/domain/topgear/answer.js';
import { memoryStream } from '../../helpers/streams.js';

function topgear(
  sets: Array<[string, number, number]>,
  metadata: Record<string, string> | null = { kind: 'topgear' },
): ResultRecord {
  return {
    id: 'local-01m86tj19efvvza325',
    status: 'completed',
    metadata,
    result: {
      summary: {
        metric: 'dps',
        mainActor: {
          name: 'Examplewar',
          mean: 50_000,
          mean_error: 30,
          mean_stddev: 15,
          profilesets: {
            count: sets.length,
            results: sets.map(([name, mean, mean_error]) => ({
              name,
              mean,
              mean_error,
              mean_stddev: mean_error / 2,
              stage: 3,
            })),
          },
        },
      },
      artifacts: [],
    },
  } as unknown as ResultRecord;
}

describe('the top gear headline of a result', () => {
  it('says what to equip, with the gain and its error, when the best beats the equipped set beyond the error', () => {
    const r = topgear([
      ["Vaelgor's Final Stare (282) in trinket2", 50_600, 40],
      ['Alnhara Lantern (285) in trinket1', 50_100, 40],
    ]);
    expect(topGearHeadline(r)).toBe(
      "Equip Vaelgor's Final Stare (282) in trinket2: +600.0 dps ± 50.0 (+1.20%) over the equipped set.",
    );
  });

  it('says plainly when the equipped set is within the error of the best', () => {
    const r = topgear([['Alnhara Lantern (285) in trinket1', 50_030, 40]]);
    expect(topGearHeadline(r)).toBe(
      'Keep what you wear: the equipped set is within the error of the best, Alnhara Lantern (285) in trinket1 (+30.0 dps ± 50.0 (+0.06%)).',
    );
  });

  it('says a tie when the equipped set leads by less than the error, and what would separate them', () => {
    const r = topgear([
      ['A (289) in head', 49_980, 40],
      ['B (282) in neck', 49_970, 40],
      ['C (276) in back', 48_000, 40],
    ]);
    expect(topGearHeadline(r)).toBe(
      'Keep what you wear: the equipped set leads, and 2 combinations are within its error: A (289) in head (−20.0 dps ± 50.0 (−0.04%)); B (282) in neck (−30.0 dps ± 50.0 (−0.06%)).',
    );
    expect(topGearAnswer(r)!.separate).toMatch(/^What would separate them: /);
  });

  it('says so when no combination beats the equipped set', () => {
    const r = topgear([['Alnhara Lantern (285) in trinket1', 49_000, 40]]);
    expect(topGearHeadline(r)).toBe(
      'Keep what you wear: no combination beats the equipped set (the best, Alnhara Lantern (285) in trinket1, is −1,000.0 dps ± 50.0 (−2.00%)).',
    );
  });

  it('on a terminal, the baseline row of a top gear table is the equipped set', () => {
    const stdout = memoryStream(true, 140);
    const stderr = memoryStream(true, 140);
    const out = new Output({ stdout, stderr, env: {}, json: false, noColor: true, quiet: false });
    printResult(
      out,
      topgear([
        ['Alnhara Lantern (285) in trinket1', 50_600, 40],
        ['Eye of Midnight (276) in finger2', 49_000, 40],
      ]),
      {},
    );
    expect(stdout.text()).toContain('equipped set (Examplewar)');
    expect(stdout.text()).not.toContain('baseline (');
  });

  it('only for jobs marked kind=topgear, printed under the job headline; names are made terminal-safe', () => {
    expect(topGearHeadline(topgear([['a', 51_000, 10]], null))).toBeUndefined();
    expect(topGearHeadline(topgear([['a', 51_000, 10]], { kind: 'other' }))).toBeUndefined();
    const stdout = memoryStream(false, 100);
    const stderr = memoryStream(false, 100);
    const out = new Output({ stdout, stderr, env: {}, json: false, noColor: true, quiet: false });
    printResult(out, topgear([['Evil\u001b[31m Ring (1) in finger1', 51_000, 10]]), {});
    const lines = stdout.text().split('\n');
    const at = lines.findIndex((l) => l.startsWith('Equip '));
    expect(at).toBeGreaterThan(0);
    expect(lines[at]).not.toContain('\u001b');
    expect(lines.findIndex((l) => l.startsWith('#\tProfileset'))).toBeGreaterThan(at);
  });

  it('a tie among combinations is said to be one, lists them, and says what would separate them', () => {
    const r = topgear([
      ['A (289) in head', 50_600, 25],
      ['B (282) in neck', 50_580, 25],
      ['C (285) in trinket1', 50_570, 25],
      ['D (276) in finger1', 50_100, 25],
    ]);
    expect(topGearHeadline(r)).toBe(
      '3 combinations are within the error of the best: A (289) in head (+600.0 dps ± 39.1 (+1.20%)); B (282) in neck (+580.0 dps ± 39.1 (+1.16%)); C (285) in trinket1 (+570.0 dps ± 39.1 (+1.14%)).',
    );
    const answer = topGearAnswer(r)!;
    expect(answer.tied.map((t) => t.name)).toEqual(['A (289) in head', 'B (282) in neck', 'C (285) in trinket1']);
    expect(answer.separate).toBe(
      "What would separate them: a final stage at a lower target error (they are 20.0 dps apart). Run the top gear again with --target-error 0.01: multistage culls the rest cheaply and spends that precision only on the few still in the running, as Raidbots' Smart Sim does.",
    );
  });

  it('a tie closer than the finest target error says so, and that either will do', () => {
    const r = topgear([
      ['A (289) in head', 50_600, 29.9],
      ['B (282) in neck', 50_599.5, 29.9],
    ]);
    expect(topGearHeadline(r)).toMatch(/^2 combinations are within the error of the best: A \(289\) in head/);
    expect(topGearAnswer(r)!.separate).toMatch(
      /^What would separate them: nothing on offer\. The best and the next are 0\.5 dps apart; even --target-error 0\.01/,
    );
  });

  it('keep what you wear, with others in the tie too', () => {
    const r = topgear([
      ['A (289) in head', 50_030, 40],
      ['B (282) in neck', 50_020, 40],
    ]);
    expect(topGearHeadline(r)).toBe(
      'Keep what you wear: the equipped set and 2 combinations are within the error of the best: A (289) in head (+30.0 dps ± 50.0 (+0.06%)); B (282) in neck (+20.0 dps ± 50.0 (+0.04%)).',
    );
    expect(topGearAnswer(r)!.separate).toMatch(
      /^What would separate them: a final stage at a lower target error \(they are 30\.0 dps apart\)\. Run the top gear again with --target-error 0\.02:/,
    );
  });

  it('the Great Vault: which item to take and its worth over the best without one', () => {
    const take = topgear([
      ['Heart of Ancient Hunger (298, vault) in trinket1, A (289) in head', 51_000, 30],
      ['A (289) in head', 50_600, 30],
    ]);
    expect(topGearAnswer(take)!.vault).toBe(
      'Great Vault: take Heart of Ancient Hunger (298, vault) in trinket1: the best set with it, Heart of Ancient Hunger (298, vault) in trinket1, A (289) in head, is +400.0 dps ± 42.4 (+0.79%) over the best without a vault item, A (289) in head.',
    );
    const close = topgear([
      ["Night Ender's Girdle (298, vault) in waist", 50_610, 30],
      ['A (289) in head', 50_600, 30],
    ]);
    expect(topGearAnswer(close)!.vault).toMatch(
      /^Great Vault: Night Ender's Girdle \(298, vault\) in waist is the best vault item, but within the error of the best without one/,
    );
    const none = topgear([
      ['A (289) in head', 50_600, 30],
      ['Platinum Star Band (298, vault) in finger1', 49_000, 30],
    ]);
    expect(topGearAnswer(none)!.vault).toMatch(
      /^Great Vault: no vault item beats the best without one: the best with one, Platinum Star Band \(298, vault\) in finger1, is −1,600\.0 dps/,
    );
    expect(topGearAnswer(topgear([['A (289) in head', 50_600, 30]]))!.vault).toBeUndefined();
  });

  it('on a terminal the tie, what separates it and the vault line are printed whole under the job headline', () => {
    const stdout = memoryStream(true, 80);
    const stderr = memoryStream(true, 80);
    const out = new Output({ stdout, stderr, env: {}, json: false, noColor: true, quiet: false });
    printResult(
      out,
      topgear([
        ["Voidbreaker's Veil (289) in head, Amulet of the Abyssal Hymn (282) in neck", 50_600, 25],
        ['Heart of Ancient Hunger (298, vault) in trinket1', 50_590, 25],
      ]),
      {},
    );
    const lines = stdout.text().split('\n');
    for (const line of lines) expect([...line].length).toBeLessThanOrEqual(80);
    const text = lines.join(' ');
    expect(text).toContain(
      "2 combinations are within the error of the best: Voidbreaker's Veil (289) in head, Amulet of the Abyssal Hymn (282) in neck (+600.0 dps ± 39.1 (+1.20%)); Heart of Ancient Hunger (298, vault) in trinket1 (+590.0 dps ± 39.1 (+1.18%)).",
    );
    expect(text).toContain('What would separate them:');
    expect(text).toContain(
      'Great Vault: Heart of Ancient Hunger (298, vault) in trinket1 is the best vault item, but within the error',
    );
  });
});
