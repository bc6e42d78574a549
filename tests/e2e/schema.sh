#!/usr/bin/env bash
# Schemas. `ompisim schema scenario|result|grid|sweep|validation|machine` prints JSON Schemas built from the
# declarations the parser uses (registries, MCA parameter blocks, benchmark keys). Checked: every scenarios/**.json
# validates (grid_*.json against the grid schema), every results/**.json (sweep.json against the sweep schema,
# validation.json the validation one), every models/*/machines/*.json and a `machine template` against the machine
# schema, the sweep.json of a small sweep run here; and a misspelled key, a wrong enumeration value (a topology kind
# among them) and a wrong MCA type each fail
# validation with an error that names the key (the schema is as strict as the tool there); a machine of one's own is in
# the "machine" enumeration with `schema scenario --machine-file` only. An unknown kind exits 2. Every top-level key of
# a result and every field of the committed results' "stats" and "mailbox_memory" carries a description in
# `schema result`.
# Usage: schema.sh OMPISIM [RESULTS_DIR] (default: the source tree's results/)
set -u
BIN=$(realpath "$1"); SRC=$(cd "$(dirname "$0")/../.." && pwd); RES=${2:-$SRC/results}
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT; fail=0
for k in scenario result grid sweep validation machine; do "$BIN" schema $k > "$t/$k.schema.json" || fail=1; done
"$BIN" schema nonsense > /dev/null 2> "$t/e"; rc=$?
[[ $rc == 2 && $(wc -l < "$t/e") == 1 ]] && grep -q "schema 'nonsense': unknown schema" "$t/e" \
  && echo "ok   unknown kind: $(cat "$t/e")" || { echo "FAIL unknown kind: $rc $(cat "$t/e")"; fail=1; }
if ! python3 -c "import jsonschema" 2> /dev/null; then
  echo "FAIL python3-jsonschema not installed (setup.sh installs it: apt-get install python3-jsonschema)"
  exit 1
fi
# A machine of one's own: in the enumeration with --machine-file only.
"$BIN" machine template my-xe6 --out "$t" 2> /dev/null && "$BIN" schema scenario --machine-file "$t/my-xe6.json" > "$t/own.schema.json" || fail=1
# A small sweep (2 points on the LogGOPS machine) for a real sweep.json.
cat > "$t/grid.json" <<J
{"base": {"id": "schema-sweep", "machine": "loggp", "stack": "loggp", "ranks": 2,
          "benchmark": {"name": "osu_latency", "sizes": [1, 1024], "iterations": 2, "skip": 0}},
 "axes": {"benchmark.iterations": [2, 3]}}
J
"$BIN" --quiet sweep "$t/grid.json" --out "$t/sweep" > "$t/sweep.log" 2>&1 || { echo "FAIL sweep: $(cat "$t/sweep.log")"; fail=1; }
python3 - "$t" "$SRC" "$RES" <<'P' || fail=1
import copy, glob, json, os, sys, jsonschema
t, src, res_dir = sys.argv[1:4]
V = {}
for k in ("scenario", "result", "grid", "sweep", "validation", "machine"):
    s = json.load(open(f"{t}/{k}.schema.json"))
    jsonschema.Draft202012Validator.check_schema(s)
    V[k] = jsonschema.Draft202012Validator(s)
bad = 0
def where(e):  # the key path of an error, then its message: what a user reads
    return "/".join(str(p) for p in e.absolute_path) + ": " + e.message
def check(kind, f, doc):
    global bad
    for e in V[kind].iter_errors(doc):
        print("FAIL", kind, os.path.relpath(f, src), where(e)[:300]); bad += 1
counts = {"scenario": 0, "grid": 0, "result": 0, "sweep": 0, "validation": 0, "machine": 0}
for f in sorted(glob.glob(src + "/scenarios/**/*.json", recursive=True)):
    kind = "grid" if os.path.basename(f).startswith("grid_") else "scenario"
    check(kind, f, json.load(open(f))); counts[kind] += 1
