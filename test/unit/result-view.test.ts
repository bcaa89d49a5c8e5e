import { stripVTControlCharacters } from 'node:util';
import { describe, expect, it } from 'vitest';
import type { ResultRecord } from '../../src/core/resources/schemas.js';
import { Output } from '../../src/cli/output/io.js';
import { profilesetsFromReport } from '../../src/domain/report/profileset-list.js';
import { difference } from '../../src/util/stats.js';
import { deltaBar, printResult } from '../../src/cli/output/views/result.js';
import { memoryStream } from '../helpers/streams.js';

function output(isTTY: boolean, columns = 100) {
  const stdout = memoryStream(isTTY, columns);
  const stderr = memoryStream(isTTY, columns);
  const env = isTTY ? { FORCE_COLOR: '1' } : {};
  return { out: new Output({ stdout, stderr, env, json: false, noColor: false, quiet: false }), stdout, stderr };
}

function record(overrides: Partial<ResultRecord> = {}, sets = 3, count = sets): ResultRecord {
  const results = Array.from({ length: sets }, (_, i) => ({
    name: `set_${String(i + 1).padStart(3, '0')}_${'long_name_'.repeat(i === 0 ? 4 : 0)}`,
    mean: 100_000 + (sets / 2 - i) * 1000,
    mean_error: 100,
    mean_stddev: 51,
    stage: 1,
  }));
  return {
    id: '519253542012420096',
    status: 'completed',
    errorCode: null,
    statusReason: null,
    retentionDays: 7,
    runtime: { simDurationMs: 42_000, totalDurationMs: 47_500, creditsConsumed: 150, priorityFeeCredits: 50 },
    build: { id: 'b', channel: 'nightly', commit: 'abcdef0123456789' },
    links: { share: 'https://share.example/519253542012420096' },
    result: {
      summary: {
        metric: 'dps',
        mainActor: { name: 'Fury', mean: 100_000, mean_error: 120, mean_stddev: 61, profilesets: { count, results } },
        multiStage: { enabled: false, reason: 'disabled_by_option', stages: [] },
      },
      artifacts: [
        {
          id: 'a1',
          url: 'https://art.example/a1/report.json',
          kind: 'json_report',
          mimeType: 'application/json',
          stage: null,
        },
      ],
    },
    ...overrides,
  } as ResultRecord;
}

