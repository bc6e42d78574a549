#!/usr/bin/env bash
# Configuration: what a new user meets in a first hour, each in a scratch folder:
#   - a grid whose "base" names a file that exists both beside the grid and in the current folder;
#   - a scenario and a grid on a machine of one's own (a machine file with "base"), described with --machine-file,
#     and --machine-file given with a name instead of a file;
#   - a machine file that names its machine as an installed one (cielo), run with --machine-file;
#   - `--set KEY VALUE` written as two words;
#   - a barrier run at one algorithm and radix, and a sweep of one point;
#   - a sweep over the job size on Titan (1,024 and 2,048 ranks), whose btl_ugni_smsg_limit is on auto;
#   - `run cielo` and `run titan.json` (a machine's name for a scenario file), --out on a symbolic link to a folder that does not exist
#     and on a folder below such a link,
#     `reproduce --from` a folder that does not exist.
# Expected: the grid runs the base beside it (as a replay's trace is found beside its scenario) and describe names
#   that file; describe prints the scenario on the machine file and the grid's estimate, and refuses --machine-file
#   with a name (exit 2, one line); the run with the shadowing machine file succeeds with one warning naming both files;
#   the two-word --set is refused naming key=value; the barrier's table says "# algorithm cheetah-atomic, radix 8",
#   and its plot's title ends with it;
#   the sweep says "1 point"; the job-size sweep's table has a column "btl_ugni_smsg_limit (effective) (B)" with 1024
#   and 512 (r26242's rule); `run cielo` exits 2 saying cielo is a machine and where scenarios are; the dangling link
#   exits 2 naming its target, and so does a folder below it (naming the link, nothing created); `reproduce --from` a missing folder exits 2 saying no such folder.
# How validated: exit status, stdout and stderr lines.
set -u
BIN=$(realpath "$1"); t=$(mktemp -d); trap 'rm -rf "$t"' EXIT; fail=0
ok() { echo "ok   $*"; }
bad() { echo "FAIL $*"; fail=1; }
cd "$t"
mkdir gdir
tiny() { printf '{"id": "%s", "machine": "%s", "stack": "%s", "ranks": 2, "benchmark": {"name": "osu_latency", "sizes": [1], "iterations": 2, "skip": 0}}' "$@"; }
tiny beside loggp loggp > gdir/base.json
tiny cwd loggp loggp > base.json
echo '{"base": "base.json", "axes": {"ranks": [2]}}' > gdir/g.json
"$BIN" describe gdir/g.json > d.out 2>&1 && grep -qx "base gdir/base.json (ompisim describe gdir/base.json)" d.out \
  && ok "describe names the base beside the grid" || bad "describe grid: $(cat d.out)"
