/**
 * The server's clock. Every duration, timestamp, rate-limit window and retention check reads it, so a test can run
 * the service's time faster (`timeScale`) or move it by hand (`manual`). It starts at the real time either way, so
 * timestamps look real.
 */
export class Clock {
  private readonly realStart = Date.now();
  private offset = 0;
  private readonly listeners = new Set<() => void>();

  constructor(
    readonly scale = 1,
    readonly manual = false,
  ) {
    if (!(scale > 0)) throw new Error(`timeScale must be > 0, got ${scale}`);
  }

  now(): number {
    if (this.manual) return this.realStart + this.offset;
    return Math.floor(this.realStart + (Date.now() - this.realStart) * this.scale + this.offset);
  }

  iso(ms = this.now()): string {
    return new Date(ms).toISOString();
  }

  /** Move time forward (any clock) and let the job engine catch up. */
  advance(ms: number): void {
    if (ms < 0) throw new Error('the clock only moves forward');
    this.offset += ms;
    for (const listener of this.listeners) listener();
  }

  /** Real milliseconds until the clock reaches `at` (for timers); 0 when manual or past. */
  realDelayUntil(at: number): number {
    if (this.manual) return 0;
    return Math.max(0, Math.ceil((at - this.now()) / this.scale));
  }

  /**
   * Whole seconds (at least 1) a client should wait until the clock reads `at`: what `Retry-After` says. Real
   * seconds under a time scale; clock seconds with a manual clock (the test advances it by that much).
   */
  secondsUntil(at: number): number {
    const ms = (at - this.now()) / (this.manual ? 1 : this.scale);
    return Math.max(1, Math.ceil(ms / 1000));
  }

  /** Epoch seconds of the real moment the clock reads `at` (for `X-RateLimit-Reset`); the clock's own with a manual clock. */
  epochSecondsAt(at: number): number {
    if (this.manual) return Math.ceil(at / 1000);
    return Math.ceil((Date.now() + (at - this.now()) / this.scale) / 1000);
  }

  onAdvance(listener: () => void): void {
    this.listeners.add(listener);
  }
}
