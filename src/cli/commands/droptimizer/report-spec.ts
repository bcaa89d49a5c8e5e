/** droptimizer's `--report FORMAT=FILE`: the roster's matrix as Markdown, or one CSV row per character and item. */
import { reportCollector, type ReportTarget } from '../../output/reports/spec.js';

const ROSTER_REPORT_FORMATS = ['markdown', 'csv'] as const;
export type RosterReportFormat = (typeof ROSTER_REPORT_FORMATS)[number];
export type RosterReportTarget = ReportTarget<RosterReportFormat>;

export const collectRosterReport = reportCollector(
  ROSTER_REPORT_FORMATS,
  '--report csv=roster.csv --report markdown=roster.md',
  'a droptimizer report format',
);
