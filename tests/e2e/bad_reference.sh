#!/usr/bin/env bash
# Configuration: a reference file (validation/reference/bad.json in a copy of the data directory) with one mistake at a
# time: a gap naming an unknown scenario, a gap without paper_gap_pct, a gap of 0, a reading that is not defined, an
# unknown key in a check, a select that matches no point of its scenario (found when the scenario has run), a
# calibration comparison (fit_gaps) naming a scenario that does not exist; values of the wrong type (a point's select
# null, a point that is a number, a check kind or label that is a number, a claim id null, a fit_gaps role that is a
# number or select that is empty), a metric no result has, a scenario name too long for the file system, an unknown
# top-level key; an id given twice (points, claims, fit_gaps); a scenario path outside the data folder; a point's value
# below 0, its tolerance below 0, a misspelled key of a point, a paper name other than the file's, a metric no result
# has in an all_of's second check (named by its path), an additive check without parts.
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
case_ no_point "{\"kind\": \"gap\", \"a\": $A, \"b\": {\"scenario\": \"scenarios/qsnet/table1_interrupt.json\", \"select\": {\"bytes\": 3}, \"metric\": \"latency_us\"}, \"paper_gap_pct\": 10}" "key 'claims\[c1\]\.check\.b\.select': no point"
# A calibration comparison (fit_gaps) naming a scenario that does not exist: validate reads fit_gaps' input too.
printf '{"points": [], "claims": [], "fit_gaps": [{"id": "g1", "a": %s, "b": %s, "gap_pct": 5, "role": "calibration"}]}\n' \
  "$A" '{"scenario": "scenarios/nope.json", "select": {"bytes": 4}, "metric": "latency_us"}' > "$t/validation/reference/bad.json"
out=$(OMPISIM_DATA="$t" "$BIN" validate --paper bad --samples 0 2>&1); rc=$?
if [ $rc -ne 2 ] || ! grep -q "bad.json" <<<"$out" || ! grep -Eq "key 'fit_gaps\[0\]\.b\.scenario': no scenario file" <<<"$out"; then
  echo "FAIL fit_gap_unknown_scenario: rc=$rc: $out"; fail=1
