#!/usr/bin/env bash
# Configuration: `sweep` of Gemini Fig. 5's inter-node latency over mca.btl_ugni_smsg_limit (256 B, 4 KiB) and
#                nic.bte_bandwidth (4, 6 GB/s); a `gnuplot` first on PATH keeps a copy of each script it is given,
#                then runs the real gnuplot.
# Expected:      exit 0; each plot's script sets its y range in numbers from its data (no whole decades around
#                them): a log scale when its curves span more than a decade (the BTE bandwidth plot, 8 KiB to 4 MiB),
#                linear otherwise (the SMSG limit plot, 256 B to 4 KiB: 1.8 to 6 us); the bottom within a factor 1.5
#                under the smallest value and at most 10 % of the frame below it; above the largest value at most 10 %
#                of the frame, whatever the key's rows (the range is never raised for the key); the y label keeps its
#                unit. The key's box lies in the canvas, either inside the frame with no curve or marker under it or
#                below the frame between the x axis's label and the caption. Then the README's grid
#                (scenarios/examples/grid_ugni_smsg_bte.json): its BTE bandwidth plot, ten curves from 8 KiB (about
#                7 us) to 4 MiB (about 1,050 us) filling the frame, has its key below the frame and the top of its y
#                range under 1,400 us (a 5 % margin); its SMSG limit plot (five curves) keeps its key in the frame.
# How validated: python3 on the kept scripts (set logscale, set yrange, the data blocks, the plot titles); the key's
#                box, the frame and what is drawn read back from the SVGs gnuplot wrote (tests/e2e/svg_key.py).
set -u
BIN=$(realpath "$1"); SRC=$(realpath "$2"); t=$(mktemp -d); trap 'rm -rf "$t"' EXIT
real=$(command -v gnuplot) || { echo "FAIL gnuplot not installed (setup.sh installs it)"; exit 1; }
mkdir -p "$t/bin" "$t/kept"
cat > "$t/bin/gnuplot" <<W
#!/usr/bin/env bash
cp "\$1" "$t/kept/"
exec "$real" "\$@"
W
chmod +x "$t/bin/gnuplot"
cd "$t"
cat > grid.json <<J
{"base": "$SRC/scenarios/gemini/fig5_latency_2p_inter_openmpi.json",
 "axes": {"mca.btl_ugni_smsg_limit": [256, 4096], "nic.bte_bandwidth": ["4 GB/s", "6 GB/s"]}}
J
PATH="$t/bin:$PATH" "$BIN" --quiet sweep grid.json --out out -j 1 > /dev/null 2> err || { echo "FAIL sweep exits 0"; cat err; exit 1; }
python3 - kept out "$SRC/tests/e2e" <<'P'
import math, os, re, sys
kept = sys.argv[1]
sys.path.insert(0, sys.argv[3])
import svg_key
from e2echeck import check, exit_status
scripts = {f: open(os.path.join(kept, f)).read() for f in sorted(os.listdir(kept))}
check("one script per axis", set(scripts) == {"sweep_mca_btl_ugni_smsg_limit.gp", "sweep_nic_bte_bandwidth.gp"},
      sorted(scripts))
scales = {}
for name, gp in scripts.items():
    ys = [float(l.split()[1]) for b in re.findall(r"<< EOD\n(.*?)EOD", gp, re.S) for l in b.strip().split("\n")]
    keys = len(re.findall(r" title ", gp.split("\nplot ", 1)[-1]))
    lo_d, hi_d = min(ys), max(ys)
    m = re.search(r"^set yrange \[\s*([-+0-9.eE]+)\s*:\s*([-+0-9.eE]+)\s*\]", gp, re.M)
    check(f"{name}: y range set in numbers", m is not None, [l for l in gp.split("\n") if "yrange" in l])
    if not m:
        continue
    lo, hi = float(m.group(1)), float(m.group(2))
    log = re.search(r"^set logscale y", gp, re.M) is not None
    scales[name] = log
    check(f"{name}: log scale exactly when the data span over a decade ({lo_d:g} to {hi_d:g})",
          log == (hi_d / lo_d > 10), f"logscale {log}")
    check(f"{name}: bottom {lo:g} within a factor 1.5 under the smallest value {lo_d:g}",
          lo <= lo_d and lo * 1.5 >= lo_d)
    pos = (lambda y: math.log(y / lo) / math.log(hi / lo)) if log else (lambda y: (y - lo) / (hi - lo))
    below, above = pos(lo_d), 1 - pos(hi_d)
    room = 0.10
    check(f"{name}: {below:.1%} of the frame below the data (at most 10 %)", below <= 0.10)
    check(f"{name}: {above:.1%} of the frame above the data, {keys} key rows (at most {room:.0%})",
          0 <= above <= room)
    check(f"{name}: y label with its unit", "set ylabel 'latency (us)'" in gp)
    svg = open(os.path.join(sys.argv[2], name[:-3] + ".svg")).read()
    problems = svg_key.key_problems(svg)
    check(f"{name}: key box clear of the data and inside the canvas", not problems, problems)
check("both scales drawn (a linear plot and a log plot)", sorted(scales.values()) == [False, True], scales)
exit_status()
P
[ $? -eq 0 ] || exit 1
# The README's grid: ten curves of the BTE bandwidth plot fill the frame.
rm -rf kept/*
PATH="$t/bin:$PATH" "$BIN" --quiet sweep "$SRC/scenarios/examples/grid_ugni_smsg_bte.json" --out readme -j 1 > /dev/null \
  2> err || { echo "FAIL sweep of grid_ugni_smsg_bte.json exits 0"; cat err; exit 1; }
python3 - kept readme "$SRC/tests/e2e" <<'P'
import os, re, sys
sys.path.insert(0, sys.argv[3])
import svg_key
from e2echeck import check, exit_status
for stem, where in (("sweep_nic_bte_bandwidth", "below"), ("sweep_mca_btl_ugni_smsg_limit", "inside")):
    gp = open(os.path.join(sys.argv[1], stem + ".gp")).read()
    svg = open(os.path.join(sys.argv[2], stem + ".svg")).read()
    problems = svg_key.key_problems(svg)
    check(f"{stem}: key box clear of the data and inside the canvas", not problems, problems)
    box, frame = svg_key.key_box(svg), svg_key.frame(svg)
    check(f"{stem}: key {where} the frame", box is not None and (box[1] > frame[3]) == (where == "below"), (box, frame))
    titles = len(re.findall(r" title ", gp.split("\nplot ", 1)[-1]))
    if where == "below":
        check(f"{stem}: ten curves", titles == 10, titles)
        m = re.search(r"^set yrange \[\s*([-+0-9.eE]+)\s*:\s*([-+0-9.eE]+)\s*\]", gp, re.M)
        check(f"{stem}: top of the y range under 1,400 us", m is not None and float(m.group(2)) < 1400,
              m and m.group(0))
exit_status()
P
