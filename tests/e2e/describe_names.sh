#!/usr/bin/env bash
# Configuration: `describe` with a name of each kind (a paper too), a scenario path as `list` prints it (run from
#                another folder), a paper's figure scenario, a copy of it outside scenarios/, a sweep grid, a machine
#                file written by `machine template`, misspelled names, and a JSON file of neither kind.
# Expected:      exit 0 for every kind, the scenario's machine, stack and benchmark, the machine file's own name;
#                a paper lists each figure (in reading order: Fig. 4 before Fig. 10) with its scenario files and its
#                committed plot (a file that exists); a
#                paper's scenario names its paper and figure with the figure's other scenarios, its committed result
#                (a file that exists), the figure's plot, every validation row that reads it (every entry of the
#                paper's reference file naming the scenario, found here by python) and its estimated events and CPU
#                time; the copy only its estimate; a grid the estimate of its largest point; `describe --names`
#                includes the papers;
#                a misspelled name exits 2 with one line naming the closest name of any kind first, where a reader
#                sees it (ugnii -> ugni, btl/ugnii -> btl/ugni), then every kind; a JSON file of neither kind exits 2
#                naming the file; every engine, NIC kind and collective algorithm `list` prints is taken (exit 0,
#                its own heading), a name of several kinds prints the first and names the others with the KIND/NAME
#                that picks each (cxi: the component ofi/cxi, then "nic-kind/cxi"), a bare algorithm name prints every
#                collective's algorithm of that name, and --names lists them; a framework (btl, coll) lists its
#                components, a value of benchmark keys (tuned) names the keys (exit 2).
# How validated: exit codes and grep on the output.
set -u
BIN=$(realpath "$1"); t=$(mktemp -d); trap 'rm -rf "$t"' EXIT; fail=0
cd "$t"
ok() { echo "ok   $*"; }
bad() { echo "FAIL $*"; fail=1; }
for n in cielo btl/ugni ugni osu_bw allreduce openmpi torus; do
  "$BIN" describe "$n" > out 2> err && [[ -s out ]] && ok "describe $n" || bad "describe $n: $(cat err)"
done
scen=$("$BIN" list | sed -n '/^scenarios:/,$p' | sed -n 2p | tr -d ' ')
"$BIN" describe "$scen" > out 2> err && grep -q "^# scenario " out && grep -q "^machine .*, stack .*, benchmark " out \
  && ok "describe $scen: $(tail -1 out)" || bad "describe $scen: $(cat out err)"
DATA=$(dirname "$(dirname "$BIN")")/share/ompisim
fig5=scenarios/gemini/fig5_latency_2p_inter_openmpi.json
"$BIN" describe gemini-xe-xk > out 2> err && grep -q "^# paper gemini-xe-xk: Open MPI for Cray XE/XK" out \
  && grep -q "^fig5: 4 scenarios, .*calibration.*; plot .*/results/gemini/fig5.svg$" out && grep -qx "  $fig5" out \
  && [[ -f $(sed -n 's/^fig5: .*; plot //p' out) ]] && ok "describe gemini-xe-xk: $(grep '^fig5' out)" \
  || bad "describe gemini-xe-xk: $(cat out err)"
# `describe KIND NAME`, as `list` prints the kinds: the same text as KIND/NAME; a second word after a name that is not
# a kind, or two names after a kind, is refused with the spelling to use
"$BIN" describe paper/qsnet-elan4 > want 2> err
for k in paper papers; do
  "$BIN" describe $k qsnet-elan4 > out 2> err && cmp -s out want && ok "describe $k qsnet-elan4: as paper/qsnet-elan4" \
    || bad "describe $k qsnet-elan4: $(cat err)"
done
grep -q "^Table 1: 4 scenarios, 3 calibration points, 1 claim, 2 held-out values, 6 mechanism checks, 3 predictions; plot " want \
  && ok "row counts in words: $(grep '^Table 1' want | cut -c1-90)" || bad "Table 1's row counts: $(grep '^Table 1' want)"
