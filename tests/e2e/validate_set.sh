#!/usr/bin/env bash
# validate --set: the validation table for a what-if parameter set.
# (1) Configuration: a misspelled parameter. Expected: exit 2 before any scenario runs, naming --set and the key.
# (2) Configuration: the SeaStar table with software.pml_cm_overhead tripled. Expected: the CM zero-byte latency (a
# calibration point) moves above its reference and leaves its tolerance, so validate exits 1; the Cray MPI point, which
# does not use pml/cm, stays within its tolerance, and the JSON's what_if names the override. How validated: exit
# codes, the error text, two rows and what_if of --json.
set -u
BIN=$1; t=$(mktemp -d); trap 'rm -rf "$t"' EXIT
"$BIN" validate --paper seastar-portals --set software.pml_cm_overhed=1us > /dev/null 2> "$t/err"; rc=$?
[ "$rc" -eq 2 ] || { echo "misspelled key: exit $rc, expected 2"; exit 1; }
grep -q -- "--set 'software.pml_cm_overhed'" "$t/err" || { cat "$t/err"; exit 1; }
cm=$(python3 -c "import json,sys; print(3*float(json.load(open(sys.argv[1]))['networks']['seastar']['software']['pml_cm_overhead']['value'].split()[0]))" \
  "$(dirname "$0")/../../models/seastar/machines/red-storm.json")
"$BIN" validate --paper seastar-portals --json --set software.pml_cm_overhead="${cm}us" > "$t/set.json"; rc=$?
[ "$rc" -eq 1 ] || { echo "tripled pml_cm_overhead: exit $rc, expected 1"; exit 1; }
python3 - "$t/set.json" <<'P'
import json, sys
doc = json.load(open(sys.argv[1]))
rows = {p["id"]: p for p in doc["points"]}
# the table says which parameters it ran with
assert len(doc.get("what_if", [])) == 1 and doc["what_if"][0].startswith("--set software.pml_cm_overhead="), doc.get("what_if")
cm, cray = rows["seastar.netpipe.latency.0B.openmpi-cm"], rows["seastar.netpipe.latency.0B.native"]
assert cm["simulated"] > cm["reference"] and not cm["pass"], cm
assert cray["pass"], cray
print("ok: CM", cm["reference"], "->", cm["simulated"])
P
