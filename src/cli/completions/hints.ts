import type { Argument, Option } from '@commander-js/extra-typings';

/**
 * Completion hints that commander has no field for, attached to an Option or Argument where a command defines it
 * (commands/<name>/command.ts, commands/submit-flags.ts). Most values need none: `.choices()` gives the allowed
 * values, and a value placeholder named `<file>`, `<…-file>`, `<profiles>`, `<folder>` or `<dir>` completes as a
 * path (see valueKind in model.ts).
 */
export type PathKind = 'file' | 'directory';

const PATH_KIND = Symbol.for('simjob.completion.path');
const SUGGESTIONS = Symbol.for('simjob.completion.suggestions');

type Hinted = (Option | Argument) & { [PATH_KIND]?: PathKind; [SUGGESTIONS]?: readonly string[] };

/** Complete this value as a path, whatever its placeholder is called (e.g. `--simc <path>`). */
export function completeAsPath<T extends Option | Argument>(target: T, kind: PathKind = 'file'): T {
  (target as Hinted)[PATH_KIND] = kind;
  return target;
}

/**
 * Offer these values on Tab without restricting what is accepted (unlike `.choices()`, which also validates):
 * e.g. the setting names of `config get <key>`, whose own parser gives the better error.
 */
export function suggest<T extends Option | Argument>(target: T, values: readonly string[]): T {
  (target as Hinted)[SUGGESTIONS] = values;
  return target;
}

export function pathHint(target: Option | Argument): PathKind | undefined {
  return (target as Hinted)[PATH_KIND];
}

export function suggestionsHint(target: Option | Argument): readonly string[] | undefined {
  return (target as Hinted)[SUGGESTIONS];
}
