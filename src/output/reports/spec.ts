/** `--report FORMAT=FILE`: the CI report files `submit` and `compare` write next to their usual output. */
import { resolve } from 'node:path';
import { UsageError } from '../../errors.js';

export const REPORT_FORMATS = ['junit', 'markdown'] as const;
export type ReportFormat = (typeof REPORT_FORMATS)[number];

export interface ReportTarget {
  format: ReportFormat;
  path: string;
}

/** commander's parser for a repeatable `--report`: `junit=FILE` or `markdown=FILE`. */
export function collectReport(value: string, previous: ReportTarget[] = []): ReportTarget[] {
  const eq = value.indexOf('=');
  const format = value.slice(0, Math.max(0, eq)).toLowerCase();
  const path = value.slice(eq + 1);
  if (eq <= 0 || !path)
    throw new UsageError(
      `--report must be FORMAT=FILE (got "${value}").`,
      'For example: --report junit=results.xml --report markdown=summary.md',
    );
  if (!(REPORT_FORMATS as readonly string[]).includes(format))
    throw new UsageError(`--report ${format}: not a report format.`, `Use ${REPORT_FORMATS.join(' or ')}.`);
  if (previous.some((t) => resolve(t.path) === resolve(path)))
    throw new UsageError(`--report names ${path} twice.`, 'Give each report its own file.');
  return [...previous, { format: format as ReportFormat, path }];
}
