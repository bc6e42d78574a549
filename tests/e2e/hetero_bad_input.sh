#!/usr/bin/env bash
# Configuration: heterogeneous-networks scenarios with a BTL for a network the machine has no NIC for (a preset and a
# stack object), a striping policy that does not exist, an MCA parameter of a BTL the stack does not use, an unknown
# datatype and sizes that are not whole elements (an unknown architecture: e2e.bad_machine's arch case).
# Expected: exit 2, one line naming file, key and reason, no result written. How validated: lib_check.sh's check.
set -u
BIN=$1; t=$(mktemp -d); trap 'rm -rf "$t"' EXIT; fail=0
. "$(dirname "$0")/lib_check.sh"
L='"benchmark": {"name": "osu_latency", "sizes": [8]}, "ranks": 2, "ranks_per_node": 1'
check btl_no_nic "{\"machine\": \"lanl-multi-nic\", \"stack\": {\"pml\": \"ob1\", \"btl\": [\"self\", \"openib\", \"tcp\"]}, $L}" "key 'stack.btl\[2\]': btl/tcp runs on gige machines, but machine 'lanl-multi-nic' has NICs ib-sdr-pcie, myrinet-2000"
check btl_no_nic_cielo "{\"machine\": \"cielo\", \"stack\": {\"pml\": \"ob1\", \"btl\": [\"self\", \"gm\"]}, $L}" "key 'stack.btl\[1\]': btl/gm runs on myrinet-2000 machines, but machine 'cielo' has a gemini NIC"
check preset_no_nic "{\"machine\": \"cielo\", \"stack\": \"openmpi-gm\", $L}" "key 'stack': stack 'openmpi-gm' runs on myrinet-2000 machines, but machine 'cielo' has a gemini NIC (stacks there: openmpi, native)"
check stripe_policy "{\"machine\": \"lanl-multi-nic\", \"stack\": \"openmpi\", $L, \"mca\": {\"pml_ob1_stripe_policy\": \"fastest_first\"}}" "key 'mca.pml_ob1_stripe_policy'.*weighted_rr.*stripe_above"
check mca_other_btl "{\"machine\": \"lanl-multi-nic\", \"stack\": \"openmpi-mvapi\", $L, \"mca\": {\"btl_gm_eager_limit\": \"16 KiB\"}}" "key 'mca.btl_gm_eager_limit': parameter of btl/gm"
H='"machine": "hetero-cpu", "stack": "openmpi", "ranks": 2, "ranks_per_node": 1, "nodes": [128, 0]'
check datatype "{$H, \"benchmark\": {\"name\": \"netpipe\", \"sizes\": [8], \"datatype\": \"MPI_INTEGER\"}}" "key 'benchmark.datatype': unknown datatype 'MPI_INTEGER'"
check datatype_size "{$H, \"benchmark\": {\"name\": \"netpipe\", \"sizes\": [8, 6], \"datatype\": \"MPI_INT\"}}" "key 'benchmark.sizes\[1\]': 6 bytes is not a whole number of MPI_INT (4 bytes each)"
exit $fail
