import { Argument, Command, Option, type CommandUnknownOpts as AnyCommand } from '@commander-js/extra-typings';
import { CHANNELS, GIT_BRANCHES, JSON_VERSIONS, PRIORITIES } from '../core/resources/enums.js';
import { examples, lazyAction, type OptionsOf, type Runtime } from './commands/define.js';
import { duration, nonNegativeNumber, oneOf, positiveInteger, positiveNumber } from '../util/parse.js';
import { completeAsPath, suggest } from './completions/hints.js';
import { SETTING_KEYS } from '../core/config/keys.js';
import { httpUrl, port, urlPath } from './commands/webhook/parse.js';
import { VERSION } from '../version.js';
import { DEFAULT_MAX_COMBOS, GROUP_NAMES } from '../domain/topgear/groups.js';
import { PRESETS as SCENARIO_PRESETS } from './commands/submit/scenario-presets.js';
import { collectReport, type ReportTarget } from './output/reports/spec.js';
import { DEFAULT_STATS, STATS } from '../domain/statweights/stats.js';
import { amountPoints, DEFAULT_AMOUNT } from '../domain/statweights/precision.js';
import { DEFAULT_TARGET_ERROR, MIN_TARGET_ERROR } from '../domain/profile/precision.js';
import { collectRosterReport, type RosterReportTarget } from './commands/droptimizer/report-spec.js';
import { UsageError } from '../errors.js';
import { DIFFICULTIES, SOURCE_KINDS } from '../domain/droptimizer/choices.js';

/**
 * Every command and flag, as data for commander: the single source for parsing, help and completions.
 * Handlers live in src/cli/commands/<name>/run.ts and are imported only when their command runs.
 */
export function buildProgram(rt: Runtime, argv?: readonly string[], tree: 'named' | 'whole' = 'named'): AnyCommand {
  const program = rootCommand(rt, () => (argv ? helpHintFor(program, argv) : ''));
  // Only the command argv names (and its subcommands): defining all ~30 would slow every start-up. Anything else
  // (no command, a typo, `help <command>`) gets the whole tree, for commander's help and suggestions, and so does
  // `completion`, which writes its script from the tree that parsed it.
  const named = argv && tree === 'named' ? commandNamedBy(program, argv) : undefined;
  const only = named === 'completion' ? undefined : named;
  defineCommands(program, rt, (...names) => only === undefined || names.includes(only));
  if (program.commands.length === 0) defineCommands(program, rt, () => true);
  return program;
}

/** The root command with the global options, which every command gets. */
function rootCommand(rt: Runtime, helpHint: () => string): AnyCommand {
  // Before any subcommand is made: commander copies both onto every command created later (nested groups too),
  // so every usage error exits 2 in simjob's one-line form.
  const program = new Command('simjob')
    .exitOverride()
    .configureOutput({
      writeOut: (text) => rt.stdout.write(text),
      writeErr: (text) => rt.stderr.write(text),
      // Commander's own usage errors ("unknown option", "missing argument") in simjob's one-line form.
      // One line ends with where to look (a suggestion, "Did you mean …", is a line of its own and says enough).
      outputError: (text, write) => {
        const message = text.replace(/^error: /, '').trimEnd();
        write(`Error: ${message.includes('\n') ? message : `${message.replace(/\.$/, '')}.${helpHint()}`}\n`);
      },
    })
    .description('Run SimulationCraft sims as jobs, on the Simulation Job Service or a local simc.')
    .version(VERSION, '-v, --version', 'Print the version.')
    .helpOption('-h, --help', 'Show help for a command.')
    .option('--json', 'Print the API resource as one JSON document on stdout.')
    .option('--no-color', 'Never colour output (also NO_COLOR=1).')
    .option('-q, --quiet', 'Print only results and errors.')
    .option('-d, --debug', 'Log each HTTP request and response (secrets redacted) and show stack traces.')
    .option('-p, --profile <name>', 'Use a named config profile (also SIMJOB_PROFILE).')
    .option('--base-url <url>', 'API base URL (also SIMJOB_BASE_URL).')
    .showSuggestionAfterError(true)
    .configureHelp({ sortSubcommands: false, showGlobalOptions: true })
    .addHelpText(
      'after',
      '\nLearn more:\n  simjob doctor             check the setup, with a fix for each problem\n  simjob completion <shell> Tab completion for bash, zsh or fish\n  simjob help environment   every environment variable\n  simjob help exit-codes    what each exit code means\n  simjob <command> --help   examples and flags of a command',
    );

  examples(program, [
    'simjob login',
    'simjob submit profile.simc --channel nightly --wait',
    'simjob jobs --limit 10',
    'simjob doctor',
  ]);
  return program;
}

