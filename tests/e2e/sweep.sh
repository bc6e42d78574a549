#!/usr/bin/env bash
# Issue 17, sweeps. A 2 x 2 x 2 grid (an MCA parameter, a NIC parameter, a benchmark key): run with -j 1, with -j 3,
# and as three shards (--shard and SLURM_ARRAY_TASK_ID / SLURM_ARRAY_TASK_COUNT): the merged tables are identical,
# every point once; the MCA axis changes the 4 KiB latency and not the 8 B one. A rerun runs nothing. A sweep killed
# (SIGKILL) midway and rerun finishes with every point once and no temporary left. Bad input exits 2 naming the key.
set -u
BIN=$(realpath "$1"); t=$(mktemp -d); trap 'rm -rf "$t"' EXIT; fail=0
cd "$t"
cat > grid.json <<'J'
{"base": {"id": "lat", "machine": "cielo", "stack": "openmpi", "ranks": 2, "ranks_per_node": 1,
          "benchmark": {"name": "osu_latency", "sizes": [8, 512, 65536], "iterations": 3, "skip": 1}},
 "axes": {"mca.btl_ugni_smsg_limit": [256, 1024], "nic.bte_bandwidth": ["4 GB/s", "6 GB/s"], "benchmark.iterations": [3, 4]}}
J
"$BIN" sweep grid.json --out j1 2> err || { echo "FAIL -j 1: $(cat err)"; fail=1; }
"$BIN" sweep grid.json --out j1 2> err2; grep -q "0 ran, 8 already done" err2 && echo "ok   rerun runs nothing: $(cat err2)" || { echo "FAIL rerun: $(cat err2)"; fail=1; }
"$BIN" sweep grid.json --out j3 -j 3 2> /dev/null || { echo "FAIL -j 3"; fail=1; }
"$BIN" sweep grid.json --out sh --shard 0/3 2> /dev/null || fail=1
SLURM_ARRAY_TASK_ID=1 SLURM_ARRAY_TASK_COUNT=3 "$BIN" sweep grid.json --out sh 2> e1 || fail=1
"$BIN" sweep grid.json --out sh --merge 2> /dev/null; rc=$?
[[ $rc == 1 ]] && echo "ok   merge with a shard missing: exit 1" || { echo "FAIL merge of an incomplete sweep: rc=$rc"; fail=1; }
SLURM_ARRAY_TASK_ID=12 SLURM_ARRAY_TASK_MIN=10 SLURM_ARRAY_TASK_COUNT=3 "$BIN" sweep grid.json --out sh 2> e2 || fail=1
grep -q "shard 1/3 has 3" e1 && grep -q "shard 2/3 has 2" e2 && echo "ok   Slurm array shards: $(cat e1 e2 | tr '\n' ' ')" || { echo "FAIL slurm: $(cat e1 e2)"; fail=1; }
for d in j1 j3 sh; do "$BIN" sweep grid.json --out $d --merge 2> /dev/null || { echo "FAIL merge $d"; fail=1; }; done
cmp -s j1/sweep.csv j3/sweep.csv && cmp -s j1/sweep.csv sh/sweep.csv && cmp -s j1/sweep.json sh/sweep.json \
  && echo "ok   -j 1, -j 3 and 3 shards: identical merged tables ($(($(wc -l < j1/sweep.csv) - 1)) rows)" || { echo "FAIL merged tables differ"; fail=1; }
