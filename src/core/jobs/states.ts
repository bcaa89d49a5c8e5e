import { isTerminal } from '../resources/enums.js';
import { ExitCode } from '../../errors.js';

/**
 * The job state machine of spec §3, shared by the remote and the local backend:
 *   pending/queued → starting → running → completed | failed | cancelled | timed_out
 * plus queued → cancelled (cancel or queue_timeout) and running → cancelled (cancel). Terminal states have no exits.
 * A state this client does not know (a newer server) is treated as not terminal and shown as it is.
 */
/** Not started yet: pending or queued. */
export const isWaiting = (state: string): boolean => state === 'pending' || state === 'queued';
/** Started and not ended: starting or running. */
export const isActive = (state: string): boolean => state === 'starting' || state === 'running';

export { isTerminal };

/** Moves the local backend may make; the remote service makes its own, and we only read them. */
const ALLOWED: Record<string, readonly string[]> = {
  pending: ['queued', 'starting', 'running', 'cancelled', 'failed'],
  queued: ['starting', 'running', 'cancelled', 'failed'],
  starting: ['running', 'completed', 'failed', 'cancelled', 'timed_out', 'queued'],
  running: ['completed', 'failed', 'cancelled', 'timed_out', 'queued'],
};

export function canMove(from: string, to: string): boolean {
  return (ALLOWED[from] ?? []).includes(to);
}

/** Exit code for a job a command reports on: 0 when it completed, 3 for any other terminal state. */
export function exitCodeForState(state: string): ExitCode {
  if (state === 'completed') return ExitCode.OK;
  return isTerminal(state) ? ExitCode.JOB_UNSUCCESSFUL : ExitCode.OK;
}

/** What to tell the user about an unsuccessful job's errorCode (spec 2.3, notes §7). */
const ERROR_ADVICE: Record<string, string> = {
  queue_timeout:
    'The job never started, so nothing was billed: it is safe to resubmit (perhaps with a longer --max-queue).',
  input_invalid: 'Fix the profile and submit again.',
  simulation_error: 'simc rejected the profile: fix the line named in the reason and submit again.',
  execution_timeout:
    'The sim ran past its runtime cap: raise --max-runtime, or lower iterations/target_error precision.',
  execution_failed: 'simc crashed or exited abnormally; check the stderr_log artifact. Resubmitting may help.',
  execution_interrupted: 'The run was interrupted by the platform; resubmit.',
  build_unavailable: 'The build for this channel was not available; try another channel or resubmit later.',
  insufficient_credits: 'The account ran out of credits; top up and resubmit.',
  max_credits_reached:
    'The job hit its credit budget: raise --max-credits, or lower iterations/target_error precision.',
  user_cancelled: 'The job was cancelled on request.',
  internal: 'The service failed internally; resubmit, and quote the job id to support if it repeats.',
};

/** The statusReason of a local job that failed because the data dir's disk filled up (not simc's fault). */
export const DISK_FULL_REASON = "no space left on the data dir's disk";

/** The advice for an unsuccessful job: by its errorCode, except a full disk, which no resubmission alone fixes. */
export function adviceFor(errorCode?: string | null, statusReason?: string | null): string | undefined {
  if (errorCode === 'execution_failed' && statusReason === DISK_FULL_REASON)
    return 'Free some space on the disk of the data dir (or set SIMJOB_DATA_DIR to another disk), then resubmit.';
  return errorCode ? ERROR_ADVICE[errorCode] : undefined;
}
