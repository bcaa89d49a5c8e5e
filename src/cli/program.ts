import { Command, type CommandUnknownOpts as AnyCommand } from '@commander-js/extra-typings';
import { examples, lazyAction, type Runtime } from './commands/define.js';
import { VERSION } from '../version.js';
import { defineArtifacts } from './commands/artifacts/command.js';
import { defineBuilds } from './commands/builds/command.js';
import { defineCancel } from './commands/cancel/command.js';
import { defineCompare } from './commands/compare/command.js';
import { defineCompletion } from './commands/completion/command.js';
import {
  defineConfig,
  defineConfigGet,
  defineConfigList,
  defineConfigSet,
  defineConfigUnset,
} from './commands/config/command.js';
import { defineDoctor } from './commands/doctor/command.js';
import { defineDroptimizer } from './commands/droptimizer/command.js';
import { defineJobs } from './commands/jobs/command.js';
import { defineLogin, defineLogout } from './commands/login/command.js';
import { defineReport } from './commands/report/command.js';
import { defineResult } from './commands/result/command.js';
import { defineStatus } from './commands/status/command.js';
import { defineStatweights } from './commands/statweights/command.js';
import { defineSubmit } from './commands/submit/command.js';
import { defineTopgear } from './commands/topgear/command.js';
import { defineUsage } from './commands/usage/command.js';
import {
  defineWebhook,
  defineWebhookListen,
  defineWebhookSecret,
  defineWebhookSecretSet,
  defineWebhookSecretUnset,
  defineWebhookVerify,
} from './commands/webhook/command.js';

/**
 * The registry of commands: which exist, in the order help lists them, and which handler each runs. Each command's
 * flags, help and options type live beside its handler (src/cli/commands/<name>/command.ts, run.ts); a handler is
 * imported only when its command runs.
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

/** The commands `wanted` names, in the order help lists them, each with its handler. */
function defineCommands(program: AnyCommand, rt: Runtime, wanted: (...names: string[]) => boolean): void {
  // -- auth and config ----------------------------------------------------------------------------------------------
  if (wanted('login')) defineLogin(program).action(lazyAction(rt, () => import('./commands/login/run.js')));
  if (wanted('logout')) defineLogout(program).action(lazyAction(rt, () => import('./commands/login/logout.js')));
  if (wanted('config')) {
    const config = defineConfig(program);
    defineConfigGet(config).action(lazyAction(rt, () => import('./commands/config/get.js')));
    defineConfigSet(config).action(lazyAction(rt, () => import('./commands/config/set.js')));
    defineConfigUnset(config).action(lazyAction(rt, () => import('./commands/config/unset.js')));
    defineConfigList(config).action(lazyAction(rt, () => import('./commands/config/list.js')));
  }

  // -- jobs ---------------------------------------------------------------------------------------------------------
  if (wanted('submit')) defineSubmit(program).action(lazyAction(rt, () => import('./commands/submit/run.js')));
  if (wanted('topgear')) defineTopgear(program).action(lazyAction(rt, () => import('./commands/topgear/run.js')));
  if (wanted('droptimizer'))
    defineDroptimizer(program).action(lazyAction(rt, () => import('./commands/droptimizer/run.js')));
  if (wanted('statweights'))
    defineStatweights(program).action(lazyAction(rt, () => import('./commands/statweights/run.js')));
  if (wanted('status')) defineStatus(program).action(lazyAction(rt, () => import('./commands/status/run.js')));
  if (wanted('result')) defineResult(program).action(lazyAction(rt, () => import('./commands/result/run.js')));
  if (wanted('compare')) defineCompare(program).action(lazyAction(rt, () => import('./commands/compare/run.js')));
  if (wanted('report')) defineReport(program).action(lazyAction(rt, () => import('./commands/report/run.js')));
  if (wanted('cancel')) defineCancel(program).action(lazyAction(rt, () => import('./commands/cancel/run.js')));
  if (wanted('jobs')) defineJobs(program).action(lazyAction(rt, () => import('./commands/jobs/run.js')));
  if (wanted('artifacts')) defineArtifacts(program).action(lazyAction(rt, () => import('./commands/artifacts/run.js')));
  if (wanted('usage')) defineUsage(program).action(lazyAction(rt, () => import('./commands/usage/run.js')));
  if (wanted('builds')) defineBuilds(program).action(lazyAction(rt, () => import('./commands/builds/run.js')));

  // -- webhooks -----------------------------------------------------------------------------------------------------
  if (wanted('webhook')) {
    const webhook = defineWebhook(program);
    defineWebhookVerify(webhook).action(lazyAction(rt, () => import('./commands/webhook/verify.js')));
    defineWebhookListen(webhook).action(lazyAction(rt, () => import('./commands/webhook/listen.js')));
    const secret = defineWebhookSecret(webhook);
    defineWebhookSecretSet(secret).action(lazyAction(rt, () => import('./commands/webhook/secret-set.js')));
    defineWebhookSecretUnset(secret).action(lazyAction(rt, () => import('./commands/webhook/secret-unset.js')));
  }

  // -- setup --------------------------------------------------------------------------------------------------------
  if (wanted('completion'))
    defineCompletion(program).action(lazyAction(rt, () => import('./commands/completion/run.js')));
  if (wanted('doctor')) defineDoctor(program).action(lazyAction(rt, () => import('./commands/doctor/run.js')));
}

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
