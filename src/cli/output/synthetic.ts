/**
 * The label of numbers made up by the stand-in simc (test/fake-simc). It marks every report it writes
 * (`custom.stand_in_simc`), and the summary carries that as `synthetic: true` (src/domain/report/report.ts); every view of such
 * a result says so in the same words, so that no one takes them for a simulation.
 */
import type { ResultRecord } from '../../core/resources/schemas.js';
import type { Output } from './io.js';

export const SYNTHETIC_LABEL = 'synthetic numbers (stand-in simc)';
export const SYNTHETIC_NOTE = `${SYNTHETIC_LABEL}: made up by simjob's test/fake-simc, not simulated by SimulationCraft`;

export function isSynthetic(record: ResultRecord | null | undefined): boolean {
  return record?.result?.summary?.synthetic === true;
}

export function anySynthetic(records: Iterable<ResultRecord | null | undefined>): boolean {
  for (const r of records) if (isSynthetic(r)) return true;
  return false;
}

/** The Markdown reports' line (a quote block, so CI summaries show it apart from the verdict). */
export const SYNTHETIC_MARKDOWN = `> :warning: **${SYNTHETIC_LABEL}**: made up by simjob's test/fake-simc, not simulated by SimulationCraft.`;

/** One line on stderr, shown even with --quiet: the numbers on stdout are not a simulation's. */
export function warnSynthetic(out: Output, synthetic: boolean): void {
  if (synthetic) out.warn(SYNTHETIC_NOTE);
}