describe('result view', () => {
  it('piped: headline key/values, then the ranked table as TSV with Δ against the baseline', () => {
    const { out, stdout } = output(false);
    printResult(out, record(), { top: 20 });
    const text = stdout.text();
    expect(text).toMatch(
      /^Job +519253542012420096\nStatus +completed\nActor +Fury +100,000\.0 dps ± 120\.0 \(0\.12%\)\nBuild +nightly @ abcdef0123\nSim time +42 s\nTotal time +48 s\nCredits +150 \(incl\. 50 priority fee\)\n/,
    );
    const table = text.split('\n').filter((l) => l.includes('\t'));
    expect(table[0]).toBe('#\tProfileset\tDPS\t±\tΔ DPS\tΔ %\tStage');
    expect(table[1]).toBe('1\tset_001_long_name_long_name_long_name_long_name_\t101,500.0\t100.0\t+1,500.0\t+1.50%\t1');
    expect(table[3]).toBe('3\tset_003_\t99,500.0\t100.0\t−500.0\t−0.50%\t1');
    expect(text).not.toMatch(/\x1b\[/);
    expect(text).toMatch(/Share +https:\/\/share\.example\//);
  });

  it('on a terminal: the baseline among the rows, bars, colour, and every line within the width', () => {
    const { out, stdout, stderr } = output(true, 80);
    printResult(out, record({}, 4), { top: 20 });
    const lines = stdout
      .text()
      .split('\n')
      .map((l) => stripVTControlCharacters(l));
    expect(stdout.text()).toMatch(/\x1b\[/);
    for (const line of lines) expect([...line].length).toBeLessThanOrEqual(80);
    const rows = lines.filter((l) => /^\s*(\d+|—)\s/.test(l));
    // set 3 ties with the baseline: the baseline comes after the profilesets it does not beat
    expect(rows.map((l) => l.trim().split(/\s+/)[0])).toEqual(['1', '2', '3', '—', '4']);
    expect(rows[3]).toContain('baseline (Fury)');
    const bars = rows.map((l) => (l.match(/[█▏▎▍▌▋▊▉]+$/) ?? [''])[0].length);
    expect(bars[0]).toBeGreaterThan(bars[4]!);
    expect(bars[4]).toBeGreaterThan(0);
    // set 3's Δ of 0 is within the combined error (grey), the others are not; the note explains the grey
    expect(rows[2]).toMatch(/0\.0 +0\.00%/);
    expect(stdout.text()).toMatch(/\x1b\[2m0\.0\x1b\[22m/);
    expect(stderr.text()).toContain('Grey differences are within the combined 95% error');
  });

  it('on a terminal: a baseline below every profileset comes last, and only when the whole list is shown', () => {
    const beaten = record();
    beaten.result.summary!.mainActor!.mean = 90_000;
    const ranks = (top: number) => {
      const { out, stdout } = output(true, 100);
      printResult(out, beaten, { top });
      return stdout
        .text()
        .split('\n')
        .map((l) => stripVTControlCharacters(l).trim().split(/\s+/)[0])
        .filter((r) => /^(\d+|—)$/.test(r ?? ''));
    };
    expect(ranks(20)).toEqual(['1', '2', '3', '—']);
    expect(ranks(2)).toEqual(['1', '2']);
  });

  it('a narrow terminal drops the bar before it truncates names too far', () => {
    const { out, stdout } = output(true, 60);
    printResult(out, record(), { top: 20 });
    for (const line of stdout.text().split('\n'))
      expect([...stripVTControlCharacters(line)].length).toBeLessThanOrEqual(60);
  });

  it('a truncated summary says it holds the top 200 of count, and how to see all', () => {
    const { out, stderr } = output(false);
    printResult(out, record({}, 200, 1000), { top: 20 });
    expect(stderr.text()).toContain(
      'The summary holds the top 200 of 1,000 profilesets (showing 20; --top N for more); --all reads every one from the JSON report.',
    );
  });

  it('--all rows replace the summary and say where they came from', () => {
    const { out, stdout, stderr } = output(false);
    const all = Array.from({ length: 1000 }, (_, i) => ({
      name: `ps${i}`,
      mean: 90_000 + i,
      mean_error: 50,
      stage: 1,
    }));
    printResult(out, record({}, 200, 1000), { top: Infinity, all: all.sort((a, b) => b.mean - a.mean) });
    expect(
      stdout
        .text()
        .split('\n')
        .filter((l) => /^\d+\tps/.test(l)),
    ).toHaveLength(1000);
    expect(stderr.text()).toContain('All 1,000 profilesets, read from the JSON report.');
  });

  it('an unsuccessful job: errorCode, reason and advice; no table', () => {
    const { out, stdout } = output(false);
    printResult(
      out,
      record({
        status: 'cancelled',
        errorCode: 'queue_timeout',
        statusReason: 'Waited in the queue longer than 1800 s.',
        result: { summary: null, artifacts: [] },
      }),
      { top: 20 },
    );
    expect(stdout.text()).toContain(
      'queue_timeout: Waited in the queue longer than 1800 s.\nThe job never started, so nothing was billed: it is safe to resubmit',
    );
    expect(stdout.text()).not.toContain('Profileset');
  });

  it('the multistage funnel and a fallback warning', () => {
    const staged = record();
    staged.result.summary!.multiStage = {
      enabled: true,
      reason: 'eligible_profileset_only',
      stages: [
        { stage: 1, label: 'initial', profilesets: 1000, culled: 600 },
        { stage: 2, label: 'intermediate', profilesets: 400, culled: 200 },
        { stage: 3, label: 'final', profilesets: 200, culled: 0 },
      ],
    };
    const a = output(false);
    printResult(a.out, staged, { top: 5 });
    expect(a.stdout.text()).toMatch(
      /Multistage +1,000 initial \(600 culled\) → 400 intermediate \(200 culled\) → 200 final\n/,
    );
    const fallback = record();
    fallback.result.summary!.multiStage = { enabled: false, reason: 'below_min_candidates', stages: [] };
    const b = output(false);
    printResult(b.out, fallback, { top: 5 });
    expect(b.stderr.text()).toContain(
      'Warning: Multistage did not run (below_min_candidates): fewer than 4 candidates; the job ran as a single pass.',
    );
  });
});

describe('JSON report profilesets', () => {
  it('json2: mean, mean_stddev, mean_error per entry, in input order, without the baseline', () => {
    const doc = {
      sim: {
        options: { confidence_estimator: 1.96 },
        players: [{ name: 'Fury' }],
        profilesets: {
          metric: 'Damage per Second',
          results: [
            { name: 'b', mean: 2, mean_stddev: 0.5, mean_error: 0.98 },
            { name: 'a', mean: 3, mean_stddev: 1 },
          ],
        },
      },
    };
    expect(profilesetsFromReport(doc)).toEqual([
      { name: 'b', mean: 2, mean_stddev: 0.5, mean_error: 0.98 },
      { name: 'a', mean: 3, mean_stddev: 1, mean_error: 1.96 },
    ]);
  });

  it("v3: the primary (or the summary's) metric of each entry, zero means kept", () => {
    const doc = {
      $id: 'x',
      report_version: '3.0.0-alpha1',
      sim: {
        profilesets: {
          results: [
            {
              name: 'a',
              metrics: [
                { metric: 'dps', mean: 10, mean_stddev: 1, mean_error: 1.96 },
                { metric: 'hps', mean: 5, mean_stddev: 1, mean_error: 1.96 },
              ],
            },
            { name: 'z', metrics: [{ metric: 'dps', mean: 0, mean_stddev: 0, mean_error: 0 }] },
          ],
        },
      },
    };
    expect(profilesetsFromReport(doc)).toEqual([
      { name: 'a', mean: 10, mean_stddev: 1, mean_error: 1.96 },
      { name: 'z', mean: 0, mean_stddev: 0, mean_error: 0 },
    ]);
    expect(profilesetsFromReport(doc, 'hps')[0]).toMatchObject({ name: 'a', mean: 5 });
  });

  it('a report without profilesets gives none', () => {
    expect(profilesetsFromReport({ sim: { players: [] } })).toEqual([]);
    expect(profilesetsFromReport('nope')).toEqual([]);
  });
});

describe('significance', () => {
  it('combined error is sqrt(eA² + eB²); significant when |Δ| exceeds it', () => {
    expect(difference({ mean: 1000, mean_error: 3 }, { mean: 1006, mean_error: 4 })).toEqual({
      delta: 6,
      percent: 0.6,
      combinedError: 5,
      significant: true,
    });
    expect(difference({ mean: 1000, mean_error: 3 }, { mean: 995, mean_error: 4 }).significant).toBe(false);
    expect(difference({ mean: 1000, mean_error: null }, { mean: 995, mean_error: 4 }).significant).toBeUndefined();
  });

  it('bars are drawn from the baseline: their length is the Δ, so rows equal within the error look equal', () => {
    expect(deltaBar(600, 600, 0, 10)).toBe('██████████');
    expect(deltaBar(599, 600, 0, 10)).toBe('██████████');
    expect(deltaBar(300, 600, 0, 10)).toBe('█████');
    expect(deltaBar(0, 600, 0, 10)).toBe('');
    // gains to the right of the axis, losses to its left, the cells shared by the largest of each
    expect(deltaBar(-200, 600, 200, 8)).toBe('██');
    expect(deltaBar(600, 600, 200, 8)).toBe('  ██████');
  });
});

describe('result view: a copy= comparison (summary.actors) and simc notifications', () => {
  const actorsRecord = (metric = 'dps') => {
    const r = record({}, 0);
    r.result.summary = {
      metric,
      mainActor: { name: 'Base', mean: 100_000, mean_error: 120, mean_stddev: 61 },
      multiStage: { enabled: false, reason: 'disabled_by_option', stages: [] },
      actors: {
        count: 3,
        results: [
          { name: 'Copy\u001b[31mRed', mean: 105_000, mean_error: 110, mean_stddev: 56 },
          { name: 'Base', mean: 100_000, mean_error: 120, mean_stddev: 61 },
          { name: 'Other', mean: 90_000, mean_error: 100, mean_stddev: 51 },
        ],
      },
    };
    return r;
  };

  it('lists the actors best first with Δ % against the headline actor, their names made safe', () => {
    const { out, stdout } = output(false);
    printResult(out, actorsRecord(), {});
    const rows = stdout
      .text()
      .split('\n')
      .filter((l) => /^\d+\t/.test(l))
      .map((l) => l.split('\t'));
    expect(rows.map((r) => r[0])).toEqual(['1', '2', '3']);
    expect(rows[0]![1]).not.toContain('\u001b');
    expect(rows.map((r) => r[4])).toEqual(['+5.00%', '', '−10.00%']);
  });

  it('with raid_dps says the headline is the group total and leaves Δ % out', () => {
    const { out, stdout } = output(false);
    printResult(out, actorsRecord('raid_dps'), {});
    expect(stdout.text()).toContain('Base  100,000.0 raid dps (group total) ± 120.0');
    expect(stdout.text()).not.toContain('Δ % vs');
  });

  it('shows each notification as a warning on stderr', () => {
    const { out, stderr } = output(false);
    printResult(out, record(), { notifications: ['Simulation has been canceled after 48 iterations! (thread=0)'] });
    expect(stderr.text()).toContain('simc notification: Simulation has been canceled after 48 iterations! (thread=0)');
  });
});
