#!/usr/bin/env bash
# Configuration: an example sweep grid (scenarios/examples/grid_ugni_smsg_bte.json) given where a scenario goes
#                (`run GRID`) and to `describe`, as a new user tries it; and a grid with an inline base; the other
#                mix-ups of the first hour: a scenario given to `sweep`, a machine file given to `run`, a result file
#                (what `run` wrote) given to `run`, `describe` and `sweep`; a grid whose base is a grid (itself, or
#                another), a result or a machine file; a grid whose "axes" is empty.
# Expected:      `run GRID` exits 2 naming the file and its "base" key, saying it is a sweep grid and giving the
#                `ompisim sweep GRID` to run (not "key 'machine': required key is missing"); `describe GRID` exits 0
#                with the number of points (4 x 2 = 8), the base scenario and each axis with its values in grid order;
#                an inline base is named as such; each mix-up exits 2 with one line saying what the file is and
#                what to do with it, nothing written (before: "key 'benchmark': unknown key", "key 'stack': required
#                key is missing", "key 'benchmark': expected a JSON object, got string"); a base of another kind is
#                named as what it is, then the grid that reached it (before: "key 'machine': required key is missing");
#                an empty "axes" is said to hold no axis (it said "expected an object", of an object).
# How validated: exit status and output text.
set -u
BIN=$(realpath "$1"); SRC=$(realpath "$2"); t=$(mktemp -d); trap 'rm -rf "$t"' EXIT; fail=0
cd "$SRC"
ok() { echo "ok   $1"; }
bad() { echo "FAIL $1"; fail=1; }
G=scenarios/examples/grid_ugni_smsg_bte.json
"$BIN" run "$G" --out "$t/o" > "$t/out" 2> "$t/err"; rc=$?
[[ $rc == 2 && ! -e "$t/o" ]] && grep -q "grid_ugni_smsg_bte.json: key 'base': a sweep grid .*not a scenario: run it with \`ompisim sweep $G\`" "$t/err" \
  && ok "run GRID: $(cat "$t/err")" || bad "run GRID: exit $rc, $(cat "$t/err")"
"$BIN" describe "$G" > "$t/out" 2> "$t/err"; rc=$?
[[ $rc == 0 ]] && grep -q "^# sweep grid .*grid_ugni_smsg_bte.json: 8 points (ompisim sweep $G)$" "$t/out" \
  && grep -q "^base .*scenarios/gemini/fig5_latency_2p_inter_openmpi.json (ompisim describe " "$t/out" \
  && grep -qx "axis mca.btl_ugni_smsg_limit: 256, 1024, 4096, 8192" "$t/out" \
  && grep -qx "axis nic.bte_bandwidth: 4 GB/s, 6 GB/s" "$t/out" \
  && ok "describe GRID: points, base, axes" || bad "describe GRID: exit $rc, $(cat "$t/out" "$t/err")"
cat > "$t/inline.json" <<J
{"base": {"id": "inline", "machine": "loggp", "stack": "loggp", "ranks": 2,
          "benchmark": {"name": "osu_latency", "sizes": [1], "iterations": 2, "skip": 0}},
 "axes": {"benchmark.iterations": [2, 3, 4]}}
J
"$BIN" describe "$t/inline.json" > "$t/out" 2> "$t/err"; rc=$?
[[ $rc == 0 ]] && grep -q ": 3 points" "$t/out" && grep -q "^base .*inline.json (inline)$" "$t/out" \
  && grep -qx "axis benchmark.iterations: 2, 3, 4" "$t/out" \
  && ok "describe an inline-base grid" || bad "describe inline: exit $rc, $(cat "$t/out" "$t/err")"
# mix_up NAME EXPECTED-REGEX ARGS...: exit 2, one line matching, no output folder
mix_up() {
  local name=$1 want=$2; shift 2
  "$BIN" "$@" > "$t/out" 2> "$t/err"; local rc=$?
  [[ $rc == 2 && ! -e "$t/o-$name" && $(wc -l < "$t/err") == 1 ]] && grep -q -- "$want" "$t/err" \
    && ok "$name: $(cat "$t/err")" || bad "$name: exit $rc, $(cat "$t/err")"
}
S=scenarios/gemini/fig5_latency_2p_inter_openmpi.json
mix_up "sweep SCENARIO" "fig5_latency_2p_inter_openmpi.json: key 'base': a scenario, not a sweep grid: run it with \`ompisim run $S\`" \
  sweep "$S" --out "$t/o-sweep-scenario"
"$BIN" machine template mine --out "$t/m" 2> /dev/null
mix_up "run MACHINE" "mine.json: key 'node_types': a machine file, not a scenario: .*--machine-file $t/m/mine.json" \
  run "$t/m/mine.json" --out "$t/o-run-machine"
"$BIN" run "$S" --out "$t/r" > /dev/null 2>&1
R="$t/r/fig5_latency_2p_inter_openmpi.json"
mix_up "run RESULT" "key 'points': a result file (what \`ompisim run\` writes), not a scenario: its scenario is its provenance.scenario_file ($S)" \
  run "$R" --out "$t/o-run-result"
mix_up "describe RESULT" "key 'points': a result file" describe "$R"
mix_up "sweep RESULT" "key 'provenance': a result (what \`ompisim run\` or \`ompisim sweep\` writes), not a sweep grid" sweep "$R" --out "$t/o-sweep-result"
cat > "$t/self.json" <<J
{"base": "$t/self.json", "axes": {"ranks": [2]}}
J
mix_up "grid based on itself" "self.json: key 'base': a sweep grid, not a scenario: a grid's base is a scenario (grids do not nest: give one grid all the axes; this grid names itself) (reached through $t/self.json: key 'base')" \
  sweep "$t/self.json" --out "$t/o-self"
mix_up "describe a grid based on itself" "this grid names itself" describe "$t/self.json"
for base in "$G" "$R" "$t/m/mine.json"; do echo "{\"base\": \"$base\", \"axes\": {\"ranks\": [2]}}"; done > "$t/bases"
sed -n 1p "$t/bases" > "$t/on-grid.json"; sed -n 2p "$t/bases" > "$t/on-result.json"; sed -n 3p "$t/bases" > "$t/on-machine.json"
mix_up "grid based on a grid" "grid_ugni_smsg_bte.json: key 'base': a sweep grid, not a scenario: .*(reached through $t/on-grid.json: key 'base')" \
  sweep "$t/on-grid.json" --out "$t/o-on-grid"
mix_up "grid based on a result" "key 'points': a result file .*(reached through $t/on-result.json: key 'base')" \
  sweep "$t/on-result.json" --out "$t/o-on-result"
mix_up "grid based on a machine file" "mine.json: key 'node_types': a machine file, not a scenario: .*(reached through $t/on-machine.json: key 'base')" \
  sweep "$t/on-machine.json" --out "$t/o-on-machine"
echo "{\"base\": \"$S\", \"axes\": {}}" > "$t/no-axis.json"
mix_up "grid with no axis" "no-axis.json: key 'axes': no axis: give at least one axis key -> list of values" \
  sweep "$t/no-axis.json" --out "$t/o-no-axis"
exit $fail
