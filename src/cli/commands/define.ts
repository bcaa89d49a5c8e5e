import type { CommandUnknownOpts as Command } from '@commander-js/extra-typings';
import { Context, type GlobalFlags } from '../context.js';

/** What every command handler looks like: positional arguments, its options, the context, and the command itself. */
export type Handler<O = Record<string, unknown>> = (
  ctx: Context,
  args: string[],
  options: O,
  command: Command,
) => Promise<number | void>;

/**
 * The options commander hands a command, inferred by @commander-js/extra-typings from its flag definitions: a
 * handler typed with it reads only flags that exist, as the types they are parsed to (docs/design.md, Defining a
 * command).
 */
export type OptionsOf<C extends Command> = {
  [K in keyof ReturnType<C['opts']>]: AnyBoolean<ReturnType<C['opts']>[K]>;
};

/** A plain flag parses to `true` or nothing; read as a boolean, so code may also pass `false` (as topgear does). */
type AnyBoolean<V> = [V] extends [true | undefined] ? boolean | undefined : V;

/** Process-wide things the CLI entry hands to every command. */
export interface Runtime {
  env: NodeJS.ProcessEnv;
  /** Where relative paths on the command line are from; process.cwd() when not given (tests run main() in-process). */
  cwd?: string;
  stdout: NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
  stderr: NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
  /** A function, because touching process.stdin opens it (and loads fs streams) even for commands that never read it. */
  stdin: () => NodeJS.ReadableStream & { isTTY?: boolean };
  signal: AbortSignal;
  /** Set by the action with the handler's exit code. */
  exitCode: number;
}

/**
 * Attach a lazily loaded handler to a command: the module is imported only when this command runs, so the start-up
 * cost of `simjob status` does not include the code of `submit` or `artifacts`.
 */
export function lazyAction<O>(runtime: Runtime, load: () => Promise<{ run: Handler<O> }>) {
  // Typed so that commander's .action() checks the handler takes the options the command's flags give (O).
  return async (...received: [...unknown[], O, Command]): Promise<void> => {
    const command = received[received.length - 1] as Command;
    const options = received[received.length - 2] as O;
    const positional = received.slice(0, -2).flatMap((value) => (Array.isArray(value) ? value : [value])) as string[];
    const flags = command.optsWithGlobals() as Record<string, unknown>;
    const ctx = new Context({ ...runtime, flags: globalFlags(flags) });
    runtimeContext.current = ctx;
    const { run } = await load();
    const code = await run(
      ctx,
      positional.filter((v) => v !== undefined),
      options,
      command,
    );
    runtime.exitCode = typeof code === 'number' ? code : 0;
  };
}

/** The context of the running command, so the error renderer can use its output module (and its secrets). */
export const runtimeContext: { current: Context | undefined } = { current: undefined };

function globalFlags(all: Record<string, unknown>): GlobalFlags {
  return {
    json: Boolean(all.json),
    color: all.color !== false,
    quiet: Boolean(all.quiet),
    debug: Boolean(all.debug),
    profile: typeof all.profile === 'string' ? all.profile : undefined,
    baseUrl: typeof all.baseUrl === 'string' ? all.baseUrl : undefined,
    timeoutMs: typeof all.timeout === 'number' ? all.timeout : undefined,
  };
}

/** Help that opens with examples, as gh's does. */
export function examples<C extends Command>(command: C, lines: string[]): C {
  return command.addHelpText('before', `Examples:\n${lines.map((l) => `  $ ${l}`).join('\n')}\n`);
}
