import { allCommands, identifier, posixQuote as q, valuedOptionNames, type ArgumentSpec, type CommandSpec, type ValueCompletion } from './model.js';

/**
 * A static bash completion script: the tree is compiled into `case` tables, so a Tab press runs a few lines of
 * bash and never starts Node. Works with or without the bash-completion package (uses its _filedir when loaded).
 */
export function renderBash(root: CommandSpec, program: string): string {
  const fn = `_${identifier(program)}`;
  const commands = allCommands(root);
  const key = (c: CommandSpec) => [program, ...c.path].join(' ');

  const nodes = commands.map((c) => {
    const subs = c.subcommands.map((s) => s.name).join(' ');
    const opts = c.options.flatMap((o) => o.names).join(' ');
    const valued = valuedOptionNames(c).join(' ');
    return `    ${q(key(c))}) _sj_cmds=${q(subs)}; _sj_opts=${q(opts)}; _sj_valued=${q(` ${valued} `)} ;;`;
  });

  const values = commands.flatMap((c) =>
    c.options
      .filter((o) => o.value && o.value.completion.kind !== 'none')
      .map((o) => `    ${o.names.map((n) => q(`${key(c)} ${n}`)).join('|')}) ${action(fn, o.value!.completion)} ;;`),
  );

  const args = commands
    .filter((c) => c.args.some((a) => a.completion.kind !== 'none'))
    .map((c) => `    ${q(key(c))})\n      case "$2" in\n${argCases(fn, c.args)}\n      esac ;;`);

  return `# bash completion for ${program}. Generated from the command definitions (npm run completions); do not edit.
# Install:  ${program} completion bash > ~/.local/share/bash-completion/completions/${program}
#     or:   echo 'source <(${program} completion bash)' >> ~/.bashrc

# Sets _sj_cmds (subcommands), _sj_opts (options) and _sj_valued (options that take a value) for a command path.
${fn}_node() {
  case "$1" in
${nodes.join('\n')}
    *) _sj_cmds=''; _sj_opts=''; _sj_valued=' ' ;;
  esac
}

# Completes the value of option $2 of command path $1.
${fn}_value() {
  case "$1 $2" in
${values.join('\n')}
  esac
}

# Completes positional argument number $2 (from 0) of command path $1.
${fn}_arg() {
  case "$1" in
${args.join('\n')}
  esac
}

${fn}_words() {
  local IFS=$' \\t\\n'
  COMPREPLY=($(compgen -W "$1" -- "$cur"))
}

${fn}_paths() {
  if declare -F _filedir >/dev/null; then
    if [[ $1 == directory ]]; then _filedir -d; else _filedir; fi
    return
  fi
  compopt -o filenames 2>/dev/null
  local IFS=$'\\n'
  if [[ $1 == directory ]]; then COMPREPLY=($(compgen -d -- "$cur")); else COMPREPLY=($(compgen -f -- "$cur")); fi
}

${fn}() {
  local cur=\${COMP_WORDS[COMP_CWORD]} path=${q(program)} w valopt='' i skip=0 npos=0 dd=0
  local _sj_cmds _sj_opts _sj_valued
  COMPREPLY=()
  ${fn}_node "$path"
  for ((i = 1; i < COMP_CWORD; i++)); do
    w=\${COMP_WORDS[i]}
    if ((skip > 0)); then ((skip--)); continue; fi
    if ((dd)); then ((npos++)); continue; fi
    case $w in
      --) dd=1 ;;
      -*)
        # bash splits --opt=value at "=" (COMP_WORDBREAKS): skip the "=" and the value too.
        if [[ $_sj_valued == *" $w "* ]]; then
          valopt=$w; skip=1
          [[ \${COMP_WORDS[i+1]} == = ]] && skip=2
        fi ;;
      *)
        if ((npos == 0)) && [[ " $_sj_cmds " == *" $w "* ]]; then
          path="$path $w"; ${fn}_node "$path"
        else
          ((npos++))
        fi ;;
    esac
  done
  if ((skip > 0)); then
    [[ $cur == = ]] && cur=''
    ${fn}_value "$path" "$valopt"
  elif [[ $cur == -* ]] && ((!dd)); then
    ${fn}_words "$_sj_opts"
  elif ((npos == 0)) && [[ -n $_sj_cmds ]]; then
    ${fn}_words "$_sj_cmds"
  else
    ${fn}_arg "$path" "$npos"
  fi
  return 0
}

complete -F ${fn} ${program}
`;
}

function argCases(fn: string, args: ArgumentSpec[]): string {
  const lines: string[] = [];
  args.forEach((arg, index) => {
    if (arg.completion.kind === 'none') return;
    // A variadic argument (always the last) takes every position from its own on.
    if (arg.variadic && index === 0) lines.push(`        *) ${action(fn, arg.completion)} ;;`);
    else if (arg.variadic) lines.push(`        *) if (($2 >= ${index})); then ${action(fn, arg.completion)}; fi ;;`);
    else lines.push(`        ${index}) ${action(fn, arg.completion)} ;;`);
  });
  return lines.join('\n');
}

function action(fn: string, completion: ValueCompletion): string {
  switch (completion.kind) {
    case 'words':
      return `${fn}_words ${q(completion.words.join(' '))}`;
    case 'file':
    case 'directory':
      return `${fn}_paths ${completion.kind}`;
    default:
      return ':';
  }
}
