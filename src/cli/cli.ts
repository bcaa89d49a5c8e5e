import { CommanderError, type CommandUnknownOpts as Command } from '@commander-js/extra-typings';
import { closeConnections } from '../core/api/connections.js';
import { debugLevelOf } from './debug.js';
import type { Runtime } from './commands/define.js';
import { runtimeContext } from './commands/define.js';
import { ExitCode, InterruptedError, UsageError } from '../errors.js';
import { Output } from './output/io.js';
import { renderError } from './output/errors.js';
import { HELP_TOPICS, topicJson, topicText } from './help-topics.js';
import { buildProgram } from './program.js';

/**
 * The CLI entry: parse, dispatch to the lazily loaded command, and turn whatever it throws into one rendered
 * error and an exit code. Returns the exit code; the bin shim sets it on the process.
 */
export async function main(argv: string[], rt: Omit<Runtime, 'exitCode' | 'signal'>): Promise<number> {
  const topic = argv[0] === 'help' ? HELP_TOPICS[argv[1] ?? ''] : undefined;
  if (topic && argv.slice(2).every((arg) => TOPIC_FLAGS.has(arg))) {
    const out = fallbackOutput(rt, argv);
    if (out.json) out.printJson(topicJson(topic));
    else out.line(topicText(topic).trimEnd());
    return ExitCode.OK;
  }
  const interrupts = new AbortController();
  const runtime: Runtime = { ...rt, signal: interrupts.signal, exitCode: 0 };
  const onSigint = () => {
    if (interrupts.signal.aborted) process.exit(ExitCode.INTERRUPTED); // a second Ctrl-C exits at once
    interrupts.abort(new InterruptedError('Interrupted.'));
  };
  process.on('SIGINT', onSigint);

  const program = buildProgram(runtime, argv);
  try {
    if (argv[0] === 'help') checkHelpSubject(program, argv.slice(1));
    await program.parseAsync(argv, { from: 'user' });
    return runtime.exitCode;
  } catch (error) {
    if (error instanceof CommanderError) {
      if (
        error.code === 'commander.helpDisplayed' ||
        error.code === 'commander.version' ||
        error.code === 'commander.help'
      ) {
        return ExitCode.OK;
      }
      return ExitCode.USAGE;
    }
    const out = runtimeContext.current?.out ?? fallbackOutput(rt, argv);
    const debug =
      (runtimeContext.current?.debugLevel ?? debugLevelOf(rt.env, argv.includes('--debug') || argv.includes('-d'))) > 0;
    if (interrupts.signal.aborted && !(error instanceof UsageError)) {
      return renderError(out, error instanceof InterruptedError ? error : interrupts.signal.reason, debug);
    }
    return renderError(out, error, debug);
  } finally {
    process.off('SIGINT', onSigint);
    runtimeContext.current = undefined; // a later main() in this process (tests) must not render into this one's
    await closeConnections();
  }
}

/** The flags a help topic takes: the global ones that change how it prints. */
const TOPIC_FLAGS = new Set(['--json', '--no-color', '-q', '--quiet']);

/** `simjob help <name>` for a name that is neither a command nor a topic: an error, not the whole help again. */
function checkHelpSubject(program: Command, words: string[]): void {
  const name = words.find((word) => !word.startsWith('-'));
  if (name === undefined || program.commands.some((c) => c.name() === name || c.aliases().includes(name))) return;
  throw new UsageError(
    `"${name}" is not a command or a help topic.`,
    `Run \`simjob help\` for the commands; topics: ${Object.keys(HELP_TOPICS).join(', ')}.`,
  );
}

function fallbackOutput(rt: Omit<Runtime, 'exitCode' | 'signal'>, argv: readonly string[]): Output {
  return new Output({
    stdout: rt.stdout,
    stderr: rt.stderr,
    env: rt.env,
    json: argv.includes('--json'),
    noColor: argv.includes('--no-color'), // NO_COLOR and the rest: Output's own colour decision
    quiet: false,
  });
}
