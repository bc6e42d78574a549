#!/usr/bin/env bash
# Packet trains (scenario key "packet_trains"). osu_alltoall (1 KiB, linear, one call), 64 ranks on Titan, 16 per
# node, Open MPI over uGNI: its eager gets and eager SMSG payloads are host-driven (FMA) transfers; once as flows, once
# as packet trains up to 8 KiB.
# Expected:
#  1. the flow run has no "packet_trains" in its provenance; the train run records its limit
#     (8192 B), made no flow and timed its transfers (FMA, all of 1 KiB and under 8 KiB) as trains;
#  2. its latency is within 5 % of the flow run's (trains that take the first free gap of each resource against
#     max-min shared flows: the approximation's error, -2.0 % here; before trains kept every reservation, trains
#     passed in gaps others had taken and came out 24 % short at 1,024 ranks);
#  3. the table's first lines say the run used packet trains and how many; the flow run's do not;
#  4. bad input exits 2 with one line naming file, key and reason: a size without a unit, a negative size, a boolean;
#  7. a run whose transfers all stay within a node warns that packet_trains changed nothing (0 trains);
#  7b. a run whose transfers between nodes went partly as flows warns that trains and flows do not see each other;
#  8. a sweep over "packet_trains" ["0 B", "8 KiB"] runs both (its column in bytes) and each row of the train point
#     says how many transfers were trains and flows, the flow point's rows have none;
#  9. compare of the flow and the train results notes the other packet_trains (A: none; B: 8192 B).
# How validated: values read from the result JSON and the table.
set -u
BIN=$1; SRC=$2; t=$(mktemp -d); trap 'rm -rf "$t"' EXIT; fail=0
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
want(abs(lt - lf) <= 0.05 * lf, f"2. train latency {lt:.3f} us within 5 % of the flows' {lf:.3f} us")
sys.exit(0 if ok else 1)
PY
# 5. osu_bibw between two Cielo nodes (fig6) with trains up to 1 MiB: both directions cross each node's host
#    interface, which carries send and receive (nic.nic_ht_capacity), so no size exceeds its capacity (the trains
#    queue on their path's NIC resources as on its links).
python3 -c "import json,sys; d=json.load(open(sys.argv[1])); d['packet_trains']='1 MiB'; d['id']='bibw'; json.dump(d, open(sys.argv[2], 'w'))" \
  "$SRC/scenarios/gemini/fig6_bibw_2p_inter_openmpi.json" "$t/bibw.json"
"$BIN" run "$t/bibw.json" --out "$t/o" > /dev/null 2> "$t/bibw.err" || { echo "FAIL bibw: $(cat "$t/bibw.err")"; fail=1; }
python3 - "$t/o/bibw.json" <<'PY' || fail=1
import json, sys
d = json.load(open(sys.argv[1]))
cap = float(d["provenance"]["parameters"]["nic.nic_ht_capacity"].split()[0])
top = max(p["bandwidth_GBps"] for p in d["points"])
ok = top <= cap * (1 + 1e-9) and d["provenance"]["packet_trains"]["trains"] > 0
print(("ok   " if ok else "FAIL ") + f"5. trains' bidirectional bandwidth at most {top:.3f} GB/s, the host interface {cap} GB/s")
sys.exit(0 if ok else 1)
PY
# 6. refused, exit 2 naming the key: a neighbour job (its streams are flows, which trains do not see) and a route
#    policy that routes each transfer on its own (UGAL), whose effect trains would lose without a word.
NB=$(python3 -c "import json,sys; d=json.load(open(sys.argv[1])); d['packet_trains']='1 MiB'; print(json.dumps(d))" "$SRC/scenarios/slingshot/whatif_routing_minimal_alltoall_64p_8groups_neighbour.json")
check trains_neighbour "$NB" "key 'packet_trains': a neighbour job's traffic is endless flows, which packet trains do not see"
UG=$(python3 -c "import json,sys; d=json.load(open(sys.argv[1])); d['packet_trains']='1 MiB'; print(json.dumps(d))" "$SRC/scenarios/slingshot/whatif_routing_ugal_alltoall_64p_8groups.json")
check trains_ugal "$UG" "key 'packet_trains': route policy 'ugal' chooses each transfer's route"
check trains_unit "{$JOB, \"packet_trains\": \"8\"}" "key 'packet_trains'"
check trains_negative "{$JOB, \"packet_trains\": \"-1 KiB\"}" "key 'packet_trains'"
check trains_bool "{$JOB, \"packet_trains\": true}" "key 'packet_trains'"
# 7. all on one node: nothing to time as a train, said
printf '%s' '{"machine": "titan", "stack": "openmpi", "benchmark": {"name": "osu_latency", "sizes": [8], "iterations": 2, "skip": 0}, "ranks": 2, "ranks_per_node": 2, "packet_trains": "8 KiB"}' > "$t/intra.json"
"$BIN" run "$t/intra.json" --out "$t/o" > /dev/null 2> "$t/intra.err"
if grep -q "warning: packet_trains 8192 B: no transfer of this run was timed as a train" "$t/intra.err"; then
  echo "ok   7. intra-node run: $(cut -c1-110 "$t/intra.err" | head -1)"
