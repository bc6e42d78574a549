#!/usr/bin/env bash
# Configuration: Cielo, 16 ranks on one node (2 packages x 2 dies x 4 cores), osu_multi_lat (pairs i, i+8) at 1 B,
#                three placements: Open MPI's default (map-by socket), "map_by": "core", and "map_by": "core" with
#                "rank_by": "socket"; then a misspelled rank_by.
# Expected:      map-by core then rank-by socket deals the ranks over the packages exactly as the default map-by socket
#                places them (same cores for every rank), so its latency equals the default's; map-by core alone
#                pairs ranks across packages and is slower; the result's provenance names the ranking; a misspelled
#                rank_by exits 2 naming the key with a did-you-mean.
# How validated: latency values from the result JSON, provenance.mapping.rank_by, exit status and stderr.
set -u
BIN=$1; t=$(mktemp -d); trap 'rm -rf "$t"' EXIT; fail=0
B='"machine": "cielo", "stack": "openmpi", "benchmark": {"name": "osu_multi_lat", "sizes": [1], "iterations": 20, "skip": 2}, "ranks": 16, "ranks_per_node": 16'
run() {  # name extra-keys
  printf '{%s%s}' "$B" "$2" > "$t/$1.json"
  "$BIN" run "$t/$1.json" --out "$t/$1" > /dev/null 2> "$t/$1.err" || { echo "FAIL $1: $(cat "$t/$1.err")"; exit 1; }
}
run default ''
run core ', "map_by": "core"'
run core_socket ', "map_by": "core", "rank_by": "socket"'
read -r d c cs rb <<<"$(python3 - "$t" <<'PY'
import glob, json, sys
def res(n):
    return json.load(open(glob.glob(f"{sys.argv[1]}/{n}/**/*.json", recursive=True)[0]))
def lat(n):
    return res(n)["points"][0]["latency_us"]
print(lat("default"), lat("core"), lat("core_socket"), res("core_socket")["provenance"]["mapping"]["rank_by"])
PY
)"
echo "default $d us, map_by core $c us, map_by core + rank_by socket $cs us (rank_by $rb)"
[[ "$d" == "$cs" ]] || { echo "FAIL: rank_by socket after map_by core differs from the default placement"; fail=1; }
python3 -c "import sys; sys.exit(0 if float('$c') > float('$d') else 1)" || { echo "FAIL: map_by core not slower"; fail=1; }
[[ "$rb" == "socket" ]] || { echo "FAIL: provenance rank_by '$rb'"; fail=1; }
printf '{%s, "rank_by": "sokcet"}' "$B" > "$t/bad.json"
"$BIN" run "$t/bad.json" --out "$t/bad" > /dev/null 2> "$t/bad.err"; rc=$?
if [[ $rc != 2 ]] || ! grep -q "rank_by.*did you mean 'socket'" "$t/bad.err" || [[ -e "$t/bad" ]]; then
  echo "FAIL bad rank_by: rc=$rc $(cat "$t/bad.err")"; fail=1; else echo "ok   bad rank_by: $(cat "$t/bad.err")"; fi
exit $fail
