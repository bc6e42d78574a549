#!/usr/bin/env bash
# Every grid in scenarios/examples/ runs as a user would copy it: `ompisim sweep GRID --out TMP` exits 0 and writes
# sweep.json with one point per grid point, each axis changing a value somewhere. When gnuplot is installed, each axis
# has its plot sweep_<axis, '.' as '_'>.svg whose x label names the axis and its unit (an axis of numbers has one: an
# MCA byte size is in B, its ticks written 256 B, 1 KiB), whose title names the axis and says how many of the sizes it
# moves by over 1 %, whose key names each curve's message size ("message size 8 KiB") and only sizes the axis moves,
# and whose caption names the sizes left out. Usage: check_example_grids.sh OMPISIM SOURCE_DIR
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
  if command -v gnuplot > /dev/null; then python3 - "$out" <<'PY'
import json, re, sys
from collections import defaultdict
out = sys.argv[1]
d = json.load(open(f"{out}/sweep.json"))
rows, axes, units = d["rows"], d["axes"], d.get("units", {})
metric = [c for c in ("latency_us", "bandwidth_GBps", "time_us", "time_s") if c in d["columns"]][0]
for a in axes:
    svg = f"{out}/sweep_{re.sub('[^A-Za-z0-9_-]', '_', a)}.svg"
    texts = [re.sub(r"<[^>]*>", "", t).strip()
             for t in re.findall(r"<text[^>]*>(?:(?!</text>).)*</text>", open(svg).read(), re.S)]
    numeric = all(isinstance(r[a], (int, float)) and not isinstance(r[a], bool) for r in rows)
    assert not numeric or a in units, f"{out}/sweep.json: axis {a} of numbers has no unit in 'units' ({units})"
    ticks = set()
    if units.get(a) == "B":  # byte sizes as the papers and Open MPI write them: 256 B, 1 KiB, 4 KiB
        def size(b, u=0):
            return f"{b:g} {['B', 'KiB', 'MiB', 'GiB'][u]}" if b < 1024 or u == 3 else size(b / 1024, u + 1)
        want = {size(r[a]) for r in rows}
        assert want <= set(texts), f"{svg}: byte-size ticks not as {sorted(want)}: {texts}"
        ticks = want
    xlabel = f"{a} ({units[a]})" if a in units else a
    assert xlabel in texts, f"{svg}: no x label '{xlabel}' in {texts}"
    title = [t for t in texts if f"against {a}:" in t]
    assert title, f"{svg}: no title naming the axis in {texts}"
    # the sizes the axis moves: at some combination of the other axes, by over 1 % along it
    along = defaultdict(list)
    for r in rows:
        along[(r["bytes"],) + tuple(str(r[b]) for b in axes if b != a)].append(r[metric])
    moved = defaultdict(float)
    for k, v in along.items():
        moved[k[0]] = max(moved[k[0]], max(v) / min(v) - 1)
    acting = {b for b, m in moved.items() if m > 0.01}
    m = re.search(r"(\d+) of (\d+)", " ".join(texts[texts.index(title[0]):texts.index(title[0]) + 2]))
    assert m and int(m.group(1)) == len(acting) and int(m.group(2)) == len(moved), \
        f"{svg}: title does not say {len(acting)} of {len(moved)} sizes: {title[0]}"
    def size(b, u=0):
        return f"{b:g} {['B', 'KiB', 'MiB', 'GiB'][u]}" if b < 1024 or u == 3 else size(b / 1024, u + 1)
    keys = [t for t in texts if t.startswith("message size ")]
    assert keys, f"{svg}: no key names a message size: {texts}"
    by_name = {size(b): b for b in moved}
    drawn = {by_name[k.split(",")[0][len("message size "):]] for k in keys}
    assert drawn <= acting, f"{svg}: sizes drawn that {a} moves by under 1 %: {sorted(drawn - acting)}"
    if len(acting) < len(moved):
        assert any(t.startswith("Left out, as ") for t in texts), f"{svg}: the sizes left out are not named"
print(f"{out}: one readable plot per axis, the message sizes each axis moves")
PY
  fi
  n=$((n + 1))
done
(( n > 0 )) || { echo "no grid in scenarios/examples"; exit 1; }
echo "$n example grids ran"
