# bash completion for simjob. Generated from the command definitions (npm run completions); do not edit.
# Install:  simjob completion bash > ~/.local/share/bash-completion/completions/simjob
#     or:   echo 'source <(simjob completion bash)' >> ~/.bashrc

# Sets _sj_cmds (subcommands), _sj_opts (options) and _sj_valued (options that take a value) for a command path.
_simjob_node() {
  case "$1" in
    'simjob') _sj_cmds='login logout config submit topgear droptimizer statweights status result compare report cancel jobs artifacts usage builds webhook completion doctor help'; _sj_opts='-v --version --json --no-color -q --quiet -d --debug -p --profile --base-url -h --help'; _sj_valued=' -p --profile --base-url ' ;;
    'simjob login') _sj_cmds=''; _sj_opts='--no-verify -h --help --json --no-color -q --quiet -d --debug -p --profile --base-url'; _sj_valued=' -p --profile --base-url ' ;;
    'simjob logout') _sj_cmds=''; _sj_opts='-h --help --json --no-color -q --quiet -d --debug -p --profile --base-url'; _sj_valued=' -p --profile --base-url ' ;;
    'simjob config') _sj_cmds='get set unset list help'; _sj_opts='-h --help --json --no-color -q --quiet -d --debug -p --profile --base-url'; _sj_valued=' -p --profile --base-url ' ;;
    'simjob config get') _sj_cmds=''; _sj_opts='-h --help --json --no-color -q --quiet -d --debug -p --profile --base-url'; _sj_valued=' -p --profile --base-url ' ;;
    'simjob config set') _sj_cmds=''; _sj_opts='-h --help --json --no-color -q --quiet -d --debug -p --profile --base-url'; _sj_valued=' -p --profile --base-url ' ;;
    'simjob config unset') _sj_cmds=''; _sj_opts='-h --help --json --no-color -q --quiet -d --debug -p --profile --base-url'; _sj_valued=' -p --profile --base-url ' ;;
    'simjob config list') _sj_cmds=''; _sj_opts='-h --help --json --no-color -q --quiet -d --debug -p --profile --base-url'; _sj_valued=' -p --profile --base-url ' ;;
    'simjob config help') _sj_cmds=''; _sj_opts='--json --no-color -q --quiet -d --debug -p --profile --base-url'; _sj_valued=' -p --profile --base-url ' ;;
    'simjob submit') _sj_cmds=''; _sj_opts='-c --channel --branch --multistage --max-runtime --max-queue --max-credits --priority --meta --webhook --html --csv --json-version --plain --idempotency-key --dry-run -w --wait --timeout --cancel-on-interrupt --top --local --simc --concurrency --scenario --scenarios --report -h --help --json --no-color -q --quiet -d --debug -p --profile --base-url'; _sj_valued=' -c --channel --branch --max-runtime --max-queue --max-credits --priority --meta --json-version --idempotency-key --timeout --top --simc --concurrency --scenario --scenarios --report -p --profile --base-url ' ;;
    'simjob topgear') _sj_cmds=''; _sj_opts='--slots --talents --max-combos --target-error -o --output --no-multistage --dry-run -c --channel --branch --max-runtime --max-queue --max-credits --priority --meta --webhook --html --csv --json-version --plain --idempotency-key -w --wait --timeout --cancel-on-interrupt --top --local --simc --scenario --scenarios --report -h --help --json --no-color -q --quiet -d --debug -p --profile --base-url'; _sj_valued=' --slots --talents --max-combos --target-error -o --output -c --channel --branch --max-runtime --max-queue --max-credits --priority --meta --json-version --idempotency-key --timeout --top --simc --scenario --scenarios --report -p --profile --base-url ' ;;
    'simjob droptimizer') _sj_cmds=''; _sj_opts='--instance --source --difficulty --keystone --upgraded --all-items --catalog -o --output --report --no-multistage --dry-run -c --channel --branch --max-runtime --max-queue --max-credits --priority --meta --webhook --html --csv --json-version --plain --idempotency-key -w --wait --timeout --cancel-on-interrupt --top --local --simc --concurrency --scenario --scenarios -h --help --json --no-color -q --quiet -d --debug -p --profile --base-url'; _sj_valued=' --instance --source --difficulty --keystone --catalog -o --output --report -c --channel --branch --max-runtime --max-queue --max-credits --priority --meta --json-version --idempotency-key --timeout --top --simc --concurrency --scenario --scenarios -p --profile --base-url ' ;;
    'simjob statweights') _sj_cmds=''; _sj_opts='--stats --method --amount --target-error -o --output -c --channel --branch --max-runtime --max-queue --max-credits --priority --meta --webhook --html --csv --json-version --idempotency-key --dry-run -w --wait --timeout --cancel-on-interrupt --top --local --simc --concurrency --scenario --scenarios --report -h --help --json --no-color -q --quiet -d --debug -p --profile --base-url'; _sj_valued=' --stats --method --amount --target-error -o --output -c --channel --branch --max-runtime --max-queue --max-credits --priority --meta --json-version --idempotency-key --timeout --top --simc --concurrency --scenario --scenarios --report -p --profile --base-url ' ;;
    'simjob status') _sj_cmds=''; _sj_opts='-w --wait --timeout --cancel-on-interrupt --top -h --help --json --no-color -q --quiet -d --debug -p --profile --base-url'; _sj_valued=' --timeout --top -p --profile --base-url ' ;;
    'simjob result') _sj_cmds=''; _sj_opts='--top --all -h --help --json --no-color -q --quiet -d --debug -p --profile --base-url'; _sj_valued=' --top -p --profile --base-url ' ;;
    'simjob compare') _sj_cmds=''; _sj_opts='--top --all --fail-on-regression --allow-failed --report -h --help --json --no-color -q --quiet -d --debug -p --profile --base-url'; _sj_valued=' --top --fail-on-regression --report -p --profile --base-url ' ;;
    'simjob report') _sj_cmds=''; _sj_opts='-o --output --open --top -h --help --json --no-color -q --quiet -d --debug -p --profile --base-url'; _sj_valued=' -o --output --top -p --profile --base-url ' ;;
    'simjob cancel') _sj_cmds=''; _sj_opts='-h --help --json --no-color -q --quiet -d --debug -p --profile --base-url'; _sj_valued=' -p --profile --base-url ' ;;
    'simjob jobs') _sj_cmds=''; _sj_opts='-L --limit --cursor --all --local -h --help --json --no-color -q --quiet -d --debug -p --profile --base-url'; _sj_valued=' -L --limit --cursor -p --profile --base-url ' ;;
    'simjob artifacts') _sj_cmds=''; _sj_opts='--download -k --kind -o --dir --clobber --skip-existing -h --help --json --no-color -q --quiet -d --debug -p --profile --base-url'; _sj_valued=' -k --kind -o --dir -p --profile --base-url ' ;;
    'simjob usage') _sj_cmds=''; _sj_opts='--local -h --help --json --no-color -q --quiet -d --debug -p --profile --base-url'; _sj_valued=' -p --profile --base-url ' ;;
    'simjob builds') _sj_cmds=''; _sj_opts='--local -h --help --json --no-color -q --quiet -d --debug -p --profile --base-url'; _sj_valued=' -p --profile --base-url ' ;;
    'simjob webhook') _sj_cmds='verify listen secret help'; _sj_opts='-h --help --json --no-color -q --quiet -d --debug -p --profile --base-url'; _sj_valued=' -p --profile --base-url ' ;;
    'simjob webhook verify') _sj_cmds=''; _sj_opts='--body-file --signature --secret-file --tolerance -h --help --json --no-color -q --quiet -d --debug -p --profile --base-url'; _sj_valued=' --body-file --signature --secret-file --tolerance -p --profile --base-url ' ;;
    'simjob webhook listen') _sj_cmds=''; _sj_opts='--port --path --exec --forward-to --max-events --secret-file --tolerance -h --help --json --no-color -q --quiet -d --debug -p --profile --base-url'; _sj_valued=' --port --path --exec --forward-to --max-events --secret-file --tolerance -p --profile --base-url ' ;;
    'simjob webhook secret') _sj_cmds='set unset help'; _sj_opts='-h --help --json --no-color -q --quiet -d --debug -p --profile --base-url'; _sj_valued=' -p --profile --base-url ' ;;
    'simjob webhook secret set') _sj_cmds=''; _sj_opts='-h --help --json --no-color -q --quiet -d --debug -p --profile --base-url'; _sj_valued=' -p --profile --base-url ' ;;
    'simjob webhook secret unset') _sj_cmds=''; _sj_opts='-h --help --json --no-color -q --quiet -d --debug -p --profile --base-url'; _sj_valued=' -p --profile --base-url ' ;;
    'simjob webhook secret help') _sj_cmds=''; _sj_opts='--json --no-color -q --quiet -d --debug -p --profile --base-url'; _sj_valued=' -p --profile --base-url ' ;;
    'simjob webhook help') _sj_cmds=''; _sj_opts='--json --no-color -q --quiet -d --debug -p --profile --base-url'; _sj_valued=' -p --profile --base-url ' ;;
    'simjob completion') _sj_cmds=''; _sj_opts='-h --help --json --no-color -q --quiet -d --debug -p --profile --base-url'; _sj_valued=' -p --profile --base-url ' ;;
    'simjob doctor') _sj_cmds=''; _sj_opts='-h --help --json --no-color -q --quiet -d --debug -p --profile --base-url'; _sj_valued=' -p --profile --base-url ' ;;
    'simjob help') _sj_cmds=''; _sj_opts='--json --no-color -q --quiet -d --debug -p --profile --base-url'; _sj_valued=' -p --profile --base-url ' ;;
    *) _sj_cmds=''; _sj_opts=''; _sj_valued=' ' ;;
  esac
}

