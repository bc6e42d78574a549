#!/usr/bin/env bash
# Configuration: `reproduce --from <source>/results --out T`: every figure of the committed results redrawn, nothing
#                run.
# Expected:      exit 0; every figure drawn as curves (not bars) sets its y range in numbers from what it draws (the
#                simulated points, the paper's points, the ends of the interval bars, the peak lines; on a log x axis
#                only x > 0, which is what gnuplot draws), not rounded out to whole decades: on a log axis the bottom
#                at most a factor 2 (a third of a decade) under the smallest value; at most 10 % of the frame below
#                it, except a share (CPU availability), drawn on a linear axis from 0; the top above the largest
#                value by at most 10 % of the frame, whatever the key's rows (the range is never raised for the key);
#                a log y axis has explicit ticks, at least 3 inside the range, no two closer than 3 % of the frame,
#                labels of at most 6 characters; Gemini Fig. 5 (1.5 us to 3 ms) and Fig. 7 (2 to 25 us, an interval
#                bar to 20 us) are among at least 50 figures checked. In every SVG with a boxed key (all but the two
#                bar charts of reproduce's own), the key's box lies in the canvas, and either inside the frame with no
#                curve, marker, interval bar or line under it, or below the frame between the x axis's label and the
#                caption; Gemini Fig. 3 and Fig. 5 (8 entries) keep theirs in the frame over free space, at least one
#                figure has its key below the frame. Reproduce's own bar charts are titled by paper and figure
#                (heterogeneous Table 2, seastar-portals Fig. 5); Table 2's bars are named by their scenarios' words
#                ("Myrinet GM only, openmpi-gm"), not their ids, each name's lines inside the canvas.
# How validated: python3 on the scripts (set yrange, set logscale, set ytics, the plot command) and the files and
#                datablocks they plot; the key's box, the frame and what is drawn read back from the SVGs gnuplot
#                wrote (tests/e2e/svg_key.py).
set -u
BIN=$(realpath "$1"); SRC=$(realpath "$2"); t=$(mktemp -d); trap 'rm -rf "$t"' EXIT
if ! command -v gnuplot > /dev/null; then echo "FAIL gnuplot not installed (setup.sh installs it)"; exit 1; fi
"$BIN" --quiet reproduce --from "$SRC/results" --out "$t/r" > /dev/null 2> "$t/err" \
  || { echo "FAIL reproduce --from exits 0"; cat "$t/err"; exit 1; }
python3 - "$t/r" "$SRC/tests/e2e" <<'P'
import csv, glob, math, os, re, sys
root = sys.argv[1]; checked = []
sys.path.insert(0, sys.argv[2])
import svg_key
import e2echeck
from e2echeck import check
e2echeck.show_ok = False
def rows(src, gp):
    """The rows of a plotted source: a datablock of the script or a file beside it (',' separated)."""
    if src.startswith("$"):
        m = re.search(r"^" + re.escape(src) + r" << EOD\n(.*?)\nEOD$", gp, re.S | re.M)
        lines = m.group(1).split("\n") if m else []
    else:
        lines = open(os.path.join(root, src)).read().strip().split("\n")
    return [l.split(",") for l in lines if l]
