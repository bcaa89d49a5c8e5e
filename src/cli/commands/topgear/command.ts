/** `simjob topgear`: its flags, help and options type (the handler is run.ts, wired lazily in program.ts). */
import { Option, type CommandUnknownOpts as AnyCommand } from '@commander-js/extra-typings';
import { examples, type OptionsOf } from '../define.js';
import { oneOf, positiveInteger, nonNegativeNumber } from '../../../util/parse.js';
import { completeAsPath } from '../../completions/hints.js';
import { GROUP_NAMES, DEFAULT_MAX_COMBOS } from '../../../domain/topgear/groups.js';
import { DEFAULT_TARGET_ERROR, MIN_TARGET_ERROR } from '../../../domain/profile/precision.js';
import { copyOptions } from '../flags.js';
import { submitFlagsCommand } from '../submit-flags.js';

export const defineTopgear = (parent: AnyCommand) =>
  examples(
    copyOptions(
      submitFlagsCommand(),
      parent
        .command('topgear')
        .description(
          'Find the best gear among what a character wears, carries and is offered in the Great Vault, from the /simc addon text.',
        )
        .argument('<export>', 'The /simc addon text in a file, or - to read it from stdin.')
        .option('--slots <list>', `Slot groups that vary, comma-separated (default: all): ${GROUP_NAMES.join(',')}.`)
        .addOption(
          new Option('--talents <which>', 'active: the equipped talents; all: also every saved loadout.')
            .choices(TALENT_CHOICES)
            .argParser(oneOf('--talents', TALENT_CHOICES)),
        )
        .option(
          '--max-combos <n>',
          `Refuse to submit more combinations than this (default ${DEFAULT_MAX_COMBOS}).`,
          positiveInteger('--max-combos'),
        )
        .option(
          '--target-error <pct>',
          `Final-stage target_error (default ${DEFAULT_TARGET_ERROR}, at least ${MIN_TARGET_ERROR}); a tie names the value ` +
            'that would settle it. Multistage spends it on the contenders only.',
          nonNegativeNumber('--target-error'),
        )
        .addOption(
          completeAsPath(new Option('-o, --output <file>', 'Write the generated profile to FILE and submit nothing.')),
        )
        .option(
          '--no-multistage',
          'Run every combination to full precision instead of culling in stages (multistage is on by default).',
        )
        .option('--dry-run', 'Print the counts, the stage plan and the request without sending it.'),
      ['multistage', 'dryRun', 'concurrency'],
    ).addHelpText(
      'after',
      [
        '',
        'Combinations: each slot tries the equipped item, the bag items and the Great Vault items for it. Rings and',
        'trinkets are unordered pairs of two different items (never the same item id twice); at most one vault item.',
        'The equipped set is the baseline; every other combination is a profileset named by what it swaps in.',
        '',
        'Weapons: every main-hand candidate with every off-hand candidate, and main-hand alone when nothing is in the',
        'off hand. The export cannot tell one-handers from two-handers, so this is right for the character as',
        'equipped: a two-hander from the bags is tried beside the equipped off-hand, which the game would not allow.',
        'Leave such rows out of your decision, or use --slots without weapon.',
        '',
        'Ties: when combinations are within the error of the best, the answer says so and gives the --target-error',
        'that would separate them. Option lines in the export that are not part of the character (html=, json2=,',
        'threads=, iterations=, …) are left out of the profile and named on stderr.',
      ].join('\n'),
    ),
    [
      'simjob topgear export.txt --channel latest --wait',
      'simjob topgear export.txt --slots trinket,finger --local --wait',
      'pbpaste | simjob topgear - --talents all --wait',
      'simjob topgear export.txt -o topgear.simc',
    ],
  );
export type TopGearOptions = OptionsOf<ReturnType<typeof defineTopgear>>;

const TALENT_CHOICES = ['active', 'all'] as const;
