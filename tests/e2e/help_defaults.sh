#!/usr/bin/env bash
# Configuration: the --help of the tool and of its subcommands.
# Expected:      an option that takes a value and has a default says it, with the value the code uses (sweep -j 1,
#                validate --samples 4, sensitivity --step 0.01, calibrate --paper gemini-xe-xk and --machine the paper's
#                calibration machine, reproduce --out the committed results, --max-events no limit, --max-input-size
#                4 MiB); reproduce's summary names an installed tool's default folder; an option error echoes the value as given (sensitivity --step 0: key '0', not '0.000000');
#                the exit status footer names every subcommand that exits 1 (compare too); no help text names a source
#                file (an installed tool has none, and the man page is made from these texts); describe's NAME help is
#                its own text, and NAME with --names is refused naming both.
# How validated: grep on each option's help entry (continuation lines joined) and on the error line.
set -u
BIN=$1; fail=0
entry() {  # SUBCOMMAND... OPTION: the option's help entry on one line
  local opt=${*: -1}; local cmd=("${@:1:$#-1}")
  "$BIN" "${cmd[@]}" --help | awk -v o="$opt" '/^  -/ {p = index($0, o) > 0} p' | tr -s ' \n' ' '
}
want() {  # TEXT SUBCOMMAND... OPTION
  local text=$1; shift
  local e; e=$(entry "$@")
  if [[ $e == *"$text"* ]]; then echo "ok   $*: $text"; else echo "FAIL $* does not say '$text': $e"; fail=1; fi
}
want "default 1" sweep --jobs
want "default 4" validate --samples
want "default 0.01" sensitivity --step
want "default gemini-xe-xk" calibrate --paper
want "the one the paper's calibration points run on, which is the default" calibrate --machine
want "default: results/" reproduce --out
want "default: no limit" --max-events
want "default 4194304 (4 MiB)" --max-input-size
# `list` names the papers --paper takes: the same names as validate's error for an unknown paper
listed=$("$BIN" list | sed -n '/^papers /,/^[a-z]/s/^  \([^ ]*\) .*/\1/p' | tr '\n' ' ')
taken=$("$BIN" validate --paper nopaper 2>&1 | sed -n 's/.*(papers: \(.*\))$/\1/p' | tr -d ',')
[[ -n $listed && "$listed" == "$taken " ]] && echo "ok   list's papers: $listed" \
  || { echo "FAIL list's papers '$listed' against validate --paper's '$taken'"; fail=1; }
# the tool's --help names the environment variable it reads (OMPISIM_DATA), as the README does
"$BIN" --help | grep -q "^Environment: OMPISIM_DATA" && echo "ok   --help names OMPISIM_DATA" \
  || { echo "FAIL --help does not name OMPISIM_DATA"; fail=1; }
# the summary of reproduce in the tool's --help (and the man page's list) says where an installed tool writes, as
# reproduce --out's help does, not "into results/" alone
sum=$("$BIN" --help | awk '/^  reproduce / {p=1} /^  [a-z]+ / && !/^  reproduce / {p=0} p' | tr -s ' \n' ' ')
[[ $sum == *"--out"* && $sum == *"ompisim-out/reproduce/"* ]] && echo "ok   reproduce's summary: $sum" \
  || { echo "FAIL reproduce's summary does not say where an installed tool writes: $sum"; fail=1; }
err=$("$BIN" sensitivity scenarios/gemini/fig5_latency_2p_inter_openmpi.json --step 0 2>&1 > /dev/null)
[[ $err == "ompisim: error: --step '0': must be in [1e-06, 1): "* ]] && echo "ok   $err" || { echo "FAIL --step 0: $err"; fail=1; }
foot=$("$BIN" compare --help | tr -s ' \n' ' ')
[[ $foot == *"1 outside tolerance"*compare* ]] && echo "ok   the exit status footer names compare's exit 1" \
  || { echo "FAIL the exit status footer does not name compare: ${foot##*Exit status}"; fail=1; }
mapfile -t subs < <("$BIN" --help | sed -n '/^Subcommands:/,/^$/s/^  \([a-z]*\) .*/\1/p')
[[ ${#subs[@]} -ge 11 ]] || { echo "FAIL only ${#subs[@]} subcommands read from --help"; fail=1; }
for sub in "" "${subs[@]}" "machine template"; do
  # shellcheck disable=SC2086
  src=$("$BIN" $sub --help | grep -oE '\b[a-z_]+/[a-z_]+\.(hpp|cpp|h)\b' | sort -u | tr '\n' ' ')
  [[ -z $src ]] && echo "ok   ${sub:-ompisim} --help names no source file" || { echo "FAIL ${sub:-ompisim} --help names source files: $src"; fail=1; }
done
# describe's NAME: its help is its own text, without CLI11's "Excludes: --names" inside it; NAME with --names is
# refused, exit 2, naming both
pos=$("$BIN" describe --help | awk '/^Positionals:/ {p=1; next} /^Options:/ {p=0} p' | tr -s ' \n' ' ')
[[ $pos == *"name TEXT machine, component"* && $pos != *Excludes* ]] && echo "ok   describe NAME's help is its own text" \
  || { echo "FAIL describe NAME's help: $pos"; fail=1; }
err=$("$BIN" describe cielo --names 2>&1 > /dev/null); rc=$?
[[ $rc == 2 && $err == *"--names 'cielo'"*"without a NAME"* ]] && echo "ok   describe NAME --names: $err" \
  || { echo "FAIL describe NAME --names: rc=$rc $err"; fail=1; }
exit $fail
