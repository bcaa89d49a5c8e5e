/** `simjob compare`: its flags, help and options type (the handler is run.ts, wired lazily in program.ts). */
import type { CommandUnknownOpts as AnyCommand } from '@commander-js/extra-typings';
import { examples, type OptionsOf } from '../define.js';
import { positiveInteger, nonNegativeNumber } from '../../../util/parse.js';
import { reportOption } from '../flags.js';

export const defineCompare = (parent: AnyCommand) =>
  examples(
    parent
      .command('compare <a> <b>')
      .description(
        'Compare two finished jobs, or two saved --json results: DPS side by side, the difference, and whether it is significant.',
      )
      .option('--top <n>', 'Show the best N profilesets of each match (default 20).', positiveInteger('--top'))
      .option('--all', 'Compare every profileset, read from the JSON report artifacts.')
      .option(
        '--fail-on-regression <pct>',
        'Exit 3 when any match is significantly worse by more than PCT percent, or has no DPS (a failed job).',
        nonNegativeNumber('--fail-on-regression'),
      )
      .option(
        '--allow-failed',
        'With --fail-on-regression: list a result without DPS (failed, cancelled, timed out), but pass it.',
      )
      .addOption(reportOption())
      .addHelpText(
        'after',
        '\nSignificant: |Δ| > √(eA² + eB²), where eA and eB are the 95% half-widths (mean_error) of the two\nmeans: a two-sided z-test at the 5% level, assuming the two sims are independent.',
      ),
    [
      'simjob compare 519253542012420096 519253542012420097',
      "simjob compare OLD NEW --all --json | jq '.rows[] | select(.significant)'",
      'simjob compare yesterday.json today.json --fail-on-regression 1 --report markdown="$GITHUB_STEP_SUMMARY"',
    ],
  );
export type CompareOptions = OptionsOf<ReturnType<typeof defineCompare>>;
