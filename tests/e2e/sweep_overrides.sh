#!/usr/bin/env bash
# Configuration: a two-point grid (osu_latency 8 B and 1 MiB on cielo, axis nic.bte_bandwidth: the 1 MiB message
#                crosses the BTE, so every point reads the axis) swept with
#                `--set nic.nic_latency=2us --set btl_ugni_smsg_limit=1024 --engine des`, and without them; then the
#                same options refused: a --set of the grid's axis (by its name, and an MCA axis by its bare name), an
#                unknown key, an MCA parameter no component of the stack reads (a --set, and an axis of a grid on
#                Cray MPT's stack), --engine with an "engine" axis, --machine-file with a "machine" axis, an axis value
#                that a component refuses (btl/portals' eager limit above its max send size) at the last point.
# Expected:      sweep.json's provenance records the overrides as [key, value] pairs and the engine ("engine": null
#                without --engine); each point's result was run with them (its provenance: engine des, the overrides
#                after the axis's); the 8 B latency moves with nic.nic_latency (the --set acts); `--merge` without the
#                same options finds no points; every refusal exits 2 on one line naming --set / --engine and the key,
#                with nothing run.
# How validated: exit status, stderr text, sweep.json and point files read back with python3.
set -u
BIN=$(realpath "$1"); SRC=$(cd "$(dirname "$0")/../.." && pwd); t=$(mktemp -d); trap 'rm -rf "$t"' EXIT; fail=0
cd "$t"
cat > grid.json <<'J'
{"base": {"id": "tiny", "machine": "cielo", "stack": "openmpi", "ranks": 2,
          "benchmark": {"name": "osu_latency", "sizes": [8, 1048576], "iterations": 2, "skip": 0}},
 "axes": {"nic.bte_bandwidth": ["4 GB/s", "6 GB/s"]}}
J
check() {  # name condition
  if eval "$2"; then echo "ok   $1"; else echo "FAIL $1"; fail=1; fi
}
"$BIN" sweep grid.json --out plain > /dev/null 2> plain.err; rc=$?
check "sweep without --set: exit 0 ($rc)" "[[ $rc == 0 ]]"
"$BIN" sweep grid.json --set nic.nic_latency=2us --set btl_ugni_smsg_limit=1024 --engine des --out set \
  > /dev/null 2> set.err; rc=$?
check "sweep --set --engine: exit 0 ($rc) $(head -c 300 set.err)" "[[ $rc == 0 ]]"
python3 - > py.out 2>&1 <<'P'
import glob, json, sys
bad = []
plain, sset = json.load(open("plain/sweep.json")), json.load(open("set/sweep.json"))
if plain.get("provenance") != {"overrides": [], "engine": None}:
    bad.append(f"plain provenance {plain.get('provenance')}")
want = [["nic.nic_latency", "2us"], ["btl_ugni_smsg_limit", "1024"]]
if sset.get("provenance") != {"overrides": want, "engine": "des"}:
    bad.append(f"provenance {sset.get('provenance')}")
points = sorted(glob.glob("set/points/*.json"))
if len(points) != 2:
    bad.append(f"{len(points)} point files")
for f in points:
    prov = json.load(open(f))["result"]["provenance"]
    if prov["engine"] != "des" or prov["overrides"][1:] != want or prov["overrides"][0][0] != "nic.bte_bandwidth":
        bad.append(f"{f}: engine {prov['engine']}, overrides {prov['overrides']}")
def lat8(t):
    return sorted(r["latency_us"] for r in t["rows"] if r["bytes"] == 8)
# nic_latency (one way, per message) raised from 0.595 us to 2 us: the 8 B half round trip grows by over 1 us
if not all(b - a > 1.0 for a, b in zip(lat8(plain), lat8(sset))):
    bad.append(f"8 B latency {lat8(plain)} -> {lat8(sset)}: the --set did not act")
print("; ".join(bad) if bad else "fine")
sys.exit(1 if bad else 0)
P
check "provenance and points: $(cat py.out)" "[[ \$(cat py.out) == fine ]]"
"$BIN" sweep grid.json --out set --merge > /dev/null 2> merge.err; rc=$?
check "--merge without the same --set and --engine: exit 2, no points ($(cat merge.err))" \
  "[[ $rc == 2 ]] && grep -q 'with the same --set and --engine' merge.err"
refused() {  # name expected-stderr grid options...
  local name=$1 want=$2 grid=$3; shift 3
  "$BIN" sweep "$grid" --out "r-$name" "$@" > out 2> err; local rc=$?
  if [[ $rc == 2 && "$(cat err)" == "$want" && ! -e "r-$name" ]]; then echo "ok   $name: $(cat err)"
  else echo "FAIL $name: exit $rc, stderr: $(cat err)"; fail=1; fi
}
refused "--set of the axis" \
  "ompisim: error: --set 'nic.bte_bandwidth': is an axis of the grid grid.json ('nic.bte_bandwidth'): the sweep gives it each of the axis's values; leave out the --set, or the axis" \
  grid.json --set nic.bte_bandwidth=5GB/s
sed 's/"nic.bte_bandwidth": \["4 GB\/s", "6 GB\/s"\]/"mca.btl_ugni_smsg_limit": [256, 1024], "engine": ["lmm", "des"]/' grid.json > mca.json
refused "--set of an MCA axis by its bare name" \
  "ompisim: error: --set 'btl_ugni_smsg_limit': is an axis of the grid mca.json ('mca.btl_ugni_smsg_limit'): the sweep gives it each of the axis's values; leave out the --set, or the axis" \
  mca.json --set btl_ugni_smsg_limit=512
