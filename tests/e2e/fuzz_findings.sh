#!/usr/bin/env bash
# Configuration: the inputs tests/fuzz/mutate.py found ending in an internal error (exit 3), each reduced to its cause:
#                a grid whose 'base' is a name too long for the file system (100,000 bytes; '../' 5,000 times); a
#                machine file whose 'base' adds a second network (osu-elan4 over loggp) under a stack that drives one
#                network (pml/teg); a `machine template --file` whose name is too long for the file system (300 bytes);
#                a result given to `compare` whose "stats" is a number; MPICH-QsNetII's eager limit set above what a
#                QDMA slot holds with its envelope (--set mpich_qsnet_eager_limit=4096). And `sensitivity` of a
#                committed scenario (qsnet/table1_basic.json) whose stepped QDMA slot (2028 B) no longer holds
#                ptl/elan4's first fragment and its header: the whole command failed on that one parameter's runs. A
#                size over the QDMA slot on native/elan4_qdma, refused inside a rank's coroutine (std::terminate).
# Expected:      exit status 2 and one line naming the file, the key and the reason; no result written. sensitivity
#                exits 0 and lists the parameter as not varied with the refusal's reason.
# How validated: lib_check.sh (exit code, grep on stderr, line count, absence of the output directory).
set -u
BIN=$(realpath "$1"); ROOT=$2; t=$(mktemp -d); trap 'rm -rf "$t"' EXIT; fail=0
. "$(dirname "$0")/lib_check.sh"
long=$(python3 -c 'print("\u00e9" * 50000)')
printf '{"base": "%s", "axes": {"benchmark.sizes": [[1], [2]]}}' "$long" > "$t/long_base.json"
expect_input_error long_base "long_base.json: key 'base': no scenario file" sweep "$t/long_base.json" --out "$t/out-long_base"
printf '{"base": "%s", "axes": {"benchmark.sizes": [[1], [2]]}}' "$(printf '../%.0s' $(seq 5000))x" > "$t/dots_base.json"
expect_input_error dots_base "dots_base.json: key 'base': no scenario file" sweep "$t/dots_base.json" --out "$t/out-dots_base"
# osu-elan4's file over loggp's (a JSON merge patch): networks qsnet and loggp.
python3 - "$ROOT/models/qsnet/machines/osu-elan4.json" "$t/two_nets.json" <<'PY'
import json, sys
j = json.load(open(sys.argv[1])); j["base"] = "loggp"; json.dump(j, open(sys.argv[2], "w"))
PY
expect_input_error two_nets_elan4 "table1_basic.json: key 'stack': pml/teg drives the network without naming one, but machine 'osu-elan4' (.*two_nets.json) has 2 networks (NIC kinds loggp, qsnet)" \
  run "$ROOT/scenarios/qsnet/table1_basic.json" --machine-file "$t/two_nets.json" --out "$t/out-two_nets_elan4"
# The message quotes the name cut, with its length; nothing is written.
(cd "$t" && expect_input_error long_file "--file: key 'x*\.\.\.' (300 bytes): cannot be written: File name too long" \
  machine template my --like loggp --file "$(printf 'x%.0s' $(seq 300))")
python3 - "$ROOT/results/qsnet/table1_basic.json" "$t/stats_number.json" <<'PY'
import json, sys
j = json.load(open(sys.argv[1])); j["stats"] = 257; json.dump(j, open(sys.argv[2], "w"))
PY
expect_input_error stats_number "stats_number.json: key 'stats': must be an object" \
  compare "$t/stats_number.json" "$ROOT/results/qsnet/table1_basic.json"
"$BIN" sensitivity "$ROOT/scenarios/qsnet/table1_basic.json" > "$t/sens.out" 2> "$t/sens.err"; rc=$?
if [[ $rc != 0 ]] || ! grep -q "^# nic.qdma_slot_bytes: not varied, a run at 2028 B or 2069 B is refused: key 'mca.ptl_elan4_first_frag_size'" "$t/sens.out"; then
  echo "FAIL sensitivity_refused_step: rc=$rc $(cat "$t/sens.err") $(grep '^#' "$t/sens.out")"; fail=1
else echo "ok   sensitivity_refused_step"; fi
# MPICH-QsNetII's eager limit over the QDMA slot: refused naming the MCA key (it was an internal error).
expect_input_error qsnet_eager_limit "fig10_latency_native.json: key 'mca.mpich_qsnet_eager_limit': 4096 B + the 32-byte envelope exceeds one packet" \
  run "$ROOT/scenarios/qsnet/fig10_latency_native.json" --set mpich_qsnet_eager_limit=4096 --out "$t/out-qsnet_eager_limit"
# A size over the QDMA slot on the raw QDMA program: found while simulating, in a rank's coroutine (it was a crash of
# the simulation process, exit 3).
python3 - "$ROOT/scenarios/qsnet/fig9_qdma.json" "$t/qdma_size.json" <<'PY'
import json, sys
j = json.load(open(sys.argv[1])); j["benchmark"]["sizes"] = [4096]; j["id"] = "qdma_size"; json.dump(j, open(sys.argv[2], "w"))
PY
expect_input_error qdma_size "qdma_size.json: key 'benchmark.sizes': native/elan4_qdma: a QDMA carries at most one 2048-byte slot; 4096 B" \
  run "$t/qdma_size.json" --out "$t/out-qdma_size"
exit $fail
