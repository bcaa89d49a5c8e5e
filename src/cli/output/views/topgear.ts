/**
 * The top gear answer under a result's headline (jobs marked `metadata.kind = "topgear"`): what to change against
 * what is equipped, or that it is a tie and what would separate it, and the Great Vault pick (topgear/answer.ts).
 */
import type { ResultRecord } from '../../../core/resources/schemas.js';
import { topGearAnswer } from '../../../domain/topgear/answer.js';
import type { Output } from '../io.js';
import { terminalSafe } from '../../../util/safe.js';
import { wrap } from '../table.js';

/** The headline in words, or undefined when the job is not a top gear run or has no ranked profilesets. */
export function topGearHeadline(record: ResultRecord): string | undefined {
  const answer = topGearAnswer(record);
  return answer && terminalSafe(answer.headline);
}

/** Printed whole, never cut: on a terminal each paragraph wraps at its width; piped, each is one line. */
export function printTopGearHeadline(out: Output, record: ResultRecord): void {
  const answer = topGearAnswer(record);
  if (!answer) return;
  const paragraph = (text: string) => {
    const safe = terminalSafe(text);
    return out.stdoutIsTTY ? wrap(safe, out.width ?? 100, true).join('\n') : safe;
  };
  out.line();
  out.line(out.c.bold(paragraph(answer.headline)));
  if (answer.separate) out.line(paragraph(answer.separate));
  if (answer.vault) out.line(paragraph(answer.vault));
  if (answer.unchecked) out.line(paragraph(answer.unchecked));
}
