#!/usr/bin/env bash
# Configuration: `run` of osu_allreduce (8 B, 1 KiB) on the LogGOPS machine at 4 and 8 ranks (a list of process counts
#                in one scenario), whose OSU table has no column for the process count.
# Expected:      exit 0; the printed table gives each count its own table under "# 4 ranks", "# 8 ranks", each with
#                both sizes, in the order of the JSON result's points (so no row is left without its count).
# How validated: the printed text against the result JSON (--json).
set -u
BIN=$(realpath "$1"); t=$(mktemp -d); trap 'rm -rf "$t"' EXIT; fail=0
cat > "$t/s.json" <<J
{"id": "table-ranks", "machine": "loggp", "stack": "loggp", "ranks": [4, 8],
 "benchmark": {"name": "osu_allreduce", "sizes": [8, 1024], "iterations": 2, "skip": 0}}
J
"$BIN" --quiet run "$t/s.json" --out "$t/o" > "$t/table" 2> "$t/err" || { echo "FAIL run exits 0: $(cat "$t/err")"; exit 1; }
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
exit $fail
