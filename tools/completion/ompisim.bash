# bash completion for ompisim. Subcommands and options are read from the tool's own --help, so they never drift;
# scenario, grid and machine files complete as *.json, machine names after --machine and `describe`.
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
    COMPREPLY=($(compgen -W "$subs --help --version --quiet --max-input-size" -- "$cur"))
    return
  fi
  case $prev in
    --out) COMPREPLY=($(compgen -d -- "$cur")); return ;;
    --machine-file | --against) COMPREPLY=($(compgen -f -- "$cur")); return ;;
  esac
  if [[ $cur == -* ]]; then
    COMPREPLY=($(compgen -W "$("$tool" "$sub" --help 2> /dev/null | grep -o -- '--[a-z][a-z0-9-]*' | sort -u)" -- "$cur"))
  elif [[ $sub == describe ]]; then
    COMPREPLY=($(compgen -W "$("$tool" list 2> /dev/null | sed -n '/^machines:/,/^[a-z]/s/^  \([^ ]*\) .*/\1/p')" -- "$cur"))
  else
    COMPREPLY=($(compgen -f -X '!*.json' -- "$cur") $(compgen -d -- "$cur"))
  fi
}
complete -F _ompisim ompisim
