/** `simjob builds`: its flags, help and options type (the handler is run.ts, wired lazily in program.ts). */
import type { CommandUnknownOpts as AnyCommand } from '@commander-js/extra-typings';
import { examples, type OptionsOf } from '../define.js';

export const defineBuilds = (parent: AnyCommand) =>
  examples(
    parent
      .command('builds [id]')
      .description('Show the current build of each channel, or one build by id.')
      .option('--local', 'Show the local simc binaries instead.'),
    ['simjob builds', 'simjob builds 4b7c8d0e-1f2a-4c3b-9d8e-7f6a5b4c3d2e', 'simjob builds --local'],
  );
export type BuildsOptions = OptionsOf<ReturnType<typeof defineBuilds>>;
