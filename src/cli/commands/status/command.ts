/** `simjob status`: its flags, help and options type (the handler is run.ts, wired lazily in program.ts). */
import type { CommandUnknownOpts as AnyCommand } from '@commander-js/extra-typings';
import { examples, type OptionsOf } from '../define.js';
import { waitOption } from '../wait-flags.js';

export const defineStatus = (parent: AnyCommand) =>
  examples(
    parent
      .command('status <id>')
      .description('Show the state of a job (queue ETA, progress, error).')
      .option('-w, --wait', 'Wait until the job ends, showing progress.')
      .addOption(waitOption.timeout())
      .addOption(waitOption.cancelOnInterrupt())
      .addOption(waitOption.top()),
    [
      'simjob status 519253542012420096',
      'simjob status 519253542012420096 --wait',
      'simjob status 519253542012420096 --json | jq -r .status',
    ],
  );
export type StatusOptions = OptionsOf<ReturnType<typeof defineStatus>>;
