#!/usr/bin/env bash
# Configuration: `run SCENARIO --plot f.svg` with a gnuplot on the PATH that keeps the script it is given (run --plot
#                removes it after drawing): Gemini Fig. 5's Open MPI latency (a committed scenario with the paper's
#                values at 1 B, 1 KiB and 4 MiB), Slingshot Fig. 6 H2H intra-node's Cray MPICH osu_mbw_mr (a public peak
#                without a size), a what-if no reference file reads, and a copy of the Gemini scenario outside the data
#                folder.
# Expected:      the Gemini plot carries the reference file's values of that scenario's curve as an inline datablock
#                drawn as points keyed "(paper)", and the caption says what the circles are; the Slingshot plot draws
#                the public peak as a line keyed "public measurement: peak"; the what-if's plot and the copy's say
#                nothing of a paper (no reference data, no caption line).
# How validated: python3 reads the reference file and the saved script.
set -u
BIN=$(realpath "$1"); SRC=$(realpath "$2"); t=$(mktemp -d); trap 'rm -rf "$t"' EXIT; fail=0
check() { if eval "$2"; then echo "ok   $1"; else echo "FAIL $1"; fail=1; fi; }
mkdir -p "$t/bin"
cat > "$t/bin/gnuplot" <<'G'
#!/usr/bin/env bash
cp "$1" "$GP_SAVE"
out=$(sed -n "s/^set output '\(.*\)'$/\1/p" "$1")
echo '<svg/>' > "$out"
G
chmod +x "$t/bin/gnuplot"
plot() {  # plot NAME SCENARIO: the run's script in $t/NAME.gp
  GP_SAVE="$t/$1.gp" PATH="$t/bin:$PATH" "$BIN" --quiet run "$2" --out "$t/out-$1" --plot f.svg > /dev/null 2> "$t/$1.err"
}
cd "$SRC"
plot gemini scenarios/gemini/fig5_latency_2p_inter_openmpi.json
check "Gemini Fig. 5: run --plot exits 0 and writes the SVG" "[[ \$? == 0 && -s '$t/out-gemini/f.svg' ]]"
check "Gemini Fig. 5: the reference file's values of the curve, drawn as the paper's points, the caption says so" \
  "python3 - '$t/gemini.gp' validation/reference/gemini-xe-xk.json <<'P'
import json, re, sys
gp = open(sys.argv[1]).read()
want = sorted((max(p['select'].get('bytes', 1), 1), p['value']) for p in json.load(open(sys.argv[2]))['points']
              if p['scenario'] == 'scenarios/gemini/fig5_latency_2p_inter_openmpi.json' and p['metric'] == 'latency_us')
assert len(want) >= 2, want
block = re.search(r'^\\\$ref << EOD\n(.*?)^EOD\n', gp, re.M | re.S)
assert block, 'no reference datablock'
got = sorted(tuple(map(float, l.split(','))) for l in block.group(1).split())
assert got == [(float(x), float(y)) for x, y in want], (got, want)
assert re.search(r\"\\\$ref using 1:2 with points .*title 'openmpi \(paper\)'\", gp), 'not drawn as the paper points'
assert \"Filled circles: the paper''s values.\" in gp, 'no caption'
P"
plot slingshot scenarios/slingshot/fig6_mbw_mr_intra_h2h_native.json
check "Slingshot Fig. 6 H2H intra-node: the public peak as a dashed line" \
  "grep -q \"with lines lc 1 dt 4 lw 1.5 title 'native (public measurement: peak \" '$t/slingshot.gp' && grep -qi 'dashed lines: a peak value given without a message size' '$t/slingshot.gp'"
plot whatif scenarios/whatif/smsg_limit_256_latency_openmpi.json
cp scenarios/gemini/fig5_latency_2p_inter_openmpi.json "$t/copy.json"
plot copy "$t/copy.json"
for n in whatif copy; do
  check "$n: plotted, with nothing of a paper" \
    "[[ -s '$t/out-$n/f.svg' ]] && ! grep -qE 'ref << EOD|\(paper\)|public measurement|Filled circles|dashed lines' '$t/$n.gp'"
done
exit $fail
