#!/usr/bin/env bash
# Regression of protocol choices (compare). (1) Two runs of the same scenarios: folders equal, exit 0.
# (2) The same scenario with another SMSG limit: the changed latencies are marked, with their ratio, exit 1.
# (3) A result altered by +10 %: marked at --tolerance 5 % (exit 1), not at 20 % (exit 0); --json lists every row,
# with --diff-only those beyond the tolerance. (4) --against reruns the
# scenarios of a results folder: exit 0 when they agree, 1 and the drifting value when a committed value was altered;
# a validation table is noted, not rerun, and a scenario run from outside the repository is found again (exit 0).
# (5) Bad input exits 2 naming the argument and the reason (--against a file: that it is one, and for a result file the
# command that reruns it; a statistic, counters or a sweep axis of the wrong type). (6) Without --all only what drifted is printed: two equal
# runs print the summary line alone; --all prints every value. (2b) Two result files run differently: the lines naming
# A and B say how (--set, machine file, engine), only where they differ; (2c) two folders too, when their pairs of
# files differ alike, else that they differ from file to file; (2d) two benchmarks, two stacks, two placements, two node lists or two values of a
# scenario's mca block are named the same way; the counters only one of two stacks reports are listed apart, not
# compared against 0. (7) A .json file that does not load is named where its counterpart is a result (exit 2), and
# noted where neither side loads. (8) A difference in the last bits is equal at the default tolerance, marked at 0.
# (9) Points only in B in B's order; no point in common said; a long file name keeps the columns aligned.
set -u
BIN=$(realpath "$1"); SRC=$(cd "$(dirname "$0")/../.." && pwd); t=$(mktemp -d); trap 'rm -rf "$t"' EXIT; fail=0
cd "$t"
for d in a b; do
  "$BIN" run "$SRC/scenarios/gemini/fig3_latency_2p_intra_openmpi.json" --out "$t/$d/gemini" > /dev/null 2>&1 || fail=1
  "$BIN" run "$SRC/scenarios/seastar/fig2_netpipe_native.json" --out "$t/$d/seastar" > /dev/null 2>&1 || fail=1
done
"$BIN" compare "$t/a" "$t/b" > "$t/out" 2>&1; rc=$?
[[ $rc == 0 ]] && grep -q "^2 files, [0-9]* values compared, 0 beyond tolerance, 0 structural" "$t/out" \
  && echo "ok   same runs: $(tail -1 "$t/out")" || { echo "FAIL same runs: rc=$rc $(tail -3 "$t/out")"; fail=1; }
# (6) nothing drifted: no row of 1.0000 and no column header, only the summary (and the lines naming A and B); --all
# prints them
rows=$(grep -c ' 1\.0000 *$' "$t/out")
[[ $rows == 0 && $(wc -l < "$t/out") -le 4 ]] && ! grep -q "^file  *point  *metric" "$t/out" && echo "ok   nothing drifted: $(wc -l < "$t/out") line(s), no 1.0000 row" \
  || { echo "FAIL nothing drifted but $rows rows of 1.0000 printed ($(wc -l < "$t/out") lines)"; fail=1; }
"$BIN" compare "$t/a" "$t/b" --all > "$t/out" 2>&1
[[ $(grep -c ' 1\.0000 *$' "$t/out") -gt 10 ]] && echo "ok   --all prints every value" || { echo "FAIL --all: $(head -5 "$t/out")"; fail=1; }
cat > "$t/inter.json" <<'J'
{"id": "inter", "machine": "cielo", "stack": "openmpi", "ranks": 2, "ranks_per_node": 1,
 "benchmark": {"name": "osu_latency", "sizes": [8, 512, 4096], "iterations": 5, "skip": 1}}
J
"$BIN" run "$t/inter.json" --out "$t/s1" > /dev/null 2>&1 || fail=1
"$BIN" run "$t/inter.json" --out "$t/s2" --set btl_ugni_smsg_limit=256 --set nic.bte_bandwidth="5 GB/s" \
  > /dev/null 2>&1 || fail=1
"$BIN" compare "$t/s1/inter.json" "$t/s2/inter.json" --diff-only > "$t/out" 2>&1; rc=$?
# one file compared: "1 file", not "1 files"
grep -q "^1 file, [0-9]* values compared, [0-9]* beyond tolerance, 0 structural differences$" "$t/out" \
  && echo "ok   the summary of one file: $(tail -1 "$t/out")" || { echo "FAIL the summary of one file: $(tail -1 "$t/out")"; fail=1; }
