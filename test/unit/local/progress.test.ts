import { describe, expect, it } from 'vitest';
import { ProgressWriter } from '../../../src/core/local/progress.js';
import { parseProgressLine, ProgressTracker } from '../../../src/domain/report/progress-line.js';
import type { LocalProgress, LocalStore } from '../../../src/core/local/store.js';

describe('progressbar_type=1 lines', () => {
  it('reads a baseline line without a phase (iterations cap known)', () => {
    expect(parseProgressLine('Baseline\t1\t3\t500\t2000\t28826.745\t0.026')).toMatchObject({
      base: 'Baseline',
      phase: null,
      phaseIndex: 1,
      phaseCount: 3,
      current: 500,
      total: 2000,
      percent: (0.25 / 3) * 100,
    });
  });

  it('reads a target_error line (mean and error% present) and a profileset line whose phase is its name', () => {
    expect(parseProgressLine('Baseline\t1\t1\t100\t11485\t28144.738\t51001.520\t0.536\t0.202')?.percent).toBeCloseTo(
      (100 / 11485) * 100,
      6,
    );
    const ps = parseProgressLine('Profileset\tA\t2\t3\t1000\t2000\t25966.584\t0.019\t0s');
    expect(ps).toMatchObject({ phase: 'A', phaseIndex: 2, phaseCount: 3, percent: 50 });
    // A profileset named like a number is still a profileset's phase.
    expect(parseProgressLine('Profileset\t7\t3\t3\t2000\t2000\t26778.937\t0.037')).toMatchObject({
      phase: '7',
      phaseIndex: 3,
      percent: 100,
    });
  });

  it('ignores everything else simc prints', () => {
    for (const line of [
      '',
      'SimulationCraft 1201-01 for World of Warcraft 12.0.1.66263 Live',
      'Simulating... ( iterations=2000, threads=2 )',
      'Generating reports...',
      'Baseline\tx\ty',
      'Baseline\t4\t3\t1\t1\t1\t1',
    ]) {
      expect(parseProgressLine(line)).toBeUndefined();
    }
  });

  it('never goes backwards when simc re-projects the total', () => {
    const tracker = new ProgressTracker();
    expect(tracker.update('Baseline\t1\t1\t100\t200\t1\t1\t1\t1')?.percent).toBe(50);
    expect(tracker.update('Baseline\t1\t1\t200\t800\t1\t1\t1\t1')?.percent).toBe(50);
    expect(tracker.update('Baseline\t1\t1\t700\t800\t1\t1\t1\t1')?.percent).toBe(87.5);
    expect(tracker.update('not progress')).toBeUndefined();
  });
});

describe('ProgressWriter', () => {
  const storeWriting = (written: LocalProgress[]) =>
    ({ writeProgress: async (_id: string, p: LocalProgress) => void written.push(p) }) as unknown as LocalStore;

  it('works out only the newest state, when the write is due, and writes it once', async () => {
    const written: LocalProgress[] = [];
    const writer = new ProgressWriter(storeWriting(written), 'local-x');
    const read: number[] = [];
    for (let i = 1; i <= 300; i++) writer.setLazy(() => (read.push(i), { percent: i / 3, phase: null }));
    await writer.flush();
    expect(read).toEqual([300]);
    expect(written).toHaveLength(1);
    expect(written[0]).toMatchObject({ percent: 100, phase: null });
    expect(Number.isNaN(Date.parse(written[0]!.updatedAt))).toBe(false);
    await writer.flush(); // nothing new: nothing written
    expect(written).toHaveLength(1);
  });

  it('writes nothing for a state that reads as no progress, or that was discarded', async () => {
    const written: LocalProgress[] = [];
    const writer = new ProgressWriter(storeWriting(written), 'local-x');
    writer.setLazy(() => undefined);
    await writer.flush();
    writer.set({ percent: 10, phase: null });
    writer.discard();
    await writer.flush();
    expect(written).toEqual([]);
  });
});
