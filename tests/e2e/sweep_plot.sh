#!/usr/bin/env bash
# Configuration: `sweep` of Gemini Fig. 5's inter-node latency over nic.bte_bandwidth (4, 6 GB/s) and
#                mca.btl_vader_eager_limit (16, 32 KiB: on-node only, so it moves no inter-node value).
# Expected:      exit 0; sweep_nic_bte_bandwidth.svg keys each curve by its message size ("message size 16 KiB"), one
#                curve per drawn size (the vader values lie on one another and are drawn once, the key naming neither);
#                the table has the BTE bandwidth move no size under 8 KiB by over 1 %, and the plot draws only sizes
#                of at least 8 KiB, each one the table says it moves by over 1 %, the others moved named as not drawn
#                and its caption names the sizes left out (from 0 B); the x label has the axis's unit, the y label
#                the metric's; sweep_mca_btl_vader_eager_limit.svg's title says the axis moves no value.
#                A second sweep, of a Titan barrier (64 and 256 ranks) over benchmark.radix (2, 4, 8), whose points
#                report their radix (the table's benchmark.radix column): sweep_benchmark_radix.svg draws one curve per process count along the
#                radix ("64 processes"; the radix is the axis, not a size of its own), and its title gives the change
#                the radix makes (not "moves no value"), as an unsigned spread, at "the process counts" it moves.
#                A third sweep, a list of "points" where each point sets other keys (mca.btl_ugni_smsg_limit as 256 and
#                "512 B", mca.btl_ugni_eager_limit on one point only, ranks_per_node on one point only, the same
#                benchmark.sizes on all): the table fills an MCA value a point leaves to its base with the value its
#                run used (btl_ugni_eager_limit 8192), so every value of that column is a number in bytes (the unit
#                kept: "mca.btl_ugni_smsg_limit (B)" in the CSV); a scenario key a point leaves to its base stays empty
#                and is "base" on the plot (no "null" anywhere); the key every point sets alike (benchmark.sizes)
#                gets no plot and no word in a curve's label.
#                It says on stderr why benchmark.sizes has no plot. A one-point sweep (one BTE bandwidth) into the
#                first sweep's folder writes its table (its one bandwidth only) and no plot, says why ("every point has
#                nic.bte_bandwidth = 5 GB/s"), and removes the first sweep's two plots, naming them.
#                A fourth sweep, over nic.bte_bandwidth (4, 6 GB/s) and mca.btl_ugni_fma_limit (1 KiB, 64 KiB), both
#                acting at several sizes: drawing every moved size would take over 12 curves, so the plot against the
#                BTE bandwidth draws every k-th moved size and the size of the curve it changes most (the title's
#                spread), and its caption says so ("every message size would take N curves, so every 2nd [and message
#                size X, where the spread is largest,] is drawn (at most 12 curves)") and names the moved sizes left out.
# How validated: python3 on sweep.json and on the SVGs' text.
set -u
BIN=$(realpath "$1"); SRC=$(realpath "$2"); t=$(mktemp -d); trap 'rm -rf "$t"' EXIT
if ! command -v gnuplot > /dev/null; then echo "FAIL gnuplot not installed (setup.sh installs it)"; exit 1; fi
cd "$t"
cat > grid.json <<J
{"base": "$SRC/scenarios/gemini/fig5_latency_2p_inter_openmpi.json",
 "axes": {"nic.bte_bandwidth": ["4 GB/s", "6 GB/s"], "mca.btl_vader_eager_limit": [16384, 32768]}}
J
"$BIN" --quiet sweep grid.json --out out -j 1 > /dev/null 2> err || { echo "FAIL sweep exits 0"; cat err; exit 1; }
python3 - out "$SRC/tests/e2e" <<'P'
import json, re, sys
from collections import defaultdict
out = sys.argv[1]
sys.path.insert(0, sys.argv[2])
from e2echeck import byte_label as size, check, exit_status, svg_texts as texts
d = json.load(open(f"{out}/sweep.json"))
a, other = "nic.bte_bandwidth", "mca.btl_vader_eager_limit"
by = defaultdict(list)   # (size, vader) -> latencies along the BTE bandwidth
for r in d["rows"]:
    by[(r["bytes"], r[other])].append(r["latency_us"])