for f in sorted(glob.glob(res_dir + "/**/*.json", recursive=True)):
    name = os.path.basename(f)
    kind = {"sweep.json": "sweep", "validation.json": "validation"}.get(name, "result")
    check(kind, f, json.load(open(f))); counts[kind] += 1
check("sweep", t + "/sweep/sweep.json", json.load(open(t + "/sweep/sweep.json"))); counts["sweep"] += 1
for f in sorted(glob.glob(src + "/models/*/machines/*.json")) + [t + "/my-xe6.json"]:
    check("machine", f, json.load(open(f))); counts["machine"] += 1
assert counts["scenario"] > 100 and counts["result"] > 100 and counts["grid"] >= 2 and counts["validation"] == 1, counts
assert counts["machine"] > 10, counts
# Every field of a result's "stats" that a committed result carries is explained in the result schema (its meaning in
# a "description"), as every top-level key is: a user reading a result finds what each number counts.
rs = json.load(open(t + "/result.schema.json"))
stats_props = rs["properties"]["stats"].get("properties", {})
seen = set()
for f in glob.glob(res_dir + "/**/*.json", recursive=True):
    if os.path.basename(f) in ("sweep.json", "validation.json"): continue
    seen |= set(json.load(open(f)).get("stats", {}))
undescribed = sorted(k for k in seen if not stats_props.get(k, {}).get("description"))
mm_props = rs["properties"]["mailbox_memory"].get("$defs", {}).get("block", {}).get("properties", {})
mm_seen = set()
for f in glob.glob(res_dir + "/**/*.json", recursive=True):
    if os.path.basename(f) in ("sweep.json", "validation.json"): continue
    mm = json.load(open(f)).get("mailbox_memory", [])
    for block in (mm if isinstance(mm, list) else [mm]): mm_seen |= set(block)
undescribed += sorted("mailbox_memory." + k for k in mm_seen if not mm_props.get(k, {}).get("description"))
undescribed += sorted(k for k, v in rs["properties"].items() if not v.get("description"))
if undescribed:
    print("FAIL result fields without a description in `schema result`:", ", ".join(undescribed)); bad += 1
else:
    print("ok   every stats field (%d) and mailbox_memory field (%d) of the committed results is described in "
          "`schema result`" % (len(seen), len(mm_seen)))

# Refused, each with an error naming the key (in the error's path or its message).
good = json.load(open(src + "/scenarios/gemini/fig5_latency_2p_inter_openmpi.json"))
grid = json.load(open(src + "/scenarios/examples/grid_ugni_smsg_bte.json"))
machine = json.load(open(src + "/models/gemini/machines/cielo.json"))
def with_(doc, path, value):
    d = copy.deepcopy(doc); o = d
    for p in path[:-1]: o = o[p]
    o[path[-1]] = value
    return d
