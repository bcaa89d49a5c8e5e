/** `simjob result`: its flags, help and options type (the handler is run.ts, wired lazily in program.ts). */
import type { CommandUnknownOpts as AnyCommand } from '@commander-js/extra-typings';
import { examples, type OptionsOf } from '../define.js';
import { positiveInteger } from '../../../util/parse.js';

export const defineResult = (parent: AnyCommand) =>
  examples(
    parent
      .command('result <id>')
      .description('Show the result of a finished job: headline, ranked profilesets, artifacts.')
      .option('--top <n>', 'Show the best N profilesets (default 20).', positiveInteger('--top'))
      .option('--all', 'Show every profileset, read from the JSON report artifact.'),
    [
      'simjob result 519253542012420096',
      'simjob result 519253542012420096 --all',
      'simjob result 519253542012420096 --json | jq .result.summary',
    ],
  );
export type ResultOptions = OptionsOf<ReturnType<typeof defineResult>>;
