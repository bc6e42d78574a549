#!/usr/bin/env bash
# Configuration: the names a new user types in the first hour, from an empty folder: a scenario named as `list`
#                prints its file but without its folder (or without .json), a misspelt scenario given to `describe`, a
#                misspelt example grid given to `sweep`, and a scenario key given to --set as if it were a parameter
#                (`run --set ranks=4`, `sweep --set benchmark.iterations=5`, `compare --against --set machine=titan`);
#                a misspelt subcommand of `machine`; a scenario, a grid or a result given to --machine-file; --max-input-size -1;
#                `list` with a category (machines, stack, "NIC kinds", ...) or a word that is none; OMPISIM_DATA naming
#                no folder; a name given by its beginning (hetero) or its last parts (--set smsg_limit); --set of a
#                parameter only another machine has (nic.qdma_slots on cielo): the machines that have it are named.
# Expected:      exit 2 with one line, nothing written in the folder: a missing file names the scenario or grid file
#                it is closest to ("no such file (did you mean 'scenarios/gemini/...json'?)"; run said "cannot open
#                file" for a name without its folder, describe and sweep for any misspelt file); a scenario key given
#                to --set is said to be one, with where it goes (it was "unknown parameter"); `machine foo` names foo
#                as an unknown subcommand (it said "a subcommand is required"); a scenario or grid given to
#                --machine-file is named as such; a negative --max-input-size gets the range alone; `list CATEGORY`
#                prints that category alone, and a word that is none is named with the categories.
# How validated: exit status, stderr, the folder's listing.
set -u
BIN=$(realpath "$1"); t=$(mktemp -d); trap 'rm -rf "$t"' EXIT; fail=0
ok() { echo "ok   $*"; }
bad() { echo "FAIL $*"; fail=1; }
n=0
# refuse NAME FIXED-TEXT ARGS...: from an empty folder, exit 2, one 'ompisim: error:' line holding FIXED-TEXT, no file.
refuse() {
  local name=$1 want=$2; shift 2
  local cwd="$t/cwd-$((++n))"; mkdir -p "$cwd"
  (cd "$cwd" && "$BIN" "$@" > "$t/out" 2> "$t/err"); local rc=$?
  if [[ $rc == 2 && $(wc -l < "$t/err") == 1 && -z $(ls -A "$cwd") ]] && grep -q '^ompisim: error: ' "$t/err" \
    && grep -qF -- "$want" "$t/err"; then ok "$name: $(cat "$t/err")"
  else bad "$name: exit $rc, $(head -c 400 "$t/err") (expected '$want'; folder: $(ls -A "$cwd"))"; fi
}
S=scenarios/gemini/fig5_latency_2p_inter_openmpi.json
hint="no such file (did you mean '$S'?)"
refuse "run FILE without its folder" "fig5_latency_2p_inter_openmpi.json: $hint" run fig5_latency_2p_inter_openmpi.json
refuse "run NAME without .json" "fig5_latency_2p_inter_openmpi: $hint" run fig5_latency_2p_inter_openmpi
refuse "describe a misspelt scenario" "inter_openmp.json: $hint" describe scenarios/gemini/fig5_latency_2p_inter_openmp.json
refuse "describe a scenario's name" "fig5_latency_2p_inter_openmpi: $hint" describe fig5_latency_2p_inter_openmpi
refuse "sweep a misspelt grid" "no such file (did you mean 'scenarios/examples/grid_ugni_smsg_bte.json'?)" \
  sweep scenarios/examples/grid_ugni_smsg.json
refuse "sweep a grid without its folder" "no such file (did you mean 'scenarios/examples/grid_ugni_smsg_bte.json'?)" \
  sweep grid_ugni_smsg_bte.json
# a name close to nothing is still said plainly
refuse "run a name close to nothing" "qqqq.json: cannot open file" run qqqq.json
key="a key of the scenario file, not a parameter"
refuse "run --set ranks=4" "--set 'ranks': $key" run "$S" --set ranks=4
refuse "run --set machine=titan" "--set 'machine': $key" run "$S" --set machine=titan
refuse "sweep --set benchmark.iterations=5" "--set 'benchmark.iterations': $key" \
  sweep scenarios/examples/grid_ugni_smsg_bte.json --set benchmark.iterations=5
refuse "compare --against --set machine=titan" "--set 'machine': $key" \
  compare --against results --only gemini/fig5_latency_2p_inter_openmpi --set machine=titan
# a key of the machine's topology (its shape, in the machine file): where to change it (it said "unknown parameter")
topo="a key of the topology of machine cielo's network gemini (networks.gemini.topology.dims), not a parameter: write a machine file with \`ompisim machine template NAME --like cielo\`, change it there (and node_list's count: the nodes that fill the network) and run with --machine-file"
refuse "run --set dims=4" "--set 'dims': $topo" run "$S" --set dims=4
refuse "run --set topology.dims=4" "--set 'topology.dims': $topo" run "$S" --set topology.dims=4
# an MCA parameter written as a grid's axis (mca.NAME) is NAME; a misspelt one still gets a did-you-mean
refuse "run --set mca.NAME misspelt" "--set 'mca.btl_ugni_smsg_limt': unknown parameter (did you mean 'btl_ugni_smsg_limit'?)" \
  run "$S" --set mca.btl_ugni_smsg_limt=1024
