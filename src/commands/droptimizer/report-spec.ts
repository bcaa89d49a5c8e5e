/** droptimizer's `--report FORMAT=FILE`: the roster's matrix as Markdown, or one CSV row per character and item. */
import { resolve } from 'node:path';
import { UsageError } from '../../errors.js';

export const ROSTER_REPORT_FORMATS = ['markdown', 'csv'] as const;
export type RosterReportFormat = (typeof ROSTER_REPORT_FORMATS)[number];

export interface RosterReportTarget {
  format: RosterReportFormat;
  path: string;
}

/** commander's parser for a repeatable `--report`: `markdown=FILE` or `csv=FILE`. */
export function collectRosterReport(value: string, previous: RosterReportTarget[] = []): RosterReportTarget[] {
  const eq = value.indexOf('=');
  const format = value.slice(0, Math.max(0, eq)).toLowerCase();
  const path = value.slice(eq + 1);
  if (eq <= 0 || !path)
    throw new UsageError(
      `--report must be FORMAT=FILE (got "${value}").`,
      'For example: --report csv=roster.csv --report markdown=roster.md',
    );
  if (!(ROSTER_REPORT_FORMATS as readonly string[]).includes(format))
    throw new UsageError(
      `--report ${format}: not a droptimizer report format.`,
      `Use ${ROSTER_REPORT_FORMATS.join(' or ')}.`,
    );
  if (previous.some((t) => resolve(t.path) === resolve(path)))
    throw new UsageError(`--report names ${path} twice.`, 'Give each report its own file.');
  return [...previous, { format: format as RosterReportFormat, path }];
}
