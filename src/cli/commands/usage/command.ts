/** `simjob usage`: its flags, help and options type (the handler is run.ts, wired lazily in program.ts). */
import type { CommandUnknownOpts as AnyCommand } from '@commander-js/extra-typings';
import { examples, type OptionsOf } from '../define.js';

export const defineUsage = (parent: AnyCommand) =>
  examples(
    parent
      .command('usage')
      .description("Show the account's usage and limits.")
      .option('--local', 'Show the local queue instead.'),
    ['simjob usage', 'simjob usage --json | jq .limits.maxActiveJobs', 'simjob usage --local'],
  );
export type UsageOptions = OptionsOf<ReturnType<typeof defineUsage>>;
