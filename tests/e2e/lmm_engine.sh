#!/usr/bin/env bash
# The lmm engine (SimGrid's arithmetic without SimGrid) and the SimGrid engine against the committed results, which the
# default fluid engine made (with the 1 ns completion grid all three deliver the same callbacks at the same dates).
# Configuration: committed scenarios whose flows contend: a 512-rank alltoall (where, without the grid, the two
# engines' last-bit differences became other match orders), an alltoall beside a neighbour job's streams, multi-pair bandwidth, heterogeneous striping, an
# overflow storm. Expected: rerun on the lmm engine and on the SimGrid engine, every value equal to the committed one
# (tolerance 0, exit 0); a scenario without "engine" runs on fluid, the default. How validated: `compare --against
# results --engine E --tolerance 0`, the result's provenance.engine.
set -u
BIN=$(realpath "$1"); SRC=$(cd "$(dirname "$0")/../.." && pwd); t=$(mktemp -d); trap 'rm -rf "$t"' EXIT; fail=0
cd "$SRC"
for engine in lmm simgrid; do
  for only in slingshot/fig7_alltoall_512p_d2d_native.json whatif_routing_minimal_alltoall_64p_8groups_neighbour \
              gemini/fig6_mbw_mr_8p_inter_openmpi hetero/fig2_bw_both.json whatif_oflow_1x2MiB_storm_128p; do
    "$BIN" compare --against "$SRC/results" --only "$only" --engine $engine --tolerance 0 > "$t/out" 2>&1
    rc=$?
    [[ $rc == 0 ]] && grep -q "values compared, 0 beyond tolerance, 0 structural" "$t/out" \
      && echo "ok   $engine $only: $(tail -1 "$t/out")" || { echo "FAIL $engine $only: rc=$rc $(tail -3 "$t/out")"; fail=1; }
  done
done
# A scenario that names no engine runs on fluid (the default) and says so in its provenance.
"$BIN" run "$SRC/scenarios/gemini/fig3_latency_2p_intra_openmpi.json" --json --out "$t/d" > /dev/null 2>&1
engine=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["provenance"]["engine"])' \
  "$t/d/fig3_latency_2p_intra_openmpi.json" 2>&1)
[[ $engine == fluid ]] && echo "ok   default engine: $engine" || { echo "FAIL default engine: $engine"; fail=1; }
exit $fail
