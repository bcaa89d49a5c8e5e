/**
 * What every bench hands to `npm run bench` (bench/run-all.mjs): after its own human-readable lines, one final
 * stdout line `BENCH-FIGURES {…}` with its figures, which run-all gathers per Node into one table. A figure is a
 * ratio measured in the same run (to `node -e 0`, to curl, to the stand-in run directly), so two machines, or two
 * Nodes, compare.
 */
export interface Figure {
  /** What was measured, e.g. "simjob status <id> --json / node -e 0". */
  name: string;
  value: number;
  /** How the value reads: '×' for a ratio, 'ms', 'MB', … */
  unit: string;
  /** The limit, when there is one: value ≤ max meets it. */
  max?: number;
}

export const FIGURES_PREFIX = 'BENCH-FIGURES ';

export function printFigures(figures: Figure[]): void {
  console.log(`${FIGURES_PREFIX}${JSON.stringify({ node: process.versions.node, figures })}`);
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
}
