/**
 * The error hierarchy and exit codes. Every failure a user can see is one of these; the CLI entry renders them in
 * one place (output/errors.ts) and exits with `exitCode`. Anything else is a bug and exits 1 with a bug hint.
 */

import { terminalSafeLine } from './util/safe.js';

export const ExitCode = {
  OK: 0,
  /** API or network error, or any unexpected failure. */
  ERROR: 1,
  /** Bad flag, argument, profile file or config value: fix the input and run again. */
  USAGE: 2,
  /** A job it reports on ended unsuccessfully (failed, cancelled, timed_out). */
  JOB_UNSUCCESSFUL: 3,
  /** API key missing or rejected. */
  AUTH: 4,
  /** `--wait --timeout` ran out before the job finished. */
  WAIT_TIMEOUT: 8,
  /** Interrupted with Ctrl-C. */
  INTERRUPTED: 130,
} as const;
export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];

/** The documented exit codes, for `simjob help exit-codes` and the README. */
export const EXIT_CODE_HELP: ReadonlyArray<[number, string]> = [
  [
    ExitCode.OK,
    'Success (with --wait: the job completed; `status` without --wait: the state was read, whatever it is).',
  ],
  [ExitCode.ERROR, 'API or network error, an unexpected failure, or a failed `simjob doctor` check.'],
  [
    ExitCode.USAGE,
    'Usage or validation error: a bad flag, argument, profile file or config value; a missing setting (base URL, channel, simc).',
  ],
  [
    ExitCode.JOB_UNSUCCESSFUL,
    'A job it reports on ended unsuccessfully: failed, cancelled or timed_out (`result`, `report`, a job id given to `compare`, any --wait; `status --wait` answers at once for an ended job).',
  ],
  [ExitCode.AUTH, 'API key missing or rejected.'],
  [ExitCode.WAIT_TIMEOUT, 'The job had not finished when the wait timed out (--timeout).'],
  [ExitCode.INTERRUPTED, 'Interrupted (Ctrl-C).'],
];

/**
 * Every failure a user sees. The message and the fix are kept to one line each whatever they quote (a flag value,
 * a server's message, a file name): control characters, newlines included, are escaped here (`\x0a`).
 */
export class SimjobError extends Error {
  readonly exitCode: ExitCode;
  /** The fix, printed after the message. */
  readonly hint: string | undefined;

  constructor(message: string, exitCode: ExitCode, hint?: string) {
    super(terminalSafeLine(message));
    this.name = new.target.name;
    this.exitCode = exitCode;
    this.hint = hint === undefined ? undefined : terminalSafeLine(hint);
  }
}

/** Bad input from the user: flags, arguments, profile files, config values. Exit 2. */
export class UsageError extends SimjobError {
  constructor(message: string, hint?: string) {
    super(message, ExitCode.USAGE, hint);
  }
}

/** No API key, or the service refused it. Exit 4. */
export class AuthError extends SimjobError {
  constructor(message: string, hint?: string) {
    super(message, ExitCode.AUTH, hint);
  }
}

export interface ApiErrorDetails {
  status: number;
  code: string | undefined;
  meta: Record<string, unknown> | null;
  requestId: string | undefined;
  retryAfterMs: number | undefined;
  method: string;
  path: string;
}

/** A non-2xx answer from the service, carrying the envelope's fields. Exit 1 (4 for 401). */
export class ApiError extends SimjobError {
  readonly status: number;
  readonly code: string | undefined;
  readonly meta: Record<string, unknown> | null;
  readonly requestId: string | undefined;
  readonly retryAfterMs: number | undefined;
  readonly method: string;
  readonly path: string;

  constructor(message: string, details: ApiErrorDetails, hint?: string) {
    super(message, details.status === 401 ? ExitCode.AUTH : ExitCode.ERROR, hint);
    this.status = details.status;
    this.code = details.code;
    this.meta = details.meta;
    this.requestId = details.requestId;
    this.retryAfterMs = details.retryAfterMs;
    this.method = details.method;
    this.path = details.path;
  }
}

/** The service could not be reached, or its answer could not be read. Exit 1. */
export class NetworkError extends SimjobError {
  /**
   * @param neverReached every connection so far was refused or its host unknown: no request can have reached the
   *   service (nothing was submitted), and the address is wrong or the service not up, which a wait does not ride out.
   */
  constructor(
    message: string,
    hint?: string,
    readonly neverReached = false,
  ) {
    super(message, ExitCode.ERROR, hint);
  }
}

/** A job this command reports on ended failed, cancelled or timed_out. Exit 3. */
export class JobUnsuccessfulError extends SimjobError {
  constructor(message: string, hint?: string) {
    super(message, ExitCode.JOB_UNSUCCESSFUL, hint);
  }
}

/** `--timeout` ran out while waiting. Exit 8. */
export class WaitTimeoutError extends SimjobError {
  constructor(message: string, hint?: string) {
    super(message, ExitCode.WAIT_TIMEOUT, hint);
  }
}

/** Ctrl-C. Exit 130. */
export class InterruptedError extends SimjobError {
  constructor(message: string, hint?: string) {
    super(message, ExitCode.INTERRUPTED, hint);
  }
}

/** Local mode could not find or run simc, or its store is unusable. Exit 1 unless it is a usage problem. */
export class LocalError extends SimjobError {
  constructor(message: string, hint?: string, exitCode: ExitCode = ExitCode.ERROR) {
    super(message, exitCode, hint);
  }
}
