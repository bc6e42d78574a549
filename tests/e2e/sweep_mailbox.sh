#!/usr/bin/env bash
# (1) Configuration: an atomic-barrier sweep over two rank counts on Titan, 16 ranks per node (the mailbox-memory what-if).
# Expected: the result has one mailbox_memory object and one effective SMSG limit per rank count, each naming its
# count; the automatic rule (btl/ugni of Open MPI trunk r26242) gives 1024 B at 1,024 ranks and 256 B above 16k, and
# the per-node MSGQ memory stays below SMSG's; the run's printed header has one mailbox memory line per count.
set -eu
BIN=$1; t=$(mktemp -d); trap 'rm -rf "$t"' EXIT
printf '{"machine": "titan", "stack": "openmpi", "benchmark": {"name": "barrier_loop", "algorithm": "cheetah-atomic", "iterations": 1, "skip": 0}, "ranks": [1024, 32768], "ranks_per_node": 16}' > "$t/s.json"
"$BIN" run "$t/s.json" --json --out "$t/o" > "$t/r.json"
"$BIN" run "$t/s.json" --out "$t/o1" > "$t/r.txt"
grep -q "^# mailbox memory per node (btl/ugni, 1024 ranks): SMSG limit 1024 B, one mailbox " "$t/r.txt" \
  && grep -q "^# mailbox memory per node (btl/ugni, 32768 ranks): SMSG limit 256 B, " "$t/r.txt" \
  || { echo "FAIL run's mailbox memory lines: $(grep mailbox "$t/r.txt")"; exit 1; }
echo "ok run prints the mailbox memory of each rank count"
python3 - "$t/r.json" <<'P'
import json, sys
r = json.load(open(sys.argv[1]))
mm = r["mailbox_memory"]
assert [m["ranks"] for m in mm] == [1024, 32768], mm
assert [m["smsg_limit"] for m in mm] == [1024, 256], mm
assert all(m["msgq_per_node"] < m["smsg_all_peers"] for m in mm), mm
d = r["provenance"]["derived"]
assert [x["ranks"] for x in d] == [1024, 32768] and [x["btl_ugni_smsg_limit (effective)"] for x in d] == [1024, 256], d
print("ok", [(m["ranks"], m["smsg_all_peers"], m["msgq_per_node"]) for m in mm])
P

# Configuration: a radix sweep (2, 8, 32) of the atomic barrier at one rank count (64 ranks on 4 Titan nodes).
# Expected: one point per radix, in order, each naming its radix; the result lists the radices; the radix changes
# the tree, so not all latencies are equal; the mailbox block appears once (it does not depend on the radix).
printf '{"machine": "titan", "stack": "openmpi", "benchmark": {"name": "barrier_loop", "algorithm": "cheetah-atomic", "radix": [2, 8, 32], "iterations": 3, "skip": 1}, "ranks": 64, "ranks_per_node": 16}' > "$t/r.json"
"$BIN" run "$t/r.json" --json --out "$t/o2" > "$t/rr.json"
python3 - "$t/rr.json" <<'P'
import json, sys
r = json.load(open(sys.argv[1]))
assert r["radix"] == [2, 8, 32] and r["ranks"] == 64, (r["radix"], r["ranks"])
assert [p["radix"] for p in r["points"]] == [2, 8, 32], r["points"]
assert len({round(p["latency_us"], 6) for p in r["points"]}) > 1, r["points"]
assert len(r["mailbox_memory"]) == 1, r["mailbox_memory"]
print("ok radix sweep", [(p["radix"], round(p["latency_us"], 2)) for p in r["points"]])
P

# Configuration: a sweep of btl_ugni_smsg_limit (256 B, 1 KiB) over osu_multi_lat at 64 Titan ranks, 16 per node.
# Expected: the sweep's table carries each point's mailbox memory beside its latency ("mailbox_memory.<field>",
# bytes per node), larger at the larger limit (each mailbox holds its credits' messages of up to the limit).
printf '{"machine": "titan", "stack": "openmpi", "benchmark": {"name": "osu_multi_lat", "sizes": [8], "iterations": 2, "skip": 0}, "ranks": 64, "ranks_per_node": 16}' > "$t/ml.json"
printf '{"base": "ml.json", "axes": {"mca.btl_ugni_smsg_limit": [256, 1024]}}' > "$t/g.json"
"$BIN" sweep "$t/g.json" --out "$t/sw" 2> /dev/null
python3 - "$t/sw/sweep.json" "$t/sw/sweep.csv" <<'P'
import csv, json, sys
t = json.load(open(sys.argv[1]))
rows = {r["mca.btl_ugni_smsg_limit"]: r for r in t["rows"]}
for f in ("mailbox_bytes", "smsg_connected", "smsg_all_peers", "msgq_per_node"):
    assert "mailbox_memory." + f in t["columns"], t["columns"]
assert rows[1024]["mailbox_memory.smsg_connected"] > rows[256]["mailbox_memory.smsg_connected"] > 0, rows
assert "mailbox_memory.smsg_connected" in next(csv.reader(open(sys.argv[2]))), "CSV header"
print("ok sweep table with mailbox memory", {k: r["mailbox_memory.smsg_connected"] for k, r in rows.items()})
P

# Configuration: the same sweep at two sizes, then again with --set btl_ugni_smsg_max_credits=64, compared; and the
# first against a sweep of the same axis over osu_latency.
# Expected: compare's header names each side's --set, then each side's benchmark; a point's mailbox memory, the same
# on each of its rows, is compared once per point (each field at most 2 rows for the 2 points), not once per size.
printf '{"machine": "titan", "stack": "openmpi", "benchmark": {"name": "osu_multi_lat", "sizes": [8, 64], "iterations": 2, "skip": 0}, "ranks": 64, "ranks_per_node": 16}' > "$t/ml.json"
"$BIN" sweep "$t/g.json" --out "$t/s1" 2> /dev/null
"$BIN" sweep "$t/g.json" --out "$t/s2" --set btl_ugni_smsg_max_credits=64 2> /dev/null
"$BIN" compare "$t/s1" "$t/s2" --all > "$t/cmp" 2>&1 || true
grep -qx "# B: $t/s2 (run with --set btl_ugni_smsg_max_credits=64)" "$t/cmp" || { echo "FAIL header: $(head -2 "$t/cmp")"; exit 1; }
n=$(grep -c "mailbox_memory.mailbox_bytes" "$t/cmp")
[[ $n == 2 ]] || { echo "FAIL mailbox rows: $n (expected one per point)"; grep mailbox_bytes "$t/cmp"; exit 1; }
echo "ok sweep compare: mailbox memory once per point, the --set named"
printf '{"machine": "titan", "stack": "openmpi", "benchmark": {"name": "osu_latency", "sizes": [8, 64], "iterations": 2, "skip": 0}, "ranks": 2, "ranks_per_node": 1}' > "$t/ml.json"
"$BIN" sweep "$t/g.json" --out "$t/s3" 2> /dev/null
"$BIN" compare "$t/s1" "$t/s3" > "$t/cmp" 2>&1 || true
grep -qx "# A: $t/s1 (run with benchmark osu_multi_lat; ranks 64, 16 per node)" "$t/cmp" \
  && grep -qx "# B: $t/s3 (run with benchmark osu_latency; ranks 2, 1 per node)" "$t/cmp" \
  || { echo "FAIL benchmark header: $(head -2 "$t/cmp")"; exit 1; }
echo "ok sweep compare: two benchmarks named"