python3 - "$t/out" "$rc" <<'P' || fail=1
import sys
lines = open(sys.argv[1]).read().splitlines(); rc = int(sys.argv[2])
marked = [l for l in lines if l.rstrip().endswith("*")]
assert rc == 1, rc
assert any("bytes=512" in l and "latency_us" in l for l in marked), lines
# 4096 B is an eager get (FMA) under both SMSG limits and takes no BTE transfer: the same path, at most another order
# of the same sums (the last bits), not marked at the default tolerance
assert not any("bytes=4096" in l and "latency_us" in l for l in marked), lines
assert not any("bytes=8 " in l and "latency_us" in l for l in marked), "8 B goes by SMSG under both limits"
l = [l for l in marked if "bytes=512" in l and "latency_us" in l][0].split()
a, b, ratio = float(l[-4]), float(l[-3]), float(l[-2])
assert abs(ratio - b / a) < 1e-3 and ratio > 1, l
print("ok   smsg limit 256 vs default: 512 B latency %.3f -> %.3f us (x%.3f) marked, 8 B and 4 KiB unchanged, exit 1" % (a, b, ratio))
P
# (2b) the header says what each file was run with where the two differ: the --set of one against none of the other,
# each override as typed (one --set each, a value with a space quoted)
grep -qx "# A: $t/s1/inter.json (run with no --set)" "$t/out" \
  && grep -qx "# B: $t/s2/inter.json (run with --set btl_ugni_smsg_limit=256 --set nic.bte_bandwidth=\"5 GB/s\")" "$t/out" \
  && echo "ok   the header names each side's --set: $(sed -n 2p "$t/out")" \
  || { echo "FAIL the header does not say how A and B were run: $(head -2 "$t/out" | tr '\n' ' ')"; fail=1; }
# (2c) two folders of results run with different settings: the header says how, as for two files, when every pair of
# files differs alike; when the pairs differ differently, it says so
"$BIN" compare "$t/s1" "$t/s2" > "$t/out" 2>&1
grep -qx "# A: $t/s1 (run with no --set)" "$t/out" \
  && grep -qx "# B: $t/s2 (run with --set btl_ugni_smsg_limit=256 --set nic.bte_bandwidth=\"5 GB/s\")" "$t/out" \
  && echo "ok   two folders: the header names each side's --set: $(sed -n 2p "$t/out")" \
  || { echo "FAIL two folders: the header does not say how A and B were run: $(head -2 "$t/out" | tr '\n' ' ')"; fail=1; }
# (2c') two run folders of one result each under different names (two scenarios' ompisim-out/<id>/): the two results
# are compared, said in a note, the header naming how each was run
mkdir -p "$t/r1" "$t/r2"; cp "$t/s1/inter.json" "$t/r1/alpha.json"; cp "$t/s2/inter.json" "$t/r2/beta.json"
"$BIN" compare "$t/r1" "$t/r2" > "$t/out" 2>&1; rc=$?
[[ $rc == 1 ]] && grep -q "^# one result in each folder, under different names: alpha.json (A) compared with beta.json (B)" "$t/out" \
  && grep -q "^1 file, .* [1-9][0-9]* beyond tolerance" "$t/out" && grep -qx "# A: $t/r1 (run with no --set)" "$t/out" \
  && echo "ok   two run folders of one result each: compared, said in a note" \
  || { echo "FAIL two run folders, one result each: rc=$rc $(cat "$t/out")"; fail=1; }
# (2c'') a run folder of one result against a result file (either order): that result, said in a note; a folder of
# several results against a file: exit 2, naming the count
"$BIN" compare "$t/r1" "$t/s2/inter.json" > "$t/out" 2>&1; rc=$?
[[ $rc == 1 ]] && grep -qF "# the folder $t/r1 holds one result, alpha.json: compared with the file $t/s2/inter.json" "$t/out" \
  && grep -q "^1 file, .* [1-9][0-9]* beyond tolerance" "$t/out" && grep -qx "# A: $t/r1 (run with no --set)" "$t/out" \
  && echo "ok   a run folder against a file: its one result compared" \
  || { echo "FAIL a run folder against a file: rc=$rc $(cat "$t/out")"; fail=1; }
"$BIN" compare "$t/s1/inter.json" "$t/r1" > "$t/out" 2>&1; rc=$?
[[ $rc == 0 ]] && grep -qF "# the folder $t/r1 holds one result, alpha.json: compared with the file $t/s1/inter.json" "$t/out" \
  && echo "ok   a file against a run folder of the same result: equal" || { echo "FAIL file against folder: rc=$rc $(cat "$t/out")"; fail=1; }