"$BIN" sweep gdir/g.json --out sw > s.out 2> s.err; rc=$?
[[ $rc == 0 ]] && grep -q '"id": *"beside"' sw/points/*.json && ! grep -q '"id": *"cwd"' sw/points/*.json \
  && ok "the sweep ran the base beside the grid" || bad "sweep base: rc=$rc $(cat s.err)"
grep -q "^ompisim sweep: 1 point, 1 run now" s.err && ok "one point said in the singular" || bad "sweep line: $(cat s.err)"
echo '{"base": "titan", "machine": "bigt"}' > bigt.json
tiny mine bigt openmpi > mine.json
"$BIN" describe mine.json > m.out 2> m.err; rc=$?
[[ $rc == 2 ]] && grep -q "unknown machine 'bigt'.*--machine-file" m.err && ok "describe without the machine file: exit 2" \
  || bad "describe without --machine-file: rc=$rc $(cat m.err)"
"$BIN" describe mine.json --machine-file bigt.json > m.out 2> m.err && grep -q "^machine from bigt.json (--machine-file; the scenario names bigt" m.out \
  && grep -q "^estimate: " m.out && ok "describe SCENARIO --machine-file" || bad "describe --machine-file: $(cat m.err)"
echo '{"base": "mine.json", "axes": {"benchmark.sizes": [[1], [8]]}}' > g2.json
"$BIN" describe g2.json --machine-file bigt.json > g.out 2> g.err && grep -q "^estimate: about .* over the 2 points" g.out \
  && grep -q -- "--machine-file bigt.json" g.out && ok "describe GRID --machine-file" || bad "describe grid --machine-file: $(cat g.err)"
"$BIN" describe cielo --machine-file bigt.json > /dev/null 2> n.err; rc=$?
[[ $rc == 2 && $(wc -l < n.err) == 1 ]] && grep -q "^ompisim: error: --machine-file 'bigt.json': goes with a scenario or sweep grid file" n.err \
  && ok "--machine-file with a name refused" || bad "describe NAME --machine-file: rc=$rc $(cat n.err)"
echo '{"base": "titan", "machine": "cielo"}' > shadow.json
tiny sh cielo openmpi > sh.json
"$BIN" run sh.json --machine-file shadow.json --out o1 > o1.out 2> o1.err; rc=$?
[[ $rc == 0 ]] && [[ $(grep -c "^ompisim: warning: shadow.json names its machine 'cielo', as the installed machine file models/gemini/machines/cielo.json does" o1.err) == 1 ]] \
  && ok "a machine file shadowing an installed machine: one warning" || bad "shadow: rc=$rc $(cat o1.err)"
"$BIN" run sh.json --set btl_ugni_smsg_limit 512 > /dev/null 2> set.err; rc=$?
[[ $rc == 2 ]] && grep -q "'512' follows --set btl_ugni_smsg_limit: --set takes key=value in one word (--set btl_ugni_smsg_limit=512)" set.err \
  && ok "--set KEY VALUE" || bad "--set two words: rc=$rc $(cat set.err)"
echo '{"machine": "titan", "stack": "openmpi", "ranks": 64, "benchmark": {"name": "barrier_loop", "algorithm": "cheetah-atomic", "radix": 8, "iterations": 2}}' > b.json
"$BIN" run b.json --out ob --plot b.svg > b.out 2> b.err && grep -qx "# algorithm cheetah-atomic, radix 8" b.out \
  && ok "the barrier's algorithm and radix in its table" || bad "barrier header: $(cat b.out b.err)"
grep -q "barrier_loop on titan (openmpi), 64 ranks, cheetah-atomic, radix 8" ob/b.svg \
  && ok "and in its plot's title" || bad "plot title: $(grep -o '<title>[^<]*' ob/b.svg | head -3)"
# a sweep over the job size: btl/ugni's automatic SMSG limit (1,024 B up to 1,024 ranks, 512 B above) is a column
echo '{"machine": "titan", "stack": "openmpi", "ranks": 1024, "ranks_per_node": 16, "benchmark": {"name": "osu_multi_lat", "sizes": [512], "iterations": 2, "skip": 0}}' > ml.json
echo '{"base": "ml.json", "axes": {"ranks": [1024, 2048]}}' > gml.json
"$BIN" --quiet sweep gml.json --out gml -j 2 > /dev/null 2> gml.err
[[ $(head -1 gml/sweep.csv) == "ranks,btl_ugni_smsg_limit (effective) (B),bytes,latency_us,mailbox_memory.mailbox_bytes,mailbox_memory.msgq_per_node,mailbox_memory.smsg_all_peers,mailbox_memory.smsg_connected,mailbox_memory.smsg_connected_allocated,mailbox_memory.smsg_connected_max,mailbox_memory.smsg_limit,counters,point" ]] \
  && [[ $(cut -d, -f1,2 gml/sweep.csv | tail -2 | tr '\n' ' ') == "1024,1024 2048,512 " ]] \
  && ok "a sweep over ranks shows the effective SMSG limit" || bad "effective column: $(cat gml/sweep.csv gml.err)"
first() {  # NAME REGEX ompisim-arguments...: exit 2, one line on stderr matching REGEX
  local name=$1 want=$2; shift 2
  "$BIN" "$@" > /dev/null 2> "$name.err"; local rc=$?
  [[ $rc == 2 && $(wc -l < "$name.err") == 1 ]] && grep -q -- "$want" "$name.err" && ok "$name: $(cat "$name.err")" \
    || bad "$name: rc=$rc $(cat "$name.err")"
}
first run_machine "^ompisim: error: cielo: no such file; 'cielo' is a machine, and run takes a scenario file that names it .*ompisim list scenarios" run cielo
first run_machine_json "^ompisim: error: titan.json: no such file; 'titan' is a machine, and run takes a scenario file" run titan.json
ln -s "$t/nowhere/at/all" dangling
first out_dangling "^ompisim: error: --out 'dangling': a symbolic link to '$t/nowhere/at/all', which does not exist" run sh.json --out dangling
first out_dangling_sub "^ompisim: error: --out 'dangling/sub': '$t/dangling' on its way is a symbolic link to '$t/nowhere/at/all', which does not exist" run sh.json --out dangling/sub
[[ ! -e "$t/nowhere" ]] && ok "out_dangling_sub: nothing created" || bad "out_dangling_sub: $t/nowhere created"
first from_missing "^ompisim: error: $t/none: --from: no such folder" reproduce --from "$t/none" --out rp
exit $fail
