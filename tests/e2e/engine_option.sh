#!/usr/bin/env bash
# Configuration: `--engine foo` on every subcommand that takes it (run, sweep, compare --against), and --engine on
#                compare without --against.
# Expected:      exit 2, nothing run or written, one line in the form of every bad option value ("--trace-window: key
#                'x': ...", "--max-events 'x': ..."): the option, the value as given and the engines there are.
# How validated: exit status, the exact stderr line, the folder left empty.
set -u
BIN=$(realpath "$1"); SRC=$(cd "$(dirname "$0")/../.." && pwd); t=$(mktemp -d); trap 'rm -rf "$t"' EXIT; fail=0
mkdir "$t/cwd"; cd "$t/cwd"
engines="expected one of simgrid, des, fluid, lmm (ompisim list)"
check() {  # NAME EXPECTED-STDERR -- ARGS...
  local name=$1 want=$2; shift 3
  "$BIN" "$@" > "$t/out" 2> "$t/err"; local rc=$?
  local err; err=$(cat "$t/err")
  if [[ $rc == 2 && "$err" == "$want" && -z "$(ls -A)" ]]; then echo "ok   $name: $err"
  else echo "FAIL $name: exit $rc, stderr: $err, files: $(ls -A | tr '\n' ' ')"; fail=1; fi
}
check "run --engine foo" "ompisim: error: --engine 'foo': $engines" \
  -- run "$SRC/scenarios/gemini/fig5_latency_2p_inter_native.json" --engine foo
check "sweep --engine foo" "ompisim: error: --engine 'foo': $engines" \
  -- sweep "$SRC/scenarios/examples/grid_ugni_smsg_bte.json" --engine foo
check "compare --against --engine foo" "ompisim: error: --engine 'foo': $engines" \
  -- compare --against "$SRC/results" --only gemini/fig5_latency_2p_inter_native --engine foo
check "compare --engine without --against" "ompisim: error: --engine 'des': applies to --against only" \
  -- compare a b --engine des
exit $fail