cp "$t/s2/inter.json" "$t/r1/gamma.json"
"$BIN" compare "$t/r1" "$t/s2/inter.json" > "$t/out" 2>&1; rc=$?
[[ $rc == 2 ]] && grep -qF "A is a folder and B a file, and the folder holds 2 results" "$t/out" \
  && echo "ok   a folder of two results against a file: exit 2" || { echo "FAIL two results against a file: rc=$rc $(cat "$t/out")"; fail=1; }
rm "$t/r1/gamma.json"
# (2d) the committed results of two stacks, two placements, and one stack's two mca blocks
R=$SRC/results
"$BIN" compare "$R/gemini/fig5_latency_2p_inter_openmpi.json" "$R/gemini/fig5_latency_2p_inter_native.json" > "$t/out" 2>&1
grep -qx "# A: .*fig5_latency_2p_inter_openmpi.json (run with stack openmpi)" "$t/out" \
  && grep -qx "# B: .*fig5_latency_2p_inter_native.json (run with stack native)" "$t/out" \
  && echo "ok   two stacks named: $(sed -n 2p "$t/out")" || { echo "FAIL two stacks: $(head -2 "$t/out" | tr '\n' ' ')"; fail=1; }
# two stacks' counters: ob1's (A only) and native/mpich_gni's (B only) are listed with '-' on the other side, not
# compared against 0 (no 'inf' ratio, none counted beyond tolerance); latencies still compared
grep -q "^# counters one stack reports and the other has not (not compared; .*A openmpi on cielo, B native on cielo)" "$t/out" \
  && grep -Eq "stats +counters\.ob1_MATCH +[0-9]+ +- *$" "$t/out" && grep -Eq "stats +counters\.smsg_eager +- +[0-9]+ *$" "$t/out" \
  && ! grep -q " inf " "$t/out" && grep -Eq "^1 file, [0-9]+ values compared, [1-9][0-9]* beyond tolerance, 0 structural differences, [0-9]+ counters of one stack only$" "$t/out" \
  && echo "ok   two stacks' own counters listed apart: $(tail -1 "$t/out")" || { echo "FAIL two stacks' counters: $(grep -E "inf|counters|file" "$t/out" | head -5)"; fail=1; }
# the counters of one stack stand in the table's columns: each value ends where the header's A and B end
python3 - "$t/out" <<'P' && echo "ok   one stack's counters aligned with the table" || { echo "FAIL one stack's counters misaligned"; fail=1; }
import re, sys
lines = open(sys.argv[1]).read().splitlines()
head = next(l for l in lines if l.startswith("file "))
ends = [m.end() for m in re.finditer(r"\S+", head)][-3:-1]  # where the A and B columns end
at = next(i for i, l in enumerate(lines) if l.startswith("# counters one stack reports"))
rows = [l for l in lines[at + 1:] if re.search(r"\bstats\b", l)]
assert rows and all([m.end() for m in re.finditer(r"\S+", l)][-2:] == ends for l in rows), (ends, rows[:3])
P
# two route policies of one scenario on one machine: the header names them
"$BIN" compare "$R/slingshot/whatif_routing_minimal_alltoall_64p_8groups.json" "$R/slingshot/whatif_routing_ugal_alltoall_64p_8groups.json" > "$t/out" 2>&1
grep -qx "# A: .*whatif_routing_minimal_alltoall_64p_8groups.json (run with routing minimal)" "$t/out" \
  && grep -qx "# B: .*whatif_routing_ugal_alltoall_64p_8groups.json (run with routing ugal)" "$t/out" \
  && echo "ok   two route policies named" || { echo "FAIL two route policies: $(head -2 "$t/out" | tr '\n' ' ')"; fail=1; }
"$BIN" compare "$R/gemini/fig5_latency_2p_inter_openmpi.json" "$R/gemini/fig6_bibw_2p_inter_openmpi.json" > "$t/out" 2>&1
grep -qx "# A: .*fig5_latency_2p_inter_openmpi.json (run with benchmark osu_latency)" "$t/out" \
  && grep -qx "# B: .*fig6_bibw_2p_inter_openmpi.json (run with benchmark osu_bibw)" "$t/out" \
  && echo "ok   two benchmarks named" || { echo "FAIL two benchmarks: $(head -2 "$t/out" | tr '\n' ' ')"; fail=1; }
"$BIN" compare "$R/gemini/fig5_latency_2p_inter_openmpi.json" "$R/gemini/fig3_latency_2p_intra_openmpi.json" > "$t/out" 2>&1
grep -qx "# A: .* (run with ranks 2, 1 per node)" "$t/out" && grep -qx "# B: .* (run with ranks 2, 2 per node)" "$t/out" \
  && echo "ok   two placements named" || { echo "FAIL two placements: $(head -2 "$t/out" | tr '\n' ' ')"; fail=1; }
