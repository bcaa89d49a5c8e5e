/** Flag helpers several commands share: repeatable values, the CI report flag, and copying one command's flags. */
import { Option, type Command, type CommandUnknownOpts as AnyCommand } from '@commander-js/extra-typings';
import { oneOf } from '../../util/parse.js';
import { collectReport, type ReportTarget } from '../output/reports/spec.js';
import type { OptionsOf } from './define.js';

/**
 * Give `to` the options of `from` it does not define itself, except `skip` (a fresh Option each, as commander needs;
 * completion hints are copied too): `topgear` takes every submit flag without a second list of them. The result's
 * options type says so too, so topgear's handler reads the copied flags as typed as submit's.
 */
export function copyOptions<From extends AnyCommand, To extends AnyCommand, Skip extends keyof OptionsOf<From>>(
  from: From,
  to: To,
  skip: readonly Skip[],
): WithOptionsOf<To, Omit<OptionsOf<From>, Skip | keyof OptionsOf<To>>> {
  for (const option of from.options) {
    const name = option.attributeName();
    if ((skip as readonly string[]).includes(name) || to.options.some((o) => o.attributeName() === name)) continue;
    const copy = new Option(option.flags, option.description);
    if (option.argChoices) copy.choices(option.argChoices);
    if (option.parseArg) copy.argParser(option.parseArg);
    if (option.defaultValue !== undefined) copy.default(option.defaultValue, option.defaultValueDescription);
    for (const symbol of Object.getOwnPropertySymbols(option))
      (copy as unknown as Record<symbol, unknown>)[symbol] = (option as unknown as Record<symbol, unknown>)[symbol];
    to.addOption(copy);
  }
  return to as unknown as WithOptionsOf<To, Omit<OptionsOf<From>, Skip | keyof OptionsOf<To>>>;
}

/** `C` with `More` added to its options. */
export type WithOptionsOf<C extends AnyCommand, More> =
  C extends Command<infer Args, infer Opts, infer Globals> ? Command<Args, Opts & More, Globals> : never;

export function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

export function collectOneOf(
  flag: string,
  allowed: readonly string[],
): (value: string, previous: string[]) => string[] {
  const check = oneOf(flag, allowed);
  return (value, previous) => [...previous, check(value)];
}

/** `--report junit=FILE` / `markdown=FILE`, shared by submit and compare. */
export function reportOption() {
  return new Option(
    '--report <format=file>',
    'Also write a CI report: junit=FILE (JUnit XML) or markdown=FILE (repeatable).',
  )
    .argParser(collectReport)
    .default([] as ReportTarget[]);
}