/** The commands `wanted` names, in the order help lists them. */
function defineCommands(program: AnyCommand, rt: Runtime, wanted: (...names: string[]) => boolean): void {
  const settingNames = SETTING_KEYS.map((k) => k.name);

  // -- auth and config ----------------------------------------------------------------------------------------------
  if (wanted('login')) loginCommand(program).action(lazyAction(rt, () => import('./commands/login/run.js')));
  if (wanted('logout'))
    examples(
      program
        .command('logout')
        .description('Remove the stored API key of the active profile.')
        .action(lazyAction(rt, () => import('./commands/login/logout.js'))),
      ['simjob logout', 'simjob logout --profile ci'],
    );

  const config =
    wanted('config') &&
    examples(program.command('config').description('Read and change settings (base_url, channel, output, …).'), [
      'simjob config list',
      'simjob config set base_url https://api.example.com',
      'simjob config get channel --profile ci',
    ]);
  if (config)
    examples(
      config
        .command('get')
        .addArgument(suggest(new Argument('<key>'), settingNames))
        .description('Print one setting of the active profile.')
        .action(lazyAction(rt, () => import('./commands/config/get.js'))),
      ['simjob config get base_url', 'simjob config get channel --profile ci'],
    );
  if (config)
    examples(
      config
        .command('set')
        .addArgument(suggest(new Argument('<key>'), settingNames))
        .argument('<value>')
        .description('Change one setting of the active profile.')
        .action(lazyAction(rt, () => import('./commands/config/set.js'))),
      ['simjob config set base_url https://api.example.com', 'simjob config set channel nightly --profile ci'],
    );
  if (config)
    examples(
      config
        .command('unset')
        .addArgument(suggest(new Argument('<key>'), settingNames))
        .description('Remove one setting of the active profile.')
        .action(lazyAction(rt, () => import('./commands/config/unset.js'))),
      ['simjob config unset channel', 'simjob config unset simc.path --profile ci'],
    );
  if (config)
    examples(
      config
        .command('list')
        .description('Show the effective settings and where each comes from.')
        .action(lazyAction(rt, () => import('./commands/config/list.js'))),
      ['simjob config list', 'simjob config list --profile ci --json | jq -r \'.settings[] | "\\(.key)=\\(.value)"\''],
    );

  // -- jobs ---------------------------------------------------------------------------------------------------------
  const submit =
    wanted('submit', 'topgear', 'statweights', 'droptimizer') &&
    submitCommand(program).action(lazyAction(rt, () => import('./commands/submit/run.js')));
  if (submit && wanted('topgear')) {
    topgearCommand(program, submit).action(lazyAction(rt, () => import('./commands/topgear/run.js')));
  }
  if (submit && wanted('droptimizer')) {
    droptimizerCommand(program, submit).action(lazyAction(rt, () => import('./commands/droptimizer/run.js')));
  }
  if (submit && wanted('statweights')) {
    statweightsCommand(program, submit).action(lazyAction(rt, () => import('./commands/statweights/run.js')));
  }
  if (wanted('status')) statusCommand(program).action(lazyAction(rt, () => import('./commands/status/run.js')));
  if (wanted('result')) resultCommand(program).action(lazyAction(rt, () => import('./commands/result/run.js')));
  if (wanted('compare')) compareCommand(program).action(lazyAction(rt, () => import('./commands/compare/run.js')));
  if (wanted('report')) reportCommand(program).action(lazyAction(rt, () => import('./commands/report/run.js')));
  if (wanted('cancel'))
    examples(
      program
        .command('cancel <id>')
        .description('Cancel a queued or running job.')
        .action(lazyAction(rt, () => import('./commands/cancel/run.js'))),
      [
        'simjob cancel 519253542012420096',
        'simjob jobs --json | jq -r \'.jobs[] | select(.status == "queued") | .id\' | xargs -n1 simjob cancel',
      ],
    );

  if (wanted('jobs')) jobsCommand(program).action(lazyAction(rt, () => import('./commands/jobs/run.js')));
  if (wanted('artifacts')) {
    artifactsCommand(program).action(lazyAction(rt, () => import('./commands/artifacts/run.js')));
  }
  if (wanted('usage')) usageCommand(program).action(lazyAction(rt, () => import('./commands/usage/run.js')));
  if (wanted('builds')) buildsCommand(program).action(lazyAction(rt, () => import('./commands/builds/run.js')));

  // -- webhooks -----------------------------------------------------------------------------------------------------
  const webhook =
    wanted('webhook') &&
    examples(program.command('webhook').description('Check, receive and configure job.terminal webhook events.'), [
      'simjob webhook listen --exec \'simjob result "$SIMJOB_JOB_ID"\'',
      'simjob webhook verify --body-file body.json --signature "$SIG"',
      'openssl rand -hex 32 | simjob webhook secret set',
    ]);
  if (webhook) webhookVerifyCommand(webhook).action(lazyAction(rt, () => import('./commands/webhook/verify.js')));
  if (webhook) webhookListenCommand(webhook).action(lazyAction(rt, () => import('./commands/webhook/listen.js')));
  const secret =
    webhook &&
    examples(webhook.command('secret').description('The signing secret used by local deliveries, listen and verify.'), [
      'openssl rand -hex 32 | simjob webhook secret set',
      'simjob webhook secret unset --profile ci',
    ]);
  if (secret)
    examples(
      secret
        .command('set')
        .description('Store the signing secret for the active profile (hidden prompt or stdin, never a flag).')
        .action(lazyAction(rt, () => import('./commands/webhook/secret-set.js'))),
      ['simjob webhook secret set', 'openssl rand -hex 32 | simjob webhook secret set'],
    );
  if (secret)
    examples(
      secret
        .command('unset')
        .description('Remove the stored signing secret of the active profile.')
        .action(lazyAction(rt, () => import('./commands/webhook/secret-unset.js'))),
      ['simjob webhook secret unset', 'simjob webhook secret unset --profile ci'],
    );

  // -- setup --------------------------------------------------------------------------------------------------------
  if (wanted('completion'))
    examples(
      program
        .command('completion')
        .addArgument(
          new Argument('<shell>', 'bash, zsh or fish.')
            .choices(['bash', 'zsh', 'fish'])
            .argParser(oneOf('shell', ['bash', 'zsh', 'fish'] as const)),
        )
        .description('Print the shell completion script for bash, zsh or fish.')
        .addHelpText(
          'after',
          [
            '',
            "Install (or use the same files from the package's completions/ folder):",
            '  bash  simjob completion bash > ~/.local/share/bash-completion/completions/simjob',
            '  zsh   simjob completion zsh > "${fpath[1]}/_simjob"        (a folder on $fpath; needs compinit)',
            '  fish  simjob completion fish > ~/.config/fish/completions/simjob.fish',
            'The scripts are static: pressing Tab never starts Node. Regenerate them after upgrading simjob.',
          ].join('\n'),
        )
        .action(lazyAction(rt, () => import('./commands/completion/run.js'))),
      [
        'simjob completion bash > ~/.local/share/bash-completion/completions/simjob',
        "echo 'source <(simjob completion zsh)' >> ~/.zshrc",
        'simjob completion fish > ~/.config/fish/completions/simjob.fish',
      ],
    );
  if (wanted('doctor'))
    examples(
      program
        .command('doctor')
        .description('Check the setup: config files and permissions, base URL, service, API key, local simc.')
        .addHelpText(
          'after',
          [
            '',
            'Each failed check prints a one-line fix. Exit 0 when every check passes, 1 when any fails.',
            'A missing simc is not a failure (only --local needs one); a named simc that does not run is.',
          ].join('\n'),
        )
        .action(lazyAction(rt, () => import('./commands/doctor/run.js'))),
      ['simjob doctor', 'simjob doctor --profile ci', "simjob doctor --json | jq -r '.[] | select(.ok | not) | .fix'"],
    );
}

