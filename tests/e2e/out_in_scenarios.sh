#!/usr/bin/env bash
# Configuration: a data folder (OMPISIM_DATA) whose scenarios/ is a copy of the source's (its other folders linked),
#                and every way a new user writes into it: `run --out scenarios/mine`, `run` from inside
#                scenarios/gemini (its default ompisim-out/ lands there), `sweep --out`, `machine template --out` and
#                `--file`, an absolute `run --trace FILE.json`, `reproduce --out`, and a --out that is a symbolic link
#                into scenarios/; a --out inside models/, results/, validation/, collectives/ or benchmarks/.
# Expected:      each exits 2 with one line naming the option, the path and the scenarios folder, before running, and
#                scenarios/ is left as it was (before, the result JSON was written there: `ompisim list` then listed it
#                as a scenario, and `reproduce` stopped at it with "a result file ..., not a scenario"). A run writing
#                outside scenarios/ from the same data folder succeeds.
# How validated: exit status, stderr, a listing of scenarios/ before and after.
set -u
BIN=$(realpath "$1"); SRC=$(realpath "$2"); t=$(mktemp -d); trap 'rm -rf "$t"' EXIT; fail=0
D="$t/data"; mkdir -p "$D"
for f in "$SRC"/*; do [[ $(basename "$f") == scenarios || $(basename "$f") == build* ]] || ln -s "$f" "$D/"; done
cp -r "$SRC/scenarios" "$D/scenarios"
export OMPISIM_DATA="$D"
cd "$D"
(cd scenarios && find . | sort) > "$t/before"
ok() { echo "ok   $*"; }
bad() { echo "FAIL $*"; fail=1; }
S=scenarios/gemini/fig5_latency_2p_inter_openmpi.json
# refuse NAME OPTION ARGS...: run in the current folder; exit 2, one line naming OPTION and the scenarios folder.
refuse() {
  local name=$1 opt=$2; shift 2
  "$BIN" "$@" > "$t/out" 2> "$t/err"; local rc=$?
  if [[ $rc == 2 && $(wc -l < "$t/err") == 1 ]] \
    && grep -q "^ompisim: error: $opt '[^']*': is inside the scenarios folder .*/data/scenarios: .* give $opt outside it$" "$t/err"
  then ok "$name: $(cut -c1-160 "$t/err")"; else bad "$name: exit $rc, $(head -c 400 "$t/err")"; fi
}
refuse "run --out scenarios/mine" --out run "$S" --out scenarios/mine
(cd scenarios/gemini && refuse "run from inside scenarios/ (default --out)" --out run fig5_latency_2p_inter_openmpi.json)
refuse "sweep --out scenarios/examples/sw" --out sweep scenarios/examples/grid_ugni_smsg_bte.json --out scenarios/examples/sw
refuse "machine template --out scenarios" --out machine template mine --out scenarios
refuse "machine template --file scenarios/mine.json" --file machine template mine --file "$D/scenarios/mine.json"
cat > "$t/tiny.json" <<J
{"id": "tiny", "machine": "loggp", "stack": "loggp", "ranks": 2,
 "benchmark": {"name": "osu_latency", "sizes": [1], "iterations": 2, "skip": 0}}
J
refuse "run --trace into scenarios/" --trace run "$t/tiny.json" --out "$t/o-trace" --trace "$D/scenarios/t.json"
refuse "reproduce --out scenarios/r" --out reproduce --out scenarios/r
ln -s "$D/scenarios/gemini" "$t/link"
refuse "--out a symbolic link into scenarios/" --out run "$S" --out "$t/link"
# The data's other folders read as data: machine files (models/), reference data (validation/), decision tables
# (collectives/), skeletons and traces (benchmarks/), and the committed results (results/, which reproduce alone may
# write): each named with what reads it.
refuse_in() {  # NAME OPTION FOLDER ARGS...
  local name=$1 opt=$2 folder=$3; shift 3
  "$BIN" "$@" > "$t/out" 2> "$t/err"; local rc=$?
  if [[ $rc == 2 && $(wc -l < "$t/err") == 1 ]] \
    && grep -q "^ompisim: error: $opt '[^']*': is inside the $folder folder .*/$folder: .* give $opt outside it$" "$t/err"
  then ok "$name: $(cut -c1-160 "$t/err")"; else bad "$name: exit $rc, $(head -c 400 "$t/err")"; fi
}
refuse_in "run --out models/gemini/machines" --out models run "$S" --out models/gemini/machines
refuse_in "run --out results/mine" --out results run "$S" --out results/mine
refuse_in "sweep --out validation/sw" --out validation sweep scenarios/examples/grid_ugni_smsg_bte.json --out validation/sw
refuse_in "machine template --out collectives" --out collectives machine template mine --out collectives
refuse_in "run --out benchmarks/apps" --out benchmarks run "$S" --out benchmarks/apps
[[ ! -e "$SRC/models/gemini/machines/fig5_latency_2p_inter_openmpi.json" && ! -e "$SRC/results/mine" ]] \
  && ok "models/ and results/ unchanged" || bad "a result was written into models/ or results/"
(cd scenarios && find . | sort) > "$t/after"
diff "$t/before" "$t/after" > /dev/null && ok "scenarios/ unchanged" || bad "scenarios/ changed: $(diff "$t/before" "$t/after" | head -5)"
"$BIN" run "$S" --out "$t/elsewhere" > /dev/null 2> "$t/err" && [[ -s "$t/elsewhere/fig5_latency_2p_inter_openmpi.json" ]] \
  && ok "a run from the same data folder writing elsewhere" || bad "run elsewhere: $(cat "$t/err")"
exit $fail
