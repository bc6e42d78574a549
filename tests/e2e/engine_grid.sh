#!/usr/bin/env bash
# The completion grid of the bandwidth-sharing engines (scenario key "engine_grid", default 1 ns). osu_alltoall
# (64 KiB, 2 iterations), 64 ranks on Frontier, 8 per node.
# Expected:
#  1. the provenance records the grid: 1e-9 s by default on lmm and fluid, 0 with "engine_grid": "0 s"; none on des;
#  2. with the default grid, lmm and fluid give the same values bit for bit (every point's every field);
#  3. on a ping-pong (osu_latency, 8 B and 4 MiB between two nodes) the grid moves the latency by at most 4 ns: each
#     callback on the critical path waits less than 1 ns, and a one-way message has at most a few flows; on the
#     alltoall it can change the order in which near-simultaneous ends are matched, so only within 1 %;
#  4. bad input exits 2 with one line naming file, key and reason: a grid on des (also by --engine des over a scenario
#     that sets one), a grid without a unit, a grid above 1 us.
# How validated: values read from the result JSON.
set -u
BIN=$1; t=$(mktemp -d); trap 'rm -rf "$t"' EXIT; fail=0
. "$(dirname "$0")/lib_check.sh"
JOB='"machine": "frontier", "stack": "openmpi-linkx", "benchmark": {"name": "osu_alltoall", "algorithm": "pairwise", "sizes": [65536], "iterations": 2}, "ranks": 64, "ranks_per_node": 8, "map_by": "core", "cpu_list": [1, 9, 17, 25, 33, 41, 49, 57]'
PP='"machine": "frontier", "stack": "openmpi-linkx", "benchmark": {"name": "osu_latency", "sizes": [8, 4194304]}, "ranks": 2, "ranks_per_node": 1'
printf '%s' "{$PP}" > "$t/pp.json"; printf '%s' "{$PP, \"engine_grid\": \"0 s\"}" > "$t/pp_exact.json"
for c in lmm fluid exact des pp pp_exact; do
  case $c in
    pp | pp_exact) x='' ;;
    lmm) x='"engine": "lmm"' ;;
    fluid) x='"engine": "fluid"' ;;
    exact) x='"engine": "lmm", "engine_grid": "0 s"' ;;
    des) x='"engine": "des"' ;;
  esac
  [[ -n $x ]] && printf '%s' "{$JOB, $x}" > "$t/$c.json"
  "$BIN" run "$t/$c.json" --out "$t/o" > /dev/null 2> "$t/$c.err" || { echo "FAIL $c: $(cat "$t/$c.err")"; fail=1; }
done
python3 - "$t/o" <<'PY' || fail=1
import json, sys
r = {c: json.load(open(f"{sys.argv[1]}/{c}.json")) for c in ("lmm", "fluid", "exact", "des", "pp", "pp_exact")}
ok = True
def want(cond, what):
    global ok
    print(("ok   " if cond else "FAIL ") + what)
    ok &= cond
want(r["lmm"]["provenance"].get("engine_grid_s") == 1e-9, "1. lmm: default grid 1e-9 s in the provenance")
want(r["fluid"]["provenance"].get("engine_grid_s") == 1e-9, "1. fluid: default grid 1e-9 s in the provenance")
want(r["exact"]["provenance"].get("engine_grid_s") == 0, "1. \"engine_grid\": \"0 s\" recorded as 0")
want("engine_grid_s" not in r["des"]["provenance"], "1. des: no grid in the provenance")
want(r["lmm"]["points"] == r["fluid"]["points"], "2. lmm and fluid: the same points bit for bit")
for g, e in zip(r["pp"]["points"], r["pp_exact"]["points"]):
    want(0 <= g["latency_us"] - e["latency_us"] <= 0.004,
         f"3. {g['bytes']} B ping-pong: grid {g['latency_us']!r} us, exact {e['latency_us']!r} us (at most 4 ns later)")
le, lg = r["exact"]["points"][0]["latency_us"], r["lmm"]["points"][0]["latency_us"]
want(abs(lg - le) < 1e-2 * le, f"3. alltoall: grid {lg!r} us within 1 % of exact {le!r} us")
sys.exit(0 if ok else 1)
PY
check grid_des "{$JOB, \"engine\": \"des\", \"engine_grid\": \"1 ns\"}" "key 'engine_grid': engine 'des' shares no bandwidth: its flows end at fixed dates and it takes no completion grid (engines that take one: "
check grid_override "{$JOB, \"engine\": \"lmm\", \"engine_grid\": \"1 ns\"}" "key 'engine_grid': engine 'des'" --engine des
check grid_unit "{$JOB, \"engine_grid\": 1}" "key 'engine_grid': expected a time with its unit"
check grid_wide "{$JOB, \"engine_grid\": \"1 ms\"}" "key 'engine_grid'"
check grid_negative "{$JOB, \"engine_grid\": \"-1 ns\"}" "key 'engine_grid'"
exit $fail
