#!/usr/bin/env bash
# Outputs. (1) An --out that cannot be created: exit 2 naming --out, before simulating (fast, on a run that
# takes seconds). (2) run without --out writes under the current directory (ompisim-out/<id>/, never results/) and says where on stderr;
# a what-if (--set) without --out writes ompisim-out/<id>-whatif-<hash>/ and leaves the plain run's result as it was
# (the hash of the parsed --set: 'k = v' is 'k=v'); another scenario file with the same id writes ompisim-out/<id>-<hash>/;
# a file of one's own whose "id" is not its name (a renamed copy) is said to name its results by the id; an explicit
# --out holding another scenario file's result of the same id has it replaced, and the run says so.
# (3) --version: version, git describe (the build's, also under an OMPISIM_DATA without .git), the data folder,
# SimGrid version. (4) OSU-shaped tables (header lines, two decimals, MB/s).
# (5) Results of a repository scenario hold no absolute paths. (6) --plot draws one run (when gnuplot is installed);
# a what-if's plot names what the run changed (the scenario's mca block, --set).
# (7) calibrate --write writes a new machine file into --out and leaves the repository's untouched (again into the
# same folder, or over the --machine it reads, it is refused; an output that is a FIFO is refused); without --out it
# is refused (exit 2). (8) describe knows collectives, stacks and topologies as well as machines, components and
# benchmarks, and `list` prints every name it takes. (9) machine template NAME writes a machine file that loads as it is and notes every parameter; it never replaces an
# existing file; an unknown --like is an error of --like.
# (10) sensitivity --mca varies the MCA parameters named, one at 0 = auto around its effective value, with progress;
# the machine parameters the run never reads are listed as not read, not stepped;
# one at 0 at every point is said to be a limit no point crosses, not a parameter without effect; a count whose
# rounding to a whole number swallows the step (32 credits at +-1 %: 32 both ways) is said to be, not run or given 0;
# --machine-file varies a machine file's parameters (loggp with S = 30 B: at step 0.05 S runs at 29 B and 32 B and
# its row says it moved by +-0.04922). --set takes the derivatives around a what-if: every run has it, the stepped
# parameter's own --set (by its path, its last part, or an MCA name) is replaced in its two runs, the rows show the
# set values, the JSON lists the overrides and the text says so; an unknown --set key exits 2.
set -u
BIN=$(realpath "$1"); SRC=$(cd "$(dirname "$0")/../.." && pwd); t=$(mktemp -d); trap 'rm -rf "$t"' EXIT; fail=0
echo '{"id": "slow", "machine": "titan", "stack": "openmpi", "benchmark": {"name": "barrier_loop", "algorithm": "cheetah-p2p", "iterations": 200, "skip": 0}, "ranks": 65536, "ranks_per_node": 16}' > "$t/slow.json"
touch "$t/file"
t0=$(date +%s%N); "$BIN" run "$t/slow.json" --out "$t/file/sub" > /dev/null 2> "$t/err"; rc=$?; ms=$(( ($(date +%s%N) - t0) / 1000000 ))
[[ $rc == 2 && $ms -lt 1500 ]] && grep -q -- "--out" "$t/err" && echo "ok   unwritable --out: $(cat "$t/err") ($ms ms)" || { echo "FAIL unwritable --out: rc=$rc $ms ms $(cat "$t/err")"; fail=1; }
q='"machine": "cielo", "stack": "openmpi", "ranks": 2, "benchmark": {"iterations": 2, "skip": 0, "sizes": [1, 1024], "name": '
mkdir "$t/cwd"; cd "$t/cwd"
echo "{\"id\": \"lat\", $q \"osu_latency\"}}" > "$t/lat.json"
"$BIN" run "$t/lat.json" > "$t/lat.txt" 2> "$t/err" || fail=1
[[ -s "$t/cwd/ompisim-out/lat/lat.json" && -s "$t/cwd/ompisim-out/lat/lat.csv" && ! -e "$t/cwd/results" ]] && grep -q "wrote $t/cwd/ompisim-out/lat/lat.json" "$t/err" \
  && echo "ok   default output under the current directory: $(cat "$t/err")" || { echo "FAIL default output: $(cat "$t/err")"; fail=1; }
