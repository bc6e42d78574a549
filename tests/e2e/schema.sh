#!/usr/bin/env bash
# Scenario schema. `ompisim schema scenario|result` prints JSON Schemas built from the parser's declarations;
# every scenarios/**.json and every results/**.json result validates against them; a misspelled key, an unknown
# benchmark key and a wrong choice do not (the schema is not vacuous); an unknown schema kind exits 2.
set -u
BIN=$(realpath "$1"); SRC=$(cd "$(dirname "$0")/../.." && pwd); t=$(mktemp -d); trap 'rm -rf "$t"' EXIT; fail=0
"$BIN" schema scenario > "$t/scenario.schema.json" || fail=1
"$BIN" schema result > "$t/result.schema.json" || fail=1
"$BIN" schema nonsense > /dev/null 2> "$t/e"; rc=$?
[[ $rc == 2 ]] && grep -q "schema: key 'nonsense': unknown schema" "$t/e" && echo "ok   unknown kind: $(cat "$t/e")" || { echo "FAIL unknown kind: $rc $(cat "$t/e")"; fail=1; }
if ! python3 -c "import jsonschema" 2> /dev/null; then
  echo "SKIP python3-jsonschema not installed (apt-get install python3-jsonschema): scenarios and results not validated"
  exit $fail
fi
python3 - "$t" "$SRC" <<'P' || fail=1
import glob, json, os, sys, jsonschema
t, src = sys.argv[1], sys.argv[2]
sc = json.load(open(t + "/scenario.schema.json")); rs = json.load(open(t + "/result.schema.json"))
jsonschema.Draft202012Validator.check_schema(sc); jsonschema.Draft202012Validator.check_schema(rs)
V, R = jsonschema.Draft202012Validator(sc), jsonschema.Draft202012Validator(rs)
bad = 0
scen = sorted(f for f in glob.glob(src + "/scenarios/**/*.json", recursive=True)
              if not os.path.basename(f).startswith("grid_"))  # sweep grids, not scenarios
for f in scen:
    for e in V.iter_errors(json.load(open(f))):
        print("FAIL scenario", os.path.relpath(f, src), e.message[:200]); bad += 1
res = [f for f in sorted(glob.glob(src + "/results/**/*.json", recursive=True)) if os.path.basename(f) != "validation.json"]
for f in res:
    for e in R.iter_errors(json.load(open(f))):
        print("FAIL result", os.path.relpath(f, src), e.message[:200]); bad += 1
assert len(scen) > 100 and len(res) > 100, (len(scen), len(res))
good = json.load(open(src + "/scenarios/gemini/fig5_latency_2p_inter_openmpi.json"))
cases = {"misspelled key": dict(good, rank_per_node=1),
         "unknown benchmark key": dict(good, benchmark=dict(good["benchmark"], iteration=3)),
         "unknown benchmark": dict(good, benchmark={"name": "osu_nothing"}),
         "wrong choice": dict(good, benchmark={"name": "barrier_loop", "algorithm": "no-such-algorithm"}),
         "ranks not a number": dict(good, ranks="2"),
         "no machine": {k: v for k, v in good.items() if k != "machine"}}
for name, doc in cases.items():
    if V.is_valid(doc):
        print("FAIL schema accepts", name); bad += 1
if not R.is_valid(json.load(open(res[0]))) or R.is_valid({"points": []}):
    print("FAIL result schema"); bad += 1
if bad == 0:
    print("ok   %d scenarios and %d results validate; refused: %s" % (len(scen), len(res), ", ".join(cases)))
sys.exit(1 if bad else 0)
P
exit $fail
