/** GitHub-flavoured Markdown for $GITHUB_STEP_SUMMARY and merge request comments. */

/** A table cell from text simjob did not write: pipes, HTML and line breaks cannot break the table or inject markup. */
export function cell(text: string): string {
  return text
    .replace(/[\u0000-\u001f\u007f-\u009f]/g, ' ')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/\\/g, '\\\\')
    .replace(/\|/g, '\\|')
    .replace(/([`*_[\]])/g, '\\$1');
}

export function markdownTable(
  headers: readonly string[],
  rows: ReadonlyArray<readonly string[]>,
  rightAligned: readonly number[] = [],
): string {
  const rule = headers.map((_, i) => (rightAligned.includes(i) ? '---:' : '---'));
  return [headers, rule, ...rows].map((r) => `| ${r.join(' | ')} |`).join('\n');
}
