#!/usr/bin/env bash
# Configuration: Slingshot scenarios with a buffer kind the node lacks, a libfabric provider link naming an unknown
# provider, and a rank bound to a GPU the node does not have; a machine file (base crusher) whose CXI matching mode
# (ofi/cxi's fi_cxi_rx_match_mode, set in its mca_defaults) is not one of hardware / software. Expected: exit 2, one line naming file, key and reason,
# no result written. How validated: lib_check.sh's check.
set -u
BIN=$1; t=$(mktemp -d); trap 'rm -rf "$t"' EXIT; fail=0
. "$(dirname "$0")/lib_check.sh"
L='"benchmark": {"name": "osu_latency", "sizes": [8]}, "ranks": 2, "ranks_per_node": 1'
check device_without_gpu '{"machine": "cielo", "stack": "openmpi", "benchmark": {"name": "osu_latency", "buffer": "device", "sizes": [8]}, "ranks": 2, "ranks_per_node": 1}' "key 'benchmark.buffer': device buffers need a GPU, but a cielo node has none"
check buffer_kind '{"machine": "crusher", "stack": "native", "benchmark": {"name": "osu_latency", "buffer": "hbm", "sizes": [8]}, "ranks": 2, "ranks_per_node": 1}' "key 'benchmark.buffer': expected 'host' or 'device'"
check unknown_provider "{\"machine\": \"crusher\", \"stack\": {\"pml\": \"cm\", \"mtl\": \"ofi\", \"ofi\": \"shm+verbs:linkx\"}, $L}" "key 'stack.ofi': unknown core provider 'verbs' in 'shm+verbs:linkx'"
check unknown_linker "{\"machine\": \"crusher\", \"stack\": {\"pml\": \"cm\", \"mtl\": \"ofi\", \"ofi\": \"shm+cxi:lnkx\"}, $L}" "key 'stack.ofi': unknown linking provider 'lnkx'"
check provider_without_mtl "{\"machine\": \"crusher\", \"stack\": {\"pml\": \"cm\", \"mtl\": \"portals\", \"ofi\": \"cxi\"}, $L}" "key 'stack.ofi': a libfabric provider is chosen for mtl/ofi only"
check gpu_missing "{\"machine\": \"crusher\", \"stack\": \"native\", $L, \"gpu_list\": [9]}" "key 'gpu_list\[0\]': GPU 9 does not exist: a crusher node has 8 (0..7)"
check gpu_on_cpu_node "{\"machine\": \"cielo\", \"stack\": \"openmpi\", $L, \"gpu_list\": [0]}" "key 'gpu_list\[0\]': GPU 0 does not exist: a cielo node has no GPU"
check gpu_list_short '{"machine": "crusher", "stack": "native", "benchmark": {"name": "osu_latency", "sizes": [8]}, "ranks": 2, "ranks_per_node": 2, "gpu_list": [0]}' "key 'gpu_list': 1 GPUs listed for 2 ranks per node"
# a machine file with a bad choice: run with --machine-file
printf '%s' '{"machine": "crusher-bad", "base": "crusher", "description": "t", "mca_defaults": {"fi_cxi_rx_match_mode": {"value": "sofware", "source": "t"}}}' > "$t/crusher-bad-machine.json"
check rx_match_mode "{\"machine\": \"crusher\", \"stack\": \"openmpi-cxi\", $L}" "crusher-bad-machine.json: key 'mca_defaults.fi_cxi_rx_match_mode.value': unknown value 'sofware' (did you mean 'software'?) (one of: hardware, software)" --machine-file "$t/crusher-bad-machine.json"
exit $fail
