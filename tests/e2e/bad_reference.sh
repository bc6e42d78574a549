#!/usr/bin/env bash
# Configuration: a reference file (validation/reference/bad.json in a copy of the data directory) with one mistake at a
# time: a gap naming an unknown scenario, a gap without paper_gap_pct, a gap of 0, a reading that is not defined, an
# unknown key in a check, a select that matches no point of its scenario (found when the scenario has run), a
# calibration comparison (fit_gaps) naming a scenario that does not exist.
# Expected: `ompisim validate --paper bad` exits 2 with one line naming the file, the key and the reason.
# How validated: the exit status and a pattern of the error line.
set -u
BIN=$1; SRC=$2; t=$(mktemp -d); trap 'rm -rf "$t"' EXIT; fail=0
for d in models scenarios benchmarks; do ln -s "$SRC/$d" "$t/$d"; done
mkdir -p "$t/validation/reference"
A='{"scenario": "scenarios/qsnet/table1_basic.json", "select": {"bytes": 4}, "metric": "latency_us"}'
B='{"scenario": "scenarios/qsnet/table1_interrupt.json", "select": {"bytes": 4}, "metric": "latency_us"}'
case_() {  # name, check JSON, expected pattern
  printf '{"points": [], "claims": [{"id": "c1", "text": "t", "check": %s}]}\n' "$2" > "$t/validation/reference/bad.json"
  out=$(OMPISIM_DATA="$t" "$BIN" validate --paper bad --samples 0 2>&1); rc=$?
  if [ $rc -ne 2 ] || ! grep -q "bad.json" <<<"$out" || ! grep -Eq "$3" <<<"$out"; then
    echo "FAIL $1: rc=$rc, expected 2 and /$3/: $out"; fail=1
  else echo "ok $1"; fi
}
case_ unknown_scenario "{\"kind\": \"gap\", \"a\": $A, \"b\": {\"scenario\": \"scenarios/nope.json\", \"select\": {\"bytes\": 4}, \"metric\": \"latency_us\"}, \"paper_gap_pct\": 10}" "key 'claims\[c1\]\.check\.b\.scenario': no scenario file"
case_ no_gap "{\"kind\": \"gap\", \"a\": $A, \"b\": $B}" "key 'claims\[c1\]\.check\.paper_gap_pct': missing"
case_ zero_gap "{\"kind\": \"gap\", \"a\": $A, \"b\": $B, \"paper_gap_pct\": 0}" "paper_gap_pct': must be non-zero"
case_ text_gap "{\"kind\": \"gap\", \"a\": $A, \"b\": $B, \"paper_gap_pct\": \"5 %\"}" "paper_gap_pct': must be a number"
case_ reading "{\"kind\": \"gap\", \"a\": $A, \"b\": $B, \"paper_gap_pct\": 10, \"reading\": \"way better\"}" "check\.reading': 'way better' is not a defined reading"
case_ unknown_key "{\"kind\": \"gap\", \"a\": $A, \"b\": $B, \"paper_gap\": 10}" "check\.paper_gap': unknown key"
case_ no_point "{\"kind\": \"gap\", \"a\": $A, \"b\": {\"scenario\": \"scenarios/qsnet/table1_interrupt.json\", \"select\": {\"bytes\": 3}, \"metric\": \"latency_us\"}, \"paper_gap_pct\": 10}" "key 'claims\[c1\]\.check\.select': no point"
# A calibration comparison (fit_gaps) naming a scenario that does not exist: validate reads fit_gaps' input too.
printf '{"points": [], "claims": [], "fit_gaps": [{"id": "g1", "a": %s, "b": %s, "gap_pct": 5, "role": "calibration"}]}\n' \
  "$A" '{"scenario": "scenarios/nope.json", "select": {"bytes": 4}, "metric": "latency_us"}' > "$t/validation/reference/bad.json"
out=$(OMPISIM_DATA="$t" "$BIN" validate --paper bad --samples 0 2>&1); rc=$?
if [ $rc -ne 2 ] || ! grep -q "bad.json" <<<"$out" || ! grep -Eq "key 'fit_gaps\[0\]\.b\.scenario': no scenario file" <<<"$out"; then
  echo "FAIL fit_gap_unknown_scenario: rc=$rc: $out"; fail=1
else echo "ok fit_gap_unknown_scenario"; fi
exit $fail