moved = {}
for (b, _), v in by.items():
    moved[b] = max(moved.get(b, 0), max(v) / min(v) - 1)
acting = sorted(b for b, m in moved.items() if m > 0.01)
check("precondition: the BTE bandwidth moves no size under 8 KiB by over 1 %, some above",
      acting and min(acting) >= 8192, f"acting sizes {acting}")
tx = texts(f"{out}/sweep_nic_bte_bandwidth.svg")
keys = [x for x in tx if x.startswith("message size ")]
check("the key names the message size", len(keys) > 0, tx)
drawn = [float(re.match(r"message size ([\d.]+) (B|KiB|MiB|GiB)$", k).group(1)) *
         1024 ** ["B", "KiB", "MiB", "GiB"].index(k.split()[-1]) if re.match(r"message size [\d.]+ (B|KiB|MiB|GiB)$", k)
         else -1 for k in keys]
check("each key is a message size alone (the vader values coincide: drawn once)", -1 not in drawn, keys)
check("one curve per drawn size", len(set(drawn)) == len(drawn), keys)
check("only sizes of at least 8 KiB drawn", drawn and min(drawn) >= 8192, keys)
check("each drawn size is one the axis moves by over 1 %", set(drawn) <= set(acting), f"{drawn} vs {acting}")
caption = " ".join(x for x in tx if x.startswith(("Left out", "Also moved")) or "message sizes" in x)
not_drawn = [b for b in acting if b not in drawn]
check("the acting sizes not drawn are named", all(size(b) in caption for b in not_drawn), f"{not_drawn}: {caption}")
check("the caption names the sizes left out, from 0 B", "Left out" in caption and "0 B to " in caption, caption)
check("x label with its unit", "nic.bte_bandwidth (GB/s)" in tx, tx)
check("y label with its unit", "latency (us)" in tx, tx)
tv = texts(f"{out}/sweep_mca_btl_vader_eager_limit.svg")
check("an axis that moves nothing says so", any("moves no value" in x for x in tv), tv)
exit_status()
P
rc=$?
cat > radix.json <<J
{"base": {"id": "radix-axis", "machine": "titan", "stack": "openmpi", "ranks": [64, 256], "ranks_per_node": 16,
          "benchmark": {"name": "barrier_loop", "algorithm": "cheetah-atomic", "iterations": 2, "skip": 1}},
 "axes": {"benchmark.radix": [2, 4, 8]}}
J
"$BIN" --quiet sweep radix.json --out radix -j 1 > /dev/null 2> err || { echo "FAIL radix sweep exits 0"; cat err; exit 1; }
python3 - radix "$SRC/tests/e2e" <<'P' || rc=1
import json, re, sys
out = sys.argv[1]
sys.path.insert(0, sys.argv[2])
from e2echeck import check, exit_status, svg_texts
d = json.load(open(f"{out}/sweep.json"))
by = {}
for r in d["rows"]:
    by.setdefault(r["ranks"], []).append(r["latency_us"])
check("precondition: the radix moves the latency at each process count by over 1 %",
      all(max(v) / min(v) > 1.01 for v in by.values()), by)
tx = svg_texts(f"{out}/sweep_benchmark_radix.svg")
keys = sorted(t for t in tx if t.endswith(" processes"))
check("one curve per process count, keyed by it alone", keys == ["256 processes", "64 processes"], keys)
check("the title does not say the radix moves nothing", not any("moves no value" in t for t in tx), tx)
joined = " ".join(tx)
check("the title counts process counts", re.search(r"the\s+process\s+counts\s+it\s+moves", joined) is not None, joined)
# a spread (max / min - 1), unsigned: "+140 %" read as a rise where the metric falls along the axis
check("the title gives the change it makes, as an unsigned spread",
      re.search(r"largest\s+spread,\s+max\s+/\s+min\s+-\s+1:\s+[1-9]", joined) is not None and "+" not in joined,
      joined)
