#!/usr/bin/env bash
# Replay checks its trace as MPI would. Configuration: hand-written two-rank SMPI TI traces, each wrong in one way
# (a send no rank receives, collectives that differ across ranks, a wait on a request never posted or waited twice,
# counts out of range, a rank's action file that is empty or holds only blank and comment lines: SMPI's replay runs
# such a rank as doing nothing, smpirun never writes one), an index line holding a NUL byte. Expected: exit 2 and one line naming the file, the line and the reason (for a mismatch:
# both ranks, their calls and lines). A correct trace of the same shape replays with exit 0.
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
refuse unmatched "rank-0\.txt: line 2: rank 0's send to rank 1 \(tag 7, 10 B\) is never received"
mk unmatched_tag '0 init\n0 send 1 7 10\n0 send 1 8 10\n0 finalize\n' '1 init\n1 recv 0 7 10\n1 finalize\n'
refuse unmatched_tag "rank-0\.txt: line 3: rank 0's send to rank 1 \(tag 8, 10 B\)"
# 101 isends of one (src, dst, tag) in flight at once, 100 received late: the one left is the last sent (line 102).
many0='0 init\n'; many1='1 init\n1 compute 1000000000\n'
for i in $(seq 1 101); do many0+="0 isend 1 7 10\n"; done
for i in $(seq 1 100); do many1+="1 recv 0 7 10\n"; done
mk unmatched_many "${many0}0 waitall\n0 finalize\n" "${many1}1 finalize\n"
refuse unmatched_many "rank-0\.txt: line 102: rank 0's send to rank 1 \(tag 7, 10 B\) is never received.*\(1 unmatched send in all\)"
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
exit $fail
