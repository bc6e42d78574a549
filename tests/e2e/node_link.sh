#!/usr/bin/env bash
# A node reaches its router over one link where the topology has such links: no pair of nodes gets more bandwidth
# than that link, however many routes an adaptive policy spreads a window over. (1) The Gemini what-if fat tree and
# dragonfly (the Gemini is the router on a torus, elsewhere a node hangs off a switch by one Gemini X/Z link): an
# osu_bw between two far nodes with links slower than the BTE stays within the link's payload rate under the
# adaptive policies, as under minimal routing; with the NIC's own rates raised, within the default link's. (2) The
# trace names the node's link resources. (3) The same for SeaStar (0.9 payload efficiency, red-storm.json).
set -u
BIN=$(realpath "$1"); t=$(mktemp -d); trap 'rm -rf "$t"' EXIT; fail=0
bw() {  # machine nodes routing set... -> the 4 MiB osu_bw in MB/s
  local m=$1 nodes=$2 routing=$3; shift 3
  printf '{"id": "nl", "machine": "%s", "stack": "openmpi", "ranks": 2, "nodes": %s, "routing": "%s", "benchmark": {"name": "osu_bw", "sizes": ["4 MiB"], "iterations": 3, "skip": 1}}' \
    "$m" "$nodes" "$routing" > "$t/s.json"
  "$BIN" run "$t/s.json" --out "$t/o" "$@" 2> /dev/null | awk '$1 == 4194304 {print $2}'
}
within() { python3 -c "import sys; v, cap = float(sys.argv[1]), float(sys.argv[2]); sys.exit(0 if 0.9 * cap <= v <= cap * (1 + 1e-9) else 1)" "$1" "$2"; }
eff=0.6095  # models/gemini/machines/cielo.json packet_payload_efficiency
check() {  # label cap value
  if [[ -n $3 ]] && within "$3" "$2"; then echo "ok   $1: $3 MB/s, at most the link's $2"
  else echo "FAIL $1: '$3' MB/s, above the node's link ($2 MB/s) or missing"; fail=1; fi
}
cap4=$(python3 -c "print(4e3 * $eff)"); cap2=$(python3 -c "print(2e3 * $eff)")
for r in updown_adaptive minimal; do
  check "fat tree, $r, links 4 GB/s" "$cap4" "$(bw whatif-gemini-fattree '[0, 5000]' $r --set nic.link_bandwidth_x=4GB/s)"
done
for r in ugal valiant minimal; do
  check "dragonfly, $r, links 2 GB/s" "$cap2" "$(bw whatif-gemini-dragonfly '[0, 3000]' $r --set nic.link_bandwidth_x=2GB/s)"
done
link=$(python3 -c "import json; print(float(json.load(open('$2/models/gemini/machines/cielo.json'))['networks']['gemini']['nic']['link_bandwidth_x']['value'].split()[0]) * 1e3 * $eff)")
check "fat tree, NIC rates 100 GB/s" "$link" "$(bw whatif-gemini-fattree '[0, 5000]' updown_adaptive --set nic.bte_bandwidth=100GB/s --set nic.nic_ht_capacity=100GB/s)"
# the torus has no such link: two nodes of one Gemini are bound by the BTE (4.74 GB/s, above the 4 GB/s link's
# payload rate), and the trace names no node link
v=$(bw cielo '[0, 1]' minimal --set nic.link_bandwidth_x=4GB/s --trace "$t/torus.trace.json")
python3 -c "import sys; sys.exit(0 if 4500 < float(sys.argv[1]) < 4800 else 1)" "$v" && ! grep -q 'link-tx' "$t/torus.trace.json" \
  && echo "ok   torus: $v MB/s (the BTE), no node link" || { echo "FAIL torus: $v"; fail=1; }
bw whatif-gemini-fattree '[0, 5000]' minimal --trace "$t/nl.trace.json" > /dev/null
grep -q 'n0-link-tx' "$t/nl.trace.json" && grep -q 'n5000-link-rx' "$t/nl.trace.json" \
  && echo "ok   the trace names n0-link-tx and n5000-link-rx" || { echo "FAIL node links not in the trace"; fail=1; }
# (3) SeaStar, the other NIC kind that is its node's router (RouterNic): on a fat tree its transfers cross the node's
# link too, named in the trace, and stay within its rate; on Red Storm's torus there is none
cat > "$t/ss-ft.json" <<'J'
{"machine": "ss-ft", "base": "red-storm", "description": "what-if: Red Storm's SeaStar NICs on a fat tree",
 "networks": {"seastar": {"topology": {"kind": "fat_tree", "arity": 16, "levels": 4, "routing": "updown_adaptive",
   "dims": null, "nodes_per_router": null, "wrap": null, "note": null, "source": "a what-if shape"}}}}
J
printf '%s' '{"id": "ss", "machine": "ss-ft", "stack": "native", "ranks": 2, "nodes": [0, 5000], "benchmark": {"name": "osu_bw", "sizes": ["4 MiB"], "iterations": 3, "skip": 1}}' > "$t/ss.json"
v=$("$BIN" run "$t/ss.json" --machine-file "$t/ss-ft.json" --out "$t/o-ss" --set nic.link_bandwidth=1GB/s --trace "$t/ss.trace.json" 2> /dev/null | awk '$1 == 4194304 {print $2}')
check "SeaStar fat tree, links 1 GB/s" "$(python3 -c 'print(1e3 * 0.9)')" "$v"
grep -q 'n0-link-tx' "$t/ss.trace.json" && grep -q 'n5000-link-rx' "$t/ss.trace.json" \
  && echo "ok   SeaStar on a fat tree: the trace names n0-link-tx and n5000-link-rx" || { echo "FAIL SeaStar node links not in the trace"; fail=1; }
sed 's/"ss-ft"/"red-storm"/' "$t/ss.json" > "$t/ss-torus.json"
"$BIN" run "$t/ss-torus.json" --out "$t/o-sst" --trace "$t/sst.trace.json" > /dev/null 2>&1 && grep -q 'ht-tx' "$t/sst.trace.json" \
  && ! grep -q 'link-tx' "$t/sst.trace.json" && echo "ok   SeaStar on Red Storm's torus: no node link" \
  || { echo "FAIL SeaStar torus trace"; fail=1; }
exit $fail
