/** `--report FORMAT=FILE`: the CI report files `submit` and `compare` write next to their usual output. */
import { stat, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { ExitCode, SimjobError, UsageError } from '../../errors.js';

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
  if (eq <= 0 || !path) throw new UsageError(`--report must be FORMAT=FILE (got "${value}").`, 'For example: --report junit=results.xml --report markdown=summary.md');
  if (!(REPORT_FORMATS as readonly string[]).includes(format)) throw new UsageError(`--report ${format}: not a report format.`, `Use ${REPORT_FORMATS.join(' or ')}.`);
  if (previous.some((t) => resolve(t.path) === resolve(path))) throw new UsageError(`--report names ${path} twice.`, 'Give each report its own file.');
  return [...previous, { format: format as ReportFormat, path }];
}

/** Before any job is sent: each report's folder exists, so an hour of sims never ends in "cannot write the report". */
export async function checkReportTargets(targets: readonly ReportTarget[]): Promise<void> {
  for (const t of targets) {
    const folder = dirname(resolve(t.path));
    const info = await stat(folder).catch(() => undefined);
    if (!info?.isDirectory()) throw new UsageError(`--report ${t.format}=${t.path}: the folder ${folder} does not exist.`, 'Create it first, or write the report elsewhere.');
    const file = await stat(t.path).catch(() => undefined);
    if (file?.isDirectory()) throw new UsageError(`--report ${t.format}=${t.path} is a folder.`, 'Name a file, e.g. results.xml.');
  }
}

/** Write one report file; a failure names the file and is an error (exit 1) after the command's own output. */
export async function writeReport(path: string, content: string, what: string): Promise<void> {
  try {
    await writeFile(path, content);
  } catch (error) {
    throw new SimjobError(`Cannot write the ${what} report ${path}: ${(error as Error).message}.`, ExitCode.ERROR);
  }
}
