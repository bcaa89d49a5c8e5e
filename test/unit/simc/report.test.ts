import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  csvTable,
  parseReport,
  ReportError,
  SUMMARY_PROFILESET_LIMIT,
  summarize,
} from '../../../src/domain/report/report.js';
import { FIXTURES_DIR } from '../../helpers/shared.js';

const FIXTURE = join(FIXTURES_DIR, 'reports', 'f560c5ca-f3c7-47cf-8463-00b422572ebe.json');
const single = { enabled: false, reason: 'disabled_by_option', stages: [] };
const first = { index: 0, name: null };

describe('the real json2 fixture report', () => {
  const text = readFileSync(FIXTURE, 'utf8');

  it('parses into the summary of spec 2.4: actor, mean, mean_error = mean_std_dev × confidence_estimator', () => {
    const summary = summarize(parseReport(text), first, single);
    expect(summary.metric).toBe('dps');
    expect(summary.mainActor?.name).toBe('Mizayaki');
    expect(summary.mainActor?.mean).toBe(46150.8438418625);
    expect(summary.mainActor?.mean_stddev).toBe(94.90197691251939);
    expect(summary.mainActor?.mean_error).toBe(94.90197691251939 * 1.9599639854088815);
    expect(summary.mainActor?.mean_error).toBeCloseTo(186.0044, 3);
    expect(summary.mainActor?.profilesets).toBeUndefined(); // the fixture has none
    expect(summary.multiStage).toEqual(single);
  });

  it('keeps the seed out of harm: summaries and the CSV never carry it, and the report text is not rewritten', () => {
    expect(text).toContain('"seed":11333897891239678695');
    const summary = summarize(parseReport(text), first, single);
    expect(JSON.stringify(summary)).not.toMatch(/seed|11333897891239678/);
    const csv = csvTable(parseReport(text), first).trimEnd().split('\n');
    expect(csv).toEqual([
      'name,dps_mean,dps_min,dps_max,dps_std_dev,dps_mean_std_dev',
      'Mizayaki,46150.8438418625,42767.91442081532,50090.82570926576,1378.5308418101572,94.90197691251939',
    ]);
  });
});

function reportWith(
  players: Array<{ name: string; mean: number; msd: number }>,
  sets: unknown,
  options: Record<string, unknown> = { confidence_estimator: 2 },
) {
  return {
    version: '1201-01',
    sim: {
      options,
      players: players.map((p) => ({
        name: p.name,
        collected_data: { dps: { mean: p.mean, min: p.mean - 1, max: p.mean + 1, std_dev: 10, mean_std_dev: p.msd } },
      })),
      ...(sets === undefined ? {} : { profilesets: sets }),
    },
  };
}

describe('summaries of profileset reports', () => {
  it('ranks v2 profilesets by mean, keeps the top 200 and counts all of them', () => {
    const results = Array.from({ length: 250 }, (_, i) => ({
      name: `set${i}`,
      mean: 1000 + ((i * 37) % 250),
      mean_stddev: 3,
      mean_error: 999,
      stddev: 30,
      min: 1,
      max: 2,
    }));
    const summary = summarize(
      reportWith([{ name: 'Base', mean: 1100, msd: 4 }], { metric: 'Damage per Second', results }),
      first,
      single,
    );
    const sets = summary.mainActor!.profilesets!;
    expect(sets.count).toBe(250);
    expect(sets.results).toHaveLength(SUMMARY_PROFILESET_LIMIT);
    expect(sets.results[0]).toEqual({ name: expect.any(String), mean: 1249, mean_error: 6, mean_stddev: 3, stage: 1 });
    const means = sets.results.map((r) => r.mean);
    expect(means).toEqual([...means].sort((a, b) => b - a));
    expect(summary.mainActor).toMatchObject({ name: 'Base', mean: 1100, mean_stddev: 4, mean_error: 8 });
  });

  it('reads v3 profilesets from their first (primary) metric', () => {
    const results = [
      {
        name: 'low',
        metrics: [
          { metric: 'dps', mean: 10, mean_stddev: 1, stddev: 5, min: 8, max: 12 },
          { metric: 'hps', mean: 999, mean_stddev: 1 },
        ],
      },
      { name: 'high', metrics: [{ metric: 'dps', mean: 20, mean_stddev: 2, stddev: 6, min: 18, max: 22 }] },
    ];
    const report = reportWith([{ name: 'Base', mean: 15, msd: 1 }], { results });
    const summary = summarize(report, first, single);
    expect(summary.mainActor!.profilesets).toEqual({
      count: 2,
      results: [
        { name: 'high', mean: 20, mean_error: 4, mean_stddev: 2, stage: 1 },
        { name: 'low', mean: 10, mean_error: 2, mean_stddev: 1, stage: 1 },
      ],
    });
    expect(csvTable(report, first).split('\n').slice(0, 4)).toEqual([
      'name,dps_mean,dps_min,dps_max,dps_std_dev,dps_mean_std_dev',
      'Base,15,14,16,10,1',
      'high,20,18,22,6,2',
      'low,10,8,12,5,1',
    ]);
  });

  it('headlines the actor named by profileset_main_actor_index, by name, then by index', () => {
    const report = reportWith(
      [
        { name: 'First', mean: 1, msd: 1 },
        { name: 'Second', mean: 2, msd: 1 },
      ],
      undefined,
    );
    expect(summarize(report, { index: 1, name: 'Second' }, single).mainActor?.name).toBe('Second');
    expect(summarize(report, { index: 1, name: null }, single).mainActor?.name).toBe('Second');
    expect(summarize(report, { index: 5, name: 'Missing' }, single).mainActor?.name).toBe('First');
  });

  it('uses 1.96 when a report lacks the confidence estimator, and quotes CSV names', () => {
    const report = reportWith([{ name: 'A "quoted", name', mean: 100, msd: 10 }], undefined, {});
    expect(summarize(report, first, single).mainActor?.mean_error).toBeCloseTo(19.6, 2);
    expect(csvTable(report, first).split('\n')[1]).toBe('"A ""quoted"", name",100,99,101,10,10');
  });

  it('refuses a report that is not JSON, has no sim, or has no players', () => {
    expect(() => parseReport('{"sim": {')).toThrow(ReportError);
    expect(() => parseReport('{"version": "1"}')).toThrow(/no "sim" object/);
    expect(() => summarize(parseReport('{"sim": {"players": []}}'), first, single)).toThrow(/no players/);
  });
});
