/**
 * simc's machine-readable progress (`progressbar_type=1`, contract §3.4): one tab-separated line per update,
 *   <Base>[\t<phase>]\t<k>\t<K>\t<cur>\t<total>\t<iter/s/thread>[\t<mean>\t<error%>]\t<seconds left>[\t<eta>]
 * where Base is `Baseline` or `Profileset` (whose phase is the profileset's name), k/K the phase index and count,
 * cur/total the iterations of this phase (total is projected when target_error decides the end).
 */
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
