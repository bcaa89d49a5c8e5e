import type { Runtime } from '../commands/define.js';
import { HELP_TOPICS } from '../help-topics.js';
import { buildProgram } from '../program.js';
import { completionScript, type Shell } from './index.js';

/**
 * simjob's own completion scripts, from the same buildProgram() the CLI parses with. Shared by
 * `simjob completion <shell>`, `npm run completions` and the drift test, so all three always agree.
 */
export function simjobCompletion(shell: Shell): string {
  return completionScript(shell, simjobProgram(), simjobCompletionOptions());
}

export function simjobCompletionOptions() {
  return { helpTopics: Object.keys(HELP_TOPICS) };
}

/** The command tree alone: no handler ever runs, so the runtime is inert. */
export function simjobProgram() {
  const runtime: Runtime = {
    env: {},
    stdout: process.stdout,
    stderr: process.stderr,
    stdin: process.stdin,
    signal: new AbortController().signal,
    exitCode: 0,
  };
  return buildProgram(runtime);
}
