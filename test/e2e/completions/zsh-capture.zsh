#!/usr/bin/env zsh
# Drive zsh's real completion system on a pseudo-terminal and print the matches it would offer, one per line.
#   zsh -f zsh-capture.zsh <folder with _simjob> '<command line up to the cursor>' [source]
# With "source", the script is sourced after compinit (the `source <(simjob completion zsh)` install) instead of
# autoloaded from $fpath.
# How: an interactive `zsh -f` runs under zpty with compinit loaded from that folder; Tab is bound to
# complete-word; compadd is wrapped so every match the completion functions add is printed between two markers,
# and the shell exits after the first completion. (The technique of Valodim's zsh-capture-completion.)
emulate -L zsh
zmodload zsh/zpty || { print -u2 'zsh/zpty is not available'; exit 3 }
local dir=$1 cmdline=$2 how=${3:-fpath} init=${TMPDIR:-/tmp}/simjob-zsh-capture.$$.zsh
# Gone however the script ends (a shell that did not start, no completion, a kill by the test's timeout).
trap 'rm -f $init $init.dump' EXIT INT TERM

if [[ $how == source ]]; then
  cat > $init <<INIT
PS1='' PROMPT='' RPROMPT='' PROMPT_EOL_MARK=''
autoload -Uz compinit && compinit -u -d ${(q)init}.dump
source ${(q)dir}/_simjob
INIT
else
  cat > $init <<INIT
PS1='' PROMPT='' RPROMPT='' PROMPT_EOL_MARK=''
fpath=(${(q)dir} \$fpath)
autoload -Uz compinit && compinit -u -d ${(q)init}.dump
INIT
fi
cat >> $init <<INIT
bindkey '^I' complete-word
zstyle ':completion:*' list-grouped false
zstyle ':completion:*' insert-tab false
zstyle ':completion:*' menu no
INIT
cat >> $init <<'INIT'
_capture_begin() { print -r -- '<<BEGIN>>' }
_capture_end() { print -r -- '<<END>>'; exit 0 }
compprefuncs=(_capture_begin)
comppostfuncs=(_capture_end)
compadd() {
  # Calls that only fetch or test matches (-O, -A, -D) are not additions.
  if [[ ${@[1,(i)(-|--)]} == *-(O|A|D)\ * ]]; then builtin compadd "$@"; return; fi
  local -a __hits __apre __hpre
  builtin compadd -A __hits "$@"
  zparseopts -E P:=__apre p:=__hpre
  local h
  for h in $__hits; do print -r -- "MATCH:${__apre[2]}${__hpre[2]}$h"; done
  builtin compadd "$@"
}
print -r -- '<<READY>>'
INIT

zpty z zsh -f -i
zpty -w z "source ${(q)init}"
local out
zpty -r z out '*<<READY>>*' || { print -u2 'zsh did not start'; exit 2 }
zpty -w -n z "$cmdline"$'\t'
zpty -r z out '*<<END>>*' || { print -u2 'no completion happened'; exit 2 }
zpty -d z
local line
for line in ${(f)out}; do
  line=${line%$'\r'}
  [[ $line == MATCH:* ]] && print -r -- ${line#MATCH:}
done
exit 0