else echo "FAIL 7. intra-node run gave no warning: $(cat "$t/intra.err")"; fail=1; fi
# 7b. trains beside flows between nodes (osu_latency at 1 KiB and 64 KiB between two nodes, trains up to 8 KiB): said,
#     with the largest flow and the size that would time them all as trains; the train run of 1. (no flow) says nothing
printf '%s' '{"machine": "titan", "stack": "openmpi", "benchmark": {"name": "osu_latency", "sizes": [1024, 65536], "iterations": 2, "skip": 0}, "ranks": 2, "ranks_per_node": 1, "packet_trains": "8 KiB"}' > "$t/mixed.json"
"$BIN" run "$t/mixed.json" --out "$t/o" > /dev/null 2> "$t/mixed.err"
if grep -q "warning: packet_trains 8192 B: [0-9]* transfers between nodes went as flows beside the trains (up to 65536 B), and trains and flows do not see each other's use of a link; packet_trains 65536 B or more" "$t/mixed.err" \
   && ! grep -q "beside the trains" "$t/trains.err"; then
  echo "ok   7b. trains beside flows: $(cut -c1-120 "$t/mixed.err" | head -1)"
else echo "FAIL 7b. no warning of trains beside flows: $(cat "$t/mixed.err")"; fail=1; fi
# 8. a sweep over the key
printf '%s' "{\"base\": \"$t/flows.json\", \"axes\": {\"packet_trains\": [\"0 B\", \"8 KiB\"]}}" > "$t/grid.json"
"$BIN" sweep "$t/grid.json" --out "$t/sw" > /dev/null 2> "$t/sw.err" || { echo "FAIL 8. sweep: $(cat "$t/sw.err")"; fail=1; }
python3 - "$t/sw/sweep.json" <<'PY' || fail=1
import json, sys
d = json.load(open(sys.argv[1]))
rows = {r["packet_trains"]: r for r in d["rows"]}
ok = d["units"].get("packet_trains") == "B" and set(rows) == {0, 8192} \
    and rows[8192].get("packet_trains.trains", 0) > 0 and rows[8192].get("packet_trains.flows") == 0 \
    and rows[0].get("packet_trains.trains") is None
print(("ok   " if ok else "FAIL ") + f"8. sweep rows: {[(k, r.get('packet_trains.trains'), r.get('packet_trains.flows')) for k, r in sorted(rows.items())]}")
sys.exit(0 if ok else 1)
PY
# 9. compare says the two were run with other packet trains
"$BIN" compare "$t/o/flows.json" "$t/o/trains.json" --tolerance 1 > "$t/cmp.out" 2>&1
if grep -q "run with other packet_trains (A: none; B: 8192 B)" "$t/cmp.out"; then echo "ok   9. compare notes the other packet_trains"
else echo "FAIL 9. compare: $(tail -3 "$t/cmp.out")"; fail=1; fi
exit $fail