cases = [  # (what, schema, document, the key the error must name)
    ("misspelled key", "scenario", dict(good, rank_per_node=1), "rank_per_node"),
    ("misspelled benchmark key", "scenario", with_(good, ["benchmark", "iteration"], 3), "iteration"),
    ("misspelled MCA parameter", "scenario", with_(good, ["mca"], {"btl_ugni_smsg_limt": 1024}), "btl_ugni_smsg_limt"),
    ("unknown benchmark", "scenario", dict(good, benchmark={"name": "osu_nothing"}), "name"),
    ("unknown stack preset", "scenario", dict(good, stack="openmpii"), "stack"),
    ("unknown stack component", "scenario", dict(good, stack={"pml": "ob1", "btl": ["self", "ugnii"]}), "btl"),
    ("unknown machine", "scenario", dict(good, machine="cielox"), "machine"),
    ("unknown algorithm", "scenario", dict(good, benchmark={"name": "barrier_loop", "algorithm": "no-such"}), "algorithm"),
    ("SI size for an MCA size", "scenario", with_(good, ["mca"], {"btl_ugni_smsg_limit": "4 kB"}), "btl_ugni_smsg_limit"),
    ("MCA size out of range", "scenario", with_(good, ["mca"], {"btl_ugni_smsg_limit": 1 << 20}), "btl_ugni_smsg_limit"),
    ("MCA count as a word", "scenario", with_(good, ["mca"], {"btl_ugni_eager_num": "many"}), "btl_ugni_eager_num"),
    ("MCA choice unknown", "scenario", with_(good, ["mca"], {"ptl_elan4_rdma": "sideways"}), "ptl_elan4_rdma"),
    ("benchmark count type", "scenario", with_(good, ["benchmark", "iterations"], "ten"), "iterations"),
    ("ranks not a number", "scenario", dict(good, ranks="2"), "ranks"),
    ("id that is a path", "scenario", dict(good, id="../x"), "id"),
    ("id starting with '.'", "scenario", dict(good, id=".hidden"), "id"),
    ("no machine", "scenario", {k: v for k, v in good.items() if k != "machine"}, "machine"),
    ("grid: misspelled key", "grid", dict(grid, axis=grid["axes"]), "axis"),
    ("grid: unknown MCA axis", "grid", with_(grid, ["axes"], {"mca.btl_ugni_smsg_limt": [1024]}), "mca.btl_ugni_smsg_limt"),
    ("grid: MCA axis type", "grid", with_(grid, ["axes"], {"mca.btl_ugni_smsg_limit": ["4 kB"]}), "mca.btl_ugni_smsg_limit"),
    ("grid: combine", "grid", dict(grid, combine="cross"), "combine"),
    ("grid: axes and points", "grid", dict(grid, points=[{"ranks": 2}]), "points"),
    ("validation: row without id", "validation", dict(json.load(open(res_dir + "/validation.json")), points=[{"scenario": "x"}]), "id"),
    ("misspelled topology kind", "machine", with_(machine, ["networks", "gemini", "topology", "kind"], "tours"), "kind"),
    ("unknown route policy", "machine", with_(machine, ["networks", "gemini", "topology", "routing"], "dimension"), "routing"),
    ("unknown NIC kind", "machine", with_(machine, ["networks", "gemini", "nic", "kind"], "gemnii"), "kind"),
    ("machine: misspelled key", "machine", dict(machine, node_type=machine["node_types"]), "node_type"),
    ("sweep table: unknown unit", "sweep", {"grid": "g", "axes": [], "columns": [], "units": {"a": "kB"}, "rows": [],
                                            "provenance": {"overrides": [], "engine": None}}, "a"),
    ("sweep table: override not a pair", "sweep", {"grid": "g", "axes": [], "columns": [], "units": {}, "rows": [],
                                                   "provenance": {"overrides": [["nic.nic_latency"]], "engine": "des"}},
     "overrides"),
]
for what, kind, doc, key in cases:
    errs = list(V[kind].iter_errors(doc))
    best = jsonschema.exceptions.best_match(errs) if errs else None
    if best is None:
        print("FAIL schema accepts", what); bad += 1
    elif key not in where(best):
        print("FAIL", what, "error does not name", repr(key), ":", where(best)[:300]); bad += 1
    else:
        print("ok   refused %-28s %s" % (what + ":", where(best)[:160]))
own = jsonschema.Draft202012Validator(json.load(open(t + "/own.schema.json")))
if own.is_valid(dict(good, machine="my-xe6")) and not V["scenario"].is_valid(dict(good, machine="my-xe6")):
    print("ok   a scenario for machine my-xe6 validates with schema scenario --machine-file my-xe6.json only")
else:
    print("FAIL schema --machine-file"); bad += 1
if bad == 0:
    print("ok   %(scenario)d scenarios, %(grid)d grids, %(result)d results, %(validation)d validation table, "
          "%(sweep)d sweep table and %(machine)d machine files validate" % counts)
sys.exit(1 if bad else 0)
P
exit $fail
