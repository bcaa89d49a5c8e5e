import { ApiError, ExitCode, SimjobError } from '../../errors.js';
import type { Output } from './io.js';
import { terminalSafeLine } from '../../util/safe.js';

/**
 * Render any thrown value on stderr and return the exit code. One line says what went wrong and how to fix it;
 * an API error adds its request id on a second line. Stack traces only with --debug. Messages often carry a server's
 * or a file's words, so each is escaped to one terminal-safe line.
 */
export function renderError(out: Output, error: unknown, debug: boolean): number {
  const red = out.ce.red;
  if (error instanceof SimjobError) {
    const fix = error.hint ? ` ${terminalSafeLine(error.hint)}` : '';
    out.err(`${red('Error:')} ${terminalSafeLine(error.message)}${fix}\n`);
    if (error instanceof ApiError && error.requestId)
      out.err(out.ce.dim(`Request ID: ${terminalSafeLine(error.requestId)}\n`));
    if (debug && error.stack) out.err(out.ce.dim(`${error.stack}\n`));
    return error.exitCode;
  }
  const message = terminalSafeLine(error instanceof Error ? error.message : String(error));
  out.err(
    `${red('Error:')} unexpected failure: ${message}. This is a bug in simjob: run again with --debug and report the output.\n`,
  );
  if (debug && error instanceof Error && error.stack) out.err(out.ce.dim(`${error.stack}\n`));
  return ExitCode.ERROR;
}
