/** `simjob doctor`: its help (the handler is run.ts, wired lazily in program.ts). */
import type { CommandUnknownOpts as AnyCommand } from '@commander-js/extra-typings';
import { examples } from '../define.js';

export const defineDoctor = (parent: AnyCommand) =>
  examples(
    parent
      .command('doctor')
      .description('Check the setup: config files and permissions, base URL, service, API key, local simc.')
      .addHelpText(
        'after',
        [
          '',
          'Each failed check prints a one-line fix. Exit 0 when every check passes, 1 when any fails.',
          'A missing simc is not a failure (only --local needs one); a named simc that does not run is.',
        ].join('\n'),
      ),
    ['simjob doctor', 'simjob doctor --profile ci', "simjob doctor --json | jq -r '.[] | select(.ok | not) | .fix'"],
  );
