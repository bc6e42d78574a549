#!/usr/bin/env bash
# Packet trains (scenario key "packet_trains"). osu_alltoall (1 KiB, linear, one call), 64 ranks on Titan, 16 per
# node, Open MPI over uGNI: its eager gets and eager SMSG payloads are host-driven (FMA) transfers; once as flows, once
# as packet trains up to 8 KiB.
# Expected:
#  1. the flow run has no "packet_trains" in its provenance; the train run records its limit
#     (8192 B), made no flow and timed its transfers (FMA, all of 1 KiB and under 8 KiB) as trains;
#  2. its latency is within 25 % of the flow run's (FIFO trains against max-min shared flows: the approximation's
#     error, measured larger at 1,024 ranks, -18 %, than here);
#  3. the table's first lines say the run used packet trains and how many; the flow run's do not;
#  4. bad input exits 2 with one line naming file, key and reason: a size without a unit, a size of 0, a boolean.
# How validated: values read from the result JSON and the table.
set -u
BIN=$1; t=$(mktemp -d); trap 'rm -rf "$t"' EXIT; fail=0
. "$(dirname "$0")/lib_check.sh"
JOB='"machine": "titan", "stack": "openmpi", "benchmark": {"name": "osu_alltoall", "algorithm": "linear", "sizes": [1024], "iterations": 1, "skip": 0}, "ranks": 64, "ranks_per_node": 16'
for c in flows trains; do
  w=''; [[ $c == trains ]] && w=', "packet_trains": "8 KiB"'
  printf '%s' "{$JOB$w}" > "$t/$c.json"
  "$BIN" run "$t/$c.json" --out "$t/o" > "$t/$c.out" 2> "$t/$c.err" || { echo "FAIL $c: $(cat "$t/$c.err")"; fail=1; }
done
if grep -q '^# packet trains up to 8192 B (approximate): [1-9][0-9]* transfers timed FIFO per link' "$t/trains.out" \
  && ! grep -q '^# packet trains' "$t/flows.out"; then echo "ok   3. header line: $(grep -h '^# packet trains' "$t/trains.out" | cut -c1-100)"
else echo "FAIL 3. header lines: trains: $(head -3 "$t/trains.out"); flows: $(grep '^# packet' "$t/flows.out")"; fail=1; fi
python3 - "$t/o/flows.json" "$t/o/trains.json" <<'PY' || fail=1
import json, sys
f, t = (json.load(open(p)) for p in sys.argv[1:])
ok = True
def want(cond, what):
    global ok
    print(("ok   " if cond else "FAIL ") + what)
    ok &= cond
want("packet_trains" not in f["provenance"], "1. flow run: no packet_trains in the provenance")
p = t["provenance"].get("packet_trains", {})
print("   trains provenance:", p)
want(p.get("max_bytes") == 8192, "1. train run: limit 8192 B recorded")
want(p.get("flows") == 0 and p.get("trains", 0) > 0, "1. train run: no flow between nodes, trains made")
lf, lt = f["points"][0]["latency_us"], t["points"][0]["latency_us"]
want(abs(lt - lf) <= 0.25 * lf, f"2. train latency {lt:.3f} us within 25 % of the flows' {lf:.3f} us")
sys.exit(0 if ok else 1)
PY
check trains_unit "{$JOB, \"packet_trains\": \"8\"}" "key 'packet_trains'"
check trains_zero "{$JOB, \"packet_trains\": \"0 B\"}" "key 'packet_trains'"
check trains_bool "{$JOB, \"packet_trains\": true}" "key 'packet_trains'"
exit $fail