// -- the commands with options -----------------------------------------------------------------------------------
// Each is defined here, outside defineCommands, so that its options type can be exported: the type commander's
// parse gives, inferred from the flags, which the handler takes (docs/design.md, Defining a command).

const loginCommand = (parent: AnyCommand) =>
  examples(
    parent
      .command('login')
      .description('Store an API key for the active profile (read from a hidden prompt, or from stdin).')
      .option('--no-verify', 'Store the key without checking it against the service.'),
    [
      'simjob login',
      'simjob login --profile ci < key.txt',
      'printenv SIM_KEY | simjob login --base-url https://api.example.com',
    ],
  );
export type LoginOptions = OptionsOf<ReturnType<typeof loginCommand>>;

const submitCommand = (parent: AnyCommand) =>
  examples(
    parent
      .command('submit')
      .description('Submit profiles as sim jobs (a file, several files, or - for stdin).')
      .argument('<profiles...>', 'Profile files (.simc), or - to read one from stdin.')
      // .choices() so help and completions list the values; oneOf() keeps simjob's one-line error.
      .addOption(
        new Option('-c, --channel <channel>', 'Build channel.')
          .choices(CHANNELS)
          .argParser(oneOf('--channel', CHANNELS)),
      )
      .addOption(
        new Option('--branch <branch>', "Override the channel's git branch.")
          .choices(GIT_BRANCHES)
          .argParser(oneOf('--branch', GIT_BRANCHES)),
      )
      .option('--multistage', 'Sim every profileset cheaply, cull the losers, re-sim the rest.')
      .option('--max-runtime <seconds>', 'Runtime cap in seconds (default 300).', positiveInteger('--max-runtime'))
      .option('--max-queue <seconds>', 'Queue timeout in seconds (default 1800).', positiveInteger('--max-queue'))
      .option(
        '--max-credits <credits>',
        "Credit budget of the job (service default 9600; at most the plan's maxCreditsPerJob).",
        positiveInteger('--max-credits'),
      )
      .addOption(
        new Option('--priority <priority>', 'Queue priority.')
          .choices(PRIORITIES)
          .argParser(oneOf('--priority', PRIORITIES)),
      )
      .option('--meta <key=value>', 'Metadata echoed back on the job (repeatable).', collect, [])
      .option('--webhook', 'Send a job.terminal webhook event when the job ends.')
      .option('--html', 'Also produce the HTML report.')
      .option('--csv', 'Also produce the CSV table of profilesets.')
      .addOption(
        new Option('--json-version <version>', 'JSON report schema: 2 (stable) or 3 (experimental).')
          .choices(JSON_VERSIONS)
          .argParser(oneOf('--json-version', JSON_VERSIONS)),
      )
      .option('--plain', 'Send the profile as text/plain with query parameters instead of JSON.')
      .option('--idempotency-key <key>', 'Reuse a key to make retries of this submission safe.')
      .option('--dry-run', 'Validate and print the request without sending it.')
      .option('-w, --wait', 'Wait for the job to end and print its result.')
      .addOption(waitOption.timeout())
      .addOption(waitOption.cancelOnInterrupt())
      .addOption(waitOption.top())
      .option('--local', 'Run on this machine with a local simc instead of the service.')
      .addOption(completeAsPath(new Option('--simc <path>', 'With --local: the simc binary to run.')))
      .option('--concurrency <n>', 'Submit at most N profiles at once (batches).', positiveInteger('--concurrency'))
      .option(
        '--scenario <key=v1,v2>',
        'Run each profile once per value of a global simc option (repeatable: every combination).',
        collect,
        [],
      )
      .addOption(
        new Option('--scenarios <preset>', 'Run each profile in a named set of scenarios (repeatable).')
          .choices(Object.keys(SCENARIO_PRESETS))
          .argParser(collectOneOf('--scenarios', Object.keys(SCENARIO_PRESETS)))
          .default([] as string[]),
      )
      .addOption(reportOption()),
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
export type SubmitCommandOptions = OptionsOf<ReturnType<typeof submitCommand>>;

const topgearCommand = (parent: AnyCommand, submit: ReturnType<typeof submitCommand>) =>
  examples(
    copyOptions(
      submit,
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
export type TopGearOptions = OptionsOf<ReturnType<typeof topgearCommand>>;

const droptimizerCommand = (parent: AnyCommand, submit: ReturnType<typeof submitCommand>) =>
  examples(
    copyOptions(
      submit,
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
export type DroptimizerCommandOptions = OptionsOf<ReturnType<typeof droptimizerCommand>>;

const statweightsCommand = (parent: AnyCommand, submit: ReturnType<typeof submitCommand>) =>
  examples(
    copyOptions(
      submit,
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
export type StatWeightsCommandOptions = OptionsOf<ReturnType<typeof statweightsCommand>>;

const STATWEIGHT_METHODS = ['profilesets', 'scale'] as const;

const statusCommand = (parent: AnyCommand) =>
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
export type StatusOptions = OptionsOf<ReturnType<typeof statusCommand>>;

const resultCommand = (parent: AnyCommand) =>
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
export type ResultOptions = OptionsOf<ReturnType<typeof resultCommand>>;

const compareCommand = (parent: AnyCommand) =>
  examples(
    parent
      .command('compare <a> <b>')
      .description(
        'Compare two finished jobs, or two saved --json results: DPS side by side, the difference, and whether it is significant.',
      )
      .option('--top <n>', 'Show the best N profilesets of each match (default 20).', positiveInteger('--top'))
      .option('--all', 'Compare every profileset, read from the JSON report artifacts.')
      .option(
        '--fail-on-regression <pct>',
        'Exit 3 when any match is significantly worse by more than PCT percent, or has no DPS (a failed job).',
        nonNegativeNumber('--fail-on-regression'),
      )
      .option(
        '--allow-failed',
        'With --fail-on-regression: list a result without DPS (failed, cancelled, timed out), but pass it.',
      )
      .addOption(reportOption())
      .addHelpText(
        'after',
        '\nSignificant: |Δ| > √(eA² + eB²), where eA and eB are the 95% half-widths (mean_error) of the two\nmeans: a two-sided z-test at the 5% level, assuming the two sims are independent.',
      ),
    [
      'simjob compare 519253542012420096 519253542012420097',
      "simjob compare OLD NEW --all --json | jq '.rows[] | select(.significant)'",
      'simjob compare yesterday.json today.json --fail-on-regression 1 --report markdown="$GITHUB_STEP_SUMMARY"',
    ],
  );
export type CompareOptions = OptionsOf<ReturnType<typeof compareCommand>>;

const reportCommand = (parent: AnyCommand) =>
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
export type ReportOptions = OptionsOf<ReturnType<typeof reportCommand>>;

const jobsCommand = (parent: AnyCommand) =>
  examples(
    parent
      .command('jobs')
      .description('List recent jobs, newest first.')
      .option('-L, --limit <n>', 'Jobs per page, 1-100 (default 25).', positiveInteger('--limit'))
      .option('--cursor <cursor>', 'Continue from a page.nextCursor.')
      .option('--all', 'Follow every page.')
      .option('--local', 'List local jobs.'),
    ['simjob jobs', "simjob jobs --limit 100 --all --json | jq -r '.jobs[].id'", 'simjob jobs --local'],
  );
export type JobsOptions = OptionsOf<ReturnType<typeof jobsCommand>>;

const artifactsCommand = (parent: AnyCommand) =>
  examples(
    parent
      .command('artifacts <id>')
      .description("List a job's artifacts, or download them (streamed to disk).")
      .option('--download', 'Download the artifacts (all, or those named by --kind).')
      .option('-k, --kind <kind>', 'Only artifacts of this kind, e.g. json_report (repeatable).', collect, [])
      .option('-o, --dir <folder>', 'Folder to download into (default: ./<job id>).')
      .option('--clobber', 'Overwrite files that already exist in the folder (default: stop, exit 2).')
      .option('--skip-existing', 'Keep files that already exist in the folder and download the rest.'),
    [
      'simjob artifacts 519253542012420096',
      'simjob artifacts 519253542012420096 --download --kind html_report -o reports/',
      'simjob artifacts 519253542012420096 --download --skip-existing',
    ],
  );
export type ArtifactsOptions = OptionsOf<ReturnType<typeof artifactsCommand>>;

const usageCommand = (parent: AnyCommand) =>
  examples(
    parent
      .command('usage')
      .description("Show the account's usage and limits.")
      .option('--local', 'Show the local queue instead.'),
    ['simjob usage', 'simjob usage --json | jq .limits.maxActiveJobs', 'simjob usage --local'],
  );
export type UsageOptions = OptionsOf<ReturnType<typeof usageCommand>>;

const buildsCommand = (parent: AnyCommand) =>
  examples(
    parent
      .command('builds [id]')
      .description('Show the current build of each channel, or one build by id.')
      .option('--local', 'Show the local simc binaries instead.'),
    ['simjob builds', 'simjob builds 4b7c8d0e-1f2a-4c3b-9d8e-7f6a5b4c3d2e', 'simjob builds --local'],
  );
export type BuildsOptions = OptionsOf<ReturnType<typeof buildsCommand>>;

const webhookVerifyCommand = (parent: AnyCommand) =>
  examples(
    parent
      .command('verify')
      .description("Check a delivery's signature: exit 0 and the event when valid, exit 1 with the reason when not.")
      .option('--body-file <file>', 'The raw request body, byte for byte (default: stdin).')
      .option('--signature <value>', 'The X-Service-Signature header value (also SIMJOB_WEBHOOK_SIGNATURE).')
      .addOption(signatureOption.secretFile())
      .addOption(signatureOption.tolerance()),
    [
      'simjob webhook verify --body-file body.json --signature "t=1711360000,v1=5257a8…"',
      'SIMJOB_WEBHOOK_SIGNATURE="$SIG" simjob webhook verify --secret-file secret.txt --json < body.json | jq -r .payload.id',
    ],
  );
export type VerifyOptions = OptionsOf<ReturnType<typeof webhookVerifyCommand>>;

const webhookListenCommand = (parent: AnyCommand) =>
  examples(
    parent
      .command('listen')
      .description(
        'Receive deliveries on 127.0.0.1: verify, deduplicate by event id, print each new event, run or forward it.',
      )
      .option('--port <port>', 'Port to listen on (default 8790; 0 for any free port).', port)
      .option('--path <path>', 'URL path to accept deliveries on (default /webhooks).', urlPath)
      .option('--exec <command>', 'Shell command run per new event; a non-zero exit answers 500 so the sender retries.')
      .option(
        '--forward-to <url>',
        'Re-post each new delivery (same body and headers) to this URL; a failure answers 502.',
        httpUrl,
      )
      .option('--max-events <n>', 'Exit after N new events.', positiveInteger('--max-events'))
      .addOption(signatureOption.secretFile())
      .addOption(signatureOption.tolerance())
      .addHelpText(
        'after',
        [
          '',
          'Output: one line per new event on stdout. With --json, one JSON object per line, {eventId, deliveryId, event}:',
          'the one command whose --json is a stream of documents rather than one. Notices and rejections go to stderr.',
          'Answers: 200 accepted or duplicate; 400 bad signature, stale timestamp or not an event (not retried);',
          '500/502/503 when --exec or --forward-to failed or took over 9 s (the event is not marked seen: retried).',
          '--exec gets SIMJOB_EVENT_ID, SIMJOB_DELIVERY_ID, SIMJOB_JOB_ID, SIMJOB_JOB_STATUS, SIMJOB_JOB_STATUS_REASON and',
          'SIMJOB_EVENT_JSON (the raw body, also on its stdin); its output goes to stderr. Ctrl-C stops it and exits 0.',
        ].join('\n'),
      ),
    [
      'simjob webhook listen',
      'simjob webhook listen --json | jq -r .event.payload.id',
      'simjob webhook listen --exec \'simjob result "$SIMJOB_JOB_ID" --json > "results/$SIMJOB_JOB_ID.json"\'',
      'simjob webhook listen --port 0 --forward-to http://localhost:3000/hooks/simjob',
    ],
  );
export type ListenOptions = OptionsOf<ReturnType<typeof webhookListenCommand>>;

/** ` Run \`simjob config get --help\` for usage.`: the deepest command argv names (global flags before it skipped). */
function helpHintFor(program: AnyCommand, argv: readonly string[]): string {
  const path: string[] = [];
  let command: AnyCommand = program;
  for (const word of argv) {
    if (word === '--') break;
    const sub = word.startsWith('-')
      ? undefined
      : command.commands.find((c) => c.name() === word || c.aliases().includes(word));
    if (sub) {
      path.push(sub.name());
      command = sub;
    } else if (path.length > 0 && !word.startsWith('-')) break; // the command's own arguments
  }
  return ` Run \`${['simjob', ...path, '--help'].join(' ')}\` for usage.`;
}

/**
 * The command argv runs, read as commander will: past the root's options (and their values). Undefined when an
 * unknown option or `--` comes first, so that commander sees the whole tree there.
 */
function commandNamedBy(program: AnyCommand, argv: readonly string[]): string | undefined {
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    if (arg === '--') return undefined;
    if (!arg.startsWith('-') || arg === '-') return arg;
    // --name or --name=value; -abc is -a -b -c, where an option taking a value takes the rest (or the next arg).
    const flags = arg.startsWith('--') ? [arg.split('=')[0] ?? arg] : [...arg.slice(1)].map((c) => `-${c}`);
    for (const [at, flag] of flags.entries()) {
      const option = program.options.find((o) => o.long === flag || o.short === flag);
      if (!option) return undefined;
      if (!option.required && !option.optional) continue;
      const attached = arg.startsWith('--') ? arg.includes('=') : at < flags.length - 1;
      const next = argv[i + 1];
      if (!attached && (option.required || (next !== undefined && !next.startsWith('-')))) i++;
      break;
    }
  }
  return undefined;
}

const TALENT_CHOICES = ['active', 'all'] as const;

/** `--keystone N`: 0 (Mythic 0) or a keystone level. */
function keystoneLevel(value: string): number {
  if (!/^\+?\d{1,2}$/.test(value.trim()))
    throw new UsageError(`--keystone must be a keystone level from 0 to 99, e.g. 10 (got "${value}").`);
  return Number(value.trim().replace('+', ''));
}

/**
 * Give `to` the options of `from` it does not define itself, except `skip` (a fresh Option each, as commander needs;
 * completion hints are copied too): `topgear` takes every submit flag without a second list of them. The result's
 * options type says so too, so topgear's handler reads the copied flags as typed as submit's.
 */
function copyOptions<From extends AnyCommand, To extends AnyCommand, Skip extends keyof OptionsOf<From>>(
  from: From,
  to: To,
  skip: readonly Skip[],
): WithOptionsOf<To, Omit<OptionsOf<From>, Skip | keyof OptionsOf<To>>> {
  for (const option of from.options) {
    const name = option.attributeName();
    if ((skip as readonly string[]).includes(name) || to.options.some((o) => o.attributeName() === name)) continue;
    const copy = new Option(option.flags, option.description);
    if (option.argChoices) copy.choices(option.argChoices);
    if (option.parseArg) copy.argParser(option.parseArg);
    if (option.defaultValue !== undefined) copy.default(option.defaultValue, option.defaultValueDescription);
    for (const symbol of Object.getOwnPropertySymbols(option))
      (copy as unknown as Record<symbol, unknown>)[symbol] = (option as unknown as Record<symbol, unknown>)[symbol];
    to.addOption(copy);
  }
  return to as unknown as WithOptionsOf<To, Omit<OptionsOf<From>, Skip | keyof OptionsOf<To>>>;
}

/** `C` with `More` added to its options. */
type WithOptionsOf<C extends AnyCommand, More> =
  C extends Command<infer Args, infer Opts, infer Globals> ? Command<Args, Opts & More, Globals> : never;

function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

function collectOneOf(flag: string, allowed: readonly string[]): (value: string, previous: string[]) => string[] {
  const check = oneOf(flag, allowed);
  return (value, previous) => [...previous, check(value)];
}

/** `--report junit=FILE` / `markdown=FILE`, shared by submit and compare. */
function reportOption() {
  return new Option(
    '--report <format=file>',
    'Also write a CI report: junit=FILE (JUnit XML) or markdown=FILE (repeatable).',
  )
    .argParser(collectReport)
    .default([] as ReportTarget[]);
}

/** What `submit --wait` and `status --wait` share (a fresh Option per command, as commander needs). */
const waitOption = {
  timeout: () =>
    new Option('--timeout <duration>', 'With --wait: stop waiting after this long (e.g. 30m); exit 8.').argParser(
      duration('--timeout'),
    ),
  cancelOnInterrupt: () =>
    new Option('--cancel-on-interrupt', 'With --wait: cancel the job on Ctrl-C instead of leaving it running.'),
  top: () =>
    new Option('--top <n>', 'With --wait: show the best N profilesets (default 20).').argParser(
      positiveInteger('--top'),
    ),
};

/** What `webhook verify` and `webhook listen` share: where the secret comes from, how old a signature may be. */
const signatureOption = {
  secretFile: () =>
    new Option(
      '--secret-file <file>',
      'Read the signing secret from a file (else SIMJOB_WEBHOOK_SECRET, else the stored one).',
    ),
  tolerance: () =>
    new Option('--tolerance <seconds>', 'Refuse signatures older or newer than this (default 300).').argParser(
      positiveInteger('--tolerance'),
    ),
};
