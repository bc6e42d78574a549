#!/usr/bin/env bash
# Replay checks its trace as MPI would (and, last, that an MPI call's steps end before the application computes). Configuration: hand-written two-rank SMPI TI traces, each wrong in one way
# (a send no rank receives, a receive no send matches and no wait reaches, a receive no send matches that blocks the
# other rank in a barrier (the deadlock names the receive), collectives that differ across ranks, a wait on a request never posted or waited twice, a wait whose peer is neither a rank nor MPI_UNDEFINED,
# counts out of range, a rank's action file that is empty or holds only blank and comment lines: SMPI's replay runs
# such a rank as doing nothing, smpirun never writes one), an index line holding a NUL byte, index lines naming a file
# outside the index's folder ('..', absolute, a symbolic link, a sibling folder), a 1 MiB field in an action line.
# An index line with '..' after a symbolic link reads the file inside the folder that it resolves to.
# Expected: exit 2 and one line naming the file, the line and the reason (for a mismatch: both ranks, their calls and
# lines; for a field, its start and length; in a sweep's point, the point too). A correct trace of the same shape replays with exit 0, and so do the
# absolute index lines smpirun writes into <index>_files/, before and after the trace is moved.
set -u
BIN=$(realpath "$1")
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT; cd "$t"; fail=0
mk() {  # name rank0-lines rank1-lines
  mkdir -p "$1"
  printf '%b' "$2" > "$1/rank-0.txt"; printf '%b' "$3" > "$1/rank-1.txt"
  printf 'rank-0.txt\nrank-1.txt\n' > "$1/index.txt"
  cat > "$1.json" <<J
{"id": "$1", "machine": "loggp", "stack": "loggp", "ranks": 2,
 "benchmark": {"name": "replay", "trace": "$1/index.txt", "flop_rate": "1 Gf/s"}}
J
}
refuse() {  # name regex
  "$BIN" run "$1.json" --out "out-$1" > "$1.out" 2> "$1.err"; rc=$?
  if [ "$rc" != 2 ]; then echo "FAIL $1: exit $rc (expected 2): $(head -c 300 "$1.err")"; fail=1; return; fi
  if [ "$(wc -l < "$1.err")" != 1 ]; then echo "FAIL $1: not one line: $(cat "$1.err")"; fail=1; return; fi
  grep -q -E -- "$2" "$1.err" || { echo "FAIL $1: '$(cat "$1.err")' does not match '$2'"; fail=1; return; }
  [ ! -e "out-$1/$1.json" ] || { echo "FAIL $1: a result was written"; fail=1; return; }
  echo "ok   $1: $(cat "$1.err")"
}
accept() {
  "$BIN" run "$1.json" --out "out-$1" > "$1.out" 2> "$1.err" || { echo "FAIL $1: $(cat "$1.err")"; fail=1; return; }
  echo "ok   $1 replays"
}
mk good '0 init\n0 send 1 7 10\n0 barrier\n0 allreduce 8 0\n0 finalize\n' \
        '1 init\n1 irecv 0 7 10\n1 wait 0 1 7\n1 barrier\n1 allreduce 8 0\n1 finalize\n'
accept good
mk unmatched '0 init\n0 send 1 7 10\n0 finalize\n' '1 init\n1 finalize\n'
# a deadlock names its likeliest cause: rank 1's receive that no send matches, not rank 0 waiting for it in the barrier
mk deadlock '0 init\n0 barrier\n0 finalize\n' '1 init\n1 recv 0 77 64\n1 barrier\n1 finalize\n'
refuse deadlock "rank-1\.txt: line 2: rank 1 never completed 'recv' \(deadlock: no rank's trace matches it; 2 ranks blocked: 1 in 'barrier', 1 in 'recv'\)"
# the same deadlock in a sweep's point: one line (the point's, with its hash and that finished points are kept), exit 2
echo '{"base": "deadlock.json", "axes": {"nic.L": ["1 us", "2 us"]}}' > dlg.json
"$BIN" sweep dlg.json --out dlo -j 1 > /dev/null 2> dlg.err; rc=$?
if [[ $rc == 2 && $(wc -l < dlg.err) == 1 ]] && grep -q "rank 1 never completed 'recv' .*(sweep point [0-9a-f]*; finished points are kept)$" dlg.err; then
  echo "ok   deadlock in a sweep point: one line: $(cat dlg.err)"
