import type { Runtime } from '../commands/define.js';
import { buildProgram } from '../program.js';
import { completionScript, type Shell } from './index.js';
import { simjobCompletionOptions } from './options.js';

export { simjobCompletionOptions };

/**
 * simjob's own completion scripts, from the same buildProgram() the CLI parses with. Used by `npm run completions`
 * and the tests; `simjob completion <shell>` makes the same script from the tree that parsed it (the drift test
 * checks that the two agree).
 */
export function simjobCompletion(shell: Shell): string {
  return completionScript(shell, simjobProgram(), simjobCompletionOptions());
}

/** The command tree alone: no handler ever runs, so the runtime is inert. */
export function simjobProgram() {
  const runtime: Runtime = {
    env: {},
    stdout: process.stdout,
    stderr: process.stderr,
    stdin: () => process.stdin,
    signal: new AbortController().signal,
    exitCode: 0,
  };
  return buildProgram(runtime);
}