else echo "ok fit_gap_unknown_scenario"; fi
# Whole documents, each wrong in one value's type or name (exit 2, never an internal error).
doc_case() {  # name, document, expected pattern
  printf '%s\n' "$2" > "$t/validation/reference/bad.json"
  out=$(OMPISIM_DATA="$t" "$BIN" validate --paper bad --samples 0 2>&1); rc=$?
  if [ $rc -ne 2 ] || ! grep -q "bad.json" <<<"$out" || ! grep -Eq "$3" <<<"$out" || [ "$(wc -l <<<"$out")" != 1 ]; then
    echo "FAIL $1: rc=$rc, expected 2 and /$3/: $out"; fail=1
  else echo "ok $1"; fi
}
P='{"id": "p1", "scenario": "scenarios/qsnet/table1_basic.json", "select": {"bytes": 4}, "metric": "latency_us", "value": 3.87, "role": "calibration"}'
doc_case point_select_null "{\"points\": [${P/\{\"bytes\": 4\}/null}]}" "key 'points\[0\]\.select': must be a non-empty object"
doc_case point_number '{"points": [7]}' "key 'points\[0\]': must be an object"
doc_case point_role "{\"points\": [${P/\"calibration\"/5}]}" "key 'points\[0\]\.role': must be \"calibration\" or \"prediction\""
doc_case point_value "{\"points\": [${P/3.87/\"3.87 us\"}]}" "key 'points\[0\]\.value': must be a finite positive number"
doc_case point_metric "{\"points\": [${P/latency_us/4 KB}]}" "key 'points\[0\]\.metric': '4 KB' is not a field of scenario"
doc_case point_negative "{\"points\": [${P/3.87/-0.52}]}" "key 'points\[0\]\.value': must be a finite positive number"
doc_case point_tolerance "{\"points\": [${P/\"role\"/\"tolerance_pct\": -5, \"role\"}]}" "key 'points\[0\]\.tolerance_pct': must be a non-negative number"
doc_case point_unknown_key "{\"points\": [${P/\"value\"/\"valeu\": 1, \"value\"}]}" "key 'points\[0\]\.valeu': unknown key of a point"
doc_case paper_name '{"points": [], "paper": "../../x"}' "key 'paper': must be \"bad\""
doc_case all_of_metric "{\"points\": [], \"claims\": [{\"id\": \"c1\", \"check\": {\"kind\": \"all_of\", \"checks\": [{\"a\": $A, \"b\": $B}, {\"a\": $A, \"b\": ${B/latency_us/latency_z}}]}}]}" "key 'claims\[c1\]\.check\.checks\[1\]\.b\.metric': 'latency_z' is not a field"
doc_case additive_parts "{\"points\": [], \"claims\": [{\"id\": \"c1\", \"check\": {\"kind\": \"additive\", \"a\": $A, \"parts\": [], \"min_fraction\": 0.8}}]}" "key 'claims\[c1\]\.check\.parts': must be a non-empty array"
doc_case points_object '{"points": {"a": 1}}' "key 'points': must be an array"
doc_case top_unknown '{"points": [], "pionts": []}' "key 'pionts': unknown key of a reference file"
doc_case top_array '[1, 2]' "key '\(top level\)': must be an object"
doc_case kind_number "{\"points\": [], \"claims\": [{\"id\": \"c1\", \"check\": {\"kind\": -1, \"a\": $A, \"b\": $B}}]}" "key 'claims\[c1\]\.check\.kind': must be a string"
doc_case label_number "{\"points\": [], \"claims\": [{\"id\": \"c1\", \"check\": {\"a\": $A, \"b\": $B, \"label\": 3}}]}" "key 'claims\[c1\]\.check\.label': must be a string"
doc_case claim_id_null "{\"points\": [], \"claims\": [{\"id\": null, \"check\": {\"a\": $A, \"b\": $B}}]}" "key 'claims\[0\]\.id': must be a string"
doc_case long_scenario "{\"points\": [], \"claims\": [{\"id\": \"c1\", \"check\": {\"a\": {\"scenario\": \"$(printf 'x%.0s' $(seq 5000))\", \"select\": {\"bytes\": 4}, \"metric\": \"latency_us\"}, \"b\": $B}}]}" "check\.a\.scenario': must be a scenario path of 1 to 1024 characters"
doc_case gap_role "{\"points\": [], \"fit_gaps\": [{\"id\": \"g1\", \"a\": $A, \"b\": $B, \"gap_pct\": 5, \"role\": 1}]}" "key 'fit_gaps\[0\]\.role': must be a string"
doc_case gap_select "{\"points\": [], \"fit_gaps\": [{\"id\": \"g1\", \"a\": $A, \"b\": {\"scenario\": \"scenarios/qsnet/table1_interrupt.json\", \"select\": {}, \"metric\": \"latency_us\"}, \"gap_pct\": 5, \"role\": \"check\"}]}" "key 'fit_gaps\[0\]\.b\.select': must be a non-empty object"
# ids are unique (points and held_out together, claims, fit_gaps): the tables and the fit are keyed by them
doc_case point_id_twice "{\"points\": [$P, $P]}" "key 'points\[1\]\.id': 'p1' is already the id of points\[0\]"
doc_case claim_id_twice "{\"points\": [], \"claims\": [{\"id\": \"c1\", \"check\": {\"kind\": \"gap\", \"a\": $A, \"b\": $B, \"paper_gap_pct\": 5}}, {\"id\": \"c1\", \"check\": {\"kind\": \"gap\", \"a\": $A, \"b\": $B, \"paper_gap_pct\": 5}}]}" "key 'claims\[1\]\.id': 'c1' is the id of an earlier claim"
doc_case gap_id_twice "{\"points\": [], \"fit_gaps\": [{\"id\": \"g1\", \"a\": $A, \"b\": $B, \"gap_pct\": 5, \"role\": \"check\"}, {\"id\": \"g1\", \"a\": $A, \"b\": $B, \"gap_pct\": 5, \"role\": \"check\"}]}" "key 'fit_gaps\[1\]\.id': 'g1' is the id of an earlier calibration comparison"
# a scenario path stays inside the data folder (no file outside it is read)
doc_case point_outside "{\"points\": [${P/scenarios\/qsnet\/table1_basic.json/..\/..\/..\/etc\/passwd}]}" "key 'points\[0\]\.scenario': '\.\./\.\./\.\./etc/passwd' must be a path inside the data folder"
doc_case gap_outside "{\"points\": [], \"fit_gaps\": [{\"id\": \"g1\", \"a\": $A, \"b\": {\"scenario\": \"/etc/passwd\", \"select\": {\"bytes\": 4}, \"metric\": \"latency_us\"}, \"gap_pct\": 5, \"role\": \"check\"}]}" "key 'fit_gaps\[0\]\.b\.scenario': '/etc/passwd' must be a path inside the data folder"
exit $fail