else echo "FAIL deadlock in a sweep point: rc=$rc $(cat dlg.err)"; fail=1; fi
# an MPI call's last step due at the instant it returns runs before the application computes: 64 ranks on Cielo's
# openmpi, 4 x (1 ms of compute, an 8 KiB isend to rank + 16 and irecv from rank - 16, waitall); an 8 KiB message
# goes by RGET, and a receiver's FIN, queued at the very time its waitall returned, used to wait for its next compute
# (mean MPI 1.21 ms for 4 iterations); it takes about 0.21 ms, as Cray MPT's does
mkdir -p halo; : > halo/index.txt
for r in $(seq 0 63); do
  { echo "$r init"; for i in 1 2 3 4; do echo "$r compute 1000000"; echo "$r isend $(((r + 16) % 64)) 1 8192";
    echo "$r irecv $(((r + 48) % 64)) 1 8192"; echo "$r waitall"; done; echo "$r finalize"; } > "halo/rank-$r.txt"
  echo "rank-$r.txt" >> halo/index.txt
done
echo '{"id": "halo", "machine": "cielo", "stack": "openmpi", "ranks": 64, "ranks_per_node": 16,
 "benchmark": {"name": "replay", "trace": "halo/index.txt", "flop_rate": "1 Gf/s"}}' > halo.json
mpi=$("$BIN" run halo.json --out out-halo 2> halo.err | sed -n 's/.*mean MPI \([0-9.]*\) s.*/\1/p')
if [[ -n $mpi ]] && awk -v m="$mpi" 'BEGIN { exit !(m < 0.0005) }'; then
  echo "ok   halo exchange with compute: mean MPI $mpi s (no compute period waited by a FIN)"
else echo "FAIL halo exchange: mean MPI '$mpi' s (expected below 0.0005): $(cat halo.err)"; fail=1; fi
# a receive of 10 B taking a send of 1000 B: MPI_ERR_TRUNCATE, an error of the trace (it used to replay as a success)
mk truncated '0 init\n0 send 1 7 1000\n0 finalize\n' '1 init\n1 recv 0 7 10\n1 finalize\n'
refuse truncated "rank-1\.txt: line 2: rank 1's receive from rank 0 \(tag 7\) of 10 B takes a send of 1000 B \(line 2 of rank 0's trace\).*MPI_ERR_TRUNCATE"
# on a stack whose collective library the replay cannot use (Cielo's openmpi: tuned-r26242), the run and describe say
# which tables decide instead
sed 's/"machine": "loggp", "stack": "loggp"/"machine": "cielo", "stack": "openmpi"/' good.json > good_cielo.json
"$BIN" run good_cielo.json --out out-good_cielo > good_cielo.out 2> good_cielo.err \
  && grep -q "^# collective algorithms decided by the 'tuned' tables, not by the stack's tuned-r26242" good_cielo.out \
  && "$BIN" describe good_cielo.json 2>&1 | grep -q "^collective algorithms decided by the 'tuned' tables" \
  && grep -q '"collectives": "collective algorithms decided by' out-good_cielo/good.json \
  && echo "ok   the replay names the tables that decide its collectives when not the stack's" \
  || { echo "FAIL collectives note: $(head -5 good_cielo.out) $(cat good_cielo.err)"; fail=1; }