# Completes the value of option $2 of command path $1.
_simjob_value() {
  case "$1 $2" in
    'simjob submit -c'|'simjob submit --channel') _simjob_words 'nightly weekly latest' ;;
    'simjob submit --branch') _simjob_words 'midnight' ;;
    'simjob submit --priority') _simjob_words 'background standard high' ;;
    'simjob submit --json-version') _simjob_words '2 3' ;;
    'simjob submit --simc') _simjob_paths file ;;
    'simjob submit --scenarios') _simjob_words 'raid targets movement length dungeon' ;;
    'simjob topgear --talents') _simjob_words 'active all' ;;
    'simjob topgear -o'|'simjob topgear --output') _simjob_paths file ;;
    'simjob topgear -c'|'simjob topgear --channel') _simjob_words 'nightly weekly latest' ;;
    'simjob topgear --branch') _simjob_words 'midnight' ;;
    'simjob topgear --priority') _simjob_words 'background standard high' ;;
    'simjob topgear --json-version') _simjob_words '2 3' ;;
    'simjob topgear --simc') _simjob_paths file ;;
    'simjob topgear --scenarios') _simjob_words 'raid targets movement length dungeon' ;;
    'simjob droptimizer --source') _simjob_words 'raid dungeons vault' ;;
    'simjob droptimizer --difficulty') _simjob_words 'lfr normal heroic mythic' ;;
    'simjob droptimizer --catalog') _simjob_paths file ;;
    'simjob droptimizer -o'|'simjob droptimizer --output') _simjob_paths file ;;
    'simjob droptimizer -c'|'simjob droptimizer --channel') _simjob_words 'nightly weekly latest' ;;
    'simjob droptimizer --branch') _simjob_words 'midnight' ;;
    'simjob droptimizer --priority') _simjob_words 'background standard high' ;;
    'simjob droptimizer --json-version') _simjob_words '2 3' ;;
    'simjob droptimizer --simc') _simjob_paths file ;;
    'simjob droptimizer --scenarios') _simjob_words 'raid targets movement length dungeon' ;;
    'simjob statweights --method') _simjob_words 'profilesets scale' ;;
    'simjob statweights -o'|'simjob statweights --output') _simjob_paths file ;;
    'simjob statweights -c'|'simjob statweights --channel') _simjob_words 'nightly weekly latest' ;;
    'simjob statweights --branch') _simjob_words 'midnight' ;;
    'simjob statweights --priority') _simjob_words 'background standard high' ;;
    'simjob statweights --json-version') _simjob_words '2 3' ;;
    'simjob statweights --simc') _simjob_paths file ;;
    'simjob statweights --scenarios') _simjob_words 'raid targets movement length dungeon' ;;
    'simjob report -o'|'simjob report --output') _simjob_paths file ;;
    'simjob artifacts -o'|'simjob artifacts --dir') _simjob_paths directory ;;
    'simjob webhook verify --body-file') _simjob_paths file ;;
    'simjob webhook verify --secret-file') _simjob_paths file ;;
    'simjob webhook listen --secret-file') _simjob_paths file ;;
  esac
}

