import { describe, expect, it } from 'vitest';
import type { ResultRecord } from '../../../src/api/schemas.js';
import { Output } from '../../../src/output/io.js';
import { printResult } from '../../../src/output/views/result.js';
import { topGearHeadline } from '../../../src/output/views/topgear.js';
import { memoryStream } from '../../helpers/streams.js';

function topgear(sets: Array<[string, number, number]>, metadata: Record<string, string> | null = { kind: 'topgear' }): ResultRecord {
  return {
    id: 'local-01m86tj19efvvza325',
    status: 'completed',
    metadata,
    result: {
      summary: {
        metric: 'dps',
        mainActor: { name: 'Examplewar', mean: 50_000, mean_error: 30, mean_stddev: 15, profilesets: { count: sets.length, results: sets.map(([name, mean, mean_error]) => ({ name, mean, mean_error, mean_stddev: mean_error / 2, stage: 3 })) } },
      },
      artifacts: [],
    },
  } as unknown as ResultRecord;
}

describe('the top gear headline of a result', () => {
  it('says what to equip, with the gain and its error, when the best beats the equipped set beyond the error', () => {
    const r = topgear([["Vaelgor's Final Stare (282) in trinket2", 50_600, 40], ['Alnhara Lantern (285) in trinket1', 50_100, 40]]);
    expect(topGearHeadline(r)).toBe("Equip Vaelgor's Final Stare (282) in trinket2: +600.0 dps ± 50.0 (+1.20%) over the equipped set.");
  });

  it('says plainly when the equipped set is within the error of the best', () => {
    const r = topgear([['Alnhara Lantern (285) in trinket1', 50_030, 40]]);
    expect(topGearHeadline(r)).toBe('Keep what you wear: the equipped set is within the error of the best, Alnhara Lantern (285) in trinket1 (+30.0 dps ± 50.0 (+0.06%)).');
  });

  it('says so when no combination beats the equipped set', () => {
    const r = topgear([['Alnhara Lantern (285) in trinket1', 49_000, 40]]);
    expect(topGearHeadline(r)).toBe('Keep what you wear: no combination beats the equipped set (the best, Alnhara Lantern (285) in trinket1, is −1,000.0 dps ± 50.0 (−2.00%)).');
  });

  it('on a terminal, the baseline row of a top gear table is the equipped set', () => {
    const stdout = memoryStream(true, 140);
    const stderr = memoryStream(true, 140);
    const out = new Output({ stdout, stderr, env: {}, json: false, noColor: true, quiet: false });
    printResult(out, topgear([['Alnhara Lantern (285) in trinket1', 50_600, 40], ['Eye of Midnight (276) in finger2', 49_000, 40]]), {});
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
});