# two node lists (a scenario's "nodes" against the default placement; a long list by its ends and count)
printf '%s' '{"id": "far", "machine": "cielo", "stack": "openmpi", "ranks": 2, "nodes": [0, 1000], "benchmark": {"name": "osu_latency", "sizes": [8], "iterations": 3, "skip": 1}}' > "$t/far.json"
sed 's/"far"/"near"/; s/"nodes": \[0, 1000\], //' "$t/far.json" > "$t/near.json"
sed 's/"far"/"many"/; s/"ranks": 2, "nodes": \[0, 1000\]/"ranks": 8, "nodes": [0, 1, 2, 3, 4, 5, 6, 9]/; s/"osu_latency"/"osu_multi_lat"/' "$t/far.json" > "$t/many.json"
for x in far near many; do "$BIN" run "$t/$x.json" --out "$t/nodes-$x" > /dev/null 2>&1 || fail=1; done
"$BIN" compare "$t/nodes-far/far.json" "$t/nodes-near/near.json" > "$t/out" 2>&1
grep -qx "# A: .* (run with nodes \[0, 1000\])" "$t/out" && grep -qx "# B: .* (run with nodes as placed by default)" "$t/out" \
  && echo "ok   two node lists named" || { echo "FAIL two node lists: $(head -2 "$t/out" | tr '\n' ' ')"; fail=1; }
"$BIN" compare "$t/nodes-many/many.json" "$t/nodes-near/near.json" > "$t/out" 2>&1
grep -q "^# A: .*nodes \[0, 1, ..., 9\] (8 nodes)" "$t/out" && echo "ok   a long node list by its ends and count" \
  || { echo "FAIL long node list: $(head -2 "$t/out" | tr '\n' ' ')"; fail=1; }
"$BIN" compare "$R/qsnet/fig7_read.json" "$R/qsnet/fig7_write.json" > "$t/out" 2>&1
grep -qx "# A: .* (run with mca ptl_elan4_rdma=read)" "$t/out" && grep -qx "# B: .* (run with mca ptl_elan4_rdma=write)" "$t/out" \
  && echo "ok   one stack's two mca values named" || { echo "FAIL mca block: $(head -2 "$t/out" | tr '\n' ' ')"; fail=1; }
mkdir -p "$t/f1" "$t/f2"; cp "$t/s1/inter.json" "$t/f1/x.json"; cp "$t/s2/inter.json" "$t/f2/x.json"
cp "$t/s1/inter.json" "$t/f1/y.json"; cp "$t/s1/inter.json" "$t/f2/y.json"
"$BIN" compare "$t/f1" "$t/f2" > "$t/out" 2>&1
grep -qx "# A: $t/f1 (run settings differ from file to file)" "$t/out" && grep -qx "# B: $t/f2" "$t/out" \
  && echo "ok   two folders whose pairs differ differently: said so" \
  || { echo "FAIL mixed folders: $(head -2 "$t/out" | tr '\n' ' ')"; fail=1; }
python3 - "$t/s1/inter.json" "$t/s3.json" <<'P'
import json, sys
r = json.load(open(sys.argv[1])); r["points"][1]["latency_us"] *= 1.10; json.dump(r, open(sys.argv[2], "w"))
P
"$BIN" compare "$t/s1/inter.json" "$t/s3.json" --tolerance 5% > "$t/out" 2>&1; rc5=$?
"$BIN" compare "$t/s1/inter.json" "$t/s3.json" --tolerance 0.2 --json > "$t/out20" 2>&1; rc20=$?
[[ $rc5 == 1 && $rc20 == 0 ]] && grep "bytes=512" "$t/out" | grep -q "1.1000 \*" && python3 -c "import json,sys; j=json.load(open('$t/out20')); assert j['beyond']==0 and j['tolerance']==0.2" \
  && echo "ok   +10 %: marked at 5 % (exit 1), within 20 % (exit 0, JSON)" || { echo "FAIL tolerance: $rc5 $rc20 $(cat "$t/out")"; fail=1; }
