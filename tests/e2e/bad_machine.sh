#!/usr/bin/env bash
# Configuration: Cielo's machine file with one mistake each (unknown NIC kind, topology kind, route policy; a node type
#                without cores, or with more NUMA nodes or cores than core/limits.hpp allows; a NIC on a NUMA node the node lacks; an unknown key in a network, a network without a
#                NIC, a topology giving its own node count, a node_list naming an unknown type or a count <= 0, more
#                ports per node than the node type has NICs, a NIC naming an unknown network, a bad arch record, a key
#                of the old shape; a misspelled or missing NIC parameter; a parameter's status or note not a string; a short --set name that two networks share;
#                a 'machine' name that is a path; a rate whose value in B/s overflows a double; built on a base: a
#                misspelt network name given in part, a base that is a file path; a torus, dragonfly or fat tree, or
#                a node type's GPUs, beyond core/limits.hpp's memory bounds, given to describe), run with --machine-file; and
#                scenarios with a cpu_list naming a core the node lacks, a map_by that does not exist, and a stack that
#                does not exist (its hint and list the machine's own presets first).
# Expected:      exit status 2 and one line naming the file, the key and the reason (with a did-you-mean where one
#                applies); no result written.
# How validated: lib_check.sh (exit code, grep on stderr, line count, absence of the output directory).
set -u
BIN=$1; ROOT=$2; t=$(mktemp -d); trap 'rm -rf "$t"' EXIT; fail=0
. "$(dirname "$0")/lib_check.sh"
SCEN='{"machine": "cielo", "stack": "openmpi", "benchmark": {"name": "osu_latency", "sizes": [1]}, "ranks": 2, "ranks_per_node": 1}'
printf '%s' "$SCEN" > "$t/s.json"
machine() {  # name python-edit expected-text [extra arguments of ompisim run]
  python3 - "$ROOT/models/gemini/machines/cielo.json" "$t/$1.json" "$2" <<'PY'
import copy, json, sys
j = json.load(open(sys.argv[1])); exec(sys.argv[3]); json.dump(j, open(sys.argv[2], "w"))
PY
  expect_input_error "$1" "$3" run "$t/s.json" --machine-file "$t/$1.json" --out "$t/out-$1" "${@:4}"
}
G='j["networks"]["gemini"]'
N='j["node_types"]["compute"]'
machine nic_kind "$G[\"nic\"][\"kind\"] = \"gemnii\"" "key 'networks.gemini.nic.kind': unknown NIC kind 'gemnii' (did you mean 'gemini'?)"
machine topology_kind "$G[\"topology\"][\"kind\"] = \"tours\"" "networks.gemini.topology.kind.*unknown.*did you mean 'torus'"
# a misspelled required NIC parameter is named beside the missing one (bte_bandwidth is not read as the misspelling)
machine misspelled_param "$G[\"nic\"][\"bte_bandwith\"] = $G[\"nic\"].pop(\"bte_bandwidth\")" "key 'networks.gemini.nic.bte_bandwidth': required parameter is missing (.*) (is 'bte_bandwith' a misspelling of it?)"
machine missing_param "$G[\"nic\"].pop(\"fma_pio_bandwidth\")" "key 'networks.gemini.nic.fma_pio_bandwidth': required parameter is missing (CPU to FMA window payload rate (SMSG, FMA put))$"
machine route_policy "$G[\"topology\"][\"routing\"] = \"valiant\"" "networks.gemini.topology.routing.*valiant"
machine no_cores "$N[\"cores_per_numa\"] = 0" "node_types.compute.cores_per_numa"
# a node shape past the bounds of core/limits.hpp: 300 packages were accepted and their 90,000 package pairs overran
# the 16-bit resource index of a node (packages=10,000 ended in std::bad_alloc, exit 3, after 2 GB); a core count per
# node past 2^20 is refused as well
machine many_packages "$N[\"packages\"] = 300" "key 'node_types.compute.packages': 300 packages x 2 NUMA nodes per package = 600 NUMA nodes per node, above the limit of 256"
machine many_numa "$N[\"numa_per_package\"] = 129" "key 'node_types.compute.numa_per_package': 2 packages x 129 NUMA nodes per package = 258 NUMA nodes per node, above the limit of 256"
machine many_cores "$N[\"cores_per_numa\"] = 300000" "key 'node_types.compute.cores_per_numa': 4 NUMA nodes x 300000 cores per NUMA node = 1200000 cores per node, above the limit of 1048576"
machine base_path 'j["base"] = "../../../etc/passwd"' "key 'base'"
machine nic_numa "$N[\"buses\"] = {\"ht\": {\"bandwidth\": {\"value\": \"9.6 GB/s\", \"source\": \"t\"}, \"latency\": {\"value\": \"0.1 us\", \"source\": \"t\"}}}; $N[\"nics\"] = [{\"network\": \"gemini\", \"numa\": 4, \"bus\": \"ht\"}]" "node_types.compute.nics\[0\].numa"
machine network_key "$G[\"topolgy\"] = {}" "key 'networks.gemini.topolgy': unknown key (did you mean 'topology'?)"
machine network_no_nic "del $G[\"nic\"]" "key 'networks.gemini.nic': a network needs a NIC"
machine topology_nodes "$G[\"topology\"][\"compute_nodes\"] = 8894" "key 'networks.gemini.topology.compute_nodes': the node count is node_list's"
machine node_list_type 'j["node_list"][0]["type"] = "compte"' "key 'node_list\[0\].type': unknown node type 'compte' (did you mean 'compute'?)"
machine node_list_count 'j["node_list"][0]["count"] = 0' "key 'node_list\[0\].count'"
machine node_list_fit 'j["node_list"][0]["count"] = 10000' "key 'node_list': 10000 nodes do not fit network 'gemini': a 16 x 12 x 24 torus with 2 node(s) per router holds at most 9216 nodes"
machine ports "$G[\"ports_per_node\"] = 2" "key 'networks.gemini.ports_per_node': 2 ports per node, but node type 'compute' has 1 NIC"
machine nic_network "$N[\"buses\"] = {\"ht\": {\"bandwidth\": {\"value\": \"9.6 GB/s\", \"source\": \"t\"}, \"latency\": {\"value\": \"0.1 us\", \"source\": \"t\"}}}; $N[\"nics\"] = [{\"network\": \"gemnii\", \"numa\": 0, \"bus\": \"ht\"}]" "key 'node_types.compute.nics\[0\].network': unknown network 'gemnii' (did you mean 'gemini'?)"
machine arch "$N[\"arch\"] = {\"endianness\": \"middle\", \"long_double_bytes\": 16, \"bool_bytes\": 1, \"logical_bytes\": 4}" "key 'node_types.compute.arch.endianness'"
machine old_shape 'j["topology"] = j["networks"]["gemini"]["topology"]' "key 'topology': unknown key"
machine ambiguous "j[\"networks\"][\"gemini2\"] = copy.deepcopy($G)" "--set 'nic.bte_bandwidth': ambiguous parameter: say which of networks.gemini.nic.bte_bandwidth, networks.gemini2.nic.bte_bandwidth" --set nic.bte_bandwidth=5GB/s
# a parameter's texts (status, note, fit, range_source) are strings
machine status_list "$G[\"nic\"][\"bte_bandwidth\"][\"status\"] = [1]" "key 'networks.gemini.nic.bte_bandwidth.status': expected a string"
machine note_number "$G[\"nic\"][\"bte_bandwidth\"][\"note\"] = 5" "key 'networks.gemini.nic.bte_bandwidth.note': expected a string"
# the machine's name is recorded in results and looked up by reruns: a name, never a path
machine name_path 'j["machine"] = "../x"' "key 'machine': '../x' is not a valid name"
# a finite number whose value in base units is not ("1e308 GB/s" in B/s) is refused as an overflow
machine si_overflow "$G[\"nic\"][\"bte_bandwidth\"][\"value\"] = \"1e308 GB/s\"" "key 'networks.gemini.nic.bte_bandwidth.value': '1e308 GB/s': overflows a double once converted to base units"
# a machine file built on a base: a network name the base lacks, given in part (a misspelt name of the base's), and a
# base that is a file path rather than an installed machine's name
printf '%s' '{"base": "cielo", "machine": "x", "networks": {"gemni": {"nic": {"nic_latency": "1 us"}}}}' > "$t/net_typo.json"
expect_input_error net_typo "key 'networks.gemni': the base 'cielo' has no network 'gemni' (did you mean 'gemini'? its networks: gemini): a network of one's own needs its whole" run "$t/s.json" --machine-file "$t/net_typo.json" --out "$t/out-net_typo"
printf '%s' '{"base": "m/my-cielo.json", "machine": "x"}' > "$t/base_file.json"
expect_input_error base_file "key 'base': 'm/my-cielo.json': a base is an installed machine's name (\`ompisim list machines\`), not a file" run "$t/s.json" --machine-file "$t/base_file.json" --out "$t/out-base_file"
# shapes whose model would not fit this machine's memory (core/limits.hpp), refused before anything is built: a torus
# of 129^3 routers, a dragonfly of 512 groups of 256 routers, a 4-ary 11-tree, a node type of 65 GPUs
printf '%s' '{"base": "cielo", "machine": "x", "networks": {"gemini": {"topology": {"dims": [129, 128, 128]}}}}' > "$t/big_torus.json"
expect_input_error big_torus "key 'networks.gemini.topology.dims': 2113536 routers, above the limit of 2097152" describe "$t/big_torus.json"
printf '%s' '{"base": "frontier", "machine": "x", "networks": {"cxi": {"topology": {"groups": 512, "routers_per_group": 256, "nodes_per_router": 1, "global_links_per_router": 2}}}}' > "$t/big_df.json"
expect_input_error big_dragonfly "key 'networks.cxi.topology.groups': the shape has more than 8388608 links" describe "$t/big_df.json"
printf '%s' '{"base": "whatif-qsnet-4096", "machine": "x", "networks": {"qsnet": {"topology": {"arity": 4, "levels": 11}}}}' > "$t/big_ft.json"
expect_input_error big_fat_tree "key 'networks.qsnet.topology.levels': a 4-ary 11-tree has more than 2097152 node slots" describe "$t/big_ft.json"
python3 - "$t/big_gpus.json" "$ROOT/models/slingshot/machines/crusher.json" <<'P'
import json, sys
m = json.load(open(sys.argv[2]))
m["machine"] = "x"
for nt in m["node_types"].values():
    if nt.get("gpus"):
        nt["gpus"] = nt["gpus"] * (65 // len(nt["gpus"]) + 1)
json.dump(m, open(sys.argv[1], "w"))
P
expect_input_error big_gpus "gpus': .* entries, above the limit of 64 per node type" describe "$t/big_gpus.json"
B='"machine": "cielo", "stack": "openmpi", "benchmark": {"name": "osu_latency", "sizes": [1]}, "ranks": 2, "ranks_per_node": 2'
check cpu_list "{$B, \"cpu_list\": [0, 16]}" "cpu_list\[1\]"
check map_by "{$B, \"map_by\": \"sockt\"}" "map_by.*did you mean 'socket'"
check unknown_stack '{"machine": "cielo", "stack": "openmpi-ob2", "benchmark": {"name": "osu_latency", "sizes": [1]}, "ranks": 2, "ranks_per_node": 1}' "unknown stack 'openmpi-ob2'"
# the hint and the list are the machine's own presets first: 'openmpi-linx' on Frontier is 'openmpi-linkx', and a
# name near a preset of other machines only ('openmpi-ugni', near 'openmpi-cxi') gets no hint on Cielo
check unknown_stack_here '{"machine": "frontier", "stack": "openmpi-linx", "benchmark": {"name": "osu_latency", "sizes": [1]}, "ranks": 2, "ranks_per_node": 1}' "unknown stack 'openmpi-linx' (did you mean 'openmpi-linkx'?) (on machine 'frontier': openmpi-linkx, openmpi-cxi, native; on other machines: "
check unknown_stack_elsewhere '{"machine": "cielo", "stack": "openmpi-ugni", "benchmark": {"name": "osu_latency", "sizes": [1]}, "ranks": 2, "ranks_per_node": 1}' "unknown stack 'openmpi-ugni' (on machine 'cielo': openmpi, native; on other machines: "
exit $fail
