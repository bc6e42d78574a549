#!/usr/bin/env bash
# `cmake --install` into a temporary prefix gives a tool that runs from any folder with its own installed data:
# machines, scenarios, reference data, man page (with every subcommand's options), completion and the LICENSE
# (share/doc/ompisim/), the committed results (compare --against results/); no source path in the binary; the
# source's git describe in --version and provenance;
# a scenario or grid named relative to the data (scenarios/...) is found from any folder, and `list` names the example
# grids with their installed folder; the examples' README is installed next to the what-ifs; reproduce writes into the
# current folder, not into the installed results/.
# Usage: check_install.sh CMAKE BUILD_DIR SOURCE_DIR
set -uo pipefail
cmake=$1; build=$2; src=$3
p=$(mktemp -d); trap 'rm -rf "$p"' EXIT
fail=0
"$cmake" --install "$build" --prefix "$p/prefix" > "$p/install.log" 2>&1 || { echo "FAIL install"; cat "$p/install.log"; exit 1; }
bin=$p/prefix/bin/ompisim
[ -x "$bin" ] && echo "ok   bin/ompisim" || { echo "FAIL no bin/ompisim"; exit 1; }
if grep -qF "$(cd "$src" && pwd -P)" "$bin"; then echo "FAIL the source path is compiled into the binary"; fail=1
else echo "ok   no source path in the binary"; fi
mkdir -p "$p/elsewhere"; cd "$p/elsewhere"
listing=$("$bin" list 2> /dev/null)
grep -qF "cielo  ($p/prefix/share/ompisim/models/gemini/machines/cielo.json)" <<< "$listing" \
  && echo "ok   machines from the installed share/ompisim" || { echo "FAIL list: $("$bin" list 2>&1 | head -3)"; fail=1; }
# the example grids a user copies, with the installed folder they are in
grep -qF "example grids (ompisim sweep FILE; copy one from $(cd "$p" && pwd -P)/prefix/share/ompisim/scenarios/examples" <<< "$listing" \
  && grep -q "^  scenarios/examples/grid_ugni_smsg_bte.json$" <<< "$listing" \
  && echo "ok   list names the example grids and their installed folder" || { echo "FAIL list: no example grids"; fail=1; }
# the examples' README next to the what-ifs it explains, and a what-if run as it shows
[ -s "$p/prefix/share/ompisim/scenarios/examples/README.md" ] \
  && "$bin" run scenarios/examples/whatif_titan_barrier_atomic_radix.json --out "$p/wi" > /dev/null 2>&1 \
  && echo "ok   the examples' README and its what-ifs installed" || { echo "FAIL no scenarios/examples/README.md or what-if"; fail=1; }
sc=$p/prefix/share/ompisim/scenarios/gemini/fig5_latency_2p_inter_openmpi.json
"$bin" run "$sc" --out "$p/out" > /dev/null 2>&1 && [ -s "$p/out/fig5_latency_2p_inter_openmpi.json" ] \
  && echo "ok   an installed scenario runs from another folder" || { echo "FAIL run"; fail=1; }
# a scenario and an example grid named as the README names them (scenarios/...), from a folder without them: found in
# the installed share/ompisim, as is the grid's base; a grid copied into the folder finds its base there too
"$bin" run scenarios/gemini/fig5_latency_2p_inter_openmpi.json --out "$p/out2" > /dev/null 2> "$p/err" \
  && [ -s "$p/out2/fig5_latency_2p_inter_openmpi.json" ] \
  && echo "ok   run scenarios/... from another folder finds the installed scenario" || { echo "FAIL run by name: $(cat "$p/err")"; fail=1; }
cp "$p/prefix/share/ompisim/scenarios/examples/grid_ugni_smsg_bte.json" "$p/elsewhere/mygrid.json"
"$bin" --quiet sweep mygrid.json --out "$p/sw" -j 1 > /dev/null 2> "$p/err" && [ -s "$p/sw/sweep.json" ] \
  && echo "ok   a copied example grid finds its base in the installed data" || { echo "FAIL copied grid: $(cat "$p/err")"; fail=1; }
