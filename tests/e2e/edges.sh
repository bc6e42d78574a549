#!/usr/bin/env bash
# Trust at the edges: output paths, bounded one-line errors, exit codes, the cost bound, clean interrupts.
# Configuration: a two-rank Cielo osu_latency (a fraction of a second) and a 65,536-rank Titan barrier loop (long);
# hostile values for every option and file named below. Expected: every refusal exits 2 with one line starting
# "ompisim: error:" and nothing written; valid edge cases (an id of the documented maximum length) run; an
# interrupt in each phase exits 130 / 143 and leaves no temporary behind. How validated: exit codes, stderr, files.
set -u
BIN=$(realpath "$1"); t=$(mktemp -d); trap 'chmod -R u+w "$t"; rm -rf "$t"' EXIT; fail=0; cd "$t"
q='"machine": "cielo", "stack": "openmpi", "benchmark": {"name": "osu_latency", "sizes": [1, 1024], "iterations": 2, "skip": 0}, "ranks": 2'
echo "{\"id\": \"s\", $q}" > s.json
slow='{"id": "slow", "machine": "titan", "stack": "openmpi", "benchmark": {"name": "barrier_loop", "algorithm": "cheetah-p2p", "iterations": 200, "skip": 0}, "ranks": 65536, "ranks_per_node": 16}'
echo "$slow" > slow.json
echo "{\"base\": \"s.json\", \"axes\": {\"benchmark.iterations\": [1, 2]}}" > g.json
ncwd=0
ok() { echo "ok   $*"; }
bad() { echo "FAIL $*"; fail=1; }
# refuse NAME REGEX ARGS...: exit 2, one line "ompisim: error: ...", matching REGEX, at most 600 bytes.
refuse() {
  local name=$1 re=$2; shift 2
  local cwd="$t/cwd-$((++ncwd))"
  mkdir -p "$cwd"; (cd "$cwd" && "$BIN" "$@" > "$t/out.txt" 2> "$t/err.txt"); local rc=$?
  local lines; lines=$(wc -l < err.txt)
  if [[ $rc != 2 ]]; then bad "$name: exit $rc (expected 2): $(head -c 300 err.txt)"; return; fi
  if [[ $lines != 1 ]] || ! grep -q '^ompisim: error: ' err.txt; then bad "$name: not one 'ompisim: error:' line: $(head -c 300 err.txt)"; return; fi
  if [[ $(wc -c < err.txt) -gt 600 ]]; then bad "$name: error of $(wc -c < err.txt) bytes"; return; fi
  grep -q -E -- "$re" err.txt || { bad "$name: '$(cat err.txt)' does not match '$re'"; return; }
  [[ -z $(ls -A "$cwd") ]] || { bad "$name: wrote into the current folder: $(ls -A "$cwd")"; return; }
  ok "$name: $(cat err.txt)"
}
S=$t/s.json
# --- output paths: one rule
refuse "run --out ''" "--out.*empty value" run "$S" --out ''
refuse "sweep --out ''" "--out.*empty value" sweep "$t/g.json" --out ''
refuse "--plot ''" "--plot.*empty value" run "$S" --out "$t/o1" --plot ''
refuse "--trace ''" "--trace.*empty value" run "$S" --out "$t/o1" --trace ''
refuse "--trace ../x.json" "is not a valid name" run "$S" --out "$t/o2" --trace ../x.json
[[ ! -e "$t/o2" && ! -e "$t/x.json" ]] || bad "--trace ../x.json wrote $(ls "$t")"
# a '..' deeper in the path is refused before any folder of it is made
mkdir -p "$t/o3"
refuse "--plot a/b/c/../x.svg" "'\.\.' is not a valid name" run "$S" --out "$t/o3" --plot a/b/c/../x.svg
[[ -z $(ls -A "$t/o3") ]] || bad "--plot a/b/c/../x.svg made $(cd "$t/o3" && find . -mindepth 1 | tr '\n' ' ')"
# standard output the system refuses (a full disk): exit 2 and a line saying the output is incomplete, not success
if [[ -w /dev/full ]]; then
  "$BIN" schema scenario > /dev/full 2> err.txt; rc=$?
  [[ $rc == 2 ]] && grep -q "standard output: cannot write.*incomplete" err.txt && ok "stdout refused: exit 2: $(cat err.txt)" \
    || bad "stdout refused: exit $rc: $(cat err.txt)"
