import { UsageError } from '../../errors.js';
import type { StatusOptions } from '../program.js';

/** A flag that acts on a wait: its name, whether it was given, and what it does (for the error). */
export type WaitOnlyFlag = readonly [name: string, given: boolean, does: string];

/** The wait flags `submit` and `status` share (as program.ts defines them). */
export type WaitFlags = Pick<StatusOptions, 'timeout' | 'top' | 'cancelOnInterrupt'>;

/** Without --wait these flags would do nothing, so they are refused (exit 2) rather than silently ignored. */
export function refuseWaitOnlyFlags(options: WaitFlags, more: readonly WaitOnlyFlag[] = []): void {
  const flags: WaitOnlyFlag[] = [
    ['--timeout', options.timeout !== undefined, 'stops waiting after that long'],
    ['--top', options.top !== undefined, 'picks the profilesets of the result shown'],
    ['--cancel-on-interrupt', Boolean(options.cancelOnInterrupt), 'cancels the job when Ctrl-C stops the wait'],
    ...more,
  ];
  const given = flags.find(([, present]) => present);
  if (given) throw new UsageError(`${given[0]} ${given[2]}; it needs --wait.`, `Add --wait, or drop ${given[0]}.`);
}
