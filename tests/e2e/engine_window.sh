#!/usr/bin/env bash
# The fluid engine's solve window (scenario key "engine_window"). osu_alltoall (64 KiB, 2 iterations), 64 ranks on
# Frontier, 8 per node, on the fluid engine exact and with a window of 1 us.
# Expected:
#  1. the exact run has no "engine_window" in its provenance; the windowed run records its width (1e-6 s), its solves
#     (fewer than the flows: starts and ends were grouped) and how long flow starts waited (at most the width);
#  2. the windowed latency is within 10 % of the exact one (the window only delays starts and frees by < 1 us);
#  3. bad input exits 2 with one line naming file, key and reason: a window on the exact engines (simgrid, des, and
#     --engine simgrid over a fluid scenario), a window without a unit, a zero window;
#  4. the table's header says what qualifies the numbers: the windowed run its window and the starts it delayed, a run
#     on the des engine (no bandwidth sharing) that a bandwidth may exceed a link's capacity; the exact run neither.
# How validated: values read from the result JSON; the 10 % bound is loose against the measured difference.
set -u
BIN=$1; t=$(mktemp -d); trap 'rm -rf "$t"' EXIT; fail=0
. "$(dirname "$0")/lib_check.sh"
JOB='"machine": "frontier", "stack": "openmpi-linkx", "benchmark": {"name": "osu_alltoall", "algorithm": "pairwise", "sizes": [65536], "iterations": 2}, "ranks": 64, "ranks_per_node": 8, "map_by": "core", "cpu_list": [1, 9, 17, 25, 33, 41, 49, 57]'
for c in exact window; do
  w=''; [[ $c == window ]] && w=', "engine_window": "1 us"'
  printf '%s' "{$JOB, \"engine\": \"fluid\"$w}" > "$t/$c.json"
  "$BIN" run "$t/$c.json" --out "$t/o" > "$t/$c.out" 2> "$t/$c.err" || { echo "FAIL $c: $(cat "$t/$c.err")"; fail=1; }
done
printf '%s' "{$JOB, \"engine\": \"des\"}" > "$t/des.json"
"$BIN" run "$t/des.json" --out "$t/o" > "$t/des.out" 2> "$t/des.err" || { echo "FAIL des: $(cat "$t/des.err")"; fail=1; }
if grep -q '^# engine fluid, solve window 1 us (approximate): [0-9]* of [0-9]* flow starts delayed, by up to ' "$t/window.out" \
  && grep -q "^# engine des: flows share no bandwidth (.*a bandwidth may exceed a link's capacity)" "$t/des.out" \
  && ! grep -q '^# engine' "$t/exact.out"; then echo "ok   4. header lines: $(grep -h '^# engine' "$t/window.out" "$t/des.out" | cut -c1-90 | tr '\n' '|')"
else echo "FAIL 4. header lines: window: $(grep '^# engine' "$t/window.out"); des: $(grep '^# engine' "$t/des.out"); exact: $(grep '^# engine' "$t/exact.out")"; fail=1; fi
python3 - "$t/o/exact.json" "$t/o/window.json" <<'PY' || fail=1
import json, sys
e, w = (json.load(open(f)) for f in sys.argv[1:])
ok = True
def want(cond, what):
    global ok
    print(("ok   " if cond else "FAIL ") + what)
    ok &= cond
want("engine_window" not in e["provenance"], "1. exact run: no engine_window in the provenance")
p = w["provenance"].get("engine_window", {})
print("   window provenance:", p)
want(p.get("window_s") == 1e-6, "1. windowed run: width 1e-6 s recorded")
want(0 < p.get("solves", 0) < w["stats"]["flows"], f"1. solves {p.get('solves')} < flows {w['stats']['flows']}")
want(0 <= p.get("flow_start_delay_max_s", -1) <= 1e-6 * (1 + 1e-9), "1. no start waited more than the width")
le, lw = e["points"][0]["latency_us"], w["points"][0]["latency_us"]
want(abs(lw - le) <= 0.1 * le, f"2. windowed latency {lw:.3f} us within 10 % of exact {le:.3f} us")
sys.exit(0 if ok else 1)
PY
check win_simgrid "{$JOB, \"engine\": \"simgrid\", \"engine_window\": \"1 us\"}" "key 'engine_window': engine 'simgrid' solves every flow start and end at its date and takes no solve window (engines that take one: fluid)"
check win_des "{$JOB, \"engine\": \"des\", \"engine_window\": \"1 us\"}" "key 'engine_window': engine 'des'"
check win_override "{$JOB, \"engine\": \"fluid\", \"engine_window\": \"1 us\"}" "key 'engine_window': engine 'simgrid'" --engine simgrid
check win_unit "{$JOB, \"engine\": \"fluid\", \"engine_window\": 1}" "key 'engine_window'"
check win_zero "{$JOB, \"engine\": \"fluid\", \"engine_window\": \"0 us\"}" "key 'engine_window'"
exit $fail
