import { allCommands, identifier, valuedOptionNames, type CommandSpec, type OptionSpec, type ValueCompletion } from './model.js';

/**
 * A static fish completion file: `complete` lines guarded by a small walker (`__simjob_state`) that reads the
 * command path and the number of positional words before the cursor, so nested groups (`config set`) work.
 */
export function renderFish(root: CommandSpec, program: string): string {
  const id = identifier(program);
  const state = `__${id}_state`;
  const commands = allCommands(root);
  const key = (c: CommandSpec) => c.path.join(' ');

  const cmdCases = commands
    .filter((c) => c.subcommands.length)
    .map((c) => `        case ${q(key(c))}\n            printf '%s\\n' ${c.subcommands.map((s) => q(s.name)).join(' ')}`);
  const valuedCases = commands
    .map((c) => ({ c, names: valuedOptionNames(c) }))
    .filter(({ names }) => names.length)
    .map(({ c, names }) => `        case ${q(key(c))}\n            printf '%s\\n' ${names.map(q).join(' ')}`);

  const lines: string[] = [];
  for (const c of commands) {
    const at = `${state} ${q(key(c))}`;
    for (const s of c.subcommands) {
      lines.push(`complete -c ${program} -n ${q(`${at} 0`)} -a ${q(s.name)} -d ${q(s.description)}`);
    }
    for (const o of c.options) lines.push(optionLine(program, at, o));
    c.args.forEach((a, index) => {
      if (a.completion.kind === 'none') return;
      const position = a.variadic ? `${index}+` : String(index);
      lines.push(`complete -c ${program} -n ${q(`${at} ${position}`)}${valueFlags(a.completion)} -d ${q(a.name)}`);
    });
  }

  return `# fish completion for ${program}. Generated from the command definitions (npm run completions); do not edit.
# Install:  ${program} completion fish > ~/.config/fish/completions/${program}.fish

# Subcommands of a command path.
function __${id}_cmds
    switch "$argv"
${cmdCases.join('\n')}
    end
end

# Options of a command path that take a value (the next word is their value).
function __${id}_valued
    switch "$argv"
${valuedCases.join('\n')}
    end
end

# True when the words before the cursor are command path $argv[1] followed by $argv[2] positional words
# ("N+" for N or more; no second argument: any number).
function ${state}
    set -l words (commandline -opc)
    set -e words[1]
    set -l path
    set -l npos 0
    set -l skip 0
    set -l dd 0
    for w in $words
        if test $skip -eq 1
            set skip 0
        else if test $dd -eq 1
            set npos (math $npos + 1)
        else if test "$w" = --
            set dd 1
        else if string match -q -- '-*' $w
            contains -- $w (__${id}_valued $path); and set skip 1
        else if test $npos -eq 0; and contains -- $w (__${id}_cmds $path)
            set -a path $w
        else
            set npos (math $npos + 1)
        end
    end
    test "$path" = "$argv[1]"; or return 1
    set -q argv[2]; or return 0
    if string match -q -- '*+' $argv[2]
        test $npos -ge (string trim -r -c + -- $argv[2])
    else
        test $npos -eq $argv[2]
    end
end

# No file names unless a command or option asks for them.
complete -c ${program} -f
${lines.join('\n')}
`;
}

function optionLine(program: string, at: string, o: OptionSpec): string {
  const names = o.names.map((n) => (n.startsWith('--') ? ` -l ${q(n.slice(2))}` : ` -s ${q(n.slice(1))}`)).join('');
  const value = o.value ? valueFlags(o.value.completion, true) : '';
  return `complete -c ${program} -n ${q(at)}${names}${value} -d ${q(o.description)}`;
}

/** -r: takes a value; -F: file names; -f: none; -a: these words. */
function valueFlags(completion: ValueCompletion, option = false): string {
  const r = option ? ' -r' : '';
  switch (completion.kind) {
    case 'words':
      return `${r} -f -a ${q(completion.words.join(' '))}`;
    case 'file':
      return `${r} -F`;
    case 'directory':
      return `${r} -f -a '(__fish_complete_directories (commandline -ct))'`;
    default:
      return `${r} -f`;
  }
}

/** Single-quote for fish (only \\ and ' are special inside). */
function q(text: string): string {
  return `'${text.replace(/[\\']/g, '\\$&')}'`;
}
