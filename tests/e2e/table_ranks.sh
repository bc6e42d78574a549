#!/usr/bin/env bash
# Configuration: `run` of osu_allreduce (8 B, 1 KiB) on the LogGOPS machine at 4 and 8 ranks (a list of process counts
#                in one scenario), whose OSU table has no column for the process count.
# Expected:      exit 0; the printed table gives each count its own table under "# 4 ranks", "# 8 ranks", each with
#                both sizes, in the order of the JSON result's points (so no row is left without its count); the
#                header line and a --plot's title give the counts as text ("4, 8 ranks"; "2 .. 64 ranks (6 counts)"
#                above four counts), not as a JSON list.
#                The same scenario as a sweep's base (axis benchmark.iterations: 2, 3): every row of sweep.json and
#                sweep.csv names its process count (4 or 8), each (point, count, size) once.
# How validated: the printed text against the result JSON; python3 on sweep.json and sweep.csv.
set -u
BIN=$(realpath "$1"); t=$(mktemp -d); trap 'rm -rf "$t"' EXIT; fail=0
cat > "$t/s.json" <<J
{"id": "table-ranks", "machine": "loggp", "stack": "loggp", "ranks": [4, 8],
 "benchmark": {"name": "osu_allreduce", "sizes": [8, 1024], "iterations": 2, "skip": 0}}
J
"$BIN" --quiet run "$t/s.json" --out "$t/o" --plot p.svg > "$t/table" 2> "$t/err" || { echo "FAIL run exits 0: $(cat "$t/err")"; exit 1; }
head -1 "$t/table" | grep -qx "# ompisim osu_allreduce on loggp (loggp), 4, 8 ranks" \
  && grep -q ">osu_allreduce on loggp (loggp), 4, 8 ranks, recursive_doubling<" "$t/o/p.svg" \
  && echo "ok   the header and the plot title name the counts: $(head -1 "$t/table")" \
  || { echo "FAIL the header or plot title: $(head -1 "$t/table"); $(grep -o '>osu_allreduce on[^<]*' "$t/o/p.svg")"; fail=1; }
sed 's/"ranks": \[4, 8\]/"ranks": [2, 4, 8, 16, 32, 64]/' "$t/s.json" > "$t/s6.json"
"$BIN" --quiet run "$t/s6.json" --out "$t/o6" 2> /dev/null | head -1 | grep -qx "# ompisim osu_allreduce on loggp (loggp), 2 .. 64 ranks (6 counts)" \
  && echo "ok   six counts: first .. last" || { echo "FAIL six counts: $("$BIN" --quiet run "$t/s6.json" --out "$t/o6" 2>&1 | head -1)"; fail=1; }
python3 - "$t/table" "$t/o/table-ranks.json" <<'P' || fail=1
import json, sys
lines = open(sys.argv[1]).read().split("\n")
res = json.load(open(sys.argv[2]))
got, count = [], None
for l in lines:
    if l.startswith("# ") and l.endswith(" ranks") and l[2:-6].isdigit():
        count = int(l[2:-6])
    elif l and not l.startswith("#"):
        got.append((count, int(l.split()[0]), round(float(l.split()[1]), 2)))
want = [(r, p["bytes"], round(p["latency_us"], 2)) for r, p in zip([4, 4, 8, 8], res["points"])]
ok = got == want
print(("ok   " if ok else "FAIL ") + f"each row under its process count: {got}" + ("" if ok else f", want {want}"))
sys.exit(0 if ok else 1)
P
cat > "$t/g.json" <<J
{"base": "$t/s.json", "axes": {"benchmark.iterations": [2, 3]}}
J
"$BIN" --quiet sweep "$t/g.json" --out "$t/sw" -j 1 > /dev/null 2> "$t/err" || { echo "FAIL sweep exits 0: $(cat "$t/err")"; exit 1; }
python3 - "$t/sw" <<'P' || fail=1
import csv, json, sys
d = json.load(open(sys.argv[1] + "/sweep.json"))
keys = [(r["point"], r.get("ranks"), r["bytes"]) for r in d["rows"]]
ok = "ranks" in d["columns"] and sorted({k[1] for k in keys}) == [4, 8] and len(set(keys)) == len(keys) == 8
print(("ok   " if ok else "FAIL ") + f"sweep.json: each row names its process count: {keys}")
rows = list(csv.DictReader(open(sys.argv[1] + "/sweep.csv")))
ok2 = sorted({r.get("ranks") for r in rows}) == ["4", "8"]
print(("ok   " if ok2 else "FAIL ") + f"sweep.csv has the ranks column: {list(rows[0])}")
sys.exit(0 if ok and ok2 else 1)
P
exit $fail
