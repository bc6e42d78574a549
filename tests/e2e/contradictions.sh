#!/usr/bin/env bash
# Inputs that contradict each other or do not apply. Configuration: one scenario per case. Expected: exit 2
# with file, key and reason, nothing written (each was silently accepted, or exit 3, before). How validated: lib_check.sh.
set -u
BIN=$1; t=$(mktemp -d); trap 'rm -rf "$t"' EXIT; fail=0
. "$(dirname "$0")/lib_check.sh"
L='"benchmark": {"name": "osu_latency", "sizes": [1], "iterations": 2, "skip": 0}'
check nodes_ignored "{\"machine\": \"cielo\", \"stack\": \"openmpi\", $L, \"ranks\": 2, \"ranks_per_node\": 1, \"nodes\": [0, 5, 9]}" "key 'nodes'.*would be ignored"
check rpn_above_ranks "{\"machine\": \"cielo\", \"stack\": \"openmpi\", $L, \"ranks\": 2, \"ranks_per_node\": 3}" "key 'ranks_per_node'.*must not exceed ranks"
check window_latency '{"machine": "cielo", "stack": "openmpi", "benchmark": {"name": "osu_latency", "window": 8}, "ranks": 2}' "key 'benchmark.window'.*ping-pong"
B='"benchmark": {"name": "barrier_loop", "algorithm": "cheetah-atomic", "iterations": 2, "skip": 0}, "ranks": 4'
check cheetah_native "{\"machine\": \"cielo\", \"stack\": \"native\", $B}" "key 'benchmark.algorithm'.*Cheetah"
check cheetah_loggp "{\"machine\": \"loggp\", \"stack\": \"loggp\", $B}" "key 'benchmark.algorithm'.*Cheetah"
check cheetah_seastar "{\"machine\": \"red-storm\", \"stack\": \"openmpi-cm\", $B}" "key 'benchmark.algorithm'.*Cheetah"
# A preset whose name has network atomics on another NIC kind ('openmpi' on Gemini) but not on this machine's: the
# check after the machine resolves the stack (was exit 3, 'has no remote atomics').
check cheetah_ib "{\"machine\": \"lanl-multi-nic\", \"stack\": \"openmpi\", $B}" "key 'benchmark.algorithm'.*Cheetah.*on lanl-multi-nic"
# MPICH's scatter + recursive-doubling bcast on a count that is not a power of two (MPICH asserts it; was exit 3).
check rdb_bcast_pow2 '{"machine": "cielo", "stack": "openmpi", "ranks": [8, 12], "benchmark": {"name": "osu_bcast", "algorithm": "mpich_scatter_rdb_allgather", "sizes": [8]}}' "key 'benchmark.algorithm'.*power-of-two.*not on 12"
check two_proc_alltoall '{"machine": "cielo", "stack": "openmpi", "ranks": 4, "benchmark": {"name": "osu_alltoall", "algorithm": "two_proc", "sizes": [8]}}' "key 'benchmark.algorithm'.*'two_proc' runs on exactly 2 ranks, not on 4"
check two_proc_barrier '{"machine": "cielo", "stack": "openmpi", "ranks": 3, "benchmark": {"name": "barrier_loop", "algorithm": "two_proc"}}' "key 'benchmark.algorithm'.*'two_proc' runs on exactly 2 ranks, not on 3"
# osu_allreduce sends a count of MPI_FLOATs: a size that is not a multiple of 4 B is no OSU size.
check allreduce_partial_float '{"machine": "cielo", "stack": "openmpi", "ranks": 4, "benchmark": {"name": "osu_allreduce", "sizes": [4, 6]}}' "key 'benchmark.sizes'.*6 B is not a whole number.*4-byte"
check ugni_on_seastar "{\"machine\": \"red-storm\", \"stack\": \"openmpi-cm\", $L, \"ranks\": 2, \"mca\": {\"btl_ugni_smsg_limit\": 1024}}" "key 'mca.btl_ugni_smsg_limit'.*btl/ugni.*gemini"
check portals_on_gemini "{\"machine\": \"cielo\", \"stack\": \"openmpi\", $L, \"ranks\": 2, \"mca\": {\"mtl_portals_eager_limit\": 1024}}" "key 'mca.mtl_portals_eager_limit'.*mtl/portals"
check other_stack_same_family "{\"machine\": \"cielo\", \"stack\": \"native\", $L, \"ranks\": 2, \"mca\": {\"btl_ugni_eager_limit\": 1024}}" "key 'mca.btl_ugni_eager_limit'.*stack 'openmpi'"
check mca_typo "{\"machine\": \"cielo\", \"stack\": \"openmpi\", $L, \"ranks\": 2, \"mca\": {\"btl_ugni_smsg_limt\": 1024}}" "did you mean 'btl_ugni_smsg_limit'"
check set_other_family "{\"machine\": \"red-storm\", \"stack\": \"openmpi-cm\", $L, \"ranks\": 2}" "--set 'btl_ugni_eager_limit'.*gemini" --set btl_ugni_eager_limit=1024
# Stacks composed from components (runner/stacks.hpp): the key path of the bad component and the reason.
check stack_unknown_btl "{\"machine\": \"cielo\", \"stack\": {\"pml\": \"ob1\", \"btl\": [\"self\", \"vadr\"]}, $L, \"ranks\": 2}" "key 'stack.btl\[1\]'.*unknown btl component 'vadr'.*did you mean 'vader'"
check stack_wrong_nic "{\"machine\": \"red-storm\", \"stack\": {\"pml\": \"ob1\", \"btl\": [\"self\", \"ugni\"]}, $L, \"ranks\": 2}" "key 'stack.btl\[1\]'.*btl/ugni runs on gemini"
check stack_ob1_no_btl "{\"machine\": \"cielo\", \"stack\": {\"pml\": \"ob1\"}, $L, \"ranks\": 2}" "key 'stack.btl'.*at least one BTL"
check stack_cm_no_mtl "{\"machine\": \"red-storm\", \"stack\": {\"pml\": \"cm\"}, $L, \"ranks\": 2}" "key 'stack.mtl'.*needs an MTL"
check mca_outside_composed "{\"machine\": \"cielo\", \"stack\": {\"pml\": \"ob1\", \"btl\": [\"self\", \"vader\"]}, $L, \"ranks\": 2, \"mca\": {\"btl_ugni_eager_limit\": 1024}}" "key 'mca.btl_ugni_eager_limit'.*parameter of btl/ugni"
# A radix given to a barrier that has none (recursive doubling; coll/tuned's choices) was ignored: p2p gave the same
# latency at every radix. The tree barriers take it (no error).
Bar='"machine": "titan", "stack": "openmpi", "ranks": 16, "ranks_per_node": 1'
check radix_p2p "{$Bar, \"benchmark\": {\"name\": \"barrier_loop\", \"algorithm\": \"cheetah-p2p\", \"radix\": 8}}" "key 'benchmark.radix'.*'cheetah-p2p' has no radix.*cheetah-atomic, cheetah-hierarchical"
check radix_list_tuned "{$Bar, \"benchmark\": {\"name\": \"barrier_loop\", \"radix\": [4, 8]}}" "key 'benchmark.radix'.*'tuned' has no radix"
check radix_twice "{$Bar, \"benchmark\": {\"name\": \"barrier_loop\", \"algorithm\": \"cheetah-atomic\", \"radix\": [4, 8, 4]}}" "key 'benchmark.radix\\[2\\]'.*radix 4 is in the list twice"
printf '{%s, "benchmark": {"name": "barrier_loop", "algorithm": "cheetah-atomic", "radix": [4, 8], "iterations": 2, "skip": 1}}' "$Bar" > "$t/radix_ok.json"
"$BIN" run "$t/radix_ok.json" --json --out "$t/out-radix_ok" > "$t/radix_ok.out" 2> "$t/radix_ok.err" \
  && python3 -c "import json,sys; r=json.load(open(sys.argv[1])); assert [p['radix'] for p in r['points']] == [4, 8], r['points']" "$t/radix_ok.out" \
  && echo "ok   radix_atomic: radices 4 and 8 run" || { echo "FAIL radix_atomic: $(cat "$t/radix_ok.err")"; fail=1; }
exit $fail