"$BIN" describe cielo qsnet-elan4 > /dev/null 2> err; rc=$?
[[ $rc == 2 ]] && grep -qF "describe takes one NAME; 'cielo' is not a kind of name" err && ok "a second word after a name: exit 2" \
  || bad "describe cielo qsnet-elan4: exit $rc, $(cat err)"
"$BIN" describe paper qsnet-elan4 gemini-xe-xk > /dev/null 2> err; rc=$?
[[ $rc == 2 ]] && grep -qF "one name at a time: \`ompisim describe paper/qsnet-elan4\`" err && ok "two names after a kind: exit 2" \
  || bad "describe paper A B: exit $rc, $(cat err)"
"$BIN" describe slingshot-ex > out 2> err; f4=$(grep -n "^Fig. 4 D2D inter-node: " out | cut -d: -f1); f10=$(grep -n "^Fig. 10 D2D: " out | cut -d: -f1)
[[ -n $f4 && -n $f10 && $f4 -lt $f10 ]] && ok "describe slingshot-ex: Fig. 4 (line $f4) before Fig. 10 (line $f10)" \
  || bad "describe slingshot-ex: figure order: Fig. 4 at '$f4', Fig. 10 at '$f10'"
"$BIN" describe --names | grep -qx slingshot-ex && ok "describe --names lists the papers" || bad "--names: no paper"
"$BIN" describe "$fig5" > out 2> err && grep -q "^paper gemini-xe-xk (ompisim describe gemini-xe-xk), figure fig5, with .*scenarios/gemini/fig5_latency_2p_inter_native.json" out \
  && [[ -f $(sed -n 's/^committed result \(.*\.json\) and its .csv$/\1/p' out) ]] \
  && grep -q "^the figure's plot .*/results/gemini/fig5.svg (drawn by ompisim reproduce)$" out \
  && grep -q "^estimate: about .* messages (2 ranks x 160590 calls over 24 sizes (10000 + 100 calls up to 8 KiB, 1000 + 10 above) x .*), about .* s of CPU time" out \
  && ok "describe $fig5: its figure, result, plot and estimate" || bad "describe $fig5: $(cat out err)"
# a scenario without "id" (QsNet's): its result is named by the file's stem, and describe finds it by that name
"$BIN" describe scenarios/qsnet/fig10_latency_native.json > qout 2> err \
  && grep -q "^committed result .*/results/qsnet/fig10_latency_native.json and its .csv$" qout \
  && ok "describe a scenario without id: $(grep '^committed result' qout | sed 's|.*/results/|results/|')" \
  || bad "describe scenarios/qsnet/fig10_latency_native.json: no committed result line: $(cat qout err)"
rows=$(grep "^validation rows (ompisim validate --paper gemini-xe-xk): " out)
missing=$(python3 - "$DATA/validation/reference/gemini-xe-xk.json" "$fig5" "$rows" <<'PY'
import json, sys
doc, rel, line = json.load(open(sys.argv[1])), sys.argv[2], sys.argv[3]
def names(j):
    if isinstance(j, dict):
        return j.get("scenario") == rel or any(names(v) for v in j.values())
    return isinstance(j, list) and any(names(v) for v in j)
ids = [e["id"] for v in doc.values() if isinstance(v, list) for e in v if isinstance(e, dict) and names(e)]
print(len(ids) if ids else "none", *[i for i in ids if f" {i}" not in line.replace(",", " ")])
PY
)
[[ $missing =~ ^[0-9]+$ && $missing -ge 7 ]] && ok "every validation row reading $fig5 is named ($missing)" \
  || bad "validation rows of $fig5: count and missing: $missing; line: $rows"
python3 -c "import json; d = json.load(open('$DATA/$fig5')); d.pop('paper'); d.pop('figure'); json.dump(d, open('mine.json', 'w'))"
"$BIN" describe mine.json > out 2> err && grep -q "^estimate: about .* messages" out && ! grep -q "^paper \|^committed \|^validation rows" out \
  && ok "describe a copy: its estimate only" || bad "describe mine.json: $(cat out err)"
