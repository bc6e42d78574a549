#!/usr/bin/env bash
# ompisim calibrate (no --write). Usage: calibrate.sh BIN PAPER MACHINE FAMILY MAX_RESIDUAL_PCT [FREE]
# (1) Configuration: a paper's calibration points, starting from the committed machine file. Expected: every residual
# is under MAX_RESIDUAL_PCT and every fitted value stays within 1 % of the file's: the committed values are a fixed
# point of the fit, so a rerun does not drift. (When Cielo had a direction the points did not determine, a Levenberg-Marquardt
# step along it moved pml_ob1_overhead by 25 % per run before the step skipped such directions.) The Jacobian's
# singular values are reported, and every calibration comparison (the reference file's "fit_gaps") holds: the paper's
# sign, within a factor of 1.5. FREE (optional; several, space-separated): only the parameters whose name contains one
# of them are free (calibrate --free), as the machine file's "fit" text says they were fitted; each must name one. MIN_GAPS (optional):
# the fit must have at least this many calibration comparisons (a closed comparator's fit reads them all). UNHELD
# (optional, space-separated ids): comparisons the fit is known not to reach (their claims' not_holding says why);
# every other comparison must hold. (2) An unknown machine exits 2 naming it. (3) The reference's calibration_directions from this fit are the fit's (below).
set -u
BIN=$1; PAPER=$2; MACHINE=$3; FAMILY=$4; MAXRES=$5; FREE=${6:-}; MIN_GAPS=${7:-0}; UNHELD=${8:-}; t=$(mktemp -d); trap 'rm -rf "$t"' EXIT
FREE_ARGS=(); for f in $FREE; do FREE_ARGS+=(--free "$f"); done  # FREE: one or more names, space-separated
"$BIN" calibrate --paper "$PAPER" --machine "$MACHINE" "${FREE_ARGS[@]}" > "$t/out" 2> "$t/err" || { cat "$t/err"; exit 1; }
grep -q "singular values of the Jacobian" "$t/err" || { cat "$t/err"; exit 1; }
python3 - "$t/out" "$(dirname "$0")/../../models/$FAMILY/machines/$MACHINE.json" "$MAXRES" "$MIN_GAPS" "$UNHELD" "$FREE" <<'P'
import json, sys
table = [[c.strip() for c in l.strip().strip("|").split("|")] for l in open(sys.argv[1]) if l.startswith("| ") and "---" not in l]
rows = {r[0]: r[1] for r in table if len(r) == 2 and r[0] not in ("parameter", "calibration point")}
gaps = [r for r in table if len(r) == 5 and r[0] != "calibration comparison"]
assert len(gaps) >= int(sys.argv[4]), gaps
unheld = set(sys.argv[5].split())
assert all(r[3] == "yes" or r[0] in unheld for r in gaps), gaps  # comparison, paper gap, model gap, holds, residual
m = json.load(open(sys.argv[2]))
points = {k for k in rows if k.count(".") >= 3}  # point ids (paper.kind.metric...) vs section.parameter
fitted = {k: v for k, v in rows.items() if k not in points}
assert fitted, rows
assert all(any(f in k for k in fitted) for f in sys.argv[6].split()), (sys.argv[6], fitted)  # each FREE names a fitted parameter
(net,) = m["networks"]  # one network and one node type: the parameters have their short names
(typ,) = m["node_types"]
def file_path(k):  # "nic.bte_bandwidth" -> networks.<net>.nic.bte_bandwidth, "node.memory.x" -> node_types.<type>.memory.x
    head, rest = k.split(".", 1)
    if head in ("nic", "software"): return ["networks", net, head] + rest.split(".")
    if head == "node": return ["node_types", typ] + rest.split(".")
    return k.split(".")
for k, v in fitted.items():
    entry = m
    for part in file_path(k):  # the key path in the file
        entry = entry[part]
    file_val = float(entry["value"].split()[0])
    new_val = float(v.split()[0])
    assert abs(new_val / file_val - 1) < 0.01, (k, file_val, new_val)
res = {k: float(rows[k]) for k in points}
assert res and all(abs(x) < float(sys.argv[3]) for x in res.values()), res
print("ok", fitted, res, gaps)
P
[ $? -eq 0 ] || exit 1
# (3) The reference file's calibration_directions from this fit are the fit's own (directions_current.py): the
# prediction intervals sample the axes of the committed fit, not of an older one.
python3 "$(dirname "$0")/directions_current.py" "$t/out" "$(dirname "$0")/../../validation/reference/$PAPER.json" \
  "$PAPER" "$MACHINE" $FREE || exit 1
"$BIN" calibrate --paper "$PAPER" --machine "${MACHINE}x" > /dev/null 2> "$t/err"; rc=$?
[ "$rc" -eq 2 ] && grep -q "${MACHINE}x" "$t/err" || { echo "unknown machine: exit $rc"; cat "$t/err"; exit 1; }
