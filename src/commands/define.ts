import type { Command } from 'commander';
import { Context, type GlobalFlags } from '../context.js';

/** What every command handler looks like: positional arguments, its options, the context, and the command itself. */
export type Handler<O = Record<string, unknown>> = (ctx: Context, args: string[], options: O, command: Command) => Promise<number | void>;

/** Process-wide things the CLI entry hands to every command. */
export interface Runtime {
  env: NodeJS.ProcessEnv;
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
  return async (...received: unknown[]): Promise<void> => {
    const command = received[received.length - 1] as Command;
    const options = command.opts() as O;
    const positional = received.slice(0, -2).flatMap((value) => (Array.isArray(value) ? value : [value])) as string[];
    const flags = command.optsWithGlobals() as Record<string, unknown>;
    const ctx = new Context({ ...runtime, flags: globalFlags(flags) });
    runtimeContext.current = ctx;
    const { run } = await load();
    const code = await run(ctx, positional.filter((v) => v !== undefined), options, command);
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
export function examples(command: Command, lines: string[]): Command {
  return command.addHelpText('before', `Examples:\n${lines.map((l) => `  $ ${l}`).join('\n')}\n`);
}
