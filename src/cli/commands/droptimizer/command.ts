/** `simjob droptimizer`: its flags, help and options type (the handler is run.ts, wired lazily in program.ts). */
import { Option, type CommandUnknownOpts as AnyCommand } from '@commander-js/extra-typings';
import { examples, type OptionsOf } from '../define.js';
import { oneOf } from '../../../util/parse.js';
import { completeAsPath } from '../../completions/hints.js';
import { collectRosterReport, type RosterReportTarget } from './report-spec.js';
import { UsageError } from '../../../errors.js';
import { DIFFICULTIES, SOURCE_KINDS } from '../../../domain/droptimizer/choices.js';
import { copyOptions, collect } from '../flags.js';
import { submitFlagsCommand } from '../submit-flags.js';

export const defineDroptimizer = (parent: AnyCommand) =>
  examples(
    copyOptions(
      submitFlagsCommand(),
      parent
        .command('droptimizer')
        .description(
          'Find which boss, dungeon or vault drop is the biggest upgrade, for one character or a roster, from /simc addon texts.',
        )
        .argument('[exports...]', 'The /simc addon texts in files (several: a roster, one job each), or - for stdin.')
        .option(
          '--instance <name>',
          'A raid or dungeon to take drops from (repeatable; default: every raid, or every dungeon).',
          collect,
          [] as string[],
        )
        .addOption(
          new Option('--source <source>', 'raid, dungeons (end of run) or vault (Great Vault).')
            .choices(SOURCE_KINDS)
            .argParser(oneOf('--source', SOURCE_KINDS)),
        )
        .addOption(
          new Option('--difficulty <difficulty>', 'Raid difficulty (default heroic).')
            .choices(DIFFICULTIES)
            .argParser(oneOf('--difficulty', DIFFICULTIES)),
        )
        .option('--keystone <level>', 'Mythic+ keystone level, 0 for Mythic 0 (default 10).', keystoneLevel)
        .option('--upgraded', 'Sim each drop fully upgraded (the last rank of its track) instead of as it drops.')
        .option(
          '--all-items',
          "Also sim drops the character cannot use (other armour types, primary stats, other specs' trinkets).",
        )
        .addOption(
          completeAsPath(
            new Option(
              '--catalog <file|url>',
              "Another season's catalog: a file, or an https URL (fetched once, cached with its ETag).",
            ),
          ),
        )
        .addOption(
          completeAsPath(new Option('-o, --output <file>', 'Write the generated profile to FILE and submit nothing.')),
        )
        .addOption(
          new Option(
            '--report <format=file>',
            'With --wait: also write the roster as markdown=FILE or csv=FILE (repeatable).',
          )
            .argParser(collectRosterReport)
            .default([] as RosterReportTarget[]),
        )
        .option(
          '--no-multistage',
          'Run every drop to full precision instead of culling in stages (multistage is on by default).',
        )
        .option('--dry-run', 'Print the counts, the stage plan and the request without sending it.'),
      ['multistage', 'dryRun', 'report'],
    ).addHelpText(
      'after',
      [
        '',
        "Only drops the character can use: its class's armour type, its spec's primary stat, trinkets its spec can",
        'loot, weapons its class wields (--all-items: every drop).',
        'Profilesets: one per drop and slot it fits, setting only that slot. Rings and trinkets are tried in each of',
        'their slots, never beside a worn copy of the same item; a drop identical to the worn item is left out; the',
        'drop takes the enchant and (where it has a socket) the gems of the item it replaces; off-hands only when one',
        'is worn. Names say what drops where: "Light Company Guidon (289) from Imperator Averzian in trinket1".',
        'The answer: the best upgrade, then each boss or dungeon ranked by its best drop, with how many of its drops',
        'are upgrades. Several exports run one job each (--concurrency) and end in one character x item matrix.',
      ].join('\n'),
    ),
    [
      'simjob droptimizer export.txt --difficulty mythic --local --wait',
      'simjob droptimizer export.txt --instance "The Voidspire" --upgraded --channel latest --wait',
      'simjob droptimizer export.txt --source vault --keystone 10 --wait --json',
      'simjob droptimizer roster/*.txt --wait --report csv=roster.csv --report markdown=roster.md',
    ],
  );
export type DroptimizerCommandOptions = OptionsOf<ReturnType<typeof defineDroptimizer>>;

/** `--keystone N`: 0 (Mythic 0) or a keystone level. */
function keystoneLevel(value: string): number {
  if (!/^\+?\d{1,2}$/.test(value.trim()))
    throw new UsageError(`--keystone must be a keystone level from 0 to 99, e.g. 10 (got "${value}").`);
  return Number(value.trim().replace('+', ''));
}