# Completes positional argument number $2 (from 0) of command path $1.
_simjob_arg() {
  case "$1" in
    'simjob config get')
      case "$2" in
        0) _simjob_words 'base_url channel priority output simc.path simc.nightly simc.weekly simc.latest local.concurrency webhook.url' ;;
      esac ;;
    'simjob config set')
      case "$2" in
        0) _simjob_words 'base_url channel priority output simc.path simc.nightly simc.weekly simc.latest local.concurrency webhook.url' ;;
      esac ;;
    'simjob config unset')
      case "$2" in
        0) _simjob_words 'base_url channel priority output simc.path simc.nightly simc.weekly simc.latest local.concurrency webhook.url' ;;
      esac ;;
    'simjob config help')
      case "$2" in
        0) _simjob_words 'get set unset list' ;;
      esac ;;
    'simjob submit')
      case "$2" in
        *) _simjob_paths file ;;
      esac ;;
    'simjob report')
      case "$2" in
        *) _simjob_paths file ;;
      esac ;;
    'simjob webhook secret help')
      case "$2" in
        0) _simjob_words 'set unset' ;;
      esac ;;
    'simjob webhook help')
      case "$2" in
        0) _simjob_words 'verify listen secret' ;;
      esac ;;
    'simjob completion')
      case "$2" in
        0) _simjob_words 'bash zsh fish' ;;
      esac ;;
    'simjob help')
      case "$2" in
        0) _simjob_words 'login logout config submit topgear droptimizer statweights status result compare report cancel jobs artifacts usage builds webhook completion doctor environment exit-codes' ;;
      esac ;;
  esac
}

