#!/usr/bin/env bash
# Configuration: osu_latency between two Cielo nodes on the openmpi stack (btl/ugni's paper defaults: eager limit
#                8 KiB, SMSG limit 1 KiB for 2 ranks, RDMA get up to 512 KiB) at 512 B, 1 KiB, 8 KiB and 1 MiB, 5
#                iterations after 1 warm-up; the same sizes with osu_bw (a window of 64).
# Expected:      each point carries the protocol counters that moved during its size: 512 B SMSG short sends only,
#                1 KiB eager gets (ugni_eager_gets 12, no RGET), 8 KiB ob1's RGET with btl/ugni's long gets, 1 MiB the
#                RGET with the PUT fallback above the get limit; a counter's sizes add up to the run's total, up to one
#                completion event per rank that lands after the last size; the CSV has the counters as its last
#                column; osu_bw's points carry them too; a level (eager buffers held at the end, with the SMSG limit
#                at 80 B) is in the run's counters and in no size's; `compare` of the two runs pairs each
#                size's counters (512 B: 12 SMSG short sends against 12 eager gets).
# How validated: python3 on the result JSON and CSV.
set -u
BIN=$(realpath "$1"); t=$(mktemp -d); trap 'rm -rf "$t"' EXIT; cd "$t"
cat > lat.json <<'S'
{"id": "lat", "machine": "cielo", "stack": "openmpi", "ranks": 2, "ranks_per_node": 1,
 "benchmark": {"name": "osu_latency", "sizes": [512, 1024, 8192, 1048576], "iterations": 5, "skip": 1}}
S
sed -e 's/"lat"/"bw"/' -e 's/osu_latency/osu_bw/' lat.json > bw.json
"$BIN" run lat.json --out o > /dev/null 2> lat.err || { echo "FAIL run: $(cat lat.err)"; exit 1; }
"$BIN" run bw.json --out o > /dev/null 2> bw.err || { echo "FAIL run: $(cat bw.err)"; exit 1; }
# the least SMSG limit btl/ugni's largest control message fits (80 B): every message of 512 B or more takes an eager buffer; a
# level (buffers held at the end) that no size's counters may carry
"$BIN" run lat.json --set btl_ugni_smsg_limit=80 --out held > /dev/null 2> held.err || { echo "FAIL run: $(cat held.err)"; exit 1; }
python3 - <<'P'
import csv, json, sys
fail = 0
def check(what, ok, detail=""):
    global fail
    print(("ok   " if ok else "FAIL ") + what + ("" if ok else f": {detail}"))
    fail |= not ok
d = json.load(open("o/lat.json"))
c = {p["bytes"]: p.get("counters", {}) for p in d["points"]}
check("512 B: SMSG short sends, no get", c[512].get("ugni_short_sends") == 12 and not any("get" in k.lower() for k in c[512]), c[512])
check("1 KiB: eager gets, no RGET", c[1024].get("ugni_eager_gets") == 12 and "ob1_RGET" not in c[1024], c[1024])
check("8 KiB: RGET with long gets", c[8192].get("ob1_RGET") == 12 and c[8192].get("ugni_long_gets") == 12
      and "ugni_put_fallbacks" not in c[8192], c[8192])
check("1 MiB: RGET with the PUT fallback", c[1048576].get("ob1_RGET") == 12 and c[1048576].get("ugni_put_fallbacks") == 12
      and "ugni_long_gets" not in c[1048576], c[1048576])
tot = d["stats"]["counters"]
for k, v in tot.items():
    s = sum(p.get("counters", {}).get(k, 0) for p in d["points"])
    check(f"{k}: the sizes add up to the run's total", s <= v <= s + d["ranks"], (s, v))
head = next(csv.reader(open("o/lat.csv")))
check("the CSV's counters are its last column", head[0] == "bytes" and head[-1] == "counters", head)
b = json.load(open("o/bw.json"))
check("osu_bw's points carry their counters", all(p.get("counters", {}).get("ob1_MATCH", 0) + p.get("counters", {}).get("ob1_RGET", 0) > 0 for p in b["points"]), b["points"][:2])
h = json.load(open(next(__import__("glob").iglob("held/*.json"))))
check("a level (ugni_eager_buffers_held) is in no size's counters",
      all("ugni_eager_buffers_held" not in p["counters"] for p in h["points"]) and "ugni_eager_buffers_held" in h["stats"]["counters"],
      [p["counters"] for p in h["points"]])
sys.exit(fail)
P
rc=$?
# compare pairs the sizes' counters: at 512 B the default run's SMSG sends against the eager gets under the low limit
"$BIN" compare o/lat.json held/*.json > cmp.txt 2>&1
if grep -Eq "^ +bytes=512 +counters\.ugni_eager_gets +0 +12 +inf \*$" cmp.txt \
   && grep -Eq "^ +bytes=512 +counters\.ugni_short_sends +12 +0 " cmp.txt; then
  echo "ok   compare pairs each size's counters"
else
  echo "FAIL compare of the sizes' counters: $(grep -E 'bytes=512' cmp.txt | head -5)"; rc=1
fi
exit $rc