! grep -q "named by the scenario's" "$t/err" || { echo "FAIL an id that is the file's name noted: $(cat "$t/err")"; fail=1; }
# a copy under another file name keeps the "id": the results take it, and the run says so (not the shipped scenarios)
cp "$t/lat.json" "$t/mine.json"
"$BIN" run "$t/mine.json" --out "$t/o-mine" > /dev/null 2> "$t/err" || fail=1
"$BIN" run "$SRC/scenarios/whatif/topology_latency_torus.json" --out "$t/o-torus" > /dev/null 2> "$t/err-torus" || fail=1
[[ -s "$t/o-mine/lat.json" ]] && grep -qx "ompisim: the results are named by the scenario's \"id\" ('lat'), not by its file name ('mine'): edit \"id\" to rename them" "$t/err" \
  && ! grep -q "named by" "$t/err-torus" && echo "ok   a renamed copy's results are named by its id, said" || { echo "FAIL renamed copy: $(cat "$t/err" "$t/err-torus")"; fail=1; }
# a what-if without --out: its own folder (ompisim-out/lat-whatif-<hash>/), the plain run's result untouched; the same
# --set lands in the same folder again
plain=$(sha256sum < "$t/cwd/ompisim-out/lat/lat.json")
"$BIN" run "$t/lat.json" --set node.links.cache_line_same_numa=0.3us > /dev/null 2> "$t/err"; rc=$?
w=$(ls -d "$t"/cwd/ompisim-out/lat-whatif-* 2> /dev/null)
"$BIN" run "$t/lat.json" --set node.links.cache_line_same_numa=0.3us > /dev/null 2> "$t/err2"
[[ $rc == 0 && $(sha256sum < "$t/cwd/ompisim-out/lat/lat.json") == "$plain" && $(echo "$w" | wc -l) == 1 && -s "$w/lat.json" ]] \
  && grep -q "wrote $w/lat.json" "$t/err" && grep -q "wrote $w/lat.json" "$t/err2" \
  && ! cmp -s "$w/lat.json" "$t/cwd/ompisim-out/lat/lat.json" \
  && echo "ok   a what-if without --out writes ${w#$t/cwd/}/, the plain run's result kept" \
  || { echo "FAIL what-if default output: rc=$rc, folders $(ls "$t/cwd/ompisim-out" | tr '\n' ' '), $(cat "$t/err")"; fail=1; }
# the same what-if spelt with blanks around '=' lands in the same folder
"$BIN" run "$t/lat.json" --set "node.links.cache_line_same_numa = 0.3us" > /dev/null 2> "$t/err3"
grep -q "wrote $w/lat.json" "$t/err3" && [[ $(ls -d "$t"/cwd/ompisim-out/lat-whatif-* | wc -l) == 1 ]] \
  && echo "ok   'k = v' is the what-if 'k=v': the same folder" || { echo "FAIL 'k = v': $(cat "$t/err3")"; fail=1; }
# another scenario file with the same id: its own folder (ompisim-out/lat-<hash>/), said on stderr; the first file's
# result kept, and each file back in its own folder on a second run
mkdir -p "$t/other"; echo "{\"id\": \"lat\", $q \"osu_latency\"}, \"ranks_per_node\": 2}" > "$t/other/lat.json"
"$BIN" run "$t/other/lat.json" > /dev/null 2> "$t/err4"; rc=$?
o=$(ls -d "$t"/cwd/ompisim-out/lat-[0-9a-f]* 2> /dev/null | grep -v whatif)
"$BIN" run "$t/lat.json" > /dev/null 2> "$t/err5"
[[ $rc == 0 && $(echo "$o" | wc -l) == 1 && -s "$o/lat.json" ]] && grep -q "holds the result of $t/lat.json, another scenario with id 'lat': wrote into ${o#$t/cwd/}/ instead" "$t/err4" \
  && grep -q "wrote $o/lat.json" "$t/err4" && grep -q "wrote $t/cwd/ompisim-out/lat/lat.json" "$t/err5" \
  && [[ $(sha256sum < "$t/cwd/ompisim-out/lat/lat.json") == "$plain" ]] \
  && echo "ok   another scenario with the same id writes ${o#$t/cwd/}/, the first's result kept" \
  || { echo "FAIL same id: rc=$rc, folders $(ls "$t/cwd/ompisim-out" | tr '\n' ' '), $(cat "$t/err4" "$t/err5")"; fail=1; }
