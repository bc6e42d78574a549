#!/usr/bin/env bash
# Wall time and peak memory (GNU time) of the large runs (bench/README.md). Not a test: figures go into the
# closing note / README. Usage: [LIMIT=seconds] bench/run.sh [build/bin/ompisim] (each run is stopped after LIMIT s)
set -u
BIN=${1:-build/bin/ompisim}; t=$(mktemp -d); trap 'rm -rf "$t"' EXIT
run() {  # name json
  printf '%s' "$2" > "$t/$1.json"
  /usr/bin/time -f "$1: %e s wall, %M KB peak" timeout "${LIMIT:-900}" "$BIN" run "$t/$1.json" --out "$t/o" > /dev/null 2>> "$t/times"
  tail -1 "$t/times"
}
run_all() {  # name scenario files: every file run one after the other (ompisim run each), timed as one
  local name=$1; shift
  /usr/bin/time -f "$name: %e s wall, %M KB peak" timeout "${LIMIT:-900}" bash -c \
    'b=$1; o=$2; shift 2; for f in "$@"; do "$b" run "$f" --out "$o" > /dev/null || exit; done' _ "$BIN" "$t/o" "$@" \
    2>> "$t/times"
  tail -1 "$t/times"
}
run fig5_latency_sweep '{"machine": "cielo", "stack": "openmpi", "benchmark": {"name": "osu_latency"}, "ranks": 2, "ranks_per_node": 1}'
run mbw_mr_8_nodes '{"machine": "cielo", "stack": "openmpi", "benchmark": {"name": "osu_mbw_mr"}, "ranks": 8, "ranks_per_node": 1}'
run multi_lat_16384 '{"machine": "cielo", "stack": "openmpi", "benchmark": {"name": "osu_multi_lat", "sizes": [1, 1024, 65536], "iterations": 100, "skip": 10}, "ranks": 16384, "ranks_per_node": 16}'
run fig7_sweep_atomic '{"machine": "cielo", "stack": "openmpi", "benchmark": {"name": "barrier_loop", "algorithm": "cheetah-atomic", "radix": 4}, "ranks": [2,4,8,16,32,64,128,256,512,1024], "ranks_per_node": 1}'
run fig7_sweep_p2p '{"machine": "cielo", "stack": "openmpi", "benchmark": {"name": "barrier_loop", "algorithm": "cheetah-p2p"}, "ranks": [2,4,8,16,32,64,128,256,512,1024], "ranks_per_node": 1}'
run titan_atomic_299008 '{"machine": "titan", "stack": "openmpi", "benchmark": {"name": "barrier_loop", "algorithm": "cheetah-atomic", "radix": 4, "iterations": 1, "skip": 0}, "ranks": 299008, "ranks_per_node": 16}'
run titan_atomic_radix8_defaults '{"machine": "titan", "stack": "openmpi", "benchmark": {"name": "barrier_loop", "algorithm": "cheetah-atomic", "radix": 8}, "ranks": 299008, "ranks_per_node": 16}'
run titan_p2p_299008 '{"machine": "titan", "stack": "openmpi", "benchmark": {"name": "barrier_loop", "algorithm": "cheetah-p2p", "iterations": 1, "skip": 0}, "ranks": 299008, "ranks_per_node": 16}'
run seastar_netpipe_ob1 '{"machine": "red-storm", "stack": "openmpi-ob1", "benchmark": {"name": "netpipe"}, "ranks": 2}'
run titan_mailbox_whatif_16384 "$(cat scenarios/gemini/whatif_mailbox_memory_titan.json)"
run fig5_app_s3d_native "$(cat scenarios/seastar/fig5_app_s3d_native.json)"
run titan_atomic_radix_sweep_whatif "$(cat scenarios/gemini/whatif_barrier_titan_atomic_radix_sweep.json)"
run slingshot_alltoall_512_sweep '{"machine": "crusher", "stack": "openmpi-linkx", "benchmark": {"name": "osu_alltoall", "algorithm": "pairwise"}, "ranks": 512, "ranks_per_node": 8, "map_by": "core", "cpu_list": [1, 9, 17, 25, 33, 41, 49, 57]}'
run slingshot_alltoall_4096_64k '{"machine": "frontier", "stack": "openmpi-linkx", "engine": "fluid", "benchmark": {"name": "osu_alltoall", "algorithm": "pairwise", "sizes": [65536], "iterations": 10}, "ranks": 4096, "ranks_per_node": 8, "map_by": "core", "cpu_list": [1, 9, 17, 25, 33, 41, 49, 57]}'
run qsnet_barrier_4096_openmpi "$(cat scenarios/qsnet/whatif_barrier_4096_openmpi.json)"
run qsnet_barrier_4096_native "$(cat scenarios/qsnet/whatif_barrier_4096_native.json)"
run_all qsnet_whole_paper scenarios/qsnet/*.json
