/** `simjob report`: its flags, help and options type (the handler is run.ts, wired lazily in program.ts). */
import { Argument, type CommandUnknownOpts as AnyCommand } from '@commander-js/extra-typings';
import { examples, type OptionsOf } from '../define.js';
import { positiveInteger } from '../../../util/parse.js';
import { completeAsPath } from '../../completions/hints.js';

export const defineReport = (parent: AnyCommand) =>
  examples(
    parent
      .command('report')
      .description('Write one self-contained HTML page with charts for jobs or saved --json results.')
      // Tab offers files: a job id is pasted, a saved result is picked.
      .addArgument(
        completeAsPath(
          new Argument(
            '<inputs...>',
            "Job ids, saved `--json` results (one resource or a batch's array), or - for stdin.",
          ),
        ),
      )
      .option('-o, --output <file>', 'Write the page here (default: simjob-report-<id>.html).')
      .option('--open', 'Open the page in the default browser.')
      .option(
        '--top <n>',
        'Profilesets in each bar chart (default 20; the table lists every one).',
        positiveInteger('--top'),
      ),
    [
      'simjob report 519253542012420096 --open',
      'simjob report local-0123456789abcdefgh -o fury.html',
      'simjob submit profiles/*.simc --wait --json > batch.json && simjob report batch.json -o batch.html',
      'simjob report OLD_ID NEW_ID -o comparison.html',
    ],
  );
export type ReportOptions = OptionsOf<ReturnType<typeof defineReport>>;