echo '{"base": "mine.json", "axes": {"ranks": [2]}}' > grid.json
"$BIN" describe grid.json > out 2> err && grep -q "^estimate: about .* messages (2 ranks" out && ! grep -q "over the 1 point" out \
  && ok "describe a grid: its estimate" || bad "describe grid.json: $(cat out err)"
"$BIN" machine template my-cielo --out "$t" 2> /dev/null
"$BIN" describe "$t/my-cielo.json" > out 2> err && grep -q "^# my-cielo " out && ok "describe a machine file" \
  || bad "describe a machine file: $(head -2 out) $(cat err)"
"$BIN" list > listed
names_between() { sed -n "/^$1/,/^$2/p" listed | sed '1d;$d' | awk '{print $1}'; }
for e in $(names_between 'engines (' 'NIC kinds:'); do
  "$BIN" describe "$e" > out 2> err && grep -q "^# engine $e " out && ok "describe engine $e" || bad "describe $e: $(cat out err)"
done
for k in $(names_between 'NIC kinds:' 'topologies ('); do
  "$BIN" describe "nic-kind/$k" > out 2> err && grep -q "^# NIC kind $k " out && grep -q "^## machines with it" out \
    && ok "describe nic-kind/$k" || bad "describe nic-kind/$k: $(cat out err)"
