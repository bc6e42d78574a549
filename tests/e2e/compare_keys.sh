#!/usr/bin/env bash
# Configuration: `compare results results` over the committed results (every file the tool wrote: scenario results,
#                a barrier radix sweep with its "radix" list, validation.json); then copies of a committed result and
#                of validation.json each with one top-level key added: a misspelling of a known key ("provenence"),
#                a key of no kind ("colour"), a section name in a validation table ("claimz").
# Expected:      the committed results compare with exit 0; each altered file exits 2 on one line naming the file and
#                the key, with "did you mean" when a known key is close (else the keys a result has), in `compare A B`
#                and in `compare --against` (refused before anything is rerun); a point quantity that is no number, and
#                a result naming a scenario file that is no .json file, are refused the same way.
# How validated: exit status and stderr text.
set -u
BIN=$(realpath "$1"); SRC=$(cd "$(dirname "$0")/../.." && pwd); t=$(mktemp -d); trap 'rm -rf "$t"' EXIT; fail=0
cd "$t"
"$BIN" compare "$SRC/results" "$SRC/results" > out 2> err; rc=$?
[[ $rc == 0 ]] && grep -q "0 beyond tolerance, 0 structural differences" out \
  && echo "ok   compare results results: exit 0, $(tail -1 out)" || { echo "FAIL compare results results: rc=$rc $(head -c 400 err)"; fail=1; }
res=gemini/fig5_latency_2p_inter_openmpi.json
mkdir -p a/gemini b/gemini
cp "$SRC/results/$res" a/gemini/
add_key() {  # file key: a copy of the file with the key added at the top level
  python3 -c "import json, sys; d = json.load(open(sys.argv[1])); d[sys.argv[2]] = {}; json.dump(d, open(sys.argv[3], 'w'))" \
    "$1" "$2" "$3"
}
refused() {  # name expected-stderr args...
  local name=$1 want=$2; shift 2
  "$BIN" compare "$@" > out 2> err; local rc=$?
  if [[ $rc == 2 && "$(cat err)" == "$want" ]]; then echo "ok   $name: $(cat err)"
  else echo "FAIL $name: exit $rc, stderr: $(head -c 400 err)"; fail=1; fi
}
add_key "a/gemini/$(basename $res)" provenence "b/$res"
refused "a misspelled key" \
  "ompisim: error: b/$res: key 'provenence': unknown key (did you mean 'provenance'?)" a b
add_key "a/gemini/$(basename $res)" colour "b/$res"
refused "a key of no kind" \
  "ompisim: error: b/$res: key 'colour': unknown key (a result has: scenario, machine, stack, benchmark, ranks, ranks_per_node, points, stats, provenance, mailbox_memory)" \
  "a/$res" "b/$res"
add_key "$SRC/results/validation.json" claimz v.json
refused "a validation table's misspelled section" \
  "ompisim: error: v.json: key 'claimz': unknown key (did you mean 'claims'?)" "$SRC/results/validation.json" v.json
add_key "a/gemini/$(basename $res)" provenence "b/$res"
refused "--against: refused before rerunning" \
  "ompisim: error: b/$res: key 'provenence': unknown key (did you mean 'provenance'?)" --against b
# --against over results of which none names its scenario: the reason, not "no result path contains"
mkdir -p c/gemini
python3 -c "import json, sys; d = json.load(open(sys.argv[1])); d['provenance']['scenario_file'] = 5; json.dump(d, open(sys.argv[2], 'w'))" \
  "a/gemini/$(basename $res)" "c/$res"
refused "--against: no result names its scenario" \
  "ompisim: error: --against 'c': $res: provenance.scenario_file is not a path (a string): not rerun" --against c --only gemini
# a quantity that is not a number (a hand-edited or corrupted file): bad input naming the file and the point's key,
# not a value "only in A"
python3 -c "import json, sys; d = json.load(open(sys.argv[1])); d['points'][0]['latency_us'] = 'fast'; json.dump(d, open(sys.argv[2], 'w'))" \
  "a/gemini/$(basename $res)" "b/$res"
refused "a quantity that is not a number" \
  "ompisim: error: b/$res: key 'points[0].latency_us': must be a number (a quantity of the result), not \"fast\"" "a/$res" "b/$res"
# --against: a result whose scenario_file is no .json file is not read
mkdir -p d/gemini
python3 -c "import json, sys; d = json.load(open(sys.argv[1])); d['provenance']['scenario_file'] = '/etc/hostname'; json.dump(d, open(sys.argv[2], 'w'))" \
  "a/gemini/$(basename $res)" "d/$res"
refused "--against: a scenario_file that is no .json file" \
  "ompisim: error: --against 'd': $res: its scenario /etc/hostname is not a .json file: not rerun" --against d
exit $fail
