#!/usr/bin/env bash
# Configuration: the default engine (fluid), osu_mbw_mr on 8 nodes and osu_multi_lat on one node, both stacks. Expected: every
# send completes and is received once, no request or queue entry left. How validated: the stats block of the result.
set -eu
BIN=$1; t=$(mktemp -d); trap 'rm -rf "$t"' EXIT
for stack in openmpi native; do
  for b in '"osu_mbw_mr", "sizes": [1, 16384, 2097152]' '"osu_multi_lat", "sizes": [0, 4096, 65536]'; do
    printf '{"machine": "cielo", "stack": "%s", "benchmark": {"name": %s, "iterations": 4, "skip": 1}, "ranks": 16, "ranks_per_node": 8}' "$stack" "$b" > "$t/s.json"
    "$BIN" run "$t/s.json" --json --out "$t/o" > "$t/r.json"
    python3 - "$t/r.json" <<'P'
import json, sys
s = json.load(open(sys.argv[1]))["stats"]
assert s["sends_posted"] == s["sends_completed"] == s["recvs_posted"] == s["recvs_completed"] > 0, s
assert s["live_requests"] == 0 and s["unexpected_left"] == 0 and s["posted_left"] == 0, s
print("ok", s["sends_posted"], "messages")
P
  done
done
