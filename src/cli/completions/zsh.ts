import { allCommands, identifier, posixQuote as q, type ArgumentSpec, type CommandSpec, type OptionSpec, type ValueCompletion } from './model.js';

/**
 * A static zsh completion function (`_simjob`, for a directory on $fpath): one `_arguments` call per command,
 * with descriptions, value lists and file completion. Groups hand the rest of the line to their subcommand's
 * function, as zsh's own completions for git-like tools do.
 */
export function renderZsh(root: CommandSpec, program: string): string {
  const fnName = (c: CommandSpec) => `_${identifier([program, ...c.path].join('_'))}`;
  const functions = allCommands(root).map((c) => renderCommand(c, fnName, program));
  return `#compdef ${program}
# zsh completion for ${program}. Generated from the command definitions (npm run completions); do not edit.
# Install:  ${program} completion zsh > "\${fpath[1]}/_${program}"   (then start a new shell; needs compinit)
#     or:   echo 'source <(${program} completion zsh)' >> ~/.zshrc   (after compinit)

${functions.join('\n\n')}

if [[ $funcstack[1] == ${fnName(root)} ]]; then
  # Autoloaded from $fpath: this file is the body of ${fnName(root)}; run the definition just made.
  ${fnName(root)} "$@"
else
  # Sourced: register it.
  compdef ${fnName(root)} ${program}
fi
`;
}

function renderCommand(c: CommandSpec, fnName: (c: CommandSpec) => string, program: string): string {
  const specs = c.options.map(optionSpec);
  const lines = [`${fnName(c)}() {`];
  if (c.subcommands.length) {
    const list = c.subcommands.map((s) => q(`${s.name.replace(/:/g, '\\:')}:${s.description}`)).join(' ');
    const dispatch = c.subcommands.map((s) => `      (${s.name}) ${fnName(s)} && ret=0 ;;`);
    lines.push(
      '  local curcontext="$curcontext" state state_descr line ret=1',
      '  typeset -A opt_args',
      `  _arguments -C -s -S \\`,
      ...specs.map((s) => `    ${s} \\`),
      `    '1: :->command' \\`,
      `    '*:: :->args' && ret=0`,
      '  case $state in',
      '    (command)',
      `      local -a commands=(${list})`,
      `      _describe -t commands ${q([...c.path, 'command'].join(' '))} commands && ret=0 ;;`,
      '    (args)',
      // The zstyle context of the subcommand, e.g. :completion::complete:simjob-config-set:.
      `      curcontext="\${curcontext%:*:*}:${[program, ...c.path].join('-')}-$words[1]:"`,
      '      case $words[1] in',
      ...dispatch,
      '      esac ;;',
      '  esac',
      '  return ret',
    );
  } else {
    const args = c.args.map(argumentSpec);
    const all = [...specs, ...args];
    lines.push(`  _arguments -s -S${all.length ? ' \\' : ''}`, ...all.map((s, i) => `    ${s}${i < all.length - 1 ? ' \\' : ''}`));
  }
  lines.push('}');
  return lines.join('\n');
}

function optionSpec(o: OptionSpec): string {
  const exclusive = o.repeatable ? "'*'" : o.names.length > 1 ? q(`(${o.names.join(' ')})`) : '';
  // Long options take their value as the next word or after "=" (as commander does).
  const names = o.names.map((n) => (o.value && n.startsWith('--') ? `${n}=` : n));
  const spelled = names.length > 1 ? `{${names.join(',')}}` : names[0];
  const value = o.value ? `:${escape(o.value.name)}:${action(o.value.completion)}` : '';
  return `${exclusive}${spelled}${q(`[${escape(o.description)}]${value}`)}`;
}

function argumentSpec(a: ArgumentSpec, index: number): string {
  const position = a.variadic ? '*' : `${index + 1}${a.required ? '' : ':'}`;
  return q(`${position}:${escape(a.name)}:${action(a.completion)}`);
}

function action(completion: ValueCompletion): string {
  switch (completion.kind) {
    case 'words':
      return `(${completion.words.map((w) => w.replace(/([\\ ():])/g, '\\$1')).join(' ')})`;
    case 'file':
      return '_files';
    case 'directory':
      return '_files -/';
    default:
      return ' ';
  }
}

/** Text inside an _arguments spec: brackets and colons are syntax there. */
function escape(text: string): string {
  return text.replace(/([\\[\]:])/g, '\\$1');
}
