/** `submit --report`: a batch's jobs as JUnit test cases and as a Markdown summary table. */
import type { ResultRecord } from '../../core/resources/schemas.js';
import { ExitCode } from '../../errors.js';
import { formatNumber, scenarioLabel } from '../../util/format.js';
import { junitClassName, junitXml, type TestCase } from '../output/reports/junit.js';
import { cell, markdownTable } from '../output/reports/markdown.js';
import { writeReport } from '../output/reports/files.js';
import type { ReportTarget } from '../output/reports/spec.js';
import { anySynthetic, SYNTHETIC_MARKDOWN } from '../output/synthetic.js';

export interface BatchReportRow {
  profile: string;
  scenario?: string;
  id?: string;
  outcome?: ResultRecord;
  /** How it ended, in words: `completed`, `failed (simc_error)`, `not submitted`, `still running`. */
  state: string;
  exitCode: number;
  /** Why it did not end well, when simjob knows more than the state. */
  reason?: string;
}

export async function writeBatchReports(
  targets: readonly ReportTarget[],
  rows: readonly BatchReportRow[],
): Promise<void> {
  for (const t of targets) {
    const synthetic = anySynthetic(rows.map((r) => r.outcome));
    if (t.format === 'junit') {
      const xml = junitXml('simjob submit', rows.map(testCase), undefined, { synthetic });
      await writeReport(t.path, xml, 'JUnit');
    } else await writeReport(t.path, markdown(rows, synthetic), 'Markdown');
  }
}

/** One case per job: a job that ended unsuccessful is a failure; one never sent, or not followed to its end, an error. */
function testCase(r: BatchReportRow): TestCase {
  const actor = r.outcome?.result.summary?.mainActor;
  const ms = r.outcome?.runtime?.totalDurationMs;
  const base: TestCase = {
    name: scenarioLabel(r),
    classname: junitClassName('submit', r.profile),
    timeSeconds: typeof ms === 'number' ? ms / 1000 : undefined,
    output:
      [
        r.id ? `job ${r.id}` : undefined,
        actor
          ? `${actor.name}: ${actor.mean} ± ${actor.mean_error ?? '?'} ${r.outcome?.result.summary?.metric ?? 'dps'}`
          : undefined,
      ]
        .filter(Boolean)
        .join('\n') || undefined,
  };
  if (r.exitCode === ExitCode.OK) return base;
  const message = [`${r.id ? `job ${r.id} ` : ''}${r.state}`, r.outcome?.statusReason ?? r.reason]
    .filter(Boolean)
    .join(': ');
  if (r.exitCode === ExitCode.JOB_UNSUCCESSFUL)
    return { ...base, failure: { type: r.outcome?.errorCode ?? r.outcome?.status ?? 'unsuccessful', message } };
  return { ...base, error: { type: r.exitCode === ExitCode.WAIT_TIMEOUT ? 'timeout' : r.state, message } };
}

function markdown(rows: readonly BatchReportRow[], synthetic: boolean): string {
  const ok = rows.filter((r) => r.exitCode === ExitCode.OK).length;
  const scenarios = rows.some((r) => r.scenario);
  const table = markdownTable(
    ['Profile', ...(scenarios ? ['Scenario'] : []), 'Job', 'Status', 'DPS', '±', 'Best profileset'],
    rows.map((r) => {
      const actor = r.outcome?.result.summary?.mainActor;
      const best = actor?.profilesets?.results.reduce<{ name: string; mean: number } | undefined>(
        (top, p) => (!top || p.mean > top.mean ? p : top),
        undefined,
      );
      const status = r.exitCode === ExitCode.OK ? r.state : `**${cell(r.state)}**`;
      return [
        cell(r.profile),
        ...(scenarios ? [cell(r.scenario ?? '')] : []),
        r.id ? `\`${cell(r.id)}\`` : '',
        r.exitCode === ExitCode.OK ? cell(status) : status,
        actor ? formatNumber(actor.mean, 1) : '',
        actor ? formatNumber(actor.mean_error, 1) : '',
        best && actor ? `${cell(best.name)} (${formatNumber(best.mean, 1)})` : '',
      ];
    }),
    scenarios ? [4, 5] : [3, 4],
  );
  const verdict =
    ok === rows.length
      ? `All ${rows.length} jobs completed.`
      : `${rows.length - ok} of ${rows.length} jobs did not complete.`;
  const label = synthetic ? `${SYNTHETIC_MARKDOWN}\n\n` : '';
  return `## simjob: ${rows.length} job${rows.length === 1 ? '' : 's'}\n\n${label}${verdict}\n\n${table}\n`;
}
