#!/usr/bin/env bash
# Configuration: options a subcommand does not have, as a new user types them: `run ... --plto x.svg`, `run ...
#                --jsno`, `machine template x --outt DIR` (misspelled), `sweep GRID --plot` (an option of `run`, not
#                of `sweep`), `run ... --bogus=3`; a value CLI11 refuses (`sweep -j 0`,
#                `validate --samples x`, `run ... --out` without one); `ompisim` alone and `ompisim --quiet` (no subcommand);
#                two key=value after one --set, a --set before the scenario; `help`, `help SUBCOMMAND`, misspelt.
# Expected:      exit 2, nothing run, one line naming the subcommand and the option, the option meant when the
#                spelling is close (--plot, --json, --out) and otherwise the subcommand's options (not a guess:
#                `sweep --plot` is not `--out`), and the subcommand's own help (`ompisim run --help`); without a
#                subcommand, the subcommands there are.
# How validated: exit status and stderr text.
set -u
BIN=$(realpath "$1"); t=$(mktemp -d); trap 'rm -rf "$t"' EXIT; fail=0
cd "$t"
check() {  # NAME EXPECTED-STDERR -- ARGS...
  local name=$1 want=$2; shift 3
  "$BIN" "$@" > out 2> err; local rc=$?
  if [[ $rc == 2 && "$(cat err)" == "$want" && ! -s out && -z "$(ls -A | grep -v '^out$\|^err$')" ]]; then
    echo "ok   $name"
  else
    echo "FAIL $name: exit $rc, stderr: $(cat err), files: $(ls -A | tr '\n' ' ')"; fail=1
  fi
}
check "a misspelled run option" \
  "ompisim: error: run: unknown option '--plto' (did you mean '--plot'?) (ompisim run --help)" \
  -- run scenario.json --plto x.svg
check "a misspelled flag" "ompisim: error: run: unknown option '--jsno' (did you mean '--json'?) (ompisim run --help)" \
  -- run scenario.json --jsno
check "a misspelled option of a nested subcommand" \
  "ompisim: error: machine template: unknown option '--outt' (did you mean '--out'?) (ompisim machine template --help)" \
  -- machine template x --outt dir
check "an option of another subcommand: the options there and the tool's, no guess" \
  "ompisim: error: sweep: unknown option '--plot' (its options: --set, --engine, --machine-file, --jobs, --shard, --out, --merge, --quiet; the tool's: --max-input-size, --max-events) (ompisim sweep --help)" \
  -- sweep grid.json --plot
check "an unknown option with a value" \
  "ompisim: error: run: unknown option '--bogus' (its options: --set, --engine, --out, --json, --machine-file, --plot, --trace, --trace-ranks, --trace-window; the tool's: --quiet, --max-input-size, --max-events) (ompisim run --help)" \
  -- --quiet run scenario.json --bogus=3
# a value the option refuses (CLI11's range and conversion checks) names the subcommand and its help, which lists the
# option, not the tool's (`ompisim --help` has no --jobs)
check "an option value out of range" \
  "ompisim: error: sweep: --jobs: 0 is outside 1 to 256 processes (ompisim sweep --help)" -- sweep grid.json -j 0
check "a --jobs that is not a number" \
  "ompisim: error: reproduce: --jobs: 'abc' is not a whole number (1 to 256 processes) (ompisim reproduce --help)" \
  -- reproduce -j abc
check "an option value of the wrong type" \
  "ompisim: error: validate: Could not convert: --samples = x (ompisim validate --help)" -- validate --samples x
check "an option without its value" \
  "ompisim: error: run: --out: 1 required TEXT missing (ompisim run --help)" -- run scenario.json --out
# one key=value per --set (and one name per --mca, --free, --machine-file): a second word after it is not its value
check "two key=value after one --set" \
  "ompisim: error: run: 'b=2' follows a --set, which takes one key=value: give each its own (--set b=2) (ompisim run --help)" \
  -- run scenario.json --set a=1 b=2
check "a second file for run" \
  "ompisim: error: run: The following argument was not expected: other.json (ompisim run --help)" \
  -- run scenario.json other.json
# the subcommands as --help lists them (a new one joins without editing this test)
subs=$("$BIN" --help | sed -n '/^Subcommands:/,/^$/s/^  \([a-z]*\) .*/\1/p' | paste -sd, | sed 's/,/, /g')
[[ $subs == run,* ]] || { echo "FAIL no subcommand read from --help: '$subs'"; fail=1; }
check "help of an unknown subcommand" \
  "ompisim: error: help: unknown subcommand 'rn' (did you mean 'run'?) (known: $subs) (ompisim --help)" -- help rn
check "help of a subcommand's unknown subcommand" \
  "ompisim: error: help machine: unknown subcommand 'templat' (did you mean 'template'?) (known: template) (ompisim --help)" \
  -- help machine templat
check "help past a subcommand without subcommands" \
  "ompisim: error: help run: 'x' is not a subcommand (run has none) (ompisim run --help)" -- help run x
# `help [SUBCOMMAND...]` is `[SUBCOMMAND...] --help`
for words in "" "run" "machine template"; do
  "$BIN" help $words > out 2> err; rc=$?
  "$BIN" $words --help > want 2>&1
  if [[ $rc == 0 && ! -s err ]] && cmp -s out want; then echo "ok   help $words: its --help"
  else echo "FAIL help $words: exit $rc, $(head -3 out) $(cat err)"; fail=1; fi
done
rm -f want
# `--set k=v` before the scenario: the scenario is the positional argument, not a second value of --set
mkdir s && cd s
echo '{"id": "s", "machine": "cielo", "stack": "openmpi", "benchmark": {"name": "osu_latency", "sizes": [8], "iterations": 2, "skip": 0}, "ranks": 2}' > s.json
if "$BIN" --quiet run --set btl_ugni_smsg_limit=256 s.json --out o > out 2> err && grep -q '"btl_ugni_smsg_limit"' o/s.json \
  && grep -q "btl_ugni_smsg_limit=256" out; then echo "ok   run --set K=V SCENARIO: the scenario runs with it"
else echo "FAIL run --set K=V SCENARIO: $(cat err)"; fail=1; fi
cd ..; rm -rf s
check "no subcommand: the subcommands named" "ompisim: error: a subcommand is required ($subs) (ompisim --help)" --
check "only a global option: the subcommands named" "ompisim: error: a subcommand is required ($subs) (ompisim --help)" \
  -- --quiet
exit $fail
