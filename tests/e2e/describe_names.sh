#!/usr/bin/env bash
# Configuration: `describe` with a name of each kind, a scenario path as `list` prints it (run from another folder),
#                a machine file written by `machine template`, misspelled names, and a JSON file of neither kind.
# Expected:      exit 0 for every kind, the scenario's machine, stack and benchmark, the machine file's own name;
#                a misspelled name exits 2 with one line naming the closest name of any kind first, where a reader
#                sees it (ugnii -> ugni, btl/ugnii -> btl/ugni), then every kind; a JSON file of neither kind exits 2
#                naming the file.
# How validated: exit codes and grep on the output.
set -u
BIN=$(realpath "$1"); t=$(mktemp -d); trap 'rm -rf "$t"' EXIT; fail=0
cd "$t"
ok() { echo "ok   $*"; }
bad() { echo "FAIL $*"; fail=1; }
for n in cielo btl/ugni ugni osu_bw allreduce openmpi torus; do
  "$BIN" describe "$n" > out 2> err && [[ -s out ]] && ok "describe $n" || bad "describe $n: $(cat err)"
done
scen=$("$BIN" list | sed -n '/^scenarios:/,$p' | sed -n 2p | tr -d ' ')
"$BIN" describe "$scen" > out 2> err && grep -q "^# scenario " out && grep -q "^machine .*, stack .*, benchmark " out \
  && ok "describe $scen: $(tail -1 out)" || bad "describe $scen: $(cat out err)"
"$BIN" machine template my-cielo --out "$t" 2> /dev/null
"$BIN" describe "$t/my-cielo.json" > out 2> err && grep -q "^# my-cielo " out && ok "describe a machine file" \
  || bad "describe a machine file: $(head -2 out) $(cat err)"
misspelled() {  # NAME HINT
  "$BIN" describe "$1" > /dev/null 2> err; local rc=$?
  if [[ $rc == 2 && $(wc -l < err) == 1 ]] \
    && grep -qF "ompisim: error: describe: key '$1': (did you mean '$2'?) not a machine (" err \
    && grep -q "key '$1': (did .*) not a machine (.*), a component (.*), a benchmark" err; then
    ok "describe $1: did you mean '$2'"
  else bad "describe $1: exit $rc, $(cut -c1-300 err)"; fi
}
misspelled ugnii ugni
misspelled btl/ugnii btl/ugni
misspelled alreduce allreduce
echo '{"x": 1}' > other.json
"$BIN" describe other.json > /dev/null 2> err; rc=$?
[[ $rc == 2 ]] && grep -q "other.json.*neither a machine file" err && ok "a JSON file of neither kind: $(cat err)" \
  || bad "other.json: exit $rc, $(cat err)"
exit $fail