"$BIN" compare "$t/s1/inter.json" "$t/s3.json" --tolerance 5% --json > "$t/outall" 2>&1
"$BIN" compare "$t/s1/inter.json" "$t/s3.json" --tolerance 5% --json --diff-only > "$t/outdiff" 2>&1
python3 - "$t/outall" "$t/outdiff" <<'P' && echo "ok   --json: every row; with --diff-only the rows beyond the tolerance" || { echo "FAIL --json --diff-only"; fail=1; }
import json, sys
a, d = (json.load(open(f)) for f in sys.argv[1:3])
assert len(a["rows"]) == a["values"] > 1 and a["beyond"] >= 1, a
assert d["values"] == a["values"] and len(d["rows"]) == d["beyond"] == a["beyond"], d
assert all(r["beyond"] for r in d["rows"])
P
# (4) --against: the committed copies are this build's own results, then one is altered
"$BIN" compare --against "$t/a" > "$t/out" 2>&1; rc=$?
[[ $rc == 0 ]] && grep -q "^2 files, .* 0 beyond tolerance" "$t/out" && echo "ok   --against, no drift: $(tail -1 "$t/out")" \
  || { echo "FAIL --against: rc=$rc $(tail -5 "$t/out")"; fail=1; }
python3 - "$t/a/gemini/fig3_latency_2p_intra_openmpi.json" <<'P'
import json, sys
r = json.load(open(sys.argv[1])); r["points"][3]["latency_us"] *= 0.97; json.dump(r, open(sys.argv[1], "w"))
P
"$BIN" compare --against "$t/a" --only gemini --tolerance 1% --diff-only > "$t/out" 2>&1; rc=$?
[[ $rc == 1 ]] && grep -q "^1 file, .* 1 beyond tolerance" "$t/out" && grep -q "latency_us .*1.0309 \*" "$t/out" \
  && echo "ok   --against --only gemini: drift found, exit 1: $(grep '\*' "$t/out" | tr -s ' ')" || { echo "FAIL --against drift: rc=$rc $(cat "$t/out")"; fail=1; }
# --only given the scenario file (as a user names it) finds the result run from it: the same drift, one file
"$BIN" compare --against "$t/a" --only scenarios/gemini/fig3_latency_2p_intra_openmpi.json --tolerance 1% > "$t/out" 2>&1; rc=$?
[[ $rc == 1 ]] && grep -q "^1 file, .* 1 beyond tolerance" "$t/out" \
  && echo "ok   --against --only <scenario file>: the same drift, exit 1" || { echo "FAIL --only <scenario file>: rc=$rc $(tail -3 "$t/out")"; fail=1; }
# --only with a text only the scenario file's path holds, without "scenarios/" (a what-if's result is named by its id,
# whatif_<stem>, so --only whatif/topology names only its scenario scenarios/whatif/topology_...): found the same way
"$BIN" compare --against "$t/a" --only narios/gemini/fig3_latency --tolerance 1% > "$t/out" 2>&1; rc=$?
[[ $rc == 1 ]] && grep -q "^1 file, .* 1 beyond tolerance" "$t/out" \
  && echo "ok   --against --only <part of the scenario path only>: the same drift, exit 1" || { echo "FAIL --only <part of scenario path>: rc=$rc $(tail -3 "$t/out")"; fail=1; }
# (4b) a validation table (results/validation.json) is compared as what it is: made from the scenario results, not
# rerun, said in a note; and a result whose scenario was run from outside the repository is found again.
mkdir -p "$t/v/gemini" "$t/outside"
cp "$SRC/results/validation.json" "$t/v/"
cp "$SRC/scenarios/gemini/fig3_latency_2p_intra_openmpi.json" "$t/outside/x.json"
(cd "$t/outside" && "$BIN" run x.json --out "$t/v/gemini" > /dev/null 2>&1) || fail=1
"$BIN" compare --against "$t/v" > "$t/out" 2>&1; rc=$?
[[ $rc == 0 ]] && grep -q "^# validation.json: a validation table" "$t/out" && grep -q "^1 file, .* 0 beyond tolerance, 0 structural" "$t/out" \
  && echo "ok   --against with validation.json and a scenario run from outside the repository: exit 0" \
  || { echo "FAIL --against validation table / outside scenario: rc=$rc $(tail -4 "$t/out")"; fail=1; }