exit_status()
P
rc=$((rc || $?))
cat > pts.json <<J
{"base": "$SRC/scenarios/gemini/fig5_latency_2p_inter_openmpi.json",
 "points": [{"mca.btl_ugni_smsg_limit": 256, "benchmark.sizes": [8, 1024]},
            {"mca.btl_ugni_smsg_limit": "512 B", "benchmark.sizes": [8, 1024]},
            {"mca.btl_ugni_eager_limit": "4 KiB", "mca.btl_ugni_smsg_limit": 256, "benchmark.sizes": [8, 1024]},
            {"mca.btl_ugni_smsg_limit": 256, "benchmark.sizes": [8, 1024], "ranks_per_node": 2}]}
J
"$BIN" --quiet sweep pts.json --out pout -j 1 > /dev/null 2> err || { echo "FAIL points sweep exits 0"; cat err; exit 1; }
python3 - pout "$SRC/tests/e2e" err <<'P'
import glob, json, os, sys
out = sys.argv[1]
err = open(sys.argv[3]).read()
sys.path.insert(0, sys.argv[2])
from e2echeck import check, exit_status, svg_texts
d = json.load(open(f"{out}/sweep.json"))
check("units of both MCA axes: bytes", d["units"].get("mca.btl_ugni_smsg_limit") == "B" and d["units"].get("mca.btl_ugni_eager_limit") == "B", d["units"])
check("the eager limit a point leaves to its base: the value its run used (8192 B), 4096 where set",
      sorted({r["mca.btl_ugni_eager_limit"] for r in d["rows"]}) == [4096, 8192], [r["mca.btl_ugni_eager_limit"] for r in d["rows"]])
check("smsg limit 256 and '512 B' both numbers", sorted({r["mca.btl_ugni_smsg_limit"] for r in d["rows"]}) == [256, 512], d["rows"])
check("ranks_per_node left to the base: empty (null)", sum(r["ranks_per_node"] is None for r in d["rows"]) == 6, d["rows"])
head = open(f"{out}/sweep.csv").readline()
check("the CSV header keeps the unit", "mca.btl_ugni_smsg_limit (B)" in head and "mca.btl_ugni_eager_limit (B)" in head, head)
svgs = sorted(os.path.basename(f) for f in glob.glob(f"{out}/*.svg"))
check("no plot against the key every point sets alike", "sweep_benchmark_sizes.svg" not in svgs and "sweep_ranks_per_node.svg" in svgs, svgs)
tx = " ".join(t for f in svgs for t in svg_texts(f"{out}/{f}"))
check("no 'null' on any plot, 'base' on the ranks_per_node axis", "null" not in tx and "base" in svg_texts(f"{out}/sweep_ranks_per_node.svg"), tx[:400])
check("no curve label names benchmark.sizes", "benchmark.sizes" not in tx, tx[:400])
check("the key every point sets alike: said why it has no plot",
      "no plot against benchmark.sizes: every point has benchmark.sizes = [8,1024], and a plot needs two values of it" in err, err)
exit_status()
P
rc=$((rc || $?))
# a one-point sweep into the folder of the two-axis sweep: the table, no plot, and a line saying why; the earlier
# grid's plots (listed in its ompisim-plots.txt) are removed, and said; a sweep_*.svg no sweep drew is left, and said
cp -r out one && echo '<svg>mine</svg>' > one/sweep_mine.svg
cat > one.json <<J
{"base": "$SRC/scenarios/gemini/fig5_latency_2p_inter_openmpi.json", "axes": {"nic.bte_bandwidth": ["5 GB/s"]}}
J
"$BIN" --quiet sweep one.json --out one -j 1 > /dev/null 2> err || { echo "FAIL one-point sweep exits 0"; cat err; exit 1; }
python3 - one err <<'P' || rc=1
import glob, json, sys
out, err = sys.argv[1], open(sys.argv[2]).read()
rows = json.load(open(f"{out}/sweep.json"))["rows"]
ok = (glob.glob(f"{out}/*.svg") == [f"{out}/sweep_mine.svg"] and rows and all(r["nic.bte_bandwidth"] == 5 for r in rows)
      and "sweep_mine.svg: not a plot a sweep drew here" in err
      and "no plot against nic.bte_bandwidth: every point has nic.bte_bandwidth = 5 GB/s, and a plot needs two values of it" in err
      and all(f"/sweep_{a}.svg: a plot of an earlier sweep in this folder" in err for a in ("nic_bte_bandwidth", "mca_btl_vader_eager_limit")))
