/** Writing a job's progress.json as simc's progress lines (simc/progress-line.ts) come. */
import type { LocalProgress, LocalStore } from './store.js';

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

  constructor(
    private readonly store: LocalStore,
    private readonly id: string,
  ) {}

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
    this.timer = setTimeout(
      () => {
        this.timer = undefined;
        void this.flush();
      },
      Math.max(0, 200 - (Date.now() - this.lastWrite)),
    );
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