# a trace with no collective: no note about the tables that would decide them
mk p2p_only '0 init\n0 send 1 7 10\n0 finalize\n' '1 init\n1 recv 0 7 10\n1 finalize\n'
sed -i 's/"machine": "loggp", "stack": "loggp"/"machine": "cielo", "stack": "openmpi"/' p2p_only.json
"$BIN" run p2p_only.json --out out-p2p_only > p2p_only.out 2> p2p_only.err && ! grep -q "collective algorithms" p2p_only.out \
  && ! grep -q '"collectives":' out-p2p_only/p2p_only.json && echo "ok   a trace without collectives has no collectives note" \
  || { echo "FAIL p2p-only note: $(head -5 p2p_only.out) $(cat p2p_only.err)"; fail=1; }
# An index of no bytes (or a kernel file whose size reads 0): named with the scenario's key.
mk empty_index "init\\nfinalize\\n" "init\\nfinalize\\n"; : > empty_index/index.txt
refuse empty_index "empty_index\.json: key 'benchmark\.trace': 'empty_index/index\.txt' is empty: a trace index names one action file per rank"
refuse unmatched "rank-0\.txt: line 2: rank 0's send to rank 1 \(tag 7, 10 B\) is never received"
mk unmatched_tag '0 init\n0 send 1 7 10\n0 send 1 8 10\n0 finalize\n' '1 init\n1 recv 0 7 10\n1 finalize\n'
refuse unmatched_tag "rank-0\.txt: line 3: rank 0's send to rank 1 \(tag 8, 10 B\)"
# 101 isends of one (src, dst, tag) in flight at once, 100 received late: the one left is the last sent (line 102).
many0='0 init\n'; many1='1 init\n1 compute 1000000000\n'
for i in $(seq 1 101); do many0+="0 isend 1 7 10\n"; done
for i in $(seq 1 100); do many1+="1 recv 0 7 10\n"; done
mk unmatched_many "${many0}0 waitall\n0 finalize\n" "${many1}1 finalize\n"
refuse unmatched_many "rank-0\.txt: line 102: rank 0's send to rank 1 \(tag 7, 10 B\) is never received.*\(1 unmatched send in all\)"
# a receive posted by irecv, never matched and never waited (the rank ends with it pending): the trace's, not a
# stalled protocol (it was exit 3, "the modelled protocol stalled")
mk unreceived '0 init\n0 send 1 7 10\n0 finalize\n' '1 init\n1 irecv 0 7 10\n1 irecv 0 7 10\n1 wait 0 1 7\n1 finalize\n'
refuse unreceived "rank-1\.txt: line 3: rank 1's receive from rank 0 \(tag 7\) is never matched: no send in rank 0's trace is left for it.*\(1 such receive in all\)"
mk coll_kind '0 init\n0 barrier\n0 finalize\n' '1 init\n1 compute 10\n1 allreduce 8 0\n1 finalize\n'
refuse coll_kind "rank-1\.txt: line 3: rank 1's collective #1 is allreduce where rank 0's \(line 2 of .*rank-0\.txt\) is barrier"
mk coll_root '0 init\n0 bcast 8 0\n0 finalize\n' '1 init\n1 bcast 8 1\n1 finalize\n'
refuse coll_root "line 2: rank [01]'s collective #1 is bcast root [01] of 8 B where rank [01]'s .* is bcast root [01] of 8 B"
mk coll_size '0 init\n0 allreduce 8 0\n0 allreduce 8 0\n0 finalize\n' '1 init\n1 allreduce 8 0\n1 allreduce 16 0\n1 finalize\n'
refuse coll_size "line 3: rank [01]'s collective #2 is allreduce of (16|8) B where rank [01]'s \(line 3 .*\) is allreduce of (8|16) B"
mk wait_none '0 init\n0 wait 0 1 5\n0 finalize\n' '1 init\n1 finalize\n'
refuse wait_none "rank-0\.txt: line 2: wait on a request \(src 0, dst 1, tag 5\) that rank 0 has not posted"
mk wait_twice '0 init\n0 isend 1 5 4\n0 wait 0 1 5\n0 wait 0 1 5\n0 finalize\n' '1 init\n1 recv 0 5 4\n1 finalize\n'
refuse wait_twice "rank-0\.txt: line 4: wait on a request .* or has already waited for"
# one traffic written as alltoall (100 B blocks) and as alltoallv (counts 100 100): the collective row counts the same
# send-buffer bytes for both (2 ranks x 200 B)
mk a2a '0 init\n0 alltoall 100 100\n0 finalize\n' '1 init\n1 alltoall 100 100\n1 finalize\n'
mk a2av '0 init\n0 alltoallv 200 100 100 200 100 100\n0 finalize\n' '1 init\n1 alltoallv 200 100 100 200 100 100\n1 finalize\n'
accept a2a; accept a2av
python3 - out-a2a/a2a.json out-a2av/a2av.json <<'PY' || fail=1
import json, sys
rows = [{p["name"]: p["bytes"] for p in json.load(open(f))["points"] if p["row"] == "collective"} for f in sys.argv[1:]]
a, v = rows[0].get("alltoall"), rows[1].get("alltoallv")
print(("ok   " if a == v == 400 else "FAIL ") + f"alltoall and alltoallv of one traffic count {a} and {v} B")
sys.exit(0 if a == v == 400 else 1)
PY
# a quoted bare number is a flop rate in flop/s (as README.md's units table says)
sed -e 's/"1 Gf\/s"/"1e9"/' -e 's/"id": "a2a"/"id": "rate_text"/' a2a.json > rate_text.json
accept rate_text
# an index line naming a folder: said to be no regular file, not "not found"
mk dirline '0 init\n0 finalize\n' '1 init\n1 finalize\n'
mkdir -p dirline/rank-0.d; printf 'rank-0.d\nrank-1.txt\n' > dirline/index.txt
refuse dirline "index\.txt: line 1: rank 0's action file 'rank-0\.d' is .*rank-0\.d, which is not a regular file"
# a wait's peer that is neither a rank nor SMPI's MPI_UNDEFINED (-333) names no request: refused, not skipped
mk wait_bad_peer '0 init\n0 isend 1 5 4\n0 wait -5 1 5\n0 finalize\n' '1 init\n1 recv 0 5 4\n1 finalize\n'
refuse wait_bad_peer "rank-0\.txt: line 3: wait: src -5 is not a rank \(0\.\.1\) nor MPI_UNDEFINED \(-333\)"
mk waitall_neg '0 init\n0 waitall -3\n0 finalize\n' '1 init\n1 finalize\n'
refuse waitall_neg "rank-0\.txt: line 2: waitall: count -3 is outside"
mk comm_size '0 init\n0 comm_size 99999999999999\n0 finalize\n' '1 init\n1 finalize\n'
refuse comm_size "rank-0\.txt: line 2: comm_size: size 99999999999999 is outside \[1, 2\]"
mk empty_rank '0 init\n0 finalize\n' ''
refuse empty_rank "^ompisim: error: [^ ]*empty_rank/rank-1\.txt: rank 1's action file holds no action, not even init or finalize"
mk blank_rank '0 init\n0 barrier\n0 finalize\n' '\n# nothing recorded\n\n'
refuse blank_rank "^ompisim: error: [^ ]*blank_rank/rank-1\.txt: rank 1's action file holds no action, not even init or finalize"
# a NUL byte in the index would cut the path handed to the system short (to another file's name)
mk index_nul '0 init\n0 finalize\n' '1 init\n1 finalize\n'
printf 'rank-0.txt\0x\nrank-1.txt\n' > index_nul/index.txt
refuse index_nul "index_nul/index\.txt: line 1: contains a NUL byte \(not a text index\)"
# An index line names a file outside the index's folder: by '..', by an absolute path, through a symbolic link in the
# folder, or in a sibling folder whose name starts with the folder's (a test on the text would take it as inside).
# Refused naming the index, the line and where the file is; before, each was read.
rt=$(realpath .)  # where the files are, symbolic links followed (the errors name it)
mkdir -p outside index_dir2; printf '0 init\n0 finalize\n' > outside/rank-0.txt; cp outside/rank-0.txt index_dir2/
mk index_up '0 init\n0 finalize\n' '1 init\n1 finalize\n'
printf '../outside/rank-0.txt\nrank-1.txt\n' > index_up/index.txt
out="is $rt/outside/rank-0\.txt, outside the trace's folder $rt/index_up \('\.\.' and symbolic links followed\)"
refuse index_up "index_up/index\.txt: line 1: rank 0's action file '\.\./outside/rank-0\.txt' $out"
mk index_abs '0 init\n0 finalize\n' '1 init\n1 finalize\n'
printf '# recorded\nrank-0.txt\n%s\n' "$rt/outside/rank-0.txt" > index_abs/index.txt
refuse index_abs "index_abs/index\.txt: line 3: rank 1's action file '$rt/outside/rank-0\.txt' is $rt/outside/rank-0\.txt, outside"
mk index_link '0 init\n0 finalize\n' '1 init\n1 finalize\n'
ln -s ../outside/rank-0.txt index_link/linked.txt; printf 'linked.txt\nrank-1.txt\n' > index_link/index.txt
refuse index_link "index_link/index\.txt: line 1: rank 0's action file 'linked\.txt' is $rt/outside/rank-0\.txt, outside"
mk index_dir '0 init\n0 finalize\n' '1 init\n1 finalize\n'
printf '../index_dir2/rank-0.txt\nrank-1.txt\n' > index_dir/index.txt
refuse index_dir "index_dir/index\.txt: line 1: rank 0's action file '\.\./index_dir2/rank-0\.txt' is $rt/index_dir2/rank-0\.txt, outside"
# '..' after a symbolic link in the folder (sub -> a/b): the file read is the one checked, index_linkup/etc/rank-0.txt,
# not etc/rank-0.txt beside the folder, which is what the line is read lexically (before, that file was read).
mk index_linkup '0 init\n0 finalize\n' '1 init\n1 finalize\n'
mkdir -p index_linkup/a/b index_linkup/etc etc; ln -s a/b index_linkup/sub; mv index_linkup/rank-0.txt index_linkup/etc/
printf '0 not a trace\n' > etc/rank-0.txt; printf 'sub/../../etc/rank-0.txt\nrank-1.txt\n' > index_linkup/index.txt
accept index_linkup
# What smpirun -trace-ti writes with an absolute -trace-file: absolute lines into <index>_files/, read; and such a
# trace moved elsewhere (its lines name the folder it was recorded in, gone): found by name in <index>_files/.
mkdir -p index_rec/t.txt_files
printf '0 init\n0 send 1 7 10\n0 finalize\n' > index_rec/t.txt_files/5.1_rank-0.txt
printf '1 init\n1 recv 0 7 10\n1 finalize\n' > index_rec/t.txt_files/5.1_rank-1.txt
printf '%s\n' "$t/index_rec/t.txt_files/5.1_rank-0.txt" "$t/index_rec/t.txt_files/5.1_rank-1.txt" > index_rec/t.txt
cat > index_rec.json <<J
{"id": "index_rec", "machine": "loggp", "stack": "loggp", "ranks": 2,
 "benchmark": {"name": "replay", "trace": "index_rec/t.txt", "flop_rate": "1 Gf/s"}}
J
accept index_rec
mv index_rec index_moved; sed 's/index_rec/index_moved/g' index_rec.json > index_moved.json
accept index_moved
# An error quoting a field of a trace line quotes its start and its length, not the field: a 1 MiB field of '/'
# after a quote (which the error line's own bound kept up to 4 KiB) gives a short line.
mk long_field "0 init\n0 compute x'.$(head -c 1048576 /dev/zero | tr '\0' /)\n0 finalize\n" '1 init\n1 finalize\n'
refuse long_field "long_field/rank-0\.txt: line 2: compute: flops 'x'\./+\.\.\.' \(1048579 bytes\) is not a number$"
[ "$(wc -c < long_field.err)" -lt 300 ] && echo "ok   long_field: $(wc -c < long_field.err) bytes" \
  || { echo "FAIL long_field: the error line is $(wc -c < long_field.err) bytes"; fail=1; }
exit $fail
