/** `simjob statweights`: its flags, help and options type (the handler is run.ts, wired lazily in program.ts). */
import { Option, type CommandUnknownOpts as AnyCommand } from '@commander-js/extra-typings';
import { examples, type OptionsOf } from '../define.js';
import { oneOf, positiveNumber } from '../../../util/parse.js';
import { completeAsPath } from '../../completions/hints.js';
import { DEFAULT_STATS, STATS } from '../../../domain/statweights/stats.js';
import { amountPoints, DEFAULT_AMOUNT } from '../../../domain/statweights/precision.js';
import { DEFAULT_TARGET_ERROR } from '../../../domain/profile/precision.js';
import { copyOptions } from '../flags.js';
import { submitFlagsCommand } from '../submit-flags.js';

export const defineStatweights = (parent: AnyCommand) =>
  examples(
    copyOptions(
      submitFlagsCommand(),
      parent
        .command('statweights')
        .description(
          'Find what each stat is worth to a character, with its error and a Pawn string, from a simc profile or the /simc addon text.',
        )
        .argument('<inputs...>', 'simc profiles or /simc exports (several: a roster), or - to read one from stdin.')
        .option(
          '--stats <list>',
          `Stats to weigh, comma-separated (default ${DEFAULT_STATS}): primary, ${STATS.map((s) => s.key).join(', ')}.`,
        )
        .addOption(
          new Option(
            '--method <method>',
            "profilesets: one profileset per stat adding --amount points (default); scale: simc's scale factors.",
          )
            .choices(STATWEIGHT_METHODS)
            .argParser(oneOf('--method', STATWEIGHT_METHODS)),
        )
        .option(
          '--amount <points>',
          `Points of the stat each profileset adds (default ${DEFAULT_AMOUNT}, at most 10,000).`,
          amountPoints,
        )
        .option(
          '--target-error <percent>',
          `simc's target_error for every run (default ${DEFAULT_TARGET_ERROR}).`,
          positiveNumber('--target-error'),
        )
        .addOption(
          completeAsPath(new Option('-o, --output <file>', 'Write the generated profile to FILE and submit nothing.')),
        ),
      ['multistage', 'plain'],
    ).addHelpText(
      'after',
      [
        '',
        'Weight of a stat: (DPS with the stat added - baseline DPS) / points, with the 95% error of both means.',
        'Output: the weight per point ± error, normalised to the primary stat = 1, which stats are equal within the',
        'error, and the Pawn string as simc prints it. Several inputs: one character × stat table and a Pawn string each.',
        '--json: the result resource with a statWeights field (weights, errors, normalised weights, pawn).',
      ].join('\n'),
    ),
    [
      'simjob statweights character.simc --channel latest --wait',
      'simjob statweights export.txt --local --wait --json | jq -r .statWeights.pawn',
      'simjob statweights roster/*.simc --stats primary,crit,haste --wait',
      'simjob statweights character.simc --method scale --wait',
    ],
  );
export type StatWeightsCommandOptions = OptionsOf<ReturnType<typeof defineStatweights>>;

const STATWEIGHT_METHODS = ['profilesets', 'scale'] as const;
