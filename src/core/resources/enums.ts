/**
 * The enumerations of the service's resources, as plain constants: cheap to load (no zod), so the command
 * definitions (cli/commands/<name>/command.ts, loaded at start-up) can use them without paying for the schemas.
 */
export const CHANNELS = ['nightly', 'weekly', 'latest'] as const;
export const GIT_BRANCHES = ['midnight'] as const;
export const PRIORITIES = ['background', 'standard', 'high'] as const;
export const JSON_VERSIONS = ['2', '3'] as const;
export const WEBHOOK_EVENTS = ['job.terminal'] as const;
export const JOB_STATES = [
  'pending',
  'queued',
  'starting',
  'running',
  'completed',
  'failed',
  'cancelled',
  'timed_out',
] as const;
const TERMINAL_STATES = ['completed', 'failed', 'cancelled', 'timed_out'] as const;
export const ERROR_CODES = [
  'execution_interrupted',
  'execution_timeout',
  'execution_failed',
  'build_unavailable',
  'simulation_error',
  'queue_timeout',
  'input_invalid',
  'insufficient_credits',
  'user_cancelled',
  'internal',
  'max_credits_reached',
] as const;
/** Every value of `result.summary.multiStage.reason`, in the order domain/profile's multistageEligibility checks. */
export const MULTISTAGE_REASONS = [
  'disabled_by_option',
  'unsupported_stage_sensitive_directive',
  'unsupported_copy_set_only',
  'unsupported_mixed_profileset_copy_set',
  'no_variants_in_input',
  'unsupported_multi_actor',
  'no_profileset_candidates',
  'below_min_candidates',
  'eligible_profileset_only',
] as const;
export const ARTIFACT_KINDS = [
  'html_report',
  'json_report',
  'csv_report',
  'input',
  'stdout_log',
  'stderr_log',
] as const;

export type Channel = (typeof CHANNELS)[number];
export type Priority = (typeof PRIORITIES)[number];
export type JobState = (typeof JOB_STATES)[number];
export type TerminalState = (typeof TERMINAL_STATES)[number];
export type MultiStageReason = (typeof MULTISTAGE_REASONS)[number];
/** A value from a known set, or a newer one the server added. */
export type Open<T extends string> = T | (string & {});

export function isTerminal(state: string): state is TerminalState {
  return (TERMINAL_STATES as readonly string[]).includes(state);
}

/** The HTTP statuses the service's docs call transient (408, 429, 5xx): retried within a budget, ridden out by waits. */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 429 || status >= 500;
}