# (5) bad input
bad() {  # name, expected text, args...
  local name=$1 want=$2; shift 2
  "$BIN" compare "$@" > /dev/null 2> "$t/e"; local rc=$?
  if [[ $rc == 2 && $(wc -l < "$t/e") == 1 ]] && grep -q -- "$want" "$t/e"; then echo "ok   $name: $(cat "$t/e")"
  else echo "FAIL $name: rc=$rc $(cat "$t/e")"; fail=1; fi
}
bad "missing A" "compare '$t/nope': A: no such file" "$t/nope" "$t/b"
bad "file and folder" "A is a file and B a folder" "$t/s1/inter.json" "$t/b"
echo '{"points_of": []}' > "$t/other.json"
bad "not a result" "compare '$t/other.json': not an ompisim result" "$t/other.json" "$t/s1/inter.json"
bad "a scenario, not a result" "compare '$t/inter.json': a scenario, not a result: \`ompisim run\` it" "$t/inter.json" "$t/s1/inter.json"
echo '{"scenario": "x", "points": "oops"}' > "$t/oops.json"
bad "points that are not a list" "compare '$t/oops.json': its \"points\" is not a list of points" "$t/oops.json" "$t/s1/inter.json"
bad "bad tolerance" "--tolerance.*relative tolerance" "$t/a" "$t/b" --tolerance=-3
bad "one argument" "give A and B" "$t/a"
bad "--against no such folder" "--against '$t/nope': no such folder$" --against "$t/nope"
# --against given a file: said to be one (it said "not a folder of results (neither here nor in ...)"); a result file
# gets the command that reruns it, which does
echo "not results" > "$t/notes.txt"
bad "--against a file" "--against '$t/notes.txt': is a file, not a folder of results" --against "$t/notes.txt"
bad "--against a result file" "--against '$t/s1/inter.json': is a result file, not a folder of results: rerun its \
scenario with --against $t/s1 --only inter.json, or compare it with another result file as \`ompisim compare A B\`" \
  --against "$t/s1/inter.json"
"$BIN" compare --against "$t/s1" --only inter.json > "$t/out" 2>&1 && grep -q "^1 file, .* 0 beyond tolerance" "$t/out" \
  && echo "ok   the command it gives reruns the result file: $(tail -1 "$t/out")" \
  || { echo "FAIL --against $t/s1 --only inter.json: $(tail -3 "$t/out")"; fail=1; }
bad "--only matches nothing" "--against.*no result path or scenario file contains 'zzz'" --against "$t/a" --only zzz
bad "--set without --against" "--set.*applies to --against only" "$t/a" "$t/b" --set btl_ugni_smsg_limit=256
# a point that is not an object (a hostile or damaged result): exit 2 naming the file and the point, in either mode
python3 -c "import json; d = json.load(open('$t/s1/inter.json')); d['points'][0] = 7; json.dump(d, open('$t/pt.json', 'w'))"
bad "point not an object" "pt.json: key 'points\[0\]': must be an object" "$t/s1/inter.json" "$t/pt.json"
mkdir -p "$t/pa" "$t/pb" && cp "$t/s1/inter.json" "$t/pa/x.json" && cp "$t/pt.json" "$t/pb/x.json"
bad "point not an object, folders" "x.json: key 'points\[0\]': must be an object" "$t/pa" "$t/pb"
# a statistic, counters or a sweep's axis of the wrong type: a damaged file (exit 2), not a drift of 0 or a new axis
python3 -c "import json; d = json.load(open('$t/s1/inter.json')); d['stats']['events'] = 'x'; json.dump(d, open('$t/st.json', 'w'))"
bad "a statistic that is text" "st.json: key 'stats.events': must be a number or an object of numbers" "$t/s1/inter.json" "$t/st.json"
python3 -c "import json; d = json.load(open('$t/s1/inter.json')); d['points'][0]['counters'] = 'x'; json.dump(d, open('$t/ct.json', 'w'))"
bad "counters that are text" "ct.json: key 'points\[0\].counters': must be an object of counts" "$t/s1/inter.json" "$t/ct.json"
echo '{"grid": "g.json", "axes": [1], "columns": [], "rows": [{"bytes": 1, "latency_us": 1}]}' > "$t/ax.json"
bad "a sweep's axis that is no name" "ax.json: key 'axes\[0\]': must be a string" "$t/ax.json" "$t/ax.json"
# (7) A result that does not load: where its counterpart is a result it is the broken file, named (exit 2), not a file
# "only in A"; broken on both sides it is noted, not dropped in silence.
mkdir -p "$t/br/a" "$t/br/b" "$t/br/c"
cp "$t/a/gemini/"*.json "$t/br/a/r.json"; head -c 300 "$t/br/a/r.json" > "$t/br/b/r.json"; cp "$t/br/a/r.json" "$t/br/b/ok.json"
cp "$t/br/b/r.json" "$t/br/c/r.json"; cp "$t/br/a/r.json" "$t/br/c/ok.json"
"$BIN" compare "$t/br/a" "$t/br/b" > "$t/out" 2>&1; rc=$?
[[ $rc == 2 ]] && grep -q "br/b/r.json.*not valid JSON.*counterpart r.json in .*br/a is a result" "$t/out" \
  && echo "ok   a broken result is named: $(head -c 120 "$t/out")" || { echo "FAIL broken result: rc=$rc $(cat "$t/out")"; fail=1; }
