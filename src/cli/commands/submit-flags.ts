/**
 * The flags of `submit`, which topgear, droptimizer and statweights take too (each copies them, less its own skips):
 * defined once, so the four commands parse, help and complete them alike.
 */
import { Command, Option, type OptionValues } from '@commander-js/extra-typings';
import { CHANNELS, GIT_BRANCHES, JSON_VERSIONS, PRIORITIES } from '../../core/resources/enums.js';
import { oneOf, positiveInteger } from '../../util/parse.js';
import { completeAsPath } from '../completions/hints.js';
import { PRESETS as SCENARIO_PRESETS } from '../submitting/scenario-presets.js';
import { collect, collectOneOf, reportOption } from './flags.js';
import type { OptionsOf } from './define.js';
import { waitOption } from './wait-flags.js';

/** `command` with submit's flags added, in the order help lists them. */
export function submitFlags<Args extends unknown[], Opts extends OptionValues, Globals extends OptionValues>(
  command: Command<Args, Opts, Globals>,
) {
  return (
    command
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
      .addOption(reportOption())
  );
}

/** A command with only submit's flags: what topgear, droptimizer and statweights copy theirs from. */
export const submitFlagsCommand = () => submitFlags(new Command());

/** Submit's flags as commander parses them: what submitting (src/cli/submitting/) reads. */
export type SubmitFlags = OptionsOf<ReturnType<typeof submitFlagsCommand>>;
