/** `simjob submit`: its flags, help and options type (the handler is run.ts, wired lazily in program.ts). */
import type { CommandUnknownOpts as AnyCommand } from '@commander-js/extra-typings';
import { examples, type OptionsOf } from '../define.js';
import { submitFlags } from '../submit-flags.js';

export const defineSubmit = (parent: AnyCommand) =>
  examples(
    submitFlags(
      parent
        .command('submit')
        .description('Submit profiles as sim jobs (a file, several files, or - for stdin).')
        .argument('<profiles...>', 'Profile files (.simc), or - to read one from stdin.'),
    ),
    [
      'simjob submit profile.simc --channel nightly --wait',
      'simjob submit profile.simc --multistage --html --meta run=nightly-42',
      "simjob submit 'profiles/*.simc' --channel weekly --wait --json | jq '.[].result.summary.mainActor.mean'",
      'simc_export | simjob submit - --channel latest',
      'simjob submit profile.simc --local --wait',
      'simjob submit profiles/*.simc --scenarios raid --wait',
      'simjob submit profile.simc --scenario fight_style=Patchwerk,DungeonSlice --scenario desired_targets=1,5 --wait',
      "simjob submit 'profiles/*.simc' --wait --json --report junit=sims.xml --report markdown=summary.md > results.json",
    ],
  );
export type SubmitCommandOptions = OptionsOf<ReturnType<typeof defineSubmit>>;