# an explicit --out holding the result of another scenario file with the same id: replaced, and said so
mkdir -p "$t/mine"; "$BIN" run "$t/lat.json" --out "$t/mine" > /dev/null 2> /dev/null
"$BIN" run "$t/other/lat.json" --out "$t/mine" > /dev/null 2> "$t/err7"; rc=$?
"$BIN" run "$t/other/lat.json" --out "$t/mine" > /dev/null 2> "$t/err8"
[[ $rc == 0 ]] && grep -q "replaced $t/mine/lat.json and its CSV, the result of another scenario file ($t/lat.json)" "$t/err7" \
  && ! grep -q "replaced" "$t/err8" && echo "ok   --out holding another scenario's result of the same id: replaced, said once" \
  || { echo "FAIL --out of another scenario: rc=$rc, $(cat "$t/err7" "$t/err8")"; fail=1; }
# the same file with a rank count the machine cannot hold: exit 2, the error, no word of another folder, none made
sed 's/"ranks": 2,/"ranks": 100000000,/' "$t/other/lat.json" > "$t/other/big.json"
before=$(ls "$t/cwd/ompisim-out" | wc -l)
"$BIN" run "$t/other/big.json" > /dev/null 2> "$t/err6"; rc=$?
[[ $rc == 2 ]] && grep -q "key 'ranks'" "$t/err6" && ! grep -q "holds the result of" "$t/err6" \
  && [[ $(ls "$t/cwd/ompisim-out" | wc -l) == "$before" ]] \
  && echo "ok   a same-id run that fails its checks: exit 2, no folder named or made" \
  || { echo "FAIL same id, failing run: rc=$rc, $(cat "$t/err6")"; fail=1; }
"$BIN" --version > "$t/v" && grep -q "^ompisim [0-9]" "$t/v" && grep -q "^git describe: " "$t/v" && grep -q "^SimGrid 3\.[0-9]*" "$t/v" \
  && echo "ok   --version: $(tr '\n' ';' < "$t/v")" || { echo "FAIL --version"; fail=1; }
# the git describe is the build's, not the data folder's: the same with OMPISIM_DATA naming a folder without .git
mkdir -p "$t/nogit"
OMPISIM_DATA="$t/nogit" "$BIN" --version > "$t/v2" && [[ $(grep "^git describe: " "$t/v2") == $(grep "^git describe: " "$t/v") ]] \
  && grep -qx "data folder: $t/nogit" "$t/v2" && echo "ok   --version under OMPISIM_DATA without .git: the build's describe, the folder named" \
  || { echo "FAIL --version under OMPISIM_DATA: $(tr '\n' ';' < "$t/v2") vs $(tr '\n' ';' < "$t/v")"; fail=1; }
python3 - "$t/lat.txt" <<'P' || fail=1
import re, sys
lines = open(sys.argv[1]).read().splitlines()
# the protocol each size took, above the table: SMSG at 1 B, the eager get at 1 KiB (btl/ugni's automatic limit)
assert any(x.startswith("# protocol counters by size: 1 B ") and "; 1 KiB ugni_eager_gets" in x for x in lines), lines
l = [x for x in lines if not x.startswith(("# effective values: ", "# protocol counters by size: ", "# mailbox memory per node "))]
assert l[1] == "# OSU MPI Latency Test v5.x" and l[2] == "# Size          Latency (us)", l
assert re.fullmatch(r"1 {17,}\d+\.\d\d", l[3]) and len(l[3]) == 28, l[3]
print("ok   osu_latency table:", l[1:4])
P
for b in osu_bw osu_mbw_mr; do
  echo "{\"id\": \"$b\", $q \"$b\"}}" > "$t/$b.json"
  # the header's effective-values line (btl/ugni's SMSG limit on auto) is checked in e2e.edges, its mailbox line in
  # e2e.sweep_mailbox, its protocol line
  # above; the OSU table here
  "$BIN" run "$t/$b.json" --out "$t/o-$b" 2> /dev/null | grep -v "^# effective values: \|^# protocol counters by size: \|^# mailbox memory per node " > "$t/$b.txt" || fail=1
