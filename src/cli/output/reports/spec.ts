/** `--report FORMAT=FILE`: the report files `submit`, `compare` and `droptimizer` write next to their usual output. */
import { resolve } from 'node:path';
import { UsageError } from '../../../errors.js';

export const REPORT_FORMATS = ['junit', 'markdown'] as const;
export type ReportFormat = (typeof REPORT_FORMATS)[number];

export interface ReportTarget<F extends string = ReportFormat> {
  format: F;
  path: string;
}

/**
 * commander's parser for a repeatable `--report` taking one of `formats`: checks the form, the format and that no
 * file is named twice. `example` is the hint for a value without `=`; `what` names the formats in the error.
 */
export function reportCollector<F extends string>(formats: readonly F[], example: string, what = 'a report format') {
  return (value: string, previous: ReportTarget<F>[] = []): ReportTarget<F>[] => {
    const eq = value.indexOf('=');
    const format = value.slice(0, Math.max(0, eq)).toLowerCase();
    const path = value.slice(eq + 1);
    if (eq <= 0 || !path)
      throw new UsageError(`--report must be FORMAT=FILE (got "${value}").`, `For example: ${example}`);
    if (!(formats as readonly string[]).includes(format)) {
      throw new UsageError(`--report ${format}: not ${what}.`, `Use ${formats.join(' or ')}.`);
    }
    if (previous.some((t) => resolve(t.path) === resolve(path))) {
      throw new UsageError(`--report names ${path} twice.`, 'Give each report its own file.');
    }
    return [...previous, { format: format as F, path }];
  };
}

/** `junit=FILE` or `markdown=FILE`: the CI reports of submit and compare. */
export const collectReport = reportCollector(REPORT_FORMATS, '--report junit=results.xml --report markdown=summary.md');
