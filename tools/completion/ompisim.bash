# bash completion for ompisim. Subcommands (and a subcommand's own, as `machine template`), options and a positional's
# fixed choices (`schema scenario|result|...`, `list machines|stacks|...`) are read from the tool's own --help, so they
# never drift; `describe` completes every name it takes (`describe --names`: machines, components, benchmarks,
# collectives, stacks, topologies); scenario, grid and machine files complete as *.json.
# the options a --help text declares: the first word of each line of its Options: section (not an option named in a
# description or in the exit-status footer, which another subcommand takes)
_ompisim_options() {
  sed -n '/^Options:/,/^$/s/^  \(-[a-zA-Z],\)\{0,1\}\(--[a-z][a-z0-9-]*\).*/\2/p'
}
_ompisim() {
  local cur prev words cword
  _init_completion 2> /dev/null || { cur=${COMP_WORDS[COMP_CWORD]}; prev=${COMP_WORDS[COMP_CWORD-1]}; words=("${COMP_WORDS[@]}"); cword=$COMP_CWORD; }
  local tool=${words[0]} sub="" i
  for ((i = 1; i < cword; i++)); do
    case ${words[i]} in -*) ;; *) sub=${words[i]}; break ;; esac
  done
  if [[ -z $sub ]]; then
    local subs
    subs=$("$tool" --help 2> /dev/null | sed -n '/^Subcommands:/,/^$/s/^  \([a-z]*\) .*/\1/p')
    COMPREPLY=($(compgen -W "$subs $("$tool" --help 2> /dev/null | _ompisim_options)" -- "$cur"))
    return
  fi
  case $prev in
    --out) COMPREPLY=($(compgen -d -- "$cur")); return ;;
    --machine-file | --against) COMPREPLY=($(compgen -f -- "$cur")); return ;;
    --paper) COMPREPLY=($(compgen -W "$("$tool" list papers 2> /dev/null | sed -n 's/^  \([^ ]*\) .*/\1/p')" -- "$cur")); return ;;
    --like) COMPREPLY=($(compgen -W "$("$tool" list machines 2> /dev/null | sed -n 's/^  \([^ ]*\) .*/\1/p')" -- "$cur")); return ;;
  esac
  local help words_after=$((cword - i - 1))
  help=$("$tool" "$sub" --help 2> /dev/null)
  local nested choices
  nested=$(sed -n '/^Subcommands:/,/^$/s/^  \([a-z]*\) .*/\1/p' <<< "$help")
  if [[ -n $nested && $words_after -gt 0 ]]; then  # within `machine template`: its own options
    help=$("$tool" "$sub" "${words[i+1]}" --help 2> /dev/null); nested=""; words_after=$((words_after - 1))
  fi
  # a positional documented as "a | b | c" (schema's kind, list's category): its choices
  choices=$(sed -n '/^Positionals:/,/^$/s/^  [a-z]* TEXT[A-Z ]* \{2,\}\([a-z-]*\( | [a-z-]*\)\{1,\}\)$/\1/p' <<< "$help" | tr -d '|')
  if [[ $cur == -* ]]; then
    COMPREPLY=($(compgen -W "$(_ompisim_options <<< "$help")" -- "$cur"))
  elif [[ -n $nested && $words_after == 0 ]]; then
    COMPREPLY=($(compgen -W "$nested" -- "$cur"))
  elif [[ -n $choices && $words_after == 0 ]]; then
    COMPREPLY=($(compgen -W "$choices" -- "$cur"))
  elif [[ $sub == describe ]]; then
    COMPREPLY=($(compgen -W "$("$tool" describe --names 2> /dev/null)" -- "$cur"))
  else
    COMPREPLY=($(compgen -f -X '!*.json' -- "$cur") $(compgen -d -- "$cur"))
  fi
}
# the installed command, and the build tree's as the README calls it (bash matches a completion by the command as typed)
complete -F _ompisim ompisim build/bin/ompisim ./build/bin/ompisim