fi
# a NIC kind given by --set: not a parameter, said as such (it used to be called a key of the topology)
refuse "--set nic.kind" "--set 'nic.kind': the NIC kind of machine .* not a parameter" run "$S" --out "$t/o2" --set nic.kind=seastar
# more ranks than nodes at the default of one rank a node: the error says which key to set and its range
echo '{"id": "a2a", "machine": "crusher", "stack": "native", "benchmark": {"name": "osu_alltoall"}, "ranks": 512}' > "$t/a2a.json"
refuse "512 ranks on crusher at 1 a node" "need 512 nodes, but crusher has 192: set \"ranks_per_node\" \(at least 3, at most its 64 cores a node" run "$t/a2a.json" --out "$t/o2"
# a grid whose points add up to hours says so before it starts, wherever stderr goes (here a file), unless --quiet
cat > "$t/big.json" <<'G'
{"base": {"id": "big", "machine": "cielo", "stack": "openmpi", "ranks": 16384, "ranks_per_node": 16,
          "benchmark": {"name": "barrier_loop", "algorithm": "cheetah-p2p", "iterations": 100000, "steady_state": 0}},
 "axes": {"ranks": [16384, 16000]}}
G
: > "$t/notdir"
"$BIN" sweep "$t/big.json" --out "$t/notdir" > /dev/null 2> err.txt
grep -q "^ompisim sweep: 2 points, about 4.9e+10 messages in all, about 13 h of CPU time" err.txt \
  && ok "a grid of hours says so first: $(head -c 120 err.txt)" || bad "grid estimate not said: $(cat err.txt)"
"$BIN" --quiet sweep "$t/big.json" --out "$t/notdir" > /dev/null 2> err.txt
grep -q "messages in all" err.txt && bad "--quiet sweep still said its estimate" || ok "--quiet keeps the grid's estimate quiet"
# a file name starting with '-' (gnuplot and a shell's rm take it for an option): refused, relative or absolute, and
# so is a scenario id that would name such files
refuse "--plot -x.svg" "must not start with '.' or '-'" run "$S" --out "$t/o2" --plot=-x.svg
refuse "--plot /abs/-x.svg" "starts with '-'" run "$S" --out "$t/o2" --plot "$t/-x.svg"
sed 's/"id": *"[^"]*"/"id": "-rf"/' "$S" > "$t/dash.json"
refuse "id -rf" "dash.json.*id.*must not start with '.' or '-'" run "$t/dash.json" --out "$t/o2"
[[ ! -e "$t/o2" && ! -e "$t/-x.svg" ]] || bad "a name starting with '-' wrote $(ls "$t" "$t/o2" 2>&1)"
# an output that would replace an input (the scenario, a machine file, the grid) or another output: refused, the
# input kept as it was
cp "$S" "$t/s.keep"
refuse "run --out the scenario's own folder" "--out '[^']*/s.json': is the scenario this command reads" run "$S" --out "$t"
cmp -s "$S" "$t/s.keep" || bad "the scenario was overwritten"
refuse "--trace the scenario" "--trace '[^']*/s.json': is the scenario this command reads" run "$S" --out "$t/o4" --trace "$t/s.json"
refuse "--trace the result" "--trace '[^']*/o5/s.json': is also where --out writes" run "$S" --out "$t/o5" --trace s.json
mkdir -p "$t/mo" && cp "$(dirname "$(realpath "$0")")/../../models/gemini/machines/cielo.json" "$t/mo/s.json"
refuse "--out onto the --machine-file" "--out '[^']*/mo/s.json': is the --machine-file this command reads" \
  run "$S" --machine-file "$t/mo/s.json" --out "$t/mo"
