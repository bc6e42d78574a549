#!/usr/bin/env bash
# describe shows what components declare once: the statistics of btl/ugni, btl/vader, btl/portals, btl/gm (those of
# the Open MPI 1.1 BTLs over the commodity NICs), native/mpich_gni, pml/ob1, pml/teg and ptl/elan4 (name, unit,
# description; every counter of theirs a run reports is among them), also listed per component, indented, by describe
# MACHINE (cielo, red-storm, osu-elan4); a run of each stack on mtl/ofi (with ofi/cxi, ofi/shm, ofi/linkx),
# mtl/portals, btl/ugni, btl/openib + btl/gm, btl/tcp, the native comparators and the NIC models they drive (SeaStar,
# Elan4), and the loggp stack reports no counter its components do not declare; the SMSG limits resolved per job size (btl/ugni:
# its revision's rule in btl_ugni_mca.hpp; Cray MPT: Table I, protocols/base/smsg_auto_limit.hpp), and a run's
# provenance records the effective value; a scenario description's control characters are printed escaped.
set -u
BIN=$(realpath "$1"); HERE=$(dirname "$(realpath "$0")"); t=$(mktemp -d); trap 'rm -rf "$t"' EXIT; fail=0
check() { if grep -qF -- "$2" "$t/$1"; then echo "ok   $1: $2"; else echo "FAIL $1: no '$2'"; fail=1; fi; }
"$BIN" describe btl/ugni > "$t/ugni" || fail=1
check ugni "## statistics"
check ugni "ugni_short_sends"
check ugni "[messages]"
check ugni "btl_ugni_smsg_limit (effective)"
check ugni "from 1 rank: 1024; from 1025 ranks: 512; from 16385 ranks: 256"
"$BIN" describe native/mpich_gni > "$t/mpt" || fail=1
check mpt "e1_buffer_waits"
check mpt "mpich_gni_max_vshort_msg_size (effective)"
check mpt "from 1 rank: 8192; from 256 ranks: 1024; from 1024 ranks: 512; from 16384 ranks: 256"
"$BIN" describe pml/ob1 > "$t/ob1" || fail=1
for h in MATCH RNDV RGET ACK NACK FRAG PUT FIN; do check ob1 "ob1_$h "; done
for n in unexpected_short unexpected_long unexpected_copy rget_fallbacks put_fins converted_bytes early_completions; do
  check ob1 "ob1_$n "
done
check ob1 "mpi_truncate_errors "
check ob1 "[bytes] typed data converted"
"$BIN" describe pml/teg > "$t/teg" || fail=1
for n in teg_unexpected layer_pml_ns layer_pml_count; do check teg "$n "; done
check teg "[ns]"
# Every counter of ob1 (on cielo) and of teg (on osu-elan4) in a run is declared: a rendezvous size, so that the
# protocol counters are non-zero.
declared() {  # $1: describe output, $2: run output folder, $3: counter-name pattern of the component
  for k in $(grep -rhoE "\"$3[A-Za-z_]*\": [0-9]+" "$2" | cut -d'"' -f2 | sort -u); do
    grep -q "^$k " "$t/$1" && echo "ok   $1 declares $k" || { echo "FAIL $1: run counter $k not declared"; fail=1; }
  done
  grep -rqE "\"$3" "$2" || { echo "FAIL $1: no $3 counter in the run"; fail=1; }
}
echo '{"id": "o", "machine": "cielo", "stack": "openmpi", "ranks": 2, "benchmark": {"name": "osu_latency", "iterations": 2, "skip": 0, "sizes": [8, 1048576]}}' > "$t/o.json"
"$BIN" run "$t/o.json" --json --out "$t/oo" > /dev/null 2>&1 || fail=1
declared ob1 "$t/oo" "ob1_"
echo '{"id": "e", "machine": "osu-elan4", "stack": "openmpi-elan4", "ranks": 2, "benchmark": {"name": "osu_latency", "iterations": 2, "skip": 0, "sizes": [8, 1048576]}}' > "$t/e.json"
"$BIN" run "$t/e.json" --json --out "$t/eo" > /dev/null 2>&1 || fail=1
declared teg "$t/eo" "(teg_|layer_pml_)"
"$BIN" describe ptl/elan4 > "$t/ptl" || fail=1
for n in eager rendezvous acks fins fin_acks rdma_completions interrupts polls handoffs cq_entries; do
  check ptl "ptl_elan4_$n "
