#!/usr/bin/env bash
# A --set of a machine parameter that no part of the run reads changes nothing, and the run says so.
# Configuration: Open MPI's 2-rank inter-node osu_bibw on Cielo (fig6) with --set of: Cray MPT's on-node LMT cost
#                (software.mpt_lmt_cost: the native stack's), the AMO latency (no atomics in the run), the BTE bandwidth
#                (the rendezvous' data path); the Cheetah p2p barrier at ranks [2, 4] (two runs: a key is unread only
#                when no run read it) with the AMO latency and the NIC latency; the 2-rank on-node osu_bibw (fig4) with
#                --set of the BTE bandwidth (its node resource is declared, but no transfer leaves the node).
# Expected:      the first two are listed in provenance.unread_overrides and warned about on stderr, and their points
#                equal the run without --set; the BTE bandwidth is neither listed nor warned about, and its points
#                differ; a run without --set has no unread_overrides; on one node the BTE bandwidth is listed and
#                warned about (declaring a NIC resource is not reading its parameter; a flow crossing it is).
# How validated: exit status, stderr, the result JSON read back with python3.
set -u
BIN=$(realpath "$1"); SRC=$(cd "$(dirname "$0")/../.." && pwd); t=$(mktemp -d); trap 'rm -rf "$t"' EXIT; fail=0
S="$SRC/scenarios/gemini/fig6_bibw_2p_inter_openmpi.json"
"$BIN" run "$S" --out "$t/plain" --json > "$t/plain.json" 2> "$t/plain.err" || { echo "FAIL plain run: $(cat "$t/plain.err")"; exit 1; }
"$BIN" run "$S" --out "$t/set" --json --set software.mpt_lmt_cost=100us --set nic.amo_latency=1us \
  --set nic.bte_bandwidth=1GB/s > "$t/set.json" 2> "$t/set.err" || { echo "FAIL run with --set: $(cat "$t/set.err")"; exit 1; }
"$BIN" run "$S" --out "$t/unread" --json --set software.mpt_lmt_cost=100us --set nic.amo_latency=1us > "$t/unread.json" \
  2> /dev/null || { echo "FAIL run with unread --set"; exit 1; }
python3 - "$t" <<'P' || fail=1
import json, sys
t = sys.argv[1]
plain, sset, unread = (json.load(open(f"{t}/{n}.json")) for n in ("plain", "set", "unread"))
err = open(f"{t}/set.err").read()
assert "unread_overrides" not in plain["provenance"], plain["provenance"].get("unread_overrides")
assert sset["provenance"].get("unread_overrides") == ["software.mpt_lmt_cost", "nic.amo_latency"], sset["provenance"].get("unread_overrides")
for k in ("software.mpt_lmt_cost", "nic.amo_latency"):
    assert f"warning: --set {k}: no part of this run read it" in err, err
assert "--set nic.bte_bandwidth: no part" not in err, err
assert unread["points"] == plain["points"], "an unread --set changed the points"
assert sset["points"] != plain["points"], "the BTE bandwidth changed nothing"
print("ok   unread --set listed and warned, read one not; unread ones change no point")
P
# two runs of one scenario: the key read by neither is listed
python3 -c "import json, sys; d = json.load(open(sys.argv[1])); d['ranks'] = [2, 4]; d['id'] = 'two'; d['benchmark']['iterations'] = 5; json.dump(d, open(sys.argv[2], 'w'))" \
  "$SRC/scenarios/gemini/fig7_barrier_cheetah_p2p.json" "$t/two.json"
"$BIN" run "$t/two.json" --out "$t/two" --json --set nic.amo_latency=1us --set nic.nic_latency=1us > "$t/two.out" 2> "$t/two.err" \
  || { echo "FAIL two rank counts: $(cat "$t/two.err")"; fail=1; }
python3 -c "import json, sys; u = json.load(open(sys.argv[1]))['provenance'].get('unread_overrides'); assert u == ['nic.amo_latency'], u; print('ok   two runs: only the key neither read is listed')" "$t/two.out" || fail=1
# one node: the BTE is declared on the node but no flow crosses it
"$BIN" run "$SRC/scenarios/gemini/fig4_bibw_2p_intra_openmpi.json" --out "$t/intra" --json --set nic.bte_bandwidth=1GB/s \
  > "$t/intra.json" 2> "$t/intra.err" || { echo "FAIL on-node run with --set: $(cat "$t/intra.err")"; fail=1; }
python3 - "$t" <<'P' || fail=1
import json, sys
t = sys.argv[1]
u = json.load(open(f"{t}/intra.json"))["provenance"].get("unread_overrides")
assert u == ["nic.bte_bandwidth"], u
err = open(f"{t}/intra.err").read()
assert "warning: --set nic.bte_bandwidth: no part of this run read it" in err, err
print("ok   on one node a NIC resource no flow crossed: its parameter listed and warned")
P
exit $fail
