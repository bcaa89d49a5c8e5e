/**
 * The top gear answer under a result's headline (jobs marked `metadata.kind = "topgear"`): what to change against
 * what is equipped, or that it is a tie and what would separate it, and the Great Vault pick (topgear/answer.ts).
 */
import type { ResultRecord } from '../../api/schemas.js';
import { topGearAnswer } from '../../topgear/answer.js';
import type { Output } from '../io.js';
import { terminalSafe } from '../safe.js';

/** The headline in words, or undefined when the job is not a top gear run or has no ranked profilesets. */
export function topGearHeadline(record: ResultRecord): string | undefined {
  const answer = topGearAnswer(record);
  return answer && terminalSafe(answer.headline);
}

/** Printed whole, never cut: a long headline wraps at the terminal's edge. */
export function printTopGearHeadline(out: Output, record: ResultRecord): void {
  const answer = topGearAnswer(record);
  if (!answer) return;
  out.line();
  out.line(out.c.bold(terminalSafe(answer.headline)));
  if (answer.separate) out.line(terminalSafe(answer.separate));
  if (answer.vault) out.line(terminalSafe(answer.vault));
}