mkdir -p "$t/gs" && cp "$t/g.json" "$t/gs/sweep.json" && sed -i "s|\"s.json\"|\"$t/s.json\"|" "$t/gs/sweep.json"
refuse "sweep --out onto its grid" "--out '[^']*/gs/sweep.json': is the grid this command reads" sweep "$t/gs/sweep.json" --out "$t/gs"
mkdir -p "$t/hl" && ln "$S" "$t/hl/s.json"
refuse "--out onto a hard link of the scenario" "--out '[^']*/hl/s.json': is the scenario this command reads" run "$S" --out "$t/hl"
cmp -s "$S" "$t/s.keep" && ok "the inputs are kept" || bad "an input was changed"
"$BIN" run "$S" --out "$t/o3" --trace t.json --plot p.svg > /dev/null 2> err.txt || bad "relative --trace: $(cat err.txt)"
[[ -s "$t/o3/t.json" && ! -e "$t/t.json" ]] && ok "relative --trace is written inside --out" || bad "relative --trace: $(ls "$t" "$t/o3")"
if command -v gnuplot > /dev/null; then
  "$BIN" run "$S" --out "$t/o3b" --plot "$t/abs.svg" > /dev/null 2> err.txt && [[ -s "$t/abs.svg" && ! -e "$t/o3b/abs.svg" ]] \
    && ok "an absolute --plot is written as given" || bad "absolute --plot: $(cat err.txt)"
  "$BIN" run "$S" --out "$t/o3c" --plot figs/p.svg > /dev/null 2> err.txt && [[ -s "$t/o3c/figs/p.svg" ]] \
    && ok "a relative --plot in a subfolder is inside --out" || bad "relative --plot figs/p.svg: $(cat err.txt)"
