#!/usr/bin/env bash
# describe shows what components declare once: btl/ugni's and native/mpich_gni's statistics (name, unit,
# description) and their SMSG limits resolved per job size (btl/ugni: its revision's rule in btl_ugni_mca.hpp; Cray MPT:
# Table I, protocols/base/smsg_auto_limit.hpp),
# and a run's provenance records the effective value.
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
"$BIN" describe cielo > "$t/cielo" || fail=1
check cielo "btl_ugni_smsg_limit (effective)"
echo '{"id": "d", "machine": "cielo", "stack": "native", "ranks": 2, "benchmark": {"name": "osu_latency", "iterations": 2, "skip": 0, "sizes": [8]}}' > "$t/d.json"
"$BIN" run "$t/d.json" --json --out "$t/o" > /dev/null 2>&1 || fail=1
grep -rqF '"mpich_gni_max_vshort_msg_size (effective)": 8192.0' "$t/o" && echo "ok   provenance" || { echo "FAIL provenance"; grep -r derived -A3 "$t/o" | head; fail=1; }
exit $fail