# the README's regression gate from another folder: results/ is the installed copy of the committed results
"$bin" --quiet compare --against results/ --only gemini/fig5_latency_2p_inter --tolerance 1% > "$p/cmp" 2> "$p/err" \
  && grep -q "beyond tolerance" "$p/cmp" \
  && echo "ok   compare --against results/ from another folder reruns the installed committed results: $(tail -1 "$p/cmp")" \
  || { echo "FAIL compare --against results/ from another folder: $(tail -2 "$p/err") $(tail -1 "$p/cmp")"; fail=1; }
# reproduce from an installed tool writes under the current folder (ompisim-out/reproduce/), never into the installed
# results/ a shared installation's users compare against: --from redraws the installed results without running
inst=$p/prefix/share/ompisim/results
before=$(find "$inst" -type f -newer "$bin" | wc -l)
"$bin" --quiet reproduce --from "$inst" > "$p/rep.log" 2>&1; rc=$?
after=$(find "$inst" -type f -newer "$bin" | wc -l)
[[ $rc == 0 && -s ompisim-out/reproduce/validation.md && $before == "$after" ]] \
  && echo "ok   installed reproduce writes ./ompisim-out/reproduce/, the installed results/ untouched" \
  || { echo "FAIL installed reproduce: rc=$rc, $((after - before)) installed results rewritten, $(ls ompisim-out 2>&1 | head -3)"; fail=1; }
# --from results/ names the installed results from another folder, as compare --against results/ does
"$bin" --quiet reproduce --from results/ --out "$p/replot" > "$p/rep2.log" 2>&1; rc=$?
[[ $rc == 0 && -s $p/replot/validation.md ]] && ls "$p/replot/gemini/"*.svg > /dev/null 2>&1 \
  && echo "ok   reproduce --from results/ from another folder redraws the installed results" \
  || { echo "FAIL reproduce --from results/ from another folder: rc=$rc $(tail -2 "$p/rep2.log")"; fail=1; }
# --version and a result's provenance name the git describe of the source the binary was built from, not "unknown" (the installed data is
# no git checkout); only checked when the source is one
if want=$(git -C "$src" describe --always --dirty 2> /dev/null); then
  got=$("$bin" --version | sed -n 's/^git describe: \([^ ]*\).*/\1/p')
  prov=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["provenance"]["git_describe"])' \
           "$p/out/fig5_latency_2p_inter_openmpi.json" 2> /dev/null)
  # the build's describe is taken when it was built: a tree edited since (dirty now, not then) is the same commit
  [[ ${got%-dirty} == "${want%-dirty}" && $prov == "$got" ]] && echo "ok   installed --version and provenance: git describe $got" \
    || { echo "FAIL installed git describe: --version '$got', provenance '$prov', source '$want'"; fail=1; }
fi
grep -q "BSD 3-Clause License" "$p/prefix/share/doc/ompisim/LICENSE" 2> /dev/null \
  && echo "ok   share/doc/ompisim/LICENSE (the project's licence, installed beside the README)" \
  || { echo "FAIL no LICENSE installed (share/doc/ompisim/LICENSE)"; fail=1; }
for f in share/bash-completion/completions/ompisim share/ompisim/validation/reference/gemini-xe-xk.json \
         share/ompisim/collectives/decision share/ompisim/benchmarks/apps share/ompisim/models/hardware-sources.md; do
  [ -e "$p/prefix/$f" ] && echo "ok   $f" || { echo "FAIL missing $f"; fail=1; }
done
if command -v help2man > /dev/null; then
  # every subcommand's options, not only the list of subcommands: run's --trace-window, machine template's --like
  man1=$p/prefix/share/man/man1/ompisim.1
  [ -s "$man1" ] && grep -q "SUBCOMMAND" "$man1" && grep -q '^\.SS "ompisim run"' "$man1" \
    && grep -q -- '--trace-window' "$man1" && grep -q '^\.SS "ompisim machine template"' "$man1" && grep -q -- '--like' "$man1" \
    && echo "ok   man page: every subcommand's options" || { echo "FAIL man page: $(grep '^\.S[HS]' "$man1" 2> /dev/null | tr '\n' ' ')"; fail=1; }
fi
exit $fail
