import type { Argument, CommandUnknownOpts as Command, Option } from '@commander-js/extra-typings';
import { pathHint, suggestionsHint } from './hints.js';

/**
 * The command tree as plain data for the shell renderers: read from the commander definitions in program.ts, so a
 * flag or command added there shows up in every completion script without touching this folder.
 */

/** What to offer for a value: nothing (free text), paths, or a fixed list of words. */
export type ValueCompletion = { kind: 'none' } | { kind: 'file' } | { kind: 'directory' } | { kind: 'words'; words: string[] };

export interface OptionSpec {
  /** Short name first when there is one: `['-c', '--channel']`. */
  names: string[];
  description: string;
  /** Undefined for a flag that takes no value. */
  value: { name: string; optional: boolean; completion: ValueCompletion } | undefined;
  /** Accepted more than once (`--meta a=1 --meta b=2`). */
  repeatable: boolean;
}

export interface ArgumentSpec {
  name: string;
  required: boolean;
  variadic: boolean;
  completion: ValueCompletion;
}

export interface CommandSpec {
  name: string;
  /** Names from the root, without the program's: `['config', 'set']`; `[]` for the root. */
  path: string[];
  description: string;
  /** The command's own options, then those of its ancestors (commander accepts those after the subcommand). */
  options: OptionSpec[];
  args: ArgumentSpec[];
  subcommands: CommandSpec[];
}

export interface ModelOptions {
  /** Extra words for `simjob help <TAB>` besides the command names: `simjob help environment`. */
  helpTopics?: readonly string[];
}

const FILE_VALUE = /^(?:.*-)?(?:file|files|profile-file|profiles)$/;
const DIRECTORY_VALUE = /^(?:.*-)?(?:folder|dir|directory)$/;

export function commandModel(program: Command, opts: ModelOptions = {}): CommandSpec {
  return describe(program, [], [], opts);
}

function describe(command: Command, path: string[], inherited: OptionSpec[], opts: ModelOptions): CommandSpec {
  const help = command.createHelp();
  const isRoot = path.length === 0;
  const own = help.visibleOptions(command).map(optionSpec);
  // Ancestors' options apply below them, except --version, which only makes sense on its own.
  const passedDown = [...inherited, ...own.filter((o) => !(isRoot && o.names.includes('--version')))]
    .filter((o) => !o.names.includes('--help'));
  const children = help.visibleCommands(command);
  const siblingNames = children.map((c) => c.name()).filter((name) => name !== 'help');
  return {
    name: command.name(),
    path,
    description: firstLine(command.description()),
    options: [...own, ...inherited.filter((o) => !own.some((mine) => sameOption(mine, o)))],
    args: command.registeredArguments.map(argumentSpec),
    subcommands: children.map((child) => {
      const spec = describe(child, [...path, child.name()], passedDown, opts);
      // commander's own `help [command]`: offer the command names, and at the root the help topics too.
      if (isHelpCommand(command, child)) {
        const words = [...siblingNames, ...(isRoot ? opts.helpTopics ?? [] : [])];
        spec.args = spec.args.map((a) => ({ ...a, completion: { kind: 'words', words } }));
      }
      return spec;
    }),
  };
}

function optionSpec(option: Option): OptionSpec {
  const names = [option.short, option.long].filter((n): n is string => Boolean(n));
  const valueName = /[<[]([^>\]]+?)(?:\.\.\.)?[>\]]/.exec(option.flags)?.[1];
  return {
    names,
    description: firstLine(option.description),
    value: option.required || option.optional
      ? { name: valueName ?? 'value', optional: option.optional, completion: valueCompletion(option, valueName ?? '') }
      : undefined,
    repeatable: option.variadic || Array.isArray(option.defaultValue),
  };
}

function argumentSpec(argument: Argument): ArgumentSpec {
  return {
    name: argument.name(),
    required: argument.required,
    variadic: argument.variadic,
    completion: valueCompletion(argument, argument.name()),
  };
}

/** Choices, then explicit hints, then the placeholder's name (`<file>`, `<folder>`, `<profiles...>`). */
function valueCompletion(target: Option | Argument, valueName: string): ValueCompletion {
  if (target.argChoices?.length) return { kind: 'words', words: [...target.argChoices] };
  const suggested = suggestionsHint(target);
  if (suggested?.length) return { kind: 'words', words: [...suggested] };
  const hinted = pathHint(target);
  if (hinted) return { kind: hinted };
  if (FILE_VALUE.test(valueName)) return { kind: 'file' };
  if (DIRECTORY_VALUE.test(valueName)) return { kind: 'directory' };
  return { kind: 'none' };
}

function isHelpCommand(parent: Command, child: Command): boolean {
  return child.name() === 'help' && !parent.commands.includes(child);
}

function sameOption(a: OptionSpec, b: OptionSpec): boolean {
  return a.names.some((n) => b.names.includes(n));
}

function firstLine(text: string): string {
  return (text.split('\n')[0] ?? '').trim();
}

/** Every command in the tree, depth first (root included). */
export function allCommands(root: CommandSpec): CommandSpec[] {
  return [root, ...root.subcommands.flatMap(allCommands)];
}

/** The options of a command that take a value (their next word is not a command or argument). */
export function valuedOptionNames(command: CommandSpec): string[] {
  return command.options.filter((o) => o.value && !o.value.optional).flatMap((o) => o.names);
}

/** Single-quote for a POSIX shell (bash, zsh): ' becomes '\''. */
export function posixQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/** A name safe in a shell function or variable name. */
export function identifier(name: string): string {
  return name.replace(/[^A-Za-z0-9]/g, '_');
}
