#!/usr/bin/env bash
# Bounded input. Configuration: deep nesting, /dev/zero, a FIFO, a folder, a file above the size limit,
# 1e400, duplicate keys, lists above their limits. Expected: exit 2 naming the file (and key), quickly and without
# growing: each case runs under a 10 s timeout and a 512 MB address-space limit. How validated: lib_check.sh.
# And a run within the limits too large for the memory it can get (1,048,576 ranks on the loggp machine under a
# 500 MB address-space limit): exit 3 with one line saying it ran out of memory and at what peak, not a bare
# "std::bad_alloc"; no output folder (not under ASan, whose allocator aborts instead of throwing).
set -u
BIN=$1; t=$(mktemp -d); trap 'rm -rf "$t"' EXIT; fail=0
. "$(dirname "$0")/lib_check.sh"
ldd "$BIN" | grep -q libasan || ulimit -v 2000000  # (ASan reserves terabytes of shadow address space)
raw() {  # name path expected-regex [args]: a path that is not a JSON file we write
  local name=$1 path=$2 want=$3; shift 3
  timeout 10 "$BIN" run "$path" --out "$t/out-$name" "$@" > /dev/null 2> "$t/$name.err"; local rc=$?
  if [[ $rc != 2 ]] || ! grep -q -- "$want" "$t/$name.err" || [[ -e "$t/out-$name" ]]; then
    echo "FAIL $name: rc=$rc err=$(head -c 300 "$t/$name.err")"; fail=1; else echo "ok   $name: $(cat "$t/$name.err")"; fi
}
raw dev_zero /dev/zero "/dev/zero: is not a regular file"
mkfifo "$t/fifo"; raw fifo "$t/fifo" "not a regular file"
mkdir "$t/dir"; raw directory "$t/dir" "a folder, not a file"
python3 -c "import sys; sys.stdout.write('{\"mca\": ' * 100000)" > "$t/deep.json"; raw deep "$t/deep.json" "deep.json: key 'mca.mca.*nested deeper than 64"
python3 -c "
import sys
s = '{\"machine\": \"cielo\", \"stack\": \"openmpi\", \"benchmark\": {\"name\": \"osu_latency\", \"sizes\": [1], \"iterations\": 2, \"skip\": 0}, \"ranks\": 2}'
sys.stdout.write(s + ' ' * (5 << 20))" > "$t/big.json"
raw too_big "$t/big.json" "above the input limit of 4194304 bytes"
timeout 60 "$BIN" run "$t/big.json" --max-input-size "8 MiB" --out "$t/out-big" > /dev/null 2> "$t/big.err" \
  && echo "ok   --max-input-size 8 MiB reads it" || { echo "FAIL --max-input-size: $(cat "$t/big.err")"; fail=1; }
B='"machine": "cielo", "stack": "openmpi"'
check overflow "{$B, \"benchmark\": {\"name\": \"osu_latency\", \"sizes\": [1e400]}, \"ranks\": 2}" "overflow.json: key 'benchmark.sizes\[0\]'.*overflows"
check overflow_mca "{$B, \"benchmark\": {\"name\": \"osu_latency\"}, \"ranks\": 2, \"mca\": {\"btl_ugni_eager_limit\": 1e400}}" "key 'mca.btl_ugni_eager_limit'.*overflows"
check duplicate "{$B, \"benchmark\": {\"name\": \"osu_latency\"}, \"ranks\": 2, \"ranks\": 4}" "key 'ranks': duplicate key"
sizes=$(python3 -c "print(','.join(str(i) for i in range(300)))")
check many_sizes "{$B, \"benchmark\": {\"name\": \"osu_latency\", \"sizes\": [$sizes]}, \"ranks\": 2}" "key 'benchmark.sizes'.*limit of 256"
ranks=$(python3 -c "print(','.join(str(2*i+2) for i in range(65)))")
check many_ranks "{$B, \"benchmark\": {\"name\": \"barrier_loop\"}, \"ranks\": [$ranks]}" "key 'ranks'.*limit of 64"
radix=$(python3 -c "print(','.join(str(i+2) for i in range(33)))")
check many_radices "{$B, \"benchmark\": {\"name\": \"barrier_loop\", \"radix\": [$radix]}, \"ranks\": 4}" "key 'benchmark.radix'.*limit of 32"
if ! ldd "$BIN" | grep -q libasan; then
  printf '%s' '{"machine": "loggp", "stack": "loggp", "benchmark": {"name": "barrier_loop", "algorithm": "tuned", "iterations": 1, "skip": 0}, "ranks": 1048576}' > "$t/oom.json"
  (ulimit -v 500000; timeout 30 "$BIN" run "$t/oom.json" --out "$t/out-oom" > /dev/null 2> "$t/oom.err"); rc=$?
  if [[ $rc == 3 && $(wc -l < "$t/oom.err") == 1 && ! -e "$t/out-oom" ]] &&
     grep -q "^ompisim: error: out of memory (std::bad_alloc) at [0-9]* MiB of peak memory: " "$t/oom.err"; then
    echo "ok   out_of_memory: $(cat "$t/oom.err")"
  else echo "FAIL out_of_memory: rc=$rc err=$(head -c 300 "$t/oom.err")"; fail=1; fi
fi
exit $fail
