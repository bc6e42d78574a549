#!/usr/bin/env bash
# Configuration: Cielo's machine file with one mistake each (unknown NIC kind, topology kind, route policy; a node type
#                without cores; a NIC on a NUMA node the node lacks), run with --machine-file; and scenarios with a
#                cpu_list naming a core the node lacks, a map_by that does not exist, and a stack that does not exist.
# Expected:      exit status 2 and one line naming the file, the key and the reason (with a did-you-mean where one
#                applies); no result written.
# How validated: exit code, grep on stderr, line count, absence of the output directory.
set -u
BIN=$1; ROOT=$2; t=$(mktemp -d); trap 'rm -rf "$t"' EXIT; fail=0
SCEN='{"machine": "cielo", "stack": "openmpi", "benchmark": {"name": "osu_latency", "sizes": [1]}, "ranks": 2, "ranks_per_node": 1}'
printf '%s' "$SCEN" > "$t/s.json"
machine() {  # name python-edit expected-text
  python3 - "$ROOT/models/gemini/machines/cielo.json" "$t/$1.json" "$2" <<'PY'
import json, sys
j = json.load(open(sys.argv[1])); exec(sys.argv[3]); json.dump(j, open(sys.argv[2], "w"))
PY
  "$BIN" run "$t/s.json" --machine-file "$t/$1.json" --out "$t/out-$1" > /dev/null 2> "$t/$1.err"; rc=$?
  if [[ $rc != 2 ]] || ! grep -q -- "$3" "$t/$1.err" || [[ $(wc -l < "$t/$1.err") != 1 ]] || [[ -e "$t/out-$1" ]]; then
    echo "FAIL $1: rc=$rc err=$(cat "$t/$1.err")"; fail=1; else echo "ok   $1: $(cat "$t/$1.err")"; fi
}
scenario() {  # name json expected-text
  printf '%s' "$2" > "$t/$1.json"
  "$BIN" run "$t/$1.json" --out "$t/out-$1" > /dev/null 2> "$t/$1.err"; rc=$?
  if [[ $rc != 2 ]] || ! grep -q -- "$3" "$t/$1.err" || [[ $(wc -l < "$t/$1.err") != 1 ]] || [[ -e "$t/out-$1" ]]; then
    echo "FAIL $1: rc=$rc err=$(cat "$t/$1.err")"; fail=1; else echo "ok   $1: $(cat "$t/$1.err")"; fi
}
machine nic_kind 'j["nic"]["kind"] = "gemnii"' "key 'nic.kind': unknown NIC kind 'gemnii' (did you mean 'gemini'?)"
machine topology_kind 'j["topology"]["kind"] = "tours"' "topology.kind.*unknown.*did you mean 'torus'"
machine route_policy 'j["topology"]["routing"] = "valiant"' "topology.routing.*valiant"
machine no_cores 'j["node"]["cores_per_numa"] = 0' "node.cores_per_numa"
machine base_path 'j["base"] = "../../../etc/passwd"' "key 'base'"
machine nic_numa 'j["node"]["buses"] = {"ht": {"bandwidth": {"value": "9.6 GB/s", "source": "t"}, "latency": {"value": "0.1 us", "source": "t"}}}; j["node"]["nics"] = [{"network": "gemini", "numa": 4, "bus": "ht"}]' "node.nics\[0\].numa"
B='"machine": "cielo", "stack": "openmpi", "benchmark": {"name": "osu_latency", "sizes": [1]}, "ranks": 2, "ranks_per_node": 2'
scenario cpu_list "{$B, \"cpu_list\": [0, 16]}" "cpu_list\[1\]"
scenario map_by "{$B, \"map_by\": \"sockt\"}" "map_by.*did you mean 'socket'"
scenario unknown_stack '{"machine": "cielo", "stack": "openmpi-ob2", "benchmark": {"name": "osu_latency", "sizes": [1]}, "ranks": 2, "ranks_per_node": 1}' "unknown stack 'openmpi-ob2'"
exit $fail