"$BIN" compare "$t/br/b" "$t/br/c" > "$t/out" 2>&1; rc=$?
[[ $rc == 0 ]] && grep -q "r.json: not compared, does not load in A" "$t/out" && grep -q "does not load in B" "$t/out" \
  && echo "ok   broken on both sides: noted" || { echo "FAIL broken on both sides: rc=$rc $(cat "$t/out")"; fail=1; }
# (8) A difference in the last bits (a what-if summing the same times in another order): equal at the default
# tolerance (1e-9, exit 0); --tolerance 0 marks it, its ratio printed as its distance from 1, never as 1.0000.
mkdir -p "$t/fp/a" "$t/fp/b"; cp "$t/br/a/r.json" "$t/fp/a/r.json"
python3 - "$t/fp/a/r.json" "$t/fp/b/r.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1])); d["points"][3]["latency_us"] *= 1 + 4e-15; json.dump(d, open(sys.argv[2], "w"))
PY
"$BIN" compare "$t/fp/a" "$t/fp/b" > "$t/out" 2>&1; rc=$?
"$BIN" compare "$t/fp/a" "$t/fp/b" --tolerance 0 > "$t/out0" 2>&1; rc0=$?
[[ $rc == 0 && $rc0 == 1 ]] && grep -q " 1+[0-9.]*e-1[45] \*" "$t/out0" && ! grep -q " 1\.0000 \*" "$t/out0" \
  && echo "ok   last-bit difference: equal by default, marked at 0 as $(grep -o ' 1+[0-9.e-]* \*' "$t/out0")" \
  || { echo "FAIL last-bit difference: rc=$rc rc0=$rc0 $(cat "$t/out" "$t/out0")"; fail=1; }
# (9) Points only in B are listed in B's order (sizes ascending, not as text: 2, 4, ..., 256, 512); two results with no
# point in common are said to be so; a file cell longer than the column keeps the rows aligned.
mkdir -p "$t/ord/a" "$t/ord/b" "$t/ord/c"
python3 - "$t/br/a/r.json" "$t/ord" <<'PY'
import json, sys
d = json.load(open(sys.argv[1])); o = sys.argv[2]
json.dump(d, open(o + "/b/r.json", "w"))
few = dict(d, points=[p for p in d["points"] if p["bytes"] in (0, 1, 128, 1024)])
json.dump(few, open(o + "/a/r.json", "w"))
json.dump(dict(d, points=[dict(p, bytes=p["bytes"] + 3) for p in d["points"]]), open(o + "/c/r.json", "w"))
PY
"$BIN" compare "$t/ord/a" "$t/ord/b" > "$t/out" 2>&1
sizes=$(grep -o "point bytes=[0-9]* only in B" "$t/out" | grep -o "[0-9]*")
[[ -n $sizes && $sizes == "$(sort -n <<<"$sizes")" ]] && echo "ok   only in B, sizes ascending: $(echo $sizes | cut -c1-40)" \
  || { echo "FAIL only in B order: $sizes"; fail=1; }
"$BIN" compare "$t/ord/a" "$t/ord/c" > "$t/out" 2>&1
grep -q "^! r.json: no point of A is a point of B ([0-9]* points in A, [0-9]* in B; A's first: bytes=0; B's first: bytes=3)" "$t/out" \
  && ! grep -q "only in [AB]" "$t/out" \
  && echo "ok   no point in common: said once, no point listed" || { echo "FAIL no point in common: $(head -5 "$t/out")"; fail=1; }
mkdir -p "$t/long/a" "$t/long/b"; cp "$t/br/a/r.json" "$t/long/a/a_result_file_with_a_name_longer_than_the_column.json"
python3 - "$t/br/a/r.json" "$t/long/b/a_result_file_with_a_name_longer_than_the_column.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for p in d["points"]: p["latency_us"] *= 1.1
json.dump(d, open(sys.argv[2], "w"))
PY
"$BIN" compare "$t/long/a" "$t/long/b" > "$t/out" 2>&1
cols=$(grep " \*$" "$t/out" | awk '{print index($0, "latency_us")}' | sort -u | wc -l)
[[ $cols == 1 ]] && echo "ok   a long file name: the metric column stays aligned" || { echo "FAIL long file name: $(sed -n 4,6p "$t/out")"; fail=1; }
# (10) --against a what-if's folder (run --set, --machine-file, --engine) reruns each result as it was run, said in a
# note: no drift (exit 0). A --set given here replaces the stored one of the same key (said); a machine file stored
# relative to the folder run was started in, compared from elsewhere, is named as not here (not rerun, exit 1). A
# result whose provenance lacks a machine file is "not stored" in the header, not an empty name.
"$BIN" compare --against "$t/s2" > "$t/out" 2>&1; rc=$?
[[ $rc == 0 ]] && grep -qF '# inter.json: a what-if, rerun as it was run: --set btl_ugni_smsg_limit=256, --set nic.bte_bandwidth=5 GB/s' "$t/out" \
  && grep -q "^1 file, .* 0 beyond tolerance, 0 structural" "$t/out" \
  && echo "ok   --against a what-if: rerun with its stored --set, no drift" || { echo "FAIL --against a what-if: rc=$rc $(cat "$t/out")"; fail=1; }