done
sed -n 3p "$t/osu_bw.txt" | grep -qx "# Size      Bandwidth (MB/s)" && sed -n 4p "$t/osu_bw.txt" | grep -qE "^1 +[0-9]+\.[0-9]{2}$" \
  && echo "ok   osu_bw table" || { echo "FAIL osu_bw: $(cat "$t/osu_bw.txt")"; fail=1; }
sed -n 3p "$t/osu_mbw_mr.txt" | grep -qx "# Size                  MB/s        Messages/s" && sed -n 4p "$t/osu_mbw_mr.txt" | grep -qE "^1 +[0-9]+\.[0-9]{2} +[0-9]+\.[0-9]{2}$" \
  && echo "ok   osu_mbw_mr table" || { echo "FAIL osu_mbw_mr: $(cat "$t/osu_mbw_mr.txt")"; fail=1; }
"$BIN" run "$SRC/scenarios/gemini/fig5_latency_2p_inter_openmpi.json" --out "$t/repo" > /dev/null 2>&1 || fail=1
if grep -q '"/' "$t/repo/fig5_latency_2p_inter_openmpi.json"; then echo "FAIL absolute path in result: $(grep '"/' "$t/repo/"*.json)"; fail=1
else echo "ok   no absolute path: $(grep -o '"machine_file": "[^"]*"' "$t/repo/"*.json)"; fi
if command -v gnuplot > /dev/null; then
  "$BIN" run "$t/lat.json" --out "$t/plot" --plot lat.svg > /dev/null 2>&1 && grep -q "<svg" "$t/plot/lat.svg" && ! ls "$t/plot" | grep -q "\.gp$\|tmp" \
    && echo "ok   --plot lat.svg" || { echo "FAIL --plot: $(ls "$t/plot")"; fail=1; }
  if grep -q ">1 KiB<" "$t/plot/lat.svg" && ! grep -q "e+0\|>1ki<" "$t/plot/lat.svg"; then echo "ok   tick labels 1 KiB, 1 MiB"
  else echo "FAIL tick labels"; fail=1; fi
  # a what-if's plot says under its frame what the run changed: the scenario's mca block and each --set
  echo "{\"id\": \"latw\", $q \"osu_latency\"}, \"mca\": {\"btl_ugni_eager_limit\": 4096}}" > "$t/latw.json"
  "$BIN" run "$t/latw.json" --out "$t/plotw" --plot w.svg --set nic.bte_bandwidth="6 GB/s" > /dev/null 2>&1
  if grep -q "scenario mca: btl_ugni_eager_limit=4096" "$t/plotw/w.svg" && grep -q -- "--set nic.bte_bandwidth=6 GB/s" "$t/plotw/w.svg" \
     && ! grep -q "scenario mca\|--set" "$t/plot/lat.svg"; then echo "ok   --plot of a what-if names its mca block and --set under the frame"
  else echo "FAIL --plot of a what-if does not say what it changed"; fail=1; fi
fi
# (7) SeaStar's calibration (few points, seconds)
mf="$SRC/models/seastar/machines/red-storm.json"; before=$(sha256sum < "$mf")
"$BIN" calibrate --paper seastar-portals --machine red-storm --write > /dev/null 2> "$t/err"; rc=$?
[[ $rc == 2 && $(wc -l < "$t/err") == 1 ]] && grep -q "^ompisim: error: --write: .*give --out DIR" "$t/err" \
  && echo "ok   calibrate --write without --out: $(cat "$t/err")" || { echo "FAIL calibrate --write without --out: rc=$rc $(cat "$t/err")"; fail=1; }
"$BIN" calibrate --paper seastar-portals --machine red-storm --write --out "$t/cal" > /dev/null 2> "$t/err"; rc=$?
if [[ $rc == 0 && $(sha256sum < "$mf") == "$before" ]] && python3 -c "import json,sys; m=json.load(open(sys.argv[1])); assert m['networks']" "$t/cal/red-storm.json" \
  && grep -q "wrote $t/cal/red-storm.json" "$t/err"; then echo "ok   calibrate --write --out: a new machine file, the repository's unchanged"
else echo "FAIL calibrate --write --out: rc=$rc $(tail -2 "$t/err"); $(ls "$t/cal" 2>&1)"; fail=1; fi
# (7b) --write again into the same folder, and with --machine the file it would write: refused before the fit (exit 2)
"$BIN" calibrate --paper seastar-portals --machine red-storm --write --out "$t/cal" > /dev/null 2> "$t/err"; rc=$?
[[ $rc == 2 && $(wc -l < "$t/err") == 1 ]] && grep -q "^ompisim: error: --out .*red-storm.json exists" "$t/err" \
  && echo "ok   calibrate --write over an existing file: $(cat "$t/err")" || { echo "FAIL calibrate --write again: rc=$rc $(cat "$t/err")"; fail=1; }
cp "$t/cal/red-storm.json" "$t/mine.json"; before_mine=$(sha256sum < "$t/mine.json")
"$BIN" calibrate --paper seastar-portals --machine "$t/cal/red-storm.json" --write --out "$t/cal" > /dev/null 2> "$t/err"; rc=$?
[[ $rc == 2 ]] && grep -q "is the --machine this command reads" "$t/err" \
  && echo "ok   calibrate --write over its own --machine: $(cat "$t/err")" || { echo "FAIL calibrate over its input: rc=$rc $(cat "$t/err")"; fail=1; }
# (7c) an output that is a FIFO or a device: refused (exit 2), the node left as it was, even with --force
mkfifo "$t/fifo.json"
"$BIN" machine template mybox --like cielo --file "$t/fifo.json" --force > /dev/null 2> "$t/err"; rc=$?
[[ $rc == 2 && -p "$t/fifo.json" ]] && grep -q "is not a regular file (a FIFO, socket or device)" "$t/err" \
  && echo "ok   template --file a FIFO: $(cat "$t/err")" || { echo "FAIL template over a FIFO: rc=$rc $(cat "$t/err")"; fail=1; }
"$BIN" run "$t/lat.json" --out "$t/tr" --trace "$t/fifo.json" > /dev/null 2> "$t/err"; rc=$?
[[ $rc == 2 && -p "$t/fifo.json" ]] && grep -q "is not a regular file" "$t/err" \
  && echo "ok   --trace a FIFO: $(cat "$t/err")" || { echo "FAIL --trace over a FIFO: rc=$rc $(cat "$t/err")"; fail=1; }
# (8)
for w in "allreduce:^# collective allreduce:recursive_doubling" "openmpi:^# stack openmpi:on NIC kind gemini" \
         "torus:^# topology torus:cielo (network" "cielo:^# cielo :physical parameters" "osu_latency:^# benchmark osu_latency:sizes"; do
  IFS=: read -r name head body <<< "$w"
  "$BIN" describe "$name" > "$t/d" 2> "$t/err"; rc=$?
  [[ $rc == 0 ]] && grep -q "$head" "$t/d" && grep -q "$body" "$t/d" && echo "ok   describe $name: $(head -1 "$t/d" | cut -c1-100)" \
    || { echo "FAIL describe $name: rc=$rc $(head -2 "$t/d") $(cat "$t/err")"; fail=1; }
done
"$BIN" describe frobnicate > /dev/null 2> "$t/err"; rc=$?
[[ $rc == 2 ]] && grep -qF "describe 'frobnicate': not a machine, a component, a benchmark, a collective, a stack, a topology, a route policy, a paper, an engine, a NIC kind or a collective algorithm; \`ompisim list\` shows every name" "$t/err" \
  && [[ $(wc -c < "$t/err") -lt 400 ]] && echo "ok   describe of an unknown name names every kind of name, in under 400 characters" || { echo "FAIL describe frobnicate: $rc $(cat "$t/err")"; fail=1; }
# every name describe takes (describe --names) is listed by `list`, as the README says: collectives, topologies,
# engines, NIC kinds and each collective's algorithms (COLL/ALGO: in the collective's line) too, and the frameworks
# (a heading "  btl:" of the components, and "  coll:")
"$BIN" list > "$t/list" 2> "$t/err" || fail=1
missing=$("$BIN" describe --names | while read -r n; do
  grep -qE "^ +${n##*/}( |$)" "$t/list" || grep -qE "^ +${n%%/*} +(.*, )?${n##*/}(,|$)" "$t/list" \
    || grep -qE "^ +${n}:( |$)" "$t/list" || echo "$n"; done)
[[ -z $missing && $("$BIN" describe --names | wc -l) -gt 50 ]] && echo "ok   list names everything describe takes" \
  || { echo "FAIL describe takes names list does not print: $(echo $missing)"; fail=1; }
# (9)
"$BIN" machine template mybox --out "$t/tpl" > /dev/null 2> "$t/err"; rc=$?
if [[ $rc == 0 && -s "$t/tpl/mybox.json" ]] && python3 -c "
import json, sys; m = json.load(open(sys.argv[1])); nic = m['networks']['gemini']['nic']
assert all('note' in v for v in nic.values() if isinstance(v, dict) and 'value' in v), nic" "$t/tpl/mybox.json" \
  && "$BIN" run "$t/lat.json" --machine-file "$t/tpl/mybox.json" --out "$t/tpl-run" > /dev/null 2>> "$t/err"; then
  echo "ok   machine template: a noted machine file that runs as it is"
else echo "FAIL machine template: rc=$rc $(cat "$t/err")"; fail=1; fi
# the template again over a file the user has edited: refused (exit 2), the edits kept; an unknown --like is said of
# --like
echo " " >> "$t/tpl/mybox.json"; sum=$(sha256sum < "$t/tpl/mybox.json")
"$BIN" machine template mybox --out "$t/tpl" > /dev/null 2> "$t/err"; rc=$?
[[ $rc == 2 && $(sha256sum < "$t/tpl/mybox.json") == "$sum" ]] && grep -q "mybox.json exists" "$t/err" \
  && echo "ok   machine template does not replace an existing file: $(cat "$t/err")" \
  || { echo "FAIL machine template over an existing file: rc=$rc $(cat "$t/err")"; fail=1; }
"$BIN" machine template other --like celio --out "$t/tpl" > /dev/null 2> "$t/err"; rc=$?
[[ $rc == 2 ]] && grep -q "^ompisim: error: --like 'celio': unknown machine 'celio' (did you mean 'cielo'?)" "$t/err" \
  && echo "ok   machine template --like celio: said of --like" || { echo "FAIL --like typo: rc=$rc $(cut -c1-200 "$t/err")"; fail=1; }
# (10)
"$BIN" sensitivity "$t/lat.json" --mca btl_ugni_eager_limit --json > "$t/sens.json" 2> "$t/err" \
  && python3 -c "import json,sys; r=json.load(open(sys.argv[1])); assert [p for p in r['parameters'] if p['name'] == 'btl_ugni_eager_limit' and p['value'] == '8192 B']" "$t/sens.json" \
  && echo "ok   sensitivity --mca varies an MCA parameter" || { echo "FAIL sensitivity --mca: $(cat "$t/err")"; fail=1; }
# a machine parameter no part of the run reads (the native MPI's costs in an Open MPI run) is listed as not read, not
# stepped: no row of it
python3 -c "import json,sys; r=json.load(open(sys.argv[1])); rows={p['name'] for p in r['parameters']}
assert 'software.mpt_lmt_cost' in r['not_read'] and not rows & set(r['not_read']) and 'software.pml_ob1_overhead' in rows, r['not_read']" "$t/sens.json" \
  && echo "ok   sensitivity lists the parameters the run never reads, without stepping them" || { echo "FAIL sensitivity not_read: $(head -c 600 "$t/sens.json")"; fail=1; }
# a scenario over ranks x radix: each point's label names both (the ranks alone repeated: 8 8 16 16)
echo '{"id": "bar", "machine": "titan", "stack": "openmpi", "benchmark": {"name": "barrier_loop", "algorithm": "cheetah-atomic", "iterations": 2, "skip": 0, "radix": [2, 4]}, "ranks": [8, 16], "ranks_per_node": 4}' > "$t/bar.json"
"$BIN" --quiet sensitivity "$t/bar.json" > "$t/sens_bar.txt" 2> "$t/err" \
  && grep -q "^# points: \[ranks=8 radix=2\] \[ranks=8 radix=4\] \[ranks=16 radix=2\] \[ranks=16 radix=4\]$" "$t/sens_bar.txt" \
  && echo "ok   sensitivity labels points over ranks x radix by both" || { echo "FAIL sensitivity labels: $(cat "$t/err") $(head -3 "$t/sens_bar.txt")"; fail=1; }
# an MCA parameter at 0 = auto (btl_ugni_smsg_limit) is varied around the value the run used (1024 B for 2 ranks), not
# skipped: a 1000-byte message crosses the limit within the step
echo "{\"id\": \"lat1000\", ${q/\"sizes\": \[1, 1024\]/\"sizes\": [1000]} \"osu_latency\"}}" > "$t/lat1000.json"
"$BIN" sensitivity "$t/lat1000.json" --mca btl_ugni_smsg_limit --json > "$t/sens0.json" 2> "$t/err" \
  && python3 -c "import json,sys; r=json.load(open(sys.argv[1])); p=[p for p in r['parameters'] if p['name'] == 'btl_ugni_smsg_limit']
assert p and p[0]['value'].startswith('1024 B (effective') and p[0]['max_abs'] > 0, (p, r['not_varied'])" "$t/sens0.json" \
  && echo "ok   sensitivity --mca of an auto (0) parameter varies its effective value" || { echo "FAIL sensitivity --mca auto: $(cat "$t/err") $(head -c 600 "$t/sens0.json")"; fail=1; }
# an MCA limit no point crosses within the step has 0 everywhere: the table says under it, with the two values it was
# moved to, that 0 does not mean it does not matter and names the sweep; a limit a point crosses (smsg_limit at
# 1000 B) gets no such line but one saying its S is a jump over the step, not a slope
"$BIN" sensitivity "$t/lat.json" --mca btl_ugni_eager_limit > "$t/sens.txt" 2> "$t/err"
"$BIN" sensitivity "$t/lat1000.json" --mca btl_ugni_smsg_limit > "$t/sens0.txt" 2> "$t/err"
grep -q "^# btl_ugni_eager_limit: 0 at every point: moved from 8192 B to 8110 B and 8274 B, it changed no point's value.*ompisim sweep" "$t/sens.txt" \
  && ! grep -q "^# btl_ugni_smsg_limit: 0 at every point" "$t/sens0.txt" \
  && grep -q "^# btl_ugni_smsg_limit: a size limit: its |S| [0-9.e+]* is the jump of the points whose protocol changes when it moves from 1024 B (effective.*) to 1014 B and 1034 B, divided by the step, not a slope" "$t/sens0.txt" \
  && echo "ok   sensitivity: an MCA limit at 0 everywhere is said not to be 'no effect', with the sweep to run" \
  || { echo "FAIL sensitivity: a limit at 0 everywhere is left unexplained: $(grep -a "eager_limit" "$t/sens.txt" | head -2)"; fail=1; }
grep -q "^# points: (bytes) [0-9]" "$t/sens.txt" && echo "ok   sensitivity names what its bare point labels are: $(grep '^# points' "$t/sens.txt")" \
  || { echo "FAIL sensitivity points header: $(grep '^# points' "$t/sens.txt")"; fail=1; }
"$BIN" sensitivity "$t/lat.json" --mca btl_ugni_smsg_max_credits > "$t/sens_count.txt" 2> "$t/err" \
  && grep -q "^# btl_ugni_smsg_max_credits: not varied, step too small for this parameter's resolution (value 32, step 0.01): both runs would get 32$" "$t/sens_count.txt" \
  && ! grep -q "^btl_ugni_smsg_max_credits " "$t/sens_count.txt" \
  && echo "ok   sensitivity: a count the step does not move is reported as such" \
  || { echo "FAIL sensitivity of a count: $(cat "$t/err") $(grep -a smsg_max_credits "$t/sens_count.txt")"; fail=1; }
# --mca NAME=VALUE (the spelling --set takes): refused, naming the parameter's name to give
"$BIN" sensitivity "$t/lat.json" --mca btl_ugni_eager_limit=4096 > /dev/null 2> "$t/err"; rc=$?
[[ $rc == 2 ]] && grep -qF "takes a parameter's name, which sensitivity varies around the value the run uses: --mca btl_ugni_eager_limit " "$t/err" \
  && echo "ok   sensitivity --mca NAME=VALUE: exit 2, the name to give" || { echo "FAIL sensitivity --mca N=V: rc=$rc $(cat "$t/err")"; fail=1; }
# --set: the derivatives around a what-if (nic_latency by its last part, an MCA limit named by --mca too)
"$BIN" sensitivity "$t/lat.json" --set nic_latency=2us --set btl_ugni_eager_limit=4096 --mca btl_ugni_eager_limit --json \
  > "$t/sens_set.json" 2> "$t/err" && "$BIN" sensitivity "$t/lat.json" --set nic_latency=2us > "$t/sens_set.txt" 2>> "$t/err" \
  && python3 - "$t/sens.json" "$t/sens_set.json" "$t/sens_set.txt" <<'PY' \
  && echo "ok   sensitivity --set: the derivatives around the what-if" || { echo "FAIL sensitivity --set: $(cat "$t/err")"; fail=1; }
import json, sys
plain, w, text = json.load(open(sys.argv[1])), json.load(open(sys.argv[2])), open(sys.argv[3]).read()
rows = {p["name"]: p for p in w["parameters"]}
assert w["overrides"] == [["nic_latency", "2us"], ["btl_ugni_eager_limit", "4096"]], w["overrides"]
assert rows["nic.nic_latency"]["value"] == "2 us", rows["nic.nic_latency"]
assert rows["btl_ugni_eager_limit"]["value"] == "4096 B", rows["btl_ugni_eager_limit"]
assert all(b > a + 1.0 for a, b in zip(plain["nominal"], w["nominal"])), (plain["nominal"], w["nominal"])
s_plain = [p for p in plain["parameters"] if p["name"] == "nic.nic_latency"][0]["derivatives"][0]
assert rows["nic.nic_latency"]["derivatives"][0] > s_plain, (s_plain, rows["nic.nic_latency"])
assert "# around the what-if --set nic_latency=2us " in text, text[:400]
PY
"$BIN" sensitivity "$t/lat.json" --set nic.nic_latncy=2us > /dev/null 2> "$t/err"; rc=$?
[[ $rc == 2 ]] && grep -qF -- "--set 'nic.nic_latncy': unknown parameter (did you mean 'nic.nic_latency'?)" "$t/err" \
  && echo "ok   sensitivity --set of an unknown key: exit 2" || { echo "FAIL sensitivity --set unknown: rc=$rc $(cat "$t/err")"; fail=1; }
echo '{"base": "loggp", "machine": "loggp", "networks": {"loggp": {"nic": {"S": {"value": "30 B", "source": "test"}}}}}' > "$t/loggp_s30.json"
echo '{"id": "lg", "machine": "loggp", "stack": "loggp", "engine": "des", "ranks": 2, "benchmark": {"name": "osu_latency", "sizes": [1, 31], "iterations": 4, "skip": 1}}' > "$t/lg.json"
"$BIN" sensitivity "$t/lg.json" --machine-file "$t/loggp_s30.json" --step 0.05 > "$t/sens_mf.txt" 2> "$t/err" \
  && grep -qE "^nic\.S +[0-9.]+ \+0\.000 -[0-9.]+$" "$t/sens_mf.txt" && grep -q "nic.S +-0.04922" "$t/sens_mf.txt" \
  && echo "ok   sensitivity --machine-file: a machine file's size varied by whole bytes" \
  || { echo "FAIL sensitivity --machine-file: $(cat "$t/err") $(cat "$t/sens_mf.txt")"; fail=1; }
if command -v script > /dev/null; then
  timeout 120 script -qec "'$BIN' sensitivity '$t/lat.json' --mca btl_ugni_eager_limit > /dev/null" /dev/null | tr '\r' '\n' > "$t/tty.txt"
  grep -aq "\[0/[0-9]* done, [0-9]* left\].*btl_ugni_eager_limit" "$t/tty.txt" && echo "ok   sensitivity shows progress on a terminal" \
    || { echo "FAIL sensitivity progress: $(head -c 300 "$t/tty.txt")"; fail=1; }
fi
exit $fail
