#!/usr/bin/env bash
# The fluid engine (the default) against the committed results, which it made. (1) `compare --against results
# --engine fluid` reruns scenarios whose flows contend (bidirectional and multi-pair bandwidth, an alltoall beside a
# neighbour job's streams, heterogeneous striping, two 512-rank alltoalls) on the fluid engine: no value differs
# (tolerance 0, exit 0; the issue's bound is 1e-6, and with the completion grid the rerun repeats every value).
# (2) The same rerun on the DES engine (no sharing) drifts (exit 1), so the check can fail. (3) An unknown engine
# exits 2 naming the key or the flag: scenario "engine", `run --engine`, `compare --against --engine`; `--engine`
# without --against exits 2.
set -u
BIN=$(realpath "$1"); SRC=$(cd "$(dirname "$0")/../.." && pwd); t=$(mktemp -d); trap 'rm -rf "$t"' EXIT; fail=0
cd "$t"
for only in gemini/fig6_bibw_2p_inter_openmpi gemini/fig6_mbw_mr_8p_inter_openmpi \
            slingshot/fig4_bibw_inter_h2h_openmpi-linkx whatif_routing_minimal_alltoall_64p_8groups_neighbour \
            hetero/fig2_bw_both.json slingshot/fig7_alltoall_512p_h2h_openmpi-linkx.json \
            slingshot/fig7_alltoall_512p_d2d_native.json; do
  "$BIN" compare --against "$SRC/results" --only "$only" --engine fluid --tolerance 0 --diff-only > "$t/out" 2>&1
  rc=$?
  [[ $rc == 0 ]] && grep -q "values compared, 0 beyond tolerance, 0 structural" "$t/out" \
    && echo "ok   fluid $only: $(tail -1 "$t/out")" || { echo "FAIL fluid $only: rc=$rc $(tail -3 "$t/out")"; fail=1; }
done
"$BIN" compare --against "$SRC/results" --only gemini/fig6_mbw_mr_8p_inter_openmpi --engine des --tolerance 1e-6 \
  --diff-only > "$t/out" 2>&1; rc=$?
[[ $rc == 1 ]] && echo "ok   des drifts: $(tail -1 "$t/out")" || { echo "FAIL des: rc=$rc $(tail -2 "$t/out")"; fail=1; }
expect2() {  # what, pattern, command...
  local what=$1 pat=$2; shift 2
  "$@" > "$t/out" 2>&1; local rc=$?
  [[ $rc == 2 ]] && grep -q -- "$pat" "$t/out" && echo "ok   $what: $(head -1 "$t/out")" \
    || { echo "FAIL $what: rc=$rc $(head -2 "$t/out")"; fail=1; }
}
cat > "$t/bad.json" <<'J'
{"id": "bad", "machine": "cielo", "stack": "openmpi", "engine": "fluidd", "ranks": 2,
 "benchmark": {"name": "osu_latency", "sizes": [8], "iterations": 2, "skip": 0}}
J
expect2 "scenario engine" "key 'engine': expected one of simgrid, des, fluid" "$BIN" run "$t/bad.json" --out "$t/o"
expect2 "run --engine" "error: --engine 'nope': expected one of simgrid, des, fluid, lmm (ompisim list)$" "$BIN" run "$SRC/scenarios/gemini/fig3_latency_2p_intra_openmpi.json" \
  --engine nope --out "$t/o"
expect2 "compare --engine" "error: --engine 'nope': expected one of simgrid, des, fluid, lmm (ompisim list)$" "$BIN" compare --against "$SRC/results" --only fig3 --engine nope
expect2 "compare --engine without --against" "error: --engine 'fluid': applies to --against only" "$BIN" compare a b --engine fluid
exit $fail
