#!/usr/bin/env bash
# Configuration: tools/completion/ompisim.bash (installed by setup.sh and `cmake --install`) sourced in bash, the
#                completion function called with the words a user has typed and the tool under test as `ompisim`.
# Expected:      subcommands and each subcommand's options complete from the tool's --help (the options its
#                Options: section declares, none that only a description or the footer names); `describe` completes
#                every kind of name it takes (machine, component, benchmark, collective, stack, topology: the output
#                of `describe --names`); it is registered for `ompisim` and `build/bin/ompisim` and setup.sh installs
#                it with bash-completion; `machine` completes its subcommand `template` and then template's own options
#                and, after --like, machine names; `schema` completes its kinds, `list` its categories; a scenario path
#                completes to its file.
# How validated: the COMPREPLY list for each typed line.
set -u
BIN=$(realpath "$1"); SRC=$(realpath "$2"); fail=0
cd "$SRC"
complete_line() {  # prints the completions of the words given (the last is the word being completed)
  bash -c 'source tools/completion/ompisim.bash; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _ompisim; echo "${COMPREPLY[*]}"' \
    _ "$BIN" "$@"
}
check() {  # check "typed words" "expected word" ...: each expected word is among the completions
  local typed=$1; shift
  read -r -a w <<< "$typed"; [[ $typed == *" " ]] && w+=("")
  local got; got=" $(complete_line "${w[@]}") "
  for e in "$@"; do
    [[ $got == *" $e "* ]] || { echo "FAIL '$typed': no '$e' in [$got]"; fail=1; return; }
  done
  echo "ok   '$typed' -> $got"
}
check_not() {  # check_not "typed words" "word" ...: no word given is among the completions
  local typed=$1; shift
  read -r -a w <<< "$typed"; [[ $typed == *" " ]] && w+=("")
  local got; got=" $(complete_line "${w[@]}") "
  for e in "$@"; do
    [[ $got != *" $e "* ]] || { echo "FAIL '$typed': '$e' offered in [$got]"; fail=1; return; }
  done
  echo "ok   '$typed' offers none of $*"
}
check "sw" sweep
check "--" --version --quiet --max-input-size --max-events
check "sweep --" --jobs --shard --merge
# only the options a subcommand declares: not one that its description or the exit-status footer names
check_not "run --" --tolerance --against --jobs
check_not "sweep --" --tolerance
check "run --tr" --trace --trace-window
check "describe ci" cielo
check "describe all" allreduce
check "describe tor" torus
check "describe btl/ug" btl/ugni
check "describe osu_lat" osu_latency
check "describe open" openmpi openmpi-cm
check "machine te" template
check "machine template --" --like --out
check "machine template mine --like ti" titan
# every machine `list machines` prints, and nothing from another category or a heading
check "machine template mine --like " cielo crusher frontier hetero-cpu titan
check_not "machine template mine --like " machines: gemini-xe-xk openmpi
check_not "validate --paper " papers cielo
check "validate --paper " gemini-xe-xk heterogeneous qsnet-elan4 seastar-portals slingshot-ex
check "calibrate --paper sea" seastar-portals
check "reproduce --paper q" qsnet-elan4
check "reproduce --" --paper --from --out
check "schema " scenario result grid sweep validation machine
check "list " machines components stacks engines nic-kinds topologies benchmarks collectives papers scenarios grids
check "list ni" nic-kinds
check "run scenarios/gemini/fig5_latency_2p_inter_o" scenarios/gemini/fig5_latency_2p_inter_openmpi.json
# registered for the command as the README types it, as well as the installed `ompisim`
for c in ompisim build/bin/ompisim ./build/bin/ompisim; do
  bash -c 'source tools/completion/ompisim.bash; complete -p "$1"' _ "$c" > /dev/null 2>&1 \
    && echo "ok   completion registered for $c" || { echo "FAIL no completion registered for $c"; fail=1; }
done
grep -q "^install -D -m 644 tools/completion/ompisim.bash /etc/bash_completion.d/ompisim " setup.sh \
  && grep -q "bash-completion" setup.sh && echo "ok   setup.sh installs bash-completion and the completion" \
  || { echo "FAIL setup.sh does not install the completion (with bash-completion, which reads it)"; fail=1; }
exit $fail
