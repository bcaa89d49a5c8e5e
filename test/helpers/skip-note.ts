/**
 * A test file that skips because a tool is missing says so with this line; the closing summary
 * (plain-summary-reporter.ts) collects these lines so a run never skips without a word.
 */
export const SKIP_MARK = 'Skipped: ';

/** `what` are the tests skipped, `why` what is missing and how to get it. */
export function noteSkipped(what: string, why: string): void {
  console.warn(`${SKIP_MARK}${what}: ${why}`);
}
