/**
 * simc's machine-readable progress (`progressbar_type=1`, contract §3.4): one tab-separated line per update,
 *   <Base>[\t<phase>]\t<k>\t<K>\t<cur>\t<total>\t<iter/s/thread>[\t<mean>\t<error%>]\t<seconds left>[\t<eta>]
 * where Base is `Baseline` or `Profileset` (whose phase is the profileset's name), k/K the phase index and count,
 * cur/total the iterations of this phase (total is projected when target_error decides the end).
 */
import type { LocalProgress, LocalStore } from './store.js';

export interface ProgressLine {
  base: string;
  phase: string | null;
  phaseIndex: number;
  phaseCount: number;
  current: number;
  total: number;
  /** The whole run, 0–100: finished phases plus the part of this one. */
  percent: number;
}

const INTEGER = /^\d+$/;

export function parseProgressLine(line: string): ProgressLine | undefined {
  const fields = line.replace(/\r$/, '').split('\t');
  if (fields.length < 6) return undefined;
  const base = fields[0] ?? '';
  if (!/^[A-Za-z][A-Za-z ]*$/.test(base)) return undefined;
  // A profileset's phase is its name, which may itself look like a number; a Baseline line has a phase only
  // when the field after it is not a number.
  const hasPhase = base === 'Profileset' || !INTEGER.test(fields[1] ?? '');
  const at = hasPhase ? 2 : 1;
  const numbers = fields.slice(at, at + 4);
  if (numbers.length < 4 || !numbers.every((f) => INTEGER.test(f))) return undefined;
  const [phaseIndex, phaseCount, current, total] = numbers.map(Number) as [number, number, number, number];
  if (phaseCount < 1 || phaseIndex < 1 || phaseIndex > phaseCount) return undefined;
  const within = total > 0 ? Math.min(1, current / total) : 0;
  const percent = Math.max(0, Math.min(100, ((phaseIndex - 1 + within) / phaseCount) * 100));
  return { base, phase: hasPhase ? (fields[1] ?? null) : null, phaseIndex, phaseCount, current, total, percent };
}

/**
 * Keeps the shown percentage from going backwards: simc re-projects `total` as the error estimate moves, which
 * can lower the fraction done; a progress bar that jumps back is worse than one that pauses.
 */
export class ProgressTracker {
  private best = 0;

  update(line: string): { percent: number; phase: string | null } | undefined {
    const parsed = parseProgressLine(line);
    if (!parsed) return undefined;
    this.best = Math.max(this.best, parsed.percent);
    return { percent: Math.round(this.best * 10) / 10, phase: parsed.phase };
  }
}

/**
 * A job's progress.json, written at most every 200 ms and never twice at once; `flush` writes the latest state
 * and waits for it. Used by single passes (percent, phase) and staged runs (with the stage).
 */
export class ProgressWriter {
  /** The latest state, read when it is written (see setLazy), and when it was set. */
  private latest: { read: () => Omit<LocalProgress, 'updatedAt'> | undefined; at: number } | undefined;
  private lastWrite = 0;
  private timer: NodeJS.Timeout | undefined;
  private writing: Promise<void> = Promise.resolve();

  constructor(private readonly store: LocalStore, private readonly id: string) {}

  set(progress: Omit<LocalProgress, 'updatedAt'>): void {
    this.setLazy(() => progress);
  }

  /**
   * Like set, with the state worked out only if it is still the latest when the write is due: a short sim prints
   * hundreds of progress lines between two writes, and only the newest is worth parsing.
   */
  setLazy(read: () => Omit<LocalProgress, 'updatedAt'> | undefined): void {
    this.latest = { read, at: Date.now() };
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.flush();
    }, Math.max(0, 200 - (Date.now() - this.lastWrite)));
  }

  /** Drop a state not written yet (a job that completed shows 100 %, whatever its last line said). */
  discard(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.latest = undefined;
  }

  async flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    const latest = this.latest;
    this.latest = undefined;
    const progress = latest?.read();
    if (latest && progress) {
      this.lastWrite = Date.now();
      const written = { ...progress, updatedAt: new Date(latest.at).toISOString() };
      this.writing = this.writing.then(() => this.store.writeProgress(this.id, written)).catch(() => undefined);
    }
    await this.writing;
  }
}
