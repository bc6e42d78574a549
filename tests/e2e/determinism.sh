#!/usr/bin/env bash
# Configuration: the same scenario run twice. Expected: byte-identical JSON results. How validated: cmp.
set -eu
BIN=$1; t=$(mktemp -d); trap 'rm -rf "$t"' EXIT
cat > "$t/s.json" <<'J'
{"machine": "cielo", "stack": "openmpi", "benchmark": {"name": "osu_mbw_mr", "sizes": [8, 65536, 1048576], "iterations": 5, "skip": 1}, "ranks": 8, "ranks_per_node": 1}
J
"$BIN" run "$t/s.json" --json --out "$t/a" > "$t/1.json"
"$BIN" run "$t/s.json" --json --out "$t/b" > "$t/2.json"
cmp "$t/1.json" "$t/2.json" && echo "identical"
