/**
 * simjob's precision defaults, one place for every command, help text and piece of advice that names them.
 * Kept free of imports so the command definitions (cli/commands/<name>/command.ts, loaded at start-up) can read them
 * without loading the profile analysis.
 */

/** The final (or only) stage's target_error when nothing sets one: simc's own default for scale factors. */
export const DEFAULT_TARGET_ERROR = 0.05;
/** The service's target_error floor (notes §9): a lower one runs at this, so no advice goes below it. */
export const MIN_TARGET_ERROR = 0.01;