done
n_algo=0
while read -r coll algos; do
  for a in ${algos//,/ }; do
    "$BIN" describe "$coll/$a" > out 2> err && grep -q "^# algorithm $coll/$a " out && grep -q "^    mirrors " out \
      && n_algo=$((n_algo + 1)) || bad "describe $coll/$a: $(cat out err)"
  done
done < <(sed -n '/^collectives (/,/^papers (/p' listed | sed '1d;$d')
[[ $n_algo -ge 30 ]] && ok "describe COLLECTIVE/ALGORITHM: $n_algo algorithms" || bad "only $n_algo algorithms described"
"$BIN" describe cxi > out 2> err && grep -q "^# ofi/cxi: " out \
  && grep -qF "# 'cxi' also names the NIC kind cxi (ompisim describe nic-kind/cxi)" out \
  && ok "describe cxi: the component, then the NIC kind named" || bad "describe cxi: $(tail -2 out) $(cat err)"
# the prefix as `list` prints the kind (plural) picks it too
"$BIN" describe nic-kinds/cxi > out 2> err && grep -q "^# NIC kind cxi " out && "$BIN" describe machines/cielo > out 2> err \
  && grep -q "^# cielo (" out && ok "describe nic-kinds/cxi, machines/cielo" || bad "plural prefix: $(head -2 out) $(cat err)"
"$BIN" describe binomial > out 2> err && grep -q "^# algorithm bcast/binomial " out && grep -q "^# algorithm gather/binomial " out \
  && ok "describe binomial: each collective's" || bad "describe binomial: $(cat out err)"
"$BIN" describe --names > names && grep -qx fluid names && grep -qx gemini names && grep -qx alltoall/pairwise names \
  && ok "describe --names: engines, NIC kinds, algorithms" || bad "--names lacks an engine, NIC kind or algorithm"
misspelled() {  # NAME HINT HINT'S-KIND
  "$BIN" describe "$1" > /dev/null 2> err; local rc=$?
  if [[ $rc == 2 && $(wc -l < err) == 1 ]] \
    && grep -qF "ompisim: error: describe '$1': did you mean '$2' ($3)? It is not a machine, a component, a benchmark" err \
    && grep -qF "; \`ompisim list\` shows every name" err && [[ $(wc -c < err) -lt 400 ]]; then
    ok "describe $1: did you mean '$2' ($3)"
  else bad "describe $1: exit $rc, $(cut -c1-300 err)"; fi
}
misspelled ugnii ugni "a component"
misspelled btl/ugnii btl/ugni "a component"
misspelled alreduce allreduce "a collective"
misspelled gemini-xe gemini-xe-xk "a paper"
misspelled engine/fluidd fluid "an engine"
misspelled gemnii gemini "a NIC kind"
# a part of parameters' names: the MCA parameters with their components and the machine parameters that contain it
# (it said "did you mean 'des' (an engine)?" for smsg)
"$BIN" describe smsg > /dev/null 2> err; rc=$?
[[ $rc == 2 && $(wc -l < err) == 1 ]] && grep -qF "describe 'smsg': no name is 'smsg'; names containing it: btl_ugni_smsg_limit (btl/ugni)" err \
  && grep -qF "nic.smsg_cpu_overhead (machine)" err && grep -qF "mpich_gni_smsg_credits (native/mpich_gni)" err \
  && ! grep -q "did you mean" err && ok "describe smsg: the parameters containing it" || bad "describe smsg: exit $rc, $(cat err)"
"$BIN" describe EAGER > /dev/null 2> err; rc=$?
[[ $rc == 2 ]] && grep -qF "btl_ugni_eager_limit (btl/ugni)" err && grep -qE " and [0-9]+ more " err && [[ $(wc -c < err) -lt 1200 ]] \
  && ok "describe EAGER: case aside, the first names and how many more" || bad "describe EAGER: exit $rc, $(cat err)"
# an MCA parameter's name: the component that lists it
"$BIN" describe btl_ugni_eager_limit > /dev/null 2> err; rc=$?
[[ $rc == 2 ]] && grep -qF "an MCA parameter of btl/ugni: \`ompisim describe btl/ugni\` lists it" err && ok "an MCA parameter: its component named" \
  || bad "describe btl_ugni_eager_limit: exit $rc, $(cat err)"
# a machine parameter as --set names it (its path or its last part): the machines that have it; a scenario key: schema
for n in nic.bte_bandwidth bte_bandwidth; do
  "$BIN" describe $n > /dev/null 2> err; rc=$?
  [[ $rc == 2 ]] && grep -qF "a machine parameter: \`ompisim describe MACHINE\` lists it" err && grep -q "machines with it: .*cielo" err \
    && ! grep -q "machines with it: .*crusher" err && ok "a machine parameter ($n): the machines with it" \
    || bad "describe $n: exit $rc, $(cat err)"
done
"$BIN" describe map_by > /dev/null 2> err; rc=$?
[[ $rc == 2 ]] && grep -qF "a key of a scenario file (" err && grep -qF "ompisim schema scenario" err && ok "a scenario key: the schema named" \
  || bad "describe map_by: exit $rc, $(cat err)"
echo '{"x": 1}' > other.json
"$BIN" describe other.json > /dev/null 2> err; rc=$?
[[ $rc == 2 ]] && grep -q "other.json.*neither a machine file" err && ok "a JSON file of neither kind: $(cat err)" \
  || bad "other.json: exit $rc, $(cat err)"
# A framework's name lists its components (btl: self, vader, ugni, ...; coll: the collectives), also with files in the
# folder; a value of benchmark keys ("tuned") names the keys that take it (exit 2), not a near name of another kind;
# --names includes the frameworks.
echo '{}' > btl; echo '{}' > x.json
"$BIN" describe btl > out 2> err && grep -q "^# framework btl: " out && grep -q "^ugni .*\[gemini\]" out && grep -q "^vader " out \
  && ok "describe btl: the framework's components" || bad "describe btl: $(cat out err)"
"$BIN" describe coll > out 2> err && grep -q "^# framework coll: " out && grep -q "^barrier .*cheetah-atomic" out \
  && ok "describe coll: the collectives" || bad "describe coll: $(cat out err)"
"$BIN" describe tuned > out 2> err; rc=$?
[[ $rc == 2 ]] && grep -q "a value of the benchmark keys barrier_loop.algorithm, osu_alltoall.algorithm" err && ! grep -q "did you mean" err \
  && ok "describe tuned: the keys that take it" || bad "describe tuned: exit $rc, $(cat err)"
"$BIN" describe --names > out && grep -qx "btl" out && grep -qx "mtl" out && grep -qx "coll" out \
  && ok "--names includes the frameworks" || bad "--names without frameworks"
exit $fail