fi
echo precious > victim; ln -s "$t/victim" link.json
refuse "absolute --trace on a symlink" "--trace.*symbolic link" run "$S" --out "$t/o4" --trace "$t/link.json"
[[ -L link.json && $(cat victim) == precious ]] || bad "the symlinked trace was replaced"
"$BIN" run "$S" --out "$t/o5" > /dev/null 2>&1; rm "$t/o5/s.json"; ln -s "$t/victim" "$t/o5/s.json"
refuse "result file is a symlink" "--out.*s.json.*symbolic link: refusing to replace it" run "$S" --out "$t/o5"
[[ -L "$t/o5/s.json" && $(cat victim) == precious ]] || bad "the symlinked result was replaced"
# sweep: points/ a symlink, a regular file; a point file that is a symlink to a file outside
mkdir -p elsewhere sw1; ln -s "$t/elsewhere" sw1/points
refuse "points/ a symlink" "points.*symbolic link" sweep "$t/g.json" --out "$t/sw1"
mkdir -p sw2; echo x > sw2/points
refuse "points a regular file" "points.*not a folder" sweep "$t/g.json" --out "$t/sw2"
"$BIN" sweep g.json --out "$t/sw3" > /dev/null 2> err.txt || bad "sweep: $(cat err.txt)"
p=$(ls sw3/points/*.json | head -1); cp "$p" outside.json; rm "$p"; ln -s "$t/outside.json" "$p"
refuse "a point file that is a symlink" "points/.*symbolic link" sweep "$t/g.json" --out "$t/sw3" --merge
# a folder where a point's file goes: refused before running (it could not be published after simulating)
rm "$p" && mkdir "$p"
refuse "a point file that is a folder" "points/.*exists and is not a file" sweep "$t/g.json" --out "$t/sw3"
rmdir "$p"
# --- bounded one-line errors
long=$(head -c 100000 /dev/zero | tr '\0' 'k')
refuse "--set with a 100,000-character key" "\(100000 bytes\)" run "$S" --out "$t/o6" --set "$long=1"
refuse "--set value with newlines" "--set 'nic.bte_bandwidth=5\\\\nGB/s\\\\nx': holds a control character" run "$S" --out "$t/o6" --set "$(printf 'nic.bte_bandwidth=5\nGB/s\nx')"
refuse "no arguments" "subcommand" ""
refuse "calibrate --machine unknown: said of the option" "^ompisim: error: --machine 'nope': unknown machine 'nope'" calibrate --machine nope
refuse "unknown subcommand" "unknown subcommand 'frobnicate' \(known: run, sweep" frobnicate
refuse "a /proc file as a scenario" "/proc/self/status: a file whose size says 0 bytes gave more when read \(a /proc or /sys file\?\): not a JSON file" run /proc/self/status
refuse "calibrate --free matching nothing" "^ompisim: error: --free 'zzzz': matches no parameter of .*cielo.json with a 'fit' method \(.*nic\." calibrate --paper gemini-xe-xk --machine cielo --free zzzz
refuse "misspelt subcommand" "unknown subcommand 'runn' \(did you mean 'run'\?\) \(known: run, sweep" runn x
refuse "misspelt scenario" "fig5_latency_2p_inter_openmp.json: no such file \(did you mean 'scenarios/gemini/fig5_latency_2p_inter_openmpi.json'\?\)" run scenarios/gemini/fig5_latency_2p_inter_openmp.json
# a known subcommand without what it requires is named as such (not as an unknown subcommand), with its own --help
refuse "run without a scenario" 'error: run: give a scenario file \(`ompisim list scenarios` names the shipped ones\) \(ompisim run --help\)$' run
refuse "sweep without a grid" 'error: sweep: give a sweep grid file \(`ompisim list grids` names the shipped ones\) \(ompisim sweep --help\)$' --quiet sweep
refuse "machine without its subcommand" "error: machine: a subcommand is required \(template\)" machine
refuse "machine template without a name" "error: machine template: name is required" machine template
refuse "unknown flag" "--bogus" run "$S" --bogus
refuse "missing value" "--out" run "$S" --out
refuse "-j 0" "jobs" sweep g.json -j 0
refuse "-j abc" "jobs|abc" sweep g.json -j abc
mkfifo fifo
echo '{"base": "/dev/zero", "axes": {"benchmark.iterations": [1]}}' > gz.json
refuse "sweep base /dev/zero" "/dev/zero.*not a regular file.*reached through .*gz.json: key 'base'" sweep "$t/gz.json" --out "$t/o7"
echo "{\"base\": \"$t/fifo\", \"axes\": {\"benchmark.iterations\": [1]}}" > gf.json
refuse "sweep base a FIFO" "fifo.*reached through .*gf.json: key 'base'" sweep "$t/gf.json" --out "$t/o7"
echo '{"base": "no-such-machine", "description": "x"}' > mach.json
refuse "a machine file's unknown base" "mach.json: key 'base': unknown machine 'no-such-machine'" run "$S" --out "$t/o7" --machine-file "$t/mach.json"
# --- exit codes
printf '{"id": "nul", %s}\0' "$q" > nul.json
refuse "a trailing NUL byte" "nul.json.*NUL byte" run "$t/nul.json" --out "$t/o8"
echo "{\"id\": \"rc\", \"relevant_code\": \"x\", $q}" > rc1.json
refuse "relevant_code a string" "relevant_code" run "$t/rc1.json" --out "$t/o8"
echo "{\"id\": \"rc\", \"relevant_code\": [5], $q}" > rc2.json
refuse "relevant_code [5]" "relevant_code\[0\]" run "$t/rc2.json" --out "$t/o8"
refuse "--set hexadecimal" "--set 'nic.bte_bandwidth': '0x10 GB/s' is not a rate" run "$S" --out "$t/o8" --set 'nic.bte_bandwidth=0x10 GB/s'
refuse "--shard ''" "--shard.*empty value" sweep "$t/g.json" --out "$t/o8" --shard ''
refuse "--trace-window ':'" "--trace-window.*empty window" run "$S" --out "$t/o8" --trace w.json --trace-window ':'
refuse "--trace-window ''" "--trace-window.*empty value" run "$S" --out "$t/o8" --trace w.json --trace-window ''
refuse "--trace-ranks ''" "--trace-ranks.*empty value" run "$S" --out "$t/o8" --trace w.json --trace-ranks ''
refuse "--trace-ranks beyond the job" "--trace-ranks.*99999999999 is not in the job" run "$S" --out "$t/o8" --trace w.json --trace-ranks 0-99999999999
[[ ! -e "$t/o8" ]] || bad "refused runs left $t/o8"
id=$(head -c 128 /dev/zero | tr '\0' 'i')
echo "{\"id\": \"$id\", $q}" > long.json
"$BIN" run long.json --out "$t/o9" > /dev/null 2> err.txt && [[ -s "$t/o9/$id.json" ]] && ok "an id of 128 characters runs" || bad "id of 128: $(cat err.txt)"
# --- --set is honest: a parameter the stack does not read is refused (as in the mca block); the table lists overrides
N=$(cd "$(dirname "$BIN")/../.." && pwd)/scenarios/gemini/fig5_latency_2p_inter_native.json
[[ -f $N ]] && refuse "--set of a parameter the stack does not read" "--set 'mca.btl_ugni_smsg_limit': parameter of btl/ugni.*stack 'native'.*does not read it" run "$N" --out "$t/o13" --set btl_ugni_smsg_limit=1024
"$BIN" run "$S" --out "$t/o14" --set btl_ugni_smsg_limit=4096 --set nic.bte_bandwidth="5 GB/s" 2> err.txt | head -2 > table.txt
grep -q "^# overrides (--set): btl_ugni_smsg_limit=4096 (4096 B), nic.bte_bandwidth=5 GB/s$" table.txt && ok "the table lists every override, the value read where its text differs: $(tail -1 table.txt)" || bad "overrides in the table: $(cat table.txt err.txt)"
# a value capped by another limit: warned, naming that limit, and shown in the header with the limit; the scenario's
# own mca block is listed as overrides too
"$BIN" run "$S" --out "$t/o15" --set btl_ugni_smsg_limit=16384 2> err.txt | head -3 > table.txt
grep -q "^ompisim: warning: --set btl_ugni_smsg_limit=16384: the run used 8192 (capped by btl_ugni_eager_limit (8192 B)" err.txt \
  && ok "a capped --set is warned about, naming the limit: $(head -1 err.txt)" || bad "capped --set warning: $(cat err.txt)"
grep -q "^# effective values: btl_ugni_smsg_limit: effective 8192 B (value 16384 B, capped by btl_ugni_eager_limit (8192 B))$" table.txt \
  && ok "the header shows the effective value and its cap: $(tail -1 table.txt)" || bad "effective value in the header: $(cat table.txt)"
"$BIN" run "$S" --out "$t/o16" 2> err.txt | head -3 > table.txt
grep -q "^# effective values: btl_ugni_smsg_limit: effective 1024 B (value 0 B, 0 = auto)$" table.txt && ! grep -q warning err.txt \
  && ok "an effective value that differs from the default is in the header, unwarned" || bad "auto effective value: $(cat table.txt err.txt)"
"$BIN" run "$S" --out "$t/o16a" --set btl_ugni_smsg_limit=0 2> err.txt > /dev/null
grep -q "^ompisim: warning: --set btl_ugni_smsg_limit=0: the run used 1024 (0 = auto, resolved for this job;" err.txt \
  && ok "--set of the automatic 0 says what it resolved to, not a cap: $(head -1 err.txt)" || bad "--set 0 warning: $(cat err.txt)"
echo "{\"id\": \"m\", \"mca\": {\"btl_ugni_smsg_limit\": 256}, $q}" > m.json
"$BIN" run m.json --out "$t/o17" 2> err.txt | head -3 > table.txt
grep -q "^# overrides (scenario mca): btl_ugni_smsg_limit=256$" table.txt && ok "the scenario's mca block is listed" || bad "scenario mca in the header: $(cat table.txt err.txt)"
"$BIN" run m.json --out "$t/o17s" --set btl_ugni_smsg_limit=512 2> err.txt | head -3 > table.txt
grep -q "^# overrides (scenario mca): btl_ugni_smsg_limit=256 (replaced by --set)$" table.txt \
  && grep -q "^# overrides (--set): btl_ugni_smsg_limit=512" table.txt && ok "a scenario mca key --set gives again is said to be replaced" \
  || bad "scenario mca replaced by --set: $(cat table.txt err.txt)"
"$BIN" run m.json --out "$t/o17t" --set btl_ugni_smsg_limit=256 2> err.txt | head -3 > table.txt
grep -q "^# overrides (scenario mca): btl_ugni_smsg_limit=256 (--set gives the same)$" table.txt \
  && ok "a scenario mca key --set gives again with the same value is not said to be replaced" \
  || bad "scenario mca given the same by --set: $(cat table.txt err.txt)"
# sensitivity --mca with a misspelled parameter names the closest one the run has
refuse "sensitivity --mca misspelled" "--mca '(mca\.)?btl_ugni_smsg_limt': (no such|unknown) MCA parameter.*did you mean 'btl_ugni_smsg_limit'" sensitivity "$S" --mca btl_ugni_smsg_limt
# --- the cost bound
# the time is CPU time at the fitted rate, with the spread of the runs it was fitted on (runner/estimate.hpp)
refuse "--max-events below the estimate" "--max-events.*about .* messages.*, about .* of CPU time [(]at 1e[+]06 messages per CPU second; measured runs took 1/13 to [0-9]* times the estimate: runner/estimate.hpp.*not started" --max-events 1000 run "$t/slow.json" --out "$t/o10"
refuse "--max-events on a sweep" "--max-events.*point [12] of 2" --max-events 10 sweep "$t/g.json" --out "$t/o11"
# the bound is echoed as given, as every option error does (not '1000' for '1e3')
refuse "--max-events as written" "--max-events '1e3': .*above the bound" --max-events 1e3 run "$t/slow.json" --out "$t/o10"
refuse "--max-events as written, sweep" "--max-events '1e1': .*point [12] of 2" --max-events 1e1 sweep "$t/g.json" --out "$t/o11"
"$BIN" --max-events 1e6 run "$S" --out "$t/o12" > /dev/null 2> err.txt && ok "--max-events above the estimate runs" || bad "--max-events 1e6: $(cat err.txt)"
# --- interrupts, in each phase
interrupt() {  # name signal expected-status command...
  local name=$1 sig=$2 want=$3; shift 3
  setsid "$@" > /dev/null 2> err.txt & local pid=$!
  sleep "${DELAY:-1.5}"; kill -"$sig" -- -$pid; wait $pid; local rc=$?
  local left; left=$(find "$t" -name '*.tmp.*' | head -3)
  [[ $rc == "$want" && -z $left ]] && ok "$name: exit $rc, no temporary left" || bad "$name: exit $rc (want $want), left: $left; $(tail -2 err.txt)"
}
interrupt "SIGINT during a traced run (Chrome JSON)" INT 130 "$BIN" run "$t/slow.json" --out "$t/i1" --trace "$t/i1.json"
interrupt "SIGTERM during a traced run (Paje)" TERM 143 "$BIN" run "$t/slow.json" --out "$t/i2" --trace i2.paje
[[ ! -e "$t/i1.json" && ! -e "$t/i2/i2.paje" ]] || bad "a trace of an interrupted run stayed"
# input checking: a large scenario (a long mca-free list of sizes is refused only after parsing it)
python3 -c "
import json; print(json.dumps({'id': 'big', 'machine': 'cielo', 'stack': 'openmpi', 'ranks': 2,
  'benchmark': {'name': 'osu_latency', 'sizes': [1] * 30000000}}))" > big.json
DELAY=0.5 interrupt "SIGINT while the input is checked" INT 130 "$BIN" --max-input-size '1 GiB' run "$t/big.json" --out "$t/i3"
echo "{\"base\": \"$t/slow.json\", \"axes\": {\"benchmark.iterations\": [200, 201]}}" > gs.json
interrupt "SIGTERM during a sweep" TERM 143 "$BIN" sweep "$t/gs.json" --out "$t/i4"
# output writing: the results are written, then the plot is drawn by a gnuplot that stops half way through its SVG
# (a stand-in earlier in PATH; it signals when it has started). SIGINT to the group (a terminal's Ctrl-C) and SIGTERM
# to ompisim alone (a batch system's kill): exit 130 / 143 within 2 s, the results written before stay whole, no
# half-written SVG, temporary or gnuplot script left in --out.
mkdir -p fakebin; cat > fakebin/gnuplot << 'EOS'
#!/bin/sh
out=$(sed -n "s/^set output '\(.*\)'$/\1/p" "$1"); printf '<svg' > "$out"; echo $$ > "$STARTED"; exec sleep 30
EOS
chmod +x fakebin/gnuplot
for sig in INT TERM; do
  o="$t/w-$sig"; rm -f started
  STARTED="$t/started" PATH="$t/fakebin:$PATH" setsid "$BIN" run "$S" --out "$o" --plot p.svg > /dev/null 2> err.txt & pid=$!
  for i in $(seq 200); do [[ -e started ]] && break; sleep 0.05; done
  [[ $sig == INT ]] && kill -INT -- -$pid || kill -TERM $pid
  t0=$(date +%s%N); wait $pid; rc=$?; ms=$(( ($(date +%s%N) - t0) / 1000000 ))
  want=$([[ $sig == INT ]] && echo 130 || echo 143)
  files=$(cd "$o" && ls -A | tr '\n' ' ')
  if [[ -e started && $rc == "$want" && $ms -lt 2000 && "$files" == "s.csv s.json " ]] && python3 -m json.tool "$o/s.json" > /dev/null; then
    ok "SIG$sig while the plot is written: exit $rc in $ms ms, kept $files"
  else bad "SIG$sig while the plot is written: exit $rc (want $want) in $ms ms, files: $files; $(tail -2 err.txt)"; fi
  [[ -s started ]] && kill "$(cat started)" 2> /dev/null  # the stand-in, if it outlived the interrupt
done
# --- a run estimated at hours of CPU says so first even when stderr is a file (a batch job's log), unless --quiet;
# interrupted before it gets far
echo '{"id": "huge", "machine": "titan", "stack": "openmpi", "ranks": 299008, "ranks_per_node": 16, "benchmark": {"name": "osu_alltoall", "sizes": [1048576]}}' > huge.json
timeout -s INT 4 "$BIN" run huge.json --out "$t/ohuge" > /dev/null 2> err.txt
grep -q "^ompisim: scenario huge: about .* of CPU time .*(--max-events N refuses such a run)$" err.txt \
  && ok "an hours-long run's estimate is said with stderr a file: $(head -c 150 err.txt)" || bad "no estimate for a huge run: $(head -3 err.txt)"
timeout -s INT 4 "$BIN" --quiet run huge.json --out "$t/ohuge" > /dev/null 2> err.txt
! grep -q "^ompisim: scenario huge: about" err.txt && ok "--quiet keeps it quiet" || bad "--quiet printed the estimate: $(head -2 err.txt)"
exit $fail