# a scenario or a grid given to --machine-file (it said "key 'node_types': required key is missing")
SRC=$(cd "$(dirname "$0")/../.." && pwd)
refuse "run --machine-file SCENARIO" "$S: key 'benchmark': a scenario, not a machine file: run it with \`ompisim run $SRC/$S\`" \
  run "$S" --machine-file "$SRC/$S"
refuse "validate --machine-file GRID" "key 'base': a sweep grid, not a machine file" \
  validate --machine-file "$SRC/scenarios/examples/grid_ugni_smsg_bte.json"
refuse "schema --machine-file SCENARIO" "key 'benchmark': a scenario, not a machine file" schema scenario --machine-file "$SRC/$S"
# a result (it names its benchmark too) is said to be one, not a scenario
refuse "validate --machine-file RESULT" "key 'points': a result (what \`ompisim run\` writes), not a machine file" \
  validate --machine-file "$SRC/results/gemini/fig5_latency_2p_inter_openmpi.json"
# a negative --max-input-size: the range, not "unit '' is not a unit of size"
refuse "--max-input-size -1" "--max-input-size '-1': expected a size between 1 B and 1 GiB" --max-input-size -1 run "$S"
# a word where machine's subcommand belongs
refuse "machine foo" "machine: unknown subcommand 'foo' (known: template) (ompisim machine --help)" machine foo
# `list CATEGORY`: a word that is no category names them all (it was CLI11's "The following argument was not
# expected"), with the closest one; a category, singular or plural, in any case, prints its heading alone; `list`
# prints every category, in order: each category's own output
cats="machines, components, stacks, engines, nic-kinds, topologies, route-policies, benchmarks, collectives, papers, scenarios, grids"
refuse "list foo" "list 'foo': no such category (categories: $cats)" list foo
refuse "list ''" "list: an empty category: give one of $cats, or none for all" list ""
refuse "list stak" "list 'stak': no such category (did you mean 'stacks'?) (categories: $cats)" list stak
heads() { grep -v '^ ' | cut -d' ' -f1 | cut -d: -f1 | tr '\n' ' '; }
for typed in "machines:machines" "machine:machines" "Stacks:stacks" "NIC kinds:NIC" "nic_kind:NIC" "topology:topologies" \
             "grids:example" "algorithms:collectives" "benchmarks:benchmarks benchmark"; do
  word=${typed%%:*} want="${typed#*:} "
  got=$("$BIN" list "$word" 2> "$t/err" | heads); rc=$?
  [[ $rc == 0 && $got == "$want" && ! -s $t/err ]] && ok "list '$word': headings [$got]" \
    || bad "list '$word': exit $rc, headings [$got] (expected [$want]) $(cat "$t/err")"
done
all=$("$BIN" list | md5sum)
each=$(for c in ${cats//,/}; do "$BIN" list "$c"; done | md5sum)
[[ $all == "$each" ]] && ok "list prints every category's list, in order" || bad "list differs from its categories one by one"
# OMPISIM_DATA naming no folder: said, exit 2 (list printed empty lists and exit 0, describe suggested 'self')
OMPISIM_DATA=$t/no-such-data refuse "OMPISIM_DATA not a folder (list)" "OMPISIM_DATA: key '$t/no-such-data': no such folder" list machines
OMPISIM_DATA=$t/no-such-data refuse "OMPISIM_DATA not a folder (describe)" "OMPISIM_DATA: key '$t/no-such-data': no such folder" describe cielo
# a part of a name gets the names it begins or ends (the paper is 'heterogeneous', its folders 'hetero')
refuse "describe a part of a name" "describe 'hetero': did you mean 'hetero-cpu' or 'heterogeneous'? It is not a machine" describe hetero
refuse "a scenario by its name's beginning" "no such file (did you mean 'scenarios/gemini/fig5_latency_2p_inter_native.json' or 'scenarios/gemini/fig5_latency_2p_inter_openmpi.json'?)" run scenarios/gemini/fig5_latency.json
# a shipped scenario's name misspelt and without its folder: the closest names under scenarios/, with their folder
# (it said only "cannot open file")
refuse "a misspelt scenario without its folder" "no such file (did you mean 'scenarios/gemini/fig5_latency_2p_inter_openmpi.json'?)" run fig5_latency_2p_inter_openmp.json
# a parameter of another machine (a QsNet NIC's on Cielo) names the machines that have it
refuse "--set another machine's parameter" "--set 'nic.qdma_slots': unknown parameter (a parameter of the osu-elan4, " \
  run "$SRC/$S" --set nic.qdma_slots=4
refuse "--set another machine's parameter" "machines, not of cielo)" run "$SRC/$S" --set qdma_slots=4
# ... also where a parameter of this machine has a near name (QsNet's pcix_bandwidth, Gemini's bte_bandwidth)
refuse "--set another machine's parameter near one of this machine's" "--set 'nic.pcix_bandwidth': unknown parameter (a parameter of the osu-elan4, " \
  run "$SRC/$S" --set "nic.pcix_bandwidth=1 GB/s"
refuse "--set a parameter's last parts" "unknown parameter (did you mean 'btl_ugni_smsg_limit'?)" run "$SRC/$S" --set smsg_limit=1024
exit $fail