done
check ptl "context_switches "
declared ptl "$t/eo" "(ptl_elan4_|context_switches)"
"$BIN" describe btl/vader > "$t/vader" || fail=1
for n in fbox_sends copy_sends single_copy_sends xpmem_attaches; do check vader "vader_$n "; done
declared vader "$t/oo" "vader_"
"$BIN" describe btl/portals > "$t/bportals" || fail=1
for n in frags queued_sends rdma_gets md_binds md_unlinks recv_events; do check bportals "btl_portals_$n "; done
"$BIN" describe cielo > "$t/cielo" || fail=1
check cielo "btl_ugni_smsg_limit (effective)"
# each network's node slots, how many the node list fills, its routers and directed links (a 16 x 12 x 24 torus: 4,608
# routers of 2 node slots, 6 links out of each; 9,216 slots, 8,894 nodes)
check cielo "; 9216 node slots, 8894 filled, 4608 routers, 27648 links (one per direction)"
# describe MACHINE lists each component's declared statistics under it, indented (never read as a parameter name).
check cielo "    ugni_short_sends "
check cielo "    vader_fbox_sends "
check cielo "    e1_buffer_waits "
"$BIN" describe red-storm > "$t/redstorm" || fail=1
for n in btl_portals_frags mtl_short_sends seastar_interrupts; do check redstorm "    $n "; done
"$BIN" describe osu-elan4 > "$t/elan4" || fail=1
for n in ptl_elan4_eager context_switches teg_unexpected; do check elan4 "    $n "; done
echo '{"id": "d", "machine": "cielo", "stack": "native", "ranks": 2, "benchmark": {"name": "osu_latency", "iterations": 2, "skip": 0, "sizes": [8]}}' > "$t/d.json"
"$BIN" run "$t/d.json" --json --out "$t/o" > /dev/null 2>&1 || fail=1
grep -rqF '"mpich_gni_max_vshort_msg_size (effective)": 8192.0' "$t/o" && echo "ok   provenance" || { echo "FAIL provenance"; grep -r derived -A3 "$t/o" | head; fail=1; }
# Every counter a run reports is declared by one of the components of its stack (their describe outputs together;
# check_declared.py, shown to fail by describe_declared_detects.sh).
stack_declares() {  # $1: run output folder, $2...: the stack's components
  local out=$1; shift
  : > "$t/decl"
  for c in "$@"; do "$BIN" describe "$c" >> "$t/decl" || fail=1; done
  echo "# $*"
  python3 "$HERE/check_declared.py" "$out" "$t/decl" || fail=1
}
run_small() {  # $1: id, $2: machine, $3: stack, $4: ranks per node; 2 ranks, an eager and a rendezvous size
  echo "{\"id\": \"$1\", \"machine\": \"$2\", \"stack\": \"$3\", \"ranks\": 2, \"ranks_per_node\": $4, \"benchmark\": {\"name\": \"osu_latency\", \"iterations\": 2, \"skip\": 0, \"sizes\": [8, 1048576]}}" > "$t/$1.json"
  "$BIN" run "$t/$1.json" --json --out "$t/$1o" > /dev/null 2>&1 || { echo "FAIL run $1"; fail=1; }
}
for rpn in 1 2; do
  run_small "linkx$rpn" crusher openmpi-linkx $rpn
  stack_declares "$t/linkx${rpn}o" pml/cm mtl/ofi ofi/linkx ofi/shm ofi/cxi
  run_small "cxi$rpn" crusher openmpi-cxi $rpn
  stack_declares "$t/cxi${rpn}o" pml/cm mtl/ofi ofi/cxi
  run_small "mpt$rpn" crusher native $rpn
  stack_declares "$t/mpt${rpn}o" native/mpich_cxi
done
"$BIN" describe ofi/shm > "$t/shm" || fail=1
for n in inject single_copy ipc unexpected ipc_open ipc_cache_hit discards; do check shm "shm_$n "; done
check shm "mpi_truncate_errors "
"$BIN" describe mtl/portals > "$t/mportals" || fail=1
check mportals "mtl_short_sends "
check mportals "seastar_interrupts "
run_small cm red-storm openmpi-cm 1
stack_declares "$t/cmo" pml/cm mtl/portals
run_small ob1p red-storm openmpi-ob1 1
stack_declares "$t/ob1po" pml/ob1 btl/portals btl/self
run_small craympi red-storm native 1
stack_declares "$t/craympio" native/mpich_portals
declared ugni "$t/oo" "ugni_"
stack_declares "$t/oo" pml/ob1 btl/ugni btl/vader btl/self
stack_declares "$t/eo" pml/teg ptl/elan4
run_small tport osu-elan4 native 1
stack_declares "$t/tporto" native/mpich_qsnet
# The Open MPI 1.1 BTLs (one table, each BTL's counters under its own name) and the loggp stack.
"$BIN" describe btl/gm > "$t/gm" || fail=1
for n in frags priority_frags large_frags copied_frags bytes puts gets get_bytes channel_waits; do check gm "gm_$n "; done
run_small hetero lanl-multi-nic openmpi 1
stack_declares "$t/heteroo" pml/ob1 btl/openib btl/gm btl/self
declared gm "$t/heteroo" "gm_"
run_small tcp hetero-cpu openmpi 1
stack_declares "$t/tcpo" pml/ob1 btl/tcp btl/self
"$BIN" describe model/loggp > "$t/loggp" || fail=1
check loggp "loggp_rndv_sends "
run_small loggp loggp loggp 1
stack_declares "$t/loggpo" model/loggp
declared loggp "$t/loggpo" "loggp_"
# a scenario's description and expected text with an escape sequence, a carriage return and a newline: printed with
# them escaped (\x1b, \r, \n), the description on one line, no raw control byte reaching the terminal
python3 -c "import json, sys; json.dump({'id': 'esc', 'machine': 'cielo', 'stack': 'openmpi', 'description': 'evil \x1b[2J title\nforged line', 'expected': 'x\ry', 'benchmark': {'name': 'osu_latency', 'sizes': [8]}, 'ranks': 2, 'ranks_per_node': 1}, open(sys.argv[1], 'w'))" "$t/esc.json"
"$BIN" describe "$t/esc.json" > "$t/esc" || fail=1
check esc 'evil \x1b[2J title\nforged line'
check esc 'expected: x\ry'
if LC_ALL=C grep -q "$(printf '[\033\r]')" "$t/esc"; then echo "FAIL esc: a raw control byte"; fail=1; else echo "ok   esc: no raw control byte"; fi
exit $fail
