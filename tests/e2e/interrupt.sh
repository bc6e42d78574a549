#!/usr/bin/env bash
# Exit codes and clean interruption.
# (1) SIGINT to the process group (a terminal's Ctrl-C) and SIGTERM during a simulation: exit 130 / 143 within a
#     second, no core dump or assertion, the output folder it created removed, nothing half written, and the message
#     says that nothing of the run was written.
#     The same with OMPISIM_NO_FORK=1 (the simulation in the command's own process): the signal ends it within a
#     second (exit by the signal: 130 / 143 in the shell), no output folder, no trace temporary left. A traced
#     scenario of several points interrupted in its second: the first point's trace kept whole, no temporary left.
# (2) The simulation process killed (a crash): exit 3, the internal-error code, not 1 or 2.
# (3) reproduce interrupted during its third scenario: exit 130; the two results finished before the signal stay, each
#     as a whole pair (JSON and CSV); nothing of the third. The same with -j 2 (the first two at once). A sweep
#     interrupted in its second point says it kept 1 of its 2 points.
# (4) Exit codes 0 and 2 pinned here, 1 by e2e.validate_set; --help states them all.
# (5) A killed run's temporaries (its pid exited) are removed by the next run writing the same result or trace.
set -u
BIN=$(realpath "$1"); SRC=$(cd "$(dirname "$0")/../.." && pwd); t=$(mktemp -d); trap 'rm -rf "$t"' EXIT; fail=0
slow='{"id": "slow", "machine": "titan", "stack": "openmpi", "benchmark": {"name": "barrier_loop", "algorithm": "cheetah-p2p", "iterations": 200, "skip": 0}, "ranks": 65536, "ranks_per_node": 16}'
echo "$slow" > "$t/slow.json"
for sig in INT TERM; do
  setsid "$BIN" run "$t/slow.json" --out "$t/out-$sig" > /dev/null 2> "$t/err-$sig" &
  pid=$!; sleep 1.5
  kill -$sig -- -$pid; t0=$(date +%s%N); wait $pid; rc=$?; ms=$(( ($(date +%s%N) - t0) / 1000000 ))
  want=$([[ $sig == INT ]] && echo 130 || echo 143)
  if [[ $rc == $want && $ms -lt 2000 && ! -e "$t/out-$sig" ]] && ! grep -qi "assert\|abort" "$t/err-$sig" &&
     grep -q "nothing of this run was written" "$t/err-$sig"; then
    echo "ok   SIG$sig: exit $rc in $ms ms: $(cat "$t/err-$sig")"
  else echo "FAIL SIG$sig: rc=$rc ($ms ms) err=$(cat "$t/err-$sig"); out: $(ls "$t/out-$sig" 2>&1)"; fail=1; fi
  sleep 0.2; pgrep -f "$t/slow.json" > /dev/null && { echo "FAIL SIG$sig: a simulation process survived"; fail=1; }
done
for sig in INT TERM; do
  OMPISIM_NO_FORK=1 setsid "$BIN" run "$t/slow.json" --out "$t/nf-$sig" --trace "$t/tr-$sig.json" > /dev/null 2> "$t/nferr-$sig" &
  pid=$!; sleep 1.5
  kill -$sig -- -$pid; t0=$(date +%s%N); wait $pid; rc=$?; ms=$(( ($(date +%s%N) - t0) / 1000000 ))
  want=$([[ $sig == INT ]] && echo 130 || echo 143)
  left=$(ls "$t" | grep -c "^tr-$sig\\|^nf-$sig")
  if [[ $rc == $want && $ms -lt 2000 && $left == 0 ]]; then
    echo "ok   OMPISIM_NO_FORK=1, SIG$sig: exit $rc in $ms ms, nothing left"
  else echo "FAIL OMPISIM_NO_FORK=1, SIG$sig: rc=$rc ($ms ms), left: $(ls "$t" | grep "^tr-$sig\\|^nf-$sig" | tr '\n' ' ')"; fail=1; fi
done
# (1b) a traced scenario of several points, interrupted in its second point: exit 130, the first point's trace whole,
#      no temporary of the second left, no output folder, no simulation process left
echo "${slow/\"ranks\": 65536/\"ranks\": [16, 65536]}" > "$t/slow2.json"
setsid "$BIN" run "$t/slow2.json" --out "$t/out-2p" --trace "$t/tp.json" > /dev/null 2> "$t/err-2p" &
pid=$!
for i in $(seq 100); do [[ -e "$t/tp-ranks16.json" ]] && break; sleep 0.1; done
sleep 1; kill -INT -- -$pid; wait $pid; rc=$?
sleep 0.2; left=$(find "$t" -name 'tp*.tmp.*')
if [[ $rc == 130 && -z $left && ! -e "$t/out-2p" && ! -e "$t/tp-ranks65536.json" ]] \
  && python3 -c "import json,sys; json.load(open(sys.argv[1]))" "$t/tp-ranks16.json" && ! pgrep -f "$t/slow2.json" > /dev/null; then
  echo "ok   traced points interrupted: exit 130, the first point's trace whole, no temporary"
