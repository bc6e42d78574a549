#!/usr/bin/env bash
# Replay speed: a synthetic 1,024-rank SMPI time-independent trace of about 10 million actions
# (bench/replay_gen.py: 2-D halo exchange with isend/irecv/waitall, an allreduce every 10 iterations), replayed on the
# loggp machine and on Cielo with openmpi; wall and user time, peak memory (GNU time). Targets: loggp under 60 s, Cielo
# under 2 minutes. Each replay is stopped after LIMIT s (default 600); ENGINE (simgrid, fluid, des) runs both on that
# engine instead of the scenario's. Usage: [RANKS=1024] [ACTIONS=10000000] [LIMIT=600] [ENGINE=] bench/replay_bench.sh [BIN]
set -u
BIN=${1:-build/bin/ompisim}; here=$(cd "$(dirname "$0")" && pwd); t=$(mktemp -d); trap 'rm -rf "$t"' EXIT
R=${RANKS:-1024}
/usr/bin/time -f "generate: %e s wall" python3 "$here/replay_gen.py" "$t" "$R" "${ACTIONS:-10000000}"
du -sh "$t" | sed 's/^/trace size: /'
for ms in "loggp loggp" "cielo openmpi"; do
  set -- $ms
  printf '{"id": "replay-%s", "machine": "%s", "stack": "%s", "ranks": %s, "ranks_per_node": %s, "benchmark": {"name": "replay", "trace": "trace.txt", "flop_rate": "10 Gf/s"}}' \
    "$1" "$1" "$2" "$R" "$([[ $1 == loggp ]] && echo 1 || echo 16)" > "$t/replay-$1.json"
  OMPISIM_NO_FORK=1 /usr/bin/time -f "replay on $1 ($2): %e s wall, %U s user, %M KB peak" timeout "${LIMIT:-600}" \
    "$BIN" run "$t/replay-$1.json" ${ENGINE:+--engine "$ENGINE"} --out "$t/o" 2>&1 | grep -E "^# replay|wall"
done
