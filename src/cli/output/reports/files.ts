/** The report files themselves: checked before any work, written after it. */
import { stat } from 'node:fs/promises';
import { writeFileReplacing } from '../../../util/write-file.js';
import { dirname, resolve } from 'node:path';
import { ExitCode, SimjobError, UsageError } from '../../../errors.js';
import type { ReportTarget } from './spec.js';

/** Before any job is sent: each report's folder exists, so an hour of sims never ends in "cannot write the report". */
export async function checkReportTargets(targets: readonly ReportTarget[]): Promise<void> {
  for (const t of targets) {
    const folder = dirname(resolve(t.path));
    const info = await stat(folder).catch(() => undefined);
    if (!info?.isDirectory())
      throw new UsageError(
        `--report ${t.format}=${t.path}: the folder ${folder} does not exist.`,
        'Create it first, or write the report elsewhere.',
      );
    const file = await stat(t.path).catch(() => undefined);
    if (file?.isDirectory())
      throw new UsageError(`--report ${t.format}=${t.path} is a folder.`, 'Name a file, e.g. results.xml.');
  }
}

/** Write one report file; a failure names the file and is an error (exit 1) after the command's own output. */
export async function writeReport(path: string, content: string, what: string): Promise<void> {
  try {
    await writeFileReplacing(path, content);
  } catch (error) {
    throw new SimjobError(`Cannot write the ${what} report ${path}: ${(error as Error).message}.`, ExitCode.ERROR);
  }
}
