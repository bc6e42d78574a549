#!/usr/bin/env bash
# Every grid in scenarios/examples/ runs as a user would copy it: `ompisim sweep GRID --out TMP` exits 0 and writes
# sweep.json with one point per grid point. Usage: check_example_grids.sh OMPISIM SOURCE_DIR
set -euo pipefail
tool=$1; src=$2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cd "$src"
n=0
for g in scenarios/examples/grid_*.json; do
  out="$tmp/$(basename "$g" .json)"
  "$tool" sweep "$g" --out "$out" -j 1 > "$out.log" 2>&1 || { echo "FAIL: $g"; cat "$out.log"; exit 1; }
  python3 - "$out/sweep.json" <<'PY'
import json, sys, math
from collections import defaultdict
d = json.load(open(sys.argv[1]))
rows, axes, grid = d["rows"], d["axes"], d["grid"]
want = math.prod(len({str(r[a]) for r in rows}) for a in axes)
got = len({r["point"] for r in rows})
assert got == want, f"{sys.argv[1]}: {got} points, the grid has {want}"
# each axis acts somewhere: at some size, changing only that axis changes the result
metric = [c for c in d["columns"] if c not in axes and c not in ("bytes", "ranks", "point")][0]
for a in axes:
    seen = defaultdict(set)
    for r in rows:
        key = tuple((b, str(r[b])) for b in axes if b != a) + ((r.get("bytes"), r.get("ranks")),)
        seen[key].add(round(r[metric], 9))
    assert any(len(v) > 1 for v in seen.values()), f"{sys.argv[1]}: axis {a} changes no value"
PY
  n=$((n + 1))
done
(( n > 0 )) || { echo "no grid in scenarios/examples"; exit 1; }
echo "$n example grids ran"
