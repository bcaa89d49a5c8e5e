import { Command, Option } from '@commander-js/extra-typings';
import { UsageError } from '../../errors.js';
import { duration, positiveInteger } from '../../util/parse.js';
import type { OptionsOf } from './define.js';

/** A flag that acts on a wait: its name, whether it was given, and what it does (for the error). */
export type WaitOnlyFlag = readonly [name: string, given: boolean, does: string];

/** What `submit --wait` and `status --wait` share (a fresh Option per command, as commander needs). */
export const waitOption = {
  timeout: () =>
    new Option('--timeout <duration>', 'With --wait: stop waiting after this long (e.g. 30m); exit 8.').argParser(
      duration('--timeout'),
    ),
  cancelOnInterrupt: () =>
    new Option('--cancel-on-interrupt', 'With --wait: cancel the job on Ctrl-C instead of leaving it running.'),
  top: () =>
    new Option('--top <n>', 'With --wait: show the best N profilesets (default 20).').argParser(
      positiveInteger('--top'),
    ),
};

/** A command with only the wait flags, whose parsed options type is WaitFlags. */
export const waitFlagsCommand = () =>
  new Command().addOption(waitOption.timeout()).addOption(waitOption.cancelOnInterrupt()).addOption(waitOption.top());

/** The wait flags as commander parses them (--timeout in milliseconds): inferred, so a renamed flag breaks it. */
export type WaitFlags = OptionsOf<ReturnType<typeof waitFlagsCommand>>;

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