for path in sorted(glob.glob(root + "/*/*.gp")):
    name = os.path.relpath(path, root)
    gp = open(path).read()
    if "with boxes" in gp or "histogram" in gp or "\nplot " not in gp:
        continue  # bars: a linear axis from 0
    logx = re.search(r"^set logscale x", gp, re.M) is not None
    logy = re.search(r"^set logscale y", gp, re.M) is not None
    ys = []
    def add(x, y):
        if (logx and x <= 0) or (logy and y <= 0):
            return
        ys.append(y)
    plot = gp.split("\nplot ", 1)[1].split("\nset ", 1)[0].split("\nreplot", 1)[0]
    keys = 0
    for part in plot.split(", \\\n  "):  # the script's parts, one a line
        part = part.strip()
        keys += " title " in part
        m = re.match(r"('([^']*)'|\$\w+) using (\S+) with (\w+)", part)
        if m is None:
            p = re.match(r"([0-9.eE+-]+) with lines", part)
            if p:
                ys.append(float(p.group(1)))
            continue
        src = m.group(2) if m.group(2) is not None else m.group(1)
        using, style = m.group(3), m.group(4)
        data = rows(src, gp)
        cols = re.findall(r"column\('(\w+)'\)", using)
        if cols:  # simulated: a header row names the columns
            xi, yi = data[0].index(cols[0]), data[0].index(cols[1])
            for r in data[1:]:
                add(float(r[xi]), float(r[yi]))
        elif style == "yerrorbars":
            for r in data:
                for v in r[1:4]:
                    add(float(r[0]), float(v))
        else:
            for r in data:
                add(float(r[0]), float(r[1]))
    if not check(f"{name}: values found", len(ys) > 0, "none"):
        continue
    lo_d, hi_d = min(ys), max(ys)
    m = re.search(r"^set yrange \[\s*([-+0-9.eE]+)\s*:\s*([-+0-9.eE]+)\s*\]", gp, re.M)
    if not check(f"{name}: y range set in numbers", m is not None, [l for l in gp.split("\n") if "yrange" in l]):
        continue
    lo, hi = float(m.group(1)), float(m.group(2))
    checked.append(name)
    check(f"{name}: range [{lo:g}, {hi:g}] holds the values {lo_d:g} to {hi_d:g}",
          lo <= lo_d * (1 + 1e-5) and hi >= hi_d * (1 - 1e-5))
    if logy:
        check(f"{name}: bottom {lo:g} within a factor 2 under the smallest value {lo_d:g}", lo * 2 >= lo_d)
    pos = (lambda y: math.log(y / lo) / math.log(hi / lo)) if logy else (lambda y: (y - lo) / (hi - lo))
    below, above = pos(lo_d), 1 - pos(hi_d)
    room = 0.10
    share = "set ylabel 'CPU availability (%)'" in gp
    check(f"{name}: {below:.1%} of the frame below the values (at most 10 %; a share from 0)",
          below <= 0.10 + 1e-9 or (share and not logy and lo == 0))
    check(f"{name}: a share on a linear axis from 0", not share or (not logy and lo == 0))
    check(f"{name}: {above:.1%} of the frame above the values ({keys} key rows; at most {room:.0%})", above <= room)
    if logy:
        tm = re.search(r"^set ytics \((.*)\)$", gp, re.M)
        if check(f"{name}: log y axis with explicit ticks", tm is not None, "no 'set ytics (...)'"):
            ticks = [(l, float(v)) for l, v in re.findall(r'"([^"]*)" ([-+0-9.eE]+)', tm.group(1))]
            inside = [v for _, v in ticks if lo <= v <= hi]
            check(f"{name}: at least 3 ticks inside the range", len(inside) >= 3, ticks)
            gaps = [pos(b) - pos(a) for a, b in zip(inside, inside[1:])]
            check(f"{name}: ticks at least 3 % of the frame apart", all(g >= 0.03 for g in gaps), gaps)
            check(f"{name}: tick labels of at most 6 characters", all(len(l) <= 6 for l, _ in ticks), ticks)
keyed, below, inside = 0, [], []
for path in sorted(glob.glob(root + "/*/*.svg")):
    name = os.path.relpath(path, root)
    svg = open(path).read()
    if svg_key.key_box(svg) is None:
        continue
    keyed += 1
    problems = svg_key.key_problems(svg)
    check(f"{name}: key box clear of the data and inside the canvas", not problems, problems)
    (below if svg_key.key_box(svg)[1] > svg_key.frame(svg)[3] else inside).append(name)
check("at least 60 figures with a boxed key", keyed >= 60, keyed)
# The two bar charts of reproduce's own: titled by paper and figure, bars named by their scenarios' words.
gp = open(os.path.join(root, "hetero/table2.gp")).read()
check("hetero/table2: titled by paper and figure", "set title 'heterogeneous, Table 2: " in gp,
      [l for l in gp.split("\n") if "title" in l][:1])
svg = open(os.path.join(root, "hetero/table2.svg")).read()
texts = re.findall(r"<text>([^<]*)</text>", svg)
check("hetero/table2: no bar named by a scenario id", not any(t.startswith("table2_") for t in texts), texts)
check("hetero/table2: bars named by what their descriptions say", "Myrinet GM only, openmpi-gm" in texts, texts)
height = float(re.search(r'viewBox="0 0 [0-9.]+ ([0-9.]+)"', svg).group(1))
ys = [float(y) for y in re.findall(r'<g transform="translate\([0-9.]+,([0-9.]+)\)"[^>]*>\s*<text>(?:out: predicted|stripe_above|openmpi-mvapi)', svg)]
check("hetero/table2: second lines of the bar names inside the canvas", len(ys) == 3 and max(ys) < height - 2, (ys, height))
check("seastar/fig5: titled by paper and figure",
      "set title 'seastar-portals, Fig. 5: " in open(os.path.join(root, "seastar/fig5.gp")).read())
check("Gemini Fig. 3 and Fig. 5 keep their key in the frame", {"gemini/fig3.svg", "gemini/fig5.svg"} <= set(inside),
      below)
check("a figure with its key below the frame", len(below) >= 1, below)
check("at least 50 figures checked", len(checked) >= 50, len(checked))
check("Gemini Fig. 5 and Fig. 7 among them", {"gemini/fig5.gp", "gemini/fig7.gp"} <= set(checked), checked[:5])
print(("FAIL" if e2echeck.failed else "ok  ") + f" y ranges of {len(checked)} figures")
e2echeck.exit_status()
P