"$BIN" compare --against "$t/s2" --set btl_ugni_smsg_limit=1024 > "$t/out" 2>&1; rc=$?
[[ $rc == 1 ]] && grep -qF '# inter.json: its stored --set btl_ugni_smsg_limit=256 is replaced by the --set btl_ugni_smsg_limit=1024 given here' "$t/out" \
  && echo "ok   --against a what-if --set: the stored value replaced, said, drift found" || { echo "FAIL --against what-if --set: rc=$rc $(cat "$t/out")"; fail=1; }
mkdir -p "$t/wm" && cd "$t/wm"
python3 - "$SRC/models/gemini/machines/cielo.json" <<'PY'
import json, sys
m = json.load(open(sys.argv[1])); m["networks"]["gemini"]["nic"]["bte_bandwidth"]["value"] = "5.5 GB/s"
json.dump(m, open("mine.json", "w"))
PY
"$BIN" run "$t/inter.json" --machine-file mine.json --engine des --out "$t/wm/o" > /dev/null 2>&1 || fail=1
"$BIN" compare --against "$t/wm/o" > "$t/out" 2>&1; rc=$?
cd "$t"
"$BIN" compare --against "$t/wm/o" > "$t/out2" 2>&1; rc2=$?
[[ $rc == 0 ]] && grep -qF '# inter.json: a what-if, rerun as it was run: --machine-file mine.json, --engine des' "$t/out" \
  && [[ $rc2 == 1 ]] && grep -qF '! inter.json: it was run with the machine file mine.json, which is not here (compare from the folder run was started in): not rerun' "$t/out2" \
  && echo "ok   --against a what-if on a machine file and engine: rerun with both; from elsewhere: named, not rerun" \
  || { echo "FAIL --against machine file: rc=$rc rc2=$rc2 $(cat "$t/out" "$t/out2")"; fail=1; }
python3 - "$t/wm/o/inter.json" "$t/nomf.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1])); del r["provenance"]["machine_file"]; json.dump(r, open(sys.argv[2], "w"))
PY
"$BIN" compare "$t/s1/inter.json" "$t/nomf.json" > "$t/out" 2>&1
grep -q "^# B: .*machine file not stored" "$t/out" && ! grep -q "machine file ;\|machine file)" "$t/out" \
  && echo "ok   a provenance without a machine file: 'not stored' in the header" || { echo "FAIL empty machine file: $(head -2 "$t/out")"; fail=1; }
# (11) --against --set of an MCA parameter: refused (exit 2, nothing run) when no rerun's stack reads it; where some
# do, a result whose stack does not is rerun without it, said once.
"$BIN" compare --against "$t/a" --only gemini --set btl_portals_eager_limit=1024 > "$t/out" 2>&1; rc=$?
[[ $rc == 2 ]] && grep -q "^ompisim: error: --set 'btl_portals_eager_limit': no result rerun here has a stack that reads it, so each would be compared with itself (gemini/fig3_latency_2p_intra_openmpi.json: parameter of btl/portals" "$t/out" \
  && echo "ok   --against --set read by no stack: exit 2" || { echo "FAIL --against --set read by none: rc=$rc $(cat "$t/out")"; fail=1; }
"$BIN" compare --against "$t/a" --set btl_ugni_smsg_limit=256 > "$t/out" 2>&1; rc=$?
[[ $rc == 0 || $rc == 1 ]] && [[ $(grep -c "seastar/fig2_netpipe_native.json: --set btl_ugni_smsg_limit" "$t/out") == 1 ]] \
  && grep -q "^# seastar/fig2_netpipe_native.json: --set btl_ugni_smsg_limit: stack 'native' does not read it: rerun without it" "$t/out" \
  && echo "ok   --against --set read by one stack: the others rerun without it, said once" \
  || { echo "FAIL --against --set read by some: rc=$rc $(cat "$t/out")"; fail=1; }
exit $fail