print(("ok   " if ok else "FAIL ") + "one-point sweep in a reused folder: a table of its one point, no plot, why, the earlier plots removed, a user's left")
if not ok:
    print(err, rows[:2], glob.glob(f"{out}/*"))
sys.exit(0 if ok else 1)
P
cat > thin.json <<J
{"base": "$SRC/scenarios/gemini/fig5_latency_2p_inter_openmpi.json",
 "axes": {"nic.bte_bandwidth": ["4 GB/s", "6 GB/s"], "mca.btl_ugni_fma_limit": [1024, 65536]}}
J
"$BIN" --quiet sweep thin.json --out thin -j 1 > /dev/null 2> err || { echo "FAIL thin sweep exits 0"; cat err; exit 1; }
python3 - thin "$SRC/tests/e2e" <<'P'
import json, re, sys
sys.path.insert(0, sys.argv[2])
from e2echeck import byte_label, check, exit_status, svg_texts
rows = json.load(open(f"{sys.argv[1]}/sweep.json"))["rows"]
lat = {}  # (size, FMA limit) -> latencies along the BTE bandwidth
for r in rows:
    lat.setdefault((r["bytes"], r["mca.btl_ugni_fma_limit"]), []).append(r["latency_us"])
moved = sorted({b for (b, _), v in lat.items() if max(v) / min(v) > 1.01})
tx = svg_texts(f"{sys.argv[1]}/sweep_nic_bte_bandwidth.svg")
keys = [x for x in tx if x.startswith("message size ")]
drawn = sorted({b for b in moved for k in keys if re.match(f"message size {byte_label(b)}(,|$)", k)})
caption = " ".join(tx)
m = re.search(r"every message size would take (\d+) curves, so every (\d+)(st|nd|rd|th)( and message size [^,]+, where "
              r"the spread is largest,)? is drawn \(at most 12 curves\)", caption)
check("the caption gives the step and the curves every size would take", m, caption[-600:])
# the size of the curve the axis changes most (the title's spread) is drawn whatever the step
top = max(lat, key=lambda k: max(lat[k]) / min(lat[k]))[0]
if m:
    step, would = int(m.group(2)), int(m.group(1))
    check("over 12 curves without thinning, at most 12 drawn", would > 12 >= len(keys), f"{would} would be, {len(keys)} drawn")
    want = sorted(set(moved[::step]) | {top})
    check("the drawn sizes are every k-th of those the axis moves and the one it moves most", drawn == want,
          f"k={step}, top={top}: {drawn} vs {want}")
    check("the caption names that one where it is not a k-th", (top in moved[::step]) ==
          (m.group(4) is None) and (m.group(4) is None or f"message size {byte_label(top)}," in m.group(4)), caption[-600:])
    check("the moved sizes not drawn are named", all(byte_label(b) in caption for b in set(moved) - set(drawn)), caption[-600:])
exit_status()
P
rc=$((rc || $?))
# A sweep over the process count whose curves are a barrier's tree radices: the title names radices, not sizes.
printf '{"id": "rb", "machine": "titan", "stack": "openmpi", "ranks": 64, "ranks_per_node": 16, "benchmark": {"name": "barrier_loop", "algorithm": "cheetah-atomic", "radix": [2, 16], "iterations": 3, "skip": 1}}' > "$t/rb.json"
printf '{"base": "rb.json", "axes": {"ranks": [64, 256]}}' > "$t/grid_rb.json"
"$BIN" sweep "$t/grid_rb.json" --out "$t/rb" > /dev/null 2> "$t/rb.err"
if command -v gnuplot > /dev/null; then
  if grep -q "the radices it moves by over" "$t/rb/sweep_ranks.svg"; then
    echo "ok   a sweep whose curves are tree radices names them radices"
  else
    echo "FAIL radix curves: $(grep -o "against ranks[^<]*" "$t/rb/sweep_ranks.svg" | head -1) $(tail -2 "$t/rb.err")"; rc=1
  fi
fi
exit $rc