_simjob_words() {
  local IFS=$' \t\n'
  COMPREPLY=($(compgen -W "$1" -- "$cur"))
}

_simjob_paths() {
  if declare -F _filedir >/dev/null; then
    if [[ $1 == directory ]]; then _filedir -d; else _filedir; fi
    return
  fi
  compopt -o filenames 2>/dev/null
  local IFS=$'\n'
  if [[ $1 == directory ]]; then COMPREPLY=($(compgen -d -- "$cur")); else COMPREPLY=($(compgen -f -- "$cur")); fi
}

_simjob() {
  local cur=${COMP_WORDS[COMP_CWORD]} path='simjob' w valopt='' i skip=0 npos=0 dd=0
  local _sj_cmds _sj_opts _sj_valued
  COMPREPLY=()
  _simjob_node "$path"
  for ((i = 1; i < COMP_CWORD; i++)); do
    w=${COMP_WORDS[i]}
    if ((skip > 0)); then ((skip--)); continue; fi
    if ((dd)); then ((npos++)); continue; fi
    case $w in
      --) dd=1 ;;
      -*)
        # bash splits --opt=value at "=" (COMP_WORDBREAKS): skip the "=" and the value too.
        if [[ $_sj_valued == *" $w "* ]]; then
          valopt=$w; skip=1
          [[ ${COMP_WORDS[i+1]} == = ]] && skip=2
        fi ;;
      *)
        if ((npos == 0)) && [[ " $_sj_cmds " == *" $w "* ]]; then
          path="$path $w"; _simjob_node "$path"
        else
          ((npos++))
        fi ;;
    esac
  done
  if ((skip > 0)); then
    [[ $cur == = ]] && cur=''
    _simjob_value "$path" "$valopt"
  elif [[ $cur == -* ]] && ((!dd)); then
    _simjob_words "$_sj_opts"
  elif ((npos == 0)) && [[ -n $_sj_cmds ]]; then
    _simjob_words "$_sj_cmds"
  else
    _simjob_arg "$path" "$npos"
  fi
  return 0
}

complete -F _simjob simjob