python3 - j1 <<'P' || fail=1
import json, os, sys
d = sys.argv[1]
j = json.load(open(d + "/sweep.json"))
files = os.listdir(d + "/points")
assert len(files) == 8 and all(f.endswith(".json") for f in files), files
assert len(j["rows"]) == 24 and not j["missing"], len(j["rows"])
lat = {(r["mca.btl_ugni_smsg_limit"], r["nic.bte_bandwidth"], r["benchmark.iterations"], r["bytes"]): r["latency_us"] for r in j["rows"]}
assert lat[(256, "4 GB/s", 3, 512)] > lat[(1024, "4 GB/s", 3, 512)] * 1.05, "512 B goes by SMSG only under the 1024 limit"
assert lat[(256, "4 GB/s", 3, 8)] == lat[(1024, "4 GB/s", 3, 8)], "8 B goes by SMSG under both"
assert lat[(256, "4 GB/s", 3, 65536)] > lat[(256, "6 GB/s", 3, 65536)], "BTE bandwidth drives 64 KiB"
print("ok   8 points once, 24 rows; 512 B %.3f us at limit 256 vs %.3f at 1024; 64 KiB faster at 6 GB/s" % (lat[(256, "4 GB/s", 3, 512)], lat[(1024, "4 GB/s", 3, 512)]))
P
# SIGKILL midway, then rerun
"$BIN" sweep grid.json --out k > /dev/null 2>&1 &
pid=$!
for _ in $(seq 1 200); do [[ $(ls k/points 2> /dev/null | grep -c '\.json$') -ge 2 ]] && break; sleep 0.05; done
kill -9 $pid 2> /dev/null; wait $pid 2> /dev/null
n=$(ls k/points | grep -c '\.json$')
"$BIN" sweep grid.json --out k 2> e3 || fail=1
"$BIN" sweep grid.json --out k --merge 2> /dev/null || fail=1
left=$(ls k/points | grep -v '\.json$' | wc -l)
[[ $n -lt 8 && $(ls k/points | grep -c '\.json$') == 8 && $left == 0 ]] && cmp -s j1/sweep.csv k/sweep.csv \
  && echo "ok   killed after $n points, rerun: $(cat e3), same table, no temporary left" || { echo "FAIL kill/rerun: n=$n left=$left $(ls k/points) $(cat e3)"; fail=1; }
bad() {  # name, expected text, args...
  local name=$1 want=$2; shift 2
  "$BIN" sweep "$@" > /dev/null 2> e; local rc=$?
  if [[ $rc == 2 ]] && grep -q -- "$want" e; then echo "ok   $name: $(tail -1 e)"
  else echo "FAIL $name: rc=$rc $(cat e)"; fail=1; fi
}
python3 -c "import json; g=json.load(open('grid.json')); g['axes']={'nic.no_such_param': [1, 2]}; json.dump(g, open('unk.json', 'w'))"
python3 -c "import json; g=json.load(open('grid.json')); g['axes']={'ranks': []}; json.dump(g, open('empty.json', 'w'))"
python3 -c "import json; g=json.load(open('grid.json')); g['mode']='list'; json.dump(g, open('list.json', 'w'))"
python3 -c "import json; g=json.load(open('grid.json')); g['axes']={'benchmark.iterations': [0]}; json.dump(g, open('zero.json', 'w'))"
bad "unknown parameter axis" "unk.json: key 'axes.nic.no_such_param': unknown parameter" unk.json --out u
bad "empty axis" "empty.json: key 'axes.ranks': expected a non-empty list" empty.json
bad "invalid point" "zero.json: key 'benchmark.iterations'.*point 0" zero.json
bad "shard out of range" "--shard: key '3/3': shard index 3 out of range 0..2" grid.json --shard 3/3
bad "bad shard" "--shard.*expected I/N" grid.json --shard x
SLURM_ARRAY_TASK_ID=5 bad "task id without count" "SLURM_ARRAY_TASK_ID: key '5': set without SLURM_ARRAY_TASK_COUNT" grid.json
python3 -c "import json; g=json.load(open('grid.json')); g['axes']={'ranks': [2, 4], 'benchmark.iterations': [3]}; g['mode']='list'; json.dump(g, open('list2.json', 'w'))"
bad "list mode lengths" "list2.json: key 'axes.*values, but mode .list. needs" list2.json
exit $fail