else echo "FAIL traced points interrupted: rc=$rc left=$left $(ls "$t" | tr '\n' ' ') $(cat "$t/err-2p")"; fail=1; fi
# (2) the child dies
"$BIN" run "$t/slow.json" --out "$t/out-kill" > /dev/null 2> "$t/err-kill" &
pid=$!; sleep 1.5; pkill -KILL -P $pid; wait $pid; rc=$?
[[ $rc == 3 ]] && echo "ok   simulation process killed: exit 3: $(cat "$t/err-kill")" || { echo "FAIL child killed: rc=$rc"; fail=1; }
# (3) reproduce in a data folder of its own (OMPISIM_DATA): two quick scenarios, then the slow one.
d="$t/data"; mkdir -p "$d/scenarios/t" "$d/validation"
for x in models collectives benchmarks; do ln -s "$SRC/$x" "$d/$x"; done
q='"machine": "cielo", "stack": "openmpi", "benchmark": {"name": "osu_latency", "sizes": [1, 1024], "iterations": 2, "skip": 0}, "ranks": 2'
echo "{\"id\": \"a\", $q}" > "$d/scenarios/t/a.json"; echo "{\"id\": \"b\", $q}" > "$d/scenarios/t/b.json"
echo "$slow" > "$d/scenarios/t/c.json"
OMPISIM_DATA="$d" setsid "$BIN" reproduce --out "$t/res" > /dev/null 2> "$t/err-rep" &
pid=$!
for i in $(seq 100); do [[ -e "$t/res/t/b.json" ]] && break; sleep 0.1; done
sleep 0.5; kill -INT -- -$pid; wait $pid; rc=$?
files=$(cd "$t/res" && find . -type f | sort | tr '\n' ' ')
if [[ $rc == 130 && "$files" == "./t/a.csv ./t/a.json ./t/b.csv ./t/b.json " ]] && python3 -c "import json,sys; [json.load(open(f)) for f in sys.argv[1:]]" "$t/res/t/a.json" "$t/res/t/b.json"; then
  echo "ok   reproduce interrupted: exit 130, kept $files"
else echo "FAIL reproduce: rc=$rc files=$files err=$(tail -3 "$t/err-rep")"; fail=1; fi
# (3b) the same with -j 2: a and b run at once, then c; interrupted during c: exit 130, a and b kept whole, nothing of
#      c, no simulation process left
OMPISIM_DATA="$d" setsid "$BIN" reproduce --out "$t/res2" -j 2 > /dev/null 2> "$t/err-rep2" &
pid=$!
for i in $(seq 100); do [[ -e "$t/res2/t/a.json" && -e "$t/res2/t/b.json" ]] && break; sleep 0.1; done
sleep 0.5; kill -INT -- -$pid; wait $pid; rc=$?
files=$(cd "$t/res2" && find . -type f | sort | tr '\n' ' ')
sleep 0.2
if [[ $rc == 130 && "$files" == "./t/a.csv ./t/a.json ./t/b.csv ./t/b.json " ]] && ! pgrep -f "reproduce --out $t/res2" > /dev/null \
  && python3 -c "import json,sys; [json.load(open(f)) for f in sys.argv[1:]]" "$t/res2/t/a.json" "$t/res2/t/b.json"; then
  echo "ok   reproduce -j 2 interrupted: exit 130, kept $files"
else echo "FAIL reproduce -j 2: rc=$rc files=$files err=$(tail -3 "$t/err-rep2")"; fail=1; fi
# (3c) a sweep of two points, the second slow, interrupted during it: exit 130, the message counts the point kept
echo "{\"base\": \"$t/slow.json\", \"axes\": {\"ranks\": [16, 65536]}}" > "$t/grid.json"
setsid "$BIN" sweep "$t/grid.json" --out "$t/sw" > /dev/null 2> "$t/err-sw" &
pid=$!
for i in $(seq 100); do [[ $(ls "$t/sw/points" 2>/dev/null | grep -c '\.json$') -ge 1 ]] && break; sleep 0.1; done
sleep 1; kill -INT -- -$pid; wait $pid; rc=$?
if [[ $rc == 130 ]] && grep -q "stopped: 1 of 2 points finished and kept in .*: the same sweep command resumes from them" "$t/err-sw"; then
  echo "ok   sweep interrupted: exit 130, $(grep -o '1 of 2 points finished and kept' "$t/err-sw")"
else echo "FAIL sweep interrupted: rc=$rc $(cat "$t/err-sw")"; fail=1; fi
# (4)
"$BIN" run "$d/scenarios/t/a.json" --out "$t/ok" > /dev/null 2>&1; rc=$?
[[ $rc == 0 ]] && echo "ok   exit 0" || { echo "FAIL exit 0: $rc"; fail=1; }
echo '{"machine": "cielo"}' > "$t/bad.json"; "$BIN" run "$t/bad.json" --out "$t/bad" > /dev/null 2>&1; rc=$?
[[ $rc == 2 ]] && echo "ok   exit 2" || { echo "FAIL exit 2: $rc"; fail=1; }
# (5) what a run killed between a write and its rename leaves (temporaries named after its pid, which has exited) is
#     removed by the next run writing the same files; other files there stay
sh -c 'exit 0' & dead=$!; wait $dead
mkdir -p "$t/stale"; echo half > "$t/stale/a.json.tmp.$dead.0"; echo half > "$t/stale/tr.json.tmp.$dead"
echo keep > "$t/stale/notes.tmp.txt"
"$BIN" run "$d/scenarios/t/a.json" --out "$t/stale" --trace tr.json > /dev/null 2>&1; rc=$?
if [[ $rc == 0 && ! -e "$t/stale/a.json.tmp.$dead.0" && ! -e "$t/stale/tr.json.tmp.$dead" && -e "$t/stale/notes.tmp.txt" \
      && -e "$t/stale/a.json" && -e "$t/stale/tr.json" ]]; then
  echo "ok   a killed run's temporaries (result, trace) removed by the next run writing those files"
else echo "FAIL stale temporary: rc=$rc $(ls "$t/stale" | tr '\n' ' ')"; fail=1; fi
"$BIN" --help | tr '\n' ' ' | grep -q "0 success; 1 outside tolerance.*2 bad input.*3 internal error.*130 / 143" \
  && echo "ok   --help states the exit codes" || { echo "FAIL --help"; fail=1; }
exit $fail