refused "--engine with an engine axis" \
  "ompisim: error: --engine 'fluid': the grid mca.json has an axis 'engine': the sweep gives each point the axis's engine; leave out --engine, or the axis" \
  mca.json --engine fluid
sed 's/"nic.bte_bandwidth": \["4 GB\/s", "6 GB\/s"\]/"machine": ["cielo", "titan"]/' grid.json > machines.json
cp "$SRC/models/gemini/machines/cielo.json" mine.json
refused "--machine-file with a machine axis" \
  "ompisim: error: --machine-file 'mine.json': the grid machines.json has an axis 'machine': --machine-file would run every point on this one file while its rows name the axis's machines; leave out --machine-file, or the axis" \
  machines.json --machine-file mine.json
refused "an unknown --set key" \
  "ompisim: error: --set 'nic.nic_latncy': unknown parameter (did you mean 'nic.nic_latency'?) (grid grid.json, point 1 of 2)" \
  grid.json --set nic.nic_latncy=1us
refused "an MCA parameter the stack does not read" \
  "ompisim: error: --set 'btl_portals_eager_limit': parameter of btl/portals, which runs on seastar machines; this machine is gemini, so it would be ignored (grid grid.json, point 1 of 2)" \
  grid.json --set btl_portals_eager_limit=1024
cat > native_axis.json <<'J'
{"base": {"id": "tiny", "machine": "cielo", "stack": "native", "ranks": 2,
          "benchmark": {"name": "osu_latency", "sizes": [8], "iterations": 2, "skip": 0}},
 "axes": {"btl_ugni_smsg_limit": [256, 1024]}}
J
"$BIN" sweep native_axis.json --out r-native-axis > out 2> err; rc=$?
check "an MCA axis the point's stack does not read: exit 2 naming the axis, nothing run ($rc: $(cat err))" \
  "[[ $rc == 2 && ! -e r-native-axis ]] && grep -q \"native_axis.json: key 'axes.btl_ugni_smsg_limit'\" err && grep -q 'would be ignored' err"
# A value that a component refuses when it is built (btl/portals: an eager limit above its max send size), given at
# the grid's last point: refused when the grid is read, naming the grid file and the axis, with no point run.
cat > portals_axis.json <<'J'
{"base": {"id": "tiny", "machine": "red-storm", "stack": "openmpi-ob1", "ranks": 2,
          "benchmark": {"name": "osu_latency", "sizes": [8], "iterations": 2, "skip": 0}},
 "axes": {"mca.btl_portals_eager_limit": ["8 KiB", "128 KiB"]}}
J
"$BIN" sweep portals_axis.json --out r-portals-axis > out 2> err; rc=$?
check "a component's refusal at a later point: exit 2 naming the grid and axis, nothing run ($rc: $(cat err))" \
  "[[ $rc == 2 && ! -e r-portals-axis ]] && grep -q \"portals_axis.json: key 'axes.mca.btl_portals_eager_limit': btl_portals_eager_limit (131072 B) exceeds btl_portals_max_send_size\" err"
# --machine-file: every point on a what-if machine (cielo with nic_latency 2 us), recorded, and part of each point's
# input: the same file again runs nothing, an edited file runs every point again
python3 -c "import json, sys; d = json.load(open(sys.argv[1])); d['networks']['gemini']['nic']['nic_latency']['value'] = '2 us'; json.dump(d, open('slow-cielo.json', 'w'))" \
  "$(dirname "$(realpath "$0")")/../../models/gemini/machines/cielo.json"
"$BIN" sweep grid.json --machine-file slow-cielo.json --out mf > /dev/null 2> mf.err; rc=$?
python3 - > mf.out 2>&1 <<'P'
import glob, json
plain, mf = json.load(open("plain/sweep.json")), json.load(open("mf/sweep.json"))
bad = []
if mf["provenance"].get("machine_file") != "slow-cielo.json": bad.append(f"provenance {mf['provenance']}")
for f in glob.glob("mf/points/*.json"):
    if not json.load(open(f))["result"]["provenance"]["machine_file"].endswith("slow-cielo.json"): bad.append(f + ": machine_file")
lat = lambda t: sorted(r["latency_us"] for r in t["rows"] if r["bytes"] == 8)
if not all(b - a > 1.0 for a, b in zip(lat(plain), lat(mf))): bad.append(f"8 B latency {lat(plain)} -> {lat(mf)}")
print("; ".join(bad) if bad else "fine")
P
check "sweep --machine-file: exit 0 ($rc), every point on the file's machine, recorded ($(cat mf.out))" "[[ $rc == 0 && \$(cat mf.out) == fine ]]"
"$BIN" sweep grid.json --machine-file slow-cielo.json --out mf > /dev/null 2> mf2.err
sed -i 's/"2 us"/"3 us"/' slow-cielo.json
"$BIN" sweep grid.json --machine-file slow-cielo.json --out mf > /dev/null 2> mf3.err
check "the same machine file runs nothing again, an edited one every point ($(head -1 mf2.err); $(head -1 mf3.err))" \
  "grep -q '0 run now' mf2.err && grep -q '2 run now' mf3.err"
refused "--set without =" "ompisim: error: --set 'nic.nic_latency': expected key=value" grid.json --set nic.nic_latency
exit $fail
