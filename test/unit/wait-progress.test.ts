import { describe, expect, it } from 'vitest';
import type { StatusRecord } from '../../src/core/resources/schemas.js';
import { Output } from '../../src/cli/output/io.js';
import { clock, lineProgress, OutageNotices, PercentEstimate } from '../../src/cli/output/progress.js';
import { describeStatus } from '../../src/cli/output/views/status.js';
import { memoryStream } from '../helpers/streams.js';

const s = (status: string, extra: Partial<StatusRecord> = {}) => ({ status, ...extra }) as StatusRecord;

describe('progress without a terminal', () => {
  it('one line per change of state (or of multistage stage), none for a mere percent change; a poll error once per outage', () => {
    const stderr = memoryStream(false);
    const out = new Output({ stdout: memoryStream(false), stderr, env: {}, json: false, noColor: false, quiet: false });
    const p = lineProgress(out);
    p.update(s('queued', { queue: { estimatedStartSeconds: 20 } }), 0);
    p.update(s('queued', { queue: { estimatedStartSeconds: 10 } }), 10_000);
    p.update(s('running', { progress: { percent: 10, stage: { current: 1, total: 3, label: 'initial' } } }), 21_000);
    p.update(s('running', { progress: { percent: 20, stage: { current: 1, total: 3, label: 'initial' } } }), 25_000);
    p.transient(new Error('Cannot reach host.'), 2000, { failures: 1, forMs: 0 });
    p.transient(new Error('Cannot reach host.'), 4000, { failures: 2, forMs: 2000 });
    p.update(
      s('running', { progress: { percent: 50, stage: { current: 2, total: 3, label: 'intermediate' } } }),
      40_000,
    );
    p.update(s('some_future_state'), 50_000);
    p.update(s('completed'), 62_000);
    expect(stderr.text()).toBe(
      [
        '[0:00] queued · starts in ~20 s',
        '[0:21] running 10% · stage 1/3 initial',
        'Polling failed (Cannot reach host); retrying in 2 s. The job is unaffected.',
        'Polling works again (it failed for 2.0 s).',
        '[0:40] running 50% · stage 2/3 intermediate',
        '[0:50] some_future_state',
        '[1:02] completed',
        '',
      ].join('\n'),
    );
  });

  it('a long outage: a line at its first failure, then at most one a minute with the command to pick the job up, then one when it ends', () => {
    const notices = new OutageNotices('519253542012420096');
    const down = new Error('Cannot reach http://127.0.0.1:9: connection refused.');
    // polls 2 s doubling to 60 s apart, for 4 minutes
    const lines: Array<string | undefined> = [];
    let at = 0;
    for (let failures = 1; at < 240_000; failures++) {
      const retryIn = Math.min(2000 * 2 ** (failures - 1), 60_000);
      lines.push(notices.failed(down, retryIn, { forMs: at }));
      at += retryIn;
    }
    const shown = lines.filter(Boolean);
    expect(lines.length).toBeGreaterThan(shown.length);
    expect(shown[0]).toBe(
      'Polling failed (Cannot reach http://127.0.0.1:9: connection refused); retrying in 2 s. The job is unaffected.',
    );
    expect(shown.slice(1)).toEqual([
      'Polling has failed for 1 m 02 s (Cannot reach http://127.0.0.1:9: connection refused); next try in 60 s. The job is unaffected; Ctrl-C stops waiting, and `simjob status 519253542012420096 --wait` picks it up again.',
      expect.stringMatching(/^Polling has failed for 2 m 02 s .* next try in 60 s\./),
      expect.stringMatching(/^Polling has failed for 3 m 02 s /),
    ]);
    expect(notices.recovered()).toBe('Polling works again (it failed for 3 m 02 s).');
    expect(notices.recovered()).toBeUndefined();
    // the next outage is announced afresh
    expect(notices.failed(down, 2000, { forMs: 0 })).toMatch(/^Polling failed /);
  });

  it('--quiet: no progress lines', () => {
    const stderr = memoryStream(false);
    const out = new Output({ stdout: memoryStream(false), stderr, env: {}, json: false, noColor: false, quiet: true });
    const p = lineProgress(out, '', 'j');
    p.update(s('running'), 0);
    p.transient(new Error('Cannot reach host.'), 2000, { failures: 1, forMs: 0 });
    p.transient(new Error('Cannot reach host.'), 60_000, { failures: 7, forMs: 126_000 });
    p.update(s('running'), 130_000);
    expect(stderr.text()).toBe('');
  });
});

describe('describeStatus', () => {
  it('state, percent, stage, ETA counted down, retried, errorCode', () => {
    expect(describeStatus(s('queued', { queue: { estimatedStartSeconds: 95 } }))).toBe('queued · starts in ~1 m 35 s');
    expect(describeStatus(s('queued', { queue: { estimatedStartSeconds: 5 } }), { etaElapsedMs: 4500 })).toBe(
      'queued · starting soon',
    );
    expect(
      describeStatus(
        s('running', {
          progress: { percent: 45.7, stage: { current: 2, total: 3, label: 'intermediate' } },
          retried: true,
        }),
      ),
    ).toBe('running 45% · stage 2/3 intermediate · retried after a platform error');
    expect(
      describeStatus(s('running', { progress: { percent: 10, stage: { current: 1, total: 1, label: 'initial' } } })),
    ).toBe('running 10%');
    expect(describeStatus(s('cancelled', { errorCode: 'queue_timeout' }))).toBe('cancelled — queue_timeout');
  });

  it('clock', () => {
    expect([clock(0), clock(61_000), clock(3_723_000)]).toEqual(['0:00', '1:01', '1:02:03']);
  });
});

describe("the spinner's percent between polls", () => {
  it('moves on at the measured rate, stops at 99, is corrected by each reading, resets with a new run', () => {
    const e = new PercentEstimate();
    e.read(s('running', { progress: { percent: 10 } }), 0);
    expect(e.at(5000)).toBe(10);
    e.read(s('running', { progress: { percent: 20 } }), 10_000);
    expect(e.at(10_000)).toBe(20);
    expect(e.at(20_000)).toBe(30);
    expect(e.at(200_000)).toBe(99);
    e.read(s('running', { progress: { percent: 25 } }), 30_000);
    expect(e.at(30_000)).toBe(25);
    expect(e.at(32_000)).toBe(26);
    expect(e.at(31_000)).toBe(26);
    e.read(s('queued'), 40_000);
    expect(e.at(40_000)).toBeUndefined();
    e.read(s('running', { progress: { percent: 1 } }), 50_000);
    expect(e.at(60_000)).toBe(1);
    // multistage runs are shown as read
    const m = new PercentEstimate();
    m.read(s('running', { progress: { percent: 10, stage: { current: 1, total: 3 } } }), 0);
    m.read(s('running', { progress: { percent: 20, stage: { current: 1, total: 3 } } }), 10_000);
    expect(m.at(20_000)).toBeUndefined();
  });
});
