#!/usr/bin/env bash
# --set on the per-element costs of a node type's arch record (hetero-cpu).
# (1) Configuration: NetPIPE MPI_INT from a G5 to an Opteron, 1 MiB, with the Opteron's convert_cost_per_element at
# its machine value and at 40 ns. Expected: the bandwidth drops (the receiver converts every element). (2)
# Configuration: IMB Reduce on 4 Opterons, 64 KiB, with the Opteron's reduce_cost_per_element at its value and at
# 40 ns. Expected: t_avg rises by at least the root's extra arithmetic, (P-1) x 16384 elements x (40 ns - value) / P
# per call on average (the root rotates). (3) A cost with a rate's unit: exit 2 naming --set and the key.
# How validated: the result JSONs of `ompisim run --json`.
set -u
BIN=$1; t=$(mktemp -d); trap 'rm -rf "$t"' EXIT
cat > "$t/np.json" <<J
{"machine": "hetero-cpu", "stack": "openmpi", "ranks": 2, "ranks_per_node": 1, "nodes": [128, 0],
 "benchmark": {"name": "netpipe", "sizes": [1048576], "iterations": 2, "skip": 0, "datatype": "MPI_INT"}}
J
cat > "$t/red.json" <<J
{"machine": "hetero-cpu", "stack": "openmpi", "ranks": 4, "ranks_per_node": 1, "nodes": [0, 1, 2, 3],
 "benchmark": {"name": "imb_reduce", "sizes": [65536], "repetitions": 8}}
J
"$BIN" run "$t/np.json" --out "$t/a" > /dev/null 2>&1 || { echo "netpipe run failed"; exit 1; }
"$BIN" run "$t/np.json" --out "$t/b" --set node_types.opteron.arch.convert_cost_per_element=40ns > /dev/null 2>&1 \
  || { echo "netpipe --set run failed"; exit 1; }
"$BIN" run "$t/red.json" --out "$t/c" > /dev/null 2>&1 || { echo "imb_reduce run failed"; exit 1; }
"$BIN" run "$t/red.json" --out "$t/d" --set node_types.opteron.arch.reduce_cost_per_element=40ns > /dev/null 2>&1 \
  || { echo "imb_reduce --set run failed"; exit 1; }
python3 - "$t" "$(dirname "$0")/../../models/commodity/machines/hetero-cpu.json" <<'P'
import json, sys, glob
t = sys.argv[1]
def pt(d): return json.load(open(glob.glob(f"{t}/{d}/*.json")[0]))["points"][0]
a, b = pt("a"), pt("b")
assert b["bandwidth_GBps"] < 0.95 * a["bandwidth_GBps"], (a, b)
m = json.load(open(sys.argv[2]))
red = float(m["node_types"]["opteron"]["arch"]["reduce_cost_per_element"]["value"].split()[0]) * 1e-9
c, d = pt("c"), pt("d")
extra_us = 3 * 16384 * (40e-9 - red) / 4 * 1e6
assert d["t_avg_us"] - c["t_avg_us"] >= 0.99 * extra_us, (c, d, extra_us)
print("ok: netpipe", a["bandwidth_GBps"], "->", b["bandwidth_GBps"], "GB/s; reduce", c["t_avg_us"], "->", d["t_avg_us"], "us")
P
[ $? -eq 0 ] || exit 1
"$BIN" run "$t/np.json" --out "$t/e" --set node_types.opteron.arch.convert_cost_per_element=10MB/s > /dev/null 2> "$t/err"; rc=$?
[ "$rc" -eq 2 ] || { echo "bad unit: exit $rc, expected 2"; exit 1; }
grep -q -- "--set 'node_types.opteron.arch.convert_cost_per_element'" "$t/err" || { cat "$t/err"; exit 1; }
exit 0
