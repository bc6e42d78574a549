#!/usr/bin/env bash
# describe shows what components declare once: the statistics of btl/ugni, btl/vader, btl/portals, native/mpich_gni,
# pml/ob1, pml/teg and ptl/elan4 (name, unit, description; every counter of theirs a run reports is among them), the
# SMSG limits resolved per job size (btl/ugni: its revision's rule in btl_ugni_mca.hpp; Cray MPT: Table I,
# protocols/base/smsg_auto_limit.hpp), and a run's provenance records the effective value.
set -u
BIN=$(realpath "$1"); t=$(mktemp -d); trap 'rm -rf "$t"' EXIT; fail=0
check() { if grep -qF -- "$2" "$t/$1"; then echo "ok   $1: $2"; else echo "FAIL $1: no '$2'"; fail=1; fi; }
"$BIN" describe btl/ugni > "$t/ugni" || fail=1
check ugni "## statistics"
check ugni "ugni_short_sends"
check ugni "[messages]"
check ugni "btl_ugni_smsg_limit (effective)"
check ugni "1 ranks: 1024 from 1025 ranks: 512 from 16385 ranks: 256"
"$BIN" describe native/mpich_gni > "$t/mpt" || fail=1
check mpt "e1_buffer_waits"
check mpt "mpich_gni_max_vshort_msg_size (effective)"
check mpt "1 ranks: 8192 from 256 ranks: 1024 from 1024 ranks: 512 from 16384 ranks: 256"
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
echo '{"id": "d", "machine": "cielo", "stack": "native", "ranks": 2, "benchmark": {"name": "osu_latency", "iterations": 2, "skip": 0, "sizes": [8]}}' > "$t/d.json"
"$BIN" run "$t/d.json" --json --out "$t/o" > /dev/null 2>&1 || fail=1
grep -rqF '"mpich_gni_max_vshort_msg_size (effective)": 8192.0' "$t/o" && echo "ok   provenance" || { echo "FAIL provenance"; grep -r derived -A3 "$t/o" | head; fail=1; }
exit $fail
