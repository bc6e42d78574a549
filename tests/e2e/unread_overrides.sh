#!/usr/bin/env bash
# A --set of a machine parameter that no part of the run reads changes nothing, and the run says so.
# Configuration: Open MPI's 2-rank inter-node osu_bibw on Cielo (fig6) with --set of: Cray MPT's on-node LMT cost
#                (software.mpt_lmt_cost: the native stack's), the AMO latency (no atomics in the run), the BTE bandwidth
#                (the rendezvous' data path); the Cheetah p2p barrier at ranks [2, 4] (two runs: a key is unread only
#                when no run read it) with the AMO latency and the NIC latency; the 2-rank on-node osu_bibw (fig4) with
#                --set of the BTE bandwidth (its node resource is declared, but no transfer leaves the node), of a
#                link bandwidth and the router hop latency (the topology is built from them, but no route leaves the
#                node), of the inter-die link bandwidth (both ranks on one die: the link is declared, no copy
#                crosses it) and of btl/ugni's SMSG costs (nic.fma_pio_bandwidth, software.btl_ugni_overhead: btl/ugni
#                is opened on one node too, but sends no SMSG); the 16-rank on-node osu_mbw_mr (fig4, copies across
#                the dies) with that same --set; the 8-rank inter-node osu_mbw_mr (fig6, one rank per node along X)
#                with --set of the X and Y link bandwidths; Cray MPT's 2-rank osu_bibw on one node and between two
#                with --set of its rendezvous receive rate and the uGNI SMSG CPU overhead; Slingshot's fig4 osu_bibw
#                on one node under LINKx (device buffers) and between two nodes over cxi (host buffers) with --set of
#                cxi's per-message cost, DMA read latency, flow-control recovery time and device access latency; Cray
#                MPI's NetPIPE and message rate runs on SeaStar with --set of its unexpected-path and pre-posted costs.
# Expected:      the first two are listed in provenance.unread_overrides and warned about on stderr, and their points
#                equal the run without --set; the BTE bandwidth is neither listed nor warned about, and its points
#                differ; a run without --set has no unread_overrides; on one node the BTE bandwidth is listed and
#                warned about (declaring a NIC resource is not reading its parameter; a flow crossing it is), and so
#                are the link bandwidth and the hop latency (building the links is not reading their parameters; a
#                route crossing a link of their class is), and so is the inter-die bandwidth, which the 16-rank run
#                reads (not listed, its points differ from the committed ones); along X only the Y bandwidth is listed,
#                and the points differ from the committed ones; Cray MPT's two costs are listed on one node and read
#                between two (their points move); cxi's four are listed on one node, and between two nodes only the
#                recovery time (no drop) and the device access latency (host buffers), the points moving; Cray MPI's
#                unexpected-path cost is listed on NetPIPE (every receive pre-posted) and read by the message rate test
#                (its points move).
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
# one node: the BTE is declared on the node but no flow crosses it; the links are built but no route crosses one
"$BIN" run "$SRC/scenarios/gemini/fig4_bibw_2p_intra_openmpi.json" --out "$t/intra" --json --set nic.bte_bandwidth=1GB/s \
  --set nic.link_bandwidth_y=1GB/s --set nic.router_hop_latency=1us --set node.links.inter_die_bandwidth=1GB/s \
  --set nic.fma_pio_bandwidth=1GB/s --set software.btl_ugni_overhead=1us \
  > "$t/intra.json" 2> "$t/intra.err" || { echo "FAIL on-node run with --set: $(cat "$t/intra.err")"; fail=1; }
python3 - "$t" <<'P' || fail=1
import json, sys
t = sys.argv[1]
u = json.load(open(f"{t}/intra.json"))["provenance"].get("unread_overrides")
assert u == ["nic.bte_bandwidth", "nic.link_bandwidth_y", "nic.router_hop_latency", "node.links.inter_die_bandwidth",
             "nic.fma_pio_bandwidth", "software.btl_ugni_overhead"], u
err = open(f"{t}/intra.err").read()
for k in u:
    assert f"warning: --set {k}: no part of this run read it" in err, err
print("ok   on one die a NIC resource no flow crossed, links no route crossed, an inter-die link no copy crossed and btl/ugni's SMSG costs: their parameters listed and warned")
P
# sixteen ranks on one node: copies cross the dies
"$BIN" run "$SRC/scenarios/gemini/fig4_mbw_mr_16p_intra_openmpi.json" --out "$t/dies" --json \
  --set node.links.inter_die_bandwidth=1GB/s > "$t/dies.json" 2> "$t/dies.err" || { echo "FAIL 16-rank run: $(cat "$t/dies.err")"; fail=1; }
python3 - "$t" "$SRC/results/gemini/fig4_mbw_mr_16p_intra_openmpi.json" <<'P' || fail=1
import json, sys
t, committed = sys.argv[1], sys.argv[2]
d = json.load(open(f"{t}/dies.json"))
assert "unread_overrides" not in d["provenance"], d["provenance"]["unread_overrides"]
assert "--set node.links.inter_die_bandwidth: no part" not in open(f"{t}/dies.err").read()
assert d["points"] != json.load(open(committed))["points"], "the inter-die bandwidth changed nothing"
print("ok   across the dies: the inter-die bandwidth read (the points move), not listed")
P
# Cray MPT on one node: its SMSG and rendezvous costs are unread; between two nodes they are read
"$BIN" run "$SRC/scenarios/gemini/fig4_bibw_2p_intra_native.json" --out "$t/mpt1" --json --set software.mpt_rndv_recv_rate=1GB/s \
  --set nic.smsg_cpu_overhead=1us > "$t/mpt1.json" 2> /dev/null || { echo "FAIL MPT on-node run"; fail=1; }
"$BIN" run "$SRC/scenarios/gemini/fig6_bibw_2p_inter_native.json" --out "$t/mpt2" --json --set software.mpt_rndv_recv_rate=1GB/s \
  --set nic.smsg_cpu_overhead=1us > "$t/mpt2.json" 2> /dev/null || { echo "FAIL MPT inter-node run"; fail=1; }
python3 - "$t" "$SRC/results/gemini/fig6_bibw_2p_inter_native.json" <<'P' || fail=1
import json, sys
t, committed = sys.argv[1], sys.argv[2]
one, two = (json.load(open(f"{t}/{n}.json")) for n in ("mpt1", "mpt2"))
u = one["provenance"].get("unread_overrides")
assert u == ["software.mpt_rndv_recv_rate", "nic.smsg_cpu_overhead"], u
assert "unread_overrides" not in two["provenance"], two["provenance"]["unread_overrides"]
assert two["points"] != json.load(open(committed))["points"], "MPT's rendezvous and SMSG costs changed nothing between nodes"
print("ok   Cray MPT: its SMSG and rendezvous costs listed on one node, read between two (the points move)")
P
# Slingshot: the cxi provider on one node under LINKx sends nothing; between two nodes with host buffers and no drop
# it reads its per-message costs, not the device access latency nor the flow-control recovery time
S4="$SRC/scenarios/slingshot/fig4_bibw"
CXI_SET=(--set software.cxi_overhead=1us --set nic.dma_read_latency=1us --set software.fc_recovery_time=1ms --set nic.device_access_latency=1us)
"$BIN" run "${S4}_intra_d2d_openmpi-linkx.json" --out "$t/cxi1" --json "${CXI_SET[@]}" > "$t/cxi1.json" 2> /dev/null \
  || { echo "FAIL LINKx on-node run"; fail=1; }
"$BIN" run "${S4}_inter_h2h_openmpi-cxi.json" --out "$t/cxi2" --json "${CXI_SET[@]}" > "$t/cxi2.json" 2> /dev/null \
  || { echo "FAIL cxi inter-node run"; fail=1; }
python3 - "$t" "$SRC/results/slingshot/fig4_bibw_inter_h2h_openmpi-cxi.json" <<'P' || fail=1
import json, sys
t, committed = sys.argv[1], sys.argv[2]
one, two = (json.load(open(f"{t}/{n}.json")) for n in ("cxi1", "cxi2"))
u1, u2 = one["provenance"].get("unread_overrides"), two["provenance"].get("unread_overrides")
assert u1 == ["software.cxi_overhead", "nic.dma_read_latency", "software.fc_recovery_time", "nic.device_access_latency"], u1
assert u2 == ["software.fc_recovery_time", "nic.device_access_latency"], u2
assert two["points"] != json.load(open(committed))["points"], "cxi's per-message costs changed nothing between nodes"
print("ok   cxi: all four listed on one node under LINKx; between nodes (host buffers, no drop) only the drop and device ones")
P
# Cray MPI over Portals: NetPIPE's receives are all pre-posted (no unexpected short message), the message rate test's
# are not
for s in fig2_netpipe_native fig4_msgrate_native; do
  "$BIN" run "$SRC/scenarios/seastar/$s.json" --out "$t/$s" --json --set software.craympi_unex_cost=1us \
    --set software.craympi_post_cost=1us > "$t/$s.json" 2> /dev/null || { echo "FAIL Cray MPI $s"; fail=1; }
done
python3 - "$t" "$SRC/results/seastar" <<'P' || fail=1
import json, sys
t, committed = sys.argv[1], sys.argv[2]
np, mr = (json.load(open(f"{t}/{n}.json")) for n in ("fig2_netpipe_native", "fig4_msgrate_native"))
assert np["provenance"].get("unread_overrides") == ["software.craympi_unex_cost"], np["provenance"].get("unread_overrides")
assert "unread_overrides" not in mr["provenance"], mr["provenance"]["unread_overrides"]
assert mr["points"] != json.load(open(f"{committed}/fig4_msgrate_native.json"))["points"], "Cray MPI's path costs changed nothing"
print("ok   Cray MPI: the unexpected path's cost listed where no short message is unexpected (NetPIPE), read where one is")
P
# eight nodes along X: the X links are crossed, no Y link is
"$BIN" run "$SRC/scenarios/gemini/fig6_mbw_mr_8p_inter_openmpi.json" --out "$t/x" --json --set nic.link_bandwidth_x=1GB/s \
  --set nic.link_bandwidth_y=1GB/s > "$t/x.json" 2> "$t/x.err" || { echo "FAIL 8-node run with --set: $(cat "$t/x.err")"; fail=1; }
python3 - "$t" "$SRC/results/gemini/fig6_mbw_mr_8p_inter_openmpi.json" <<'P' || fail=1
import json, sys
t, committed = sys.argv[1], sys.argv[2]
d = json.load(open(f"{t}/x.json"))
u = d["provenance"].get("unread_overrides")
assert u == ["nic.link_bandwidth_y"], u
err = open(f"{t}/x.err").read()
assert "--set nic.link_bandwidth_x: no part" not in err, err
assert d["points"] != json.load(open(committed))["points"], "the X link bandwidth changed nothing"
print("ok   along X: the X link bandwidth read (the points move), the Y one listed")
P
# An MCA parameter of a BTL that bml/r2 chose for no pair of ranks (btl/vader with a node per rank; btl/ugni with both
# ranks on one node) is listed in provenance.idle_overrides and warned about, its points equal the committed ones; the
# same parameter where the BTL carries the messages is not listed, and its points move.
"$BIN" run "$SRC/scenarios/gemini/fig5_latency_2p_inter_openmpi.json" --out "$t/iv" --json --set btl_vader_eager_limit=1024 \
  > "$t/iv.json" 2> "$t/iv.err" || { echo "FAIL vader --set inter-node: $(cat "$t/iv.err")"; fail=1; }
"$BIN" run "$SRC/scenarios/gemini/fig3_latency_2p_intra_openmpi.json" --out "$t/iu" --json --set btl_ugni_eager_limit=1024 \
  > "$t/iu.json" 2> "$t/iu.err" || { echo "FAIL ugni --set on one node: $(cat "$t/iu.err")"; fail=1; }
"$BIN" run "$SRC/scenarios/gemini/fig3_latency_2p_intra_openmpi.json" --out "$t/vv" --json --set btl_vader_eager_limit=1024 \
  > "$t/vv.json" 2> "$t/vv.err" || { echo "FAIL vader --set on one node: $(cat "$t/vv.err")"; fail=1; }
python3 - "$t" "$SRC/results/gemini" <<'P' || fail=1
import json, sys
t, r = sys.argv[1], sys.argv[2]
for f, key, comp, committed in (("iv", "btl_vader_eager_limit", "btl/vader", "fig5_latency_2p_inter_openmpi"),
                                ("iu", "btl_ugni_eager_limit", "btl/ugni", "fig3_latency_2p_intra_openmpi")):
    d = json.load(open(f"{t}/{f}.json"))
    assert d["provenance"].get("idle_overrides") == [key], d["provenance"].get("idle_overrides")
    assert "unread_overrides" not in d["provenance"], d["provenance"]["unread_overrides"]
    err = open(f"{t}/{f}.err").read()
    assert f"--set {key}: {comp}, which reads it, carried no message of this run" in err, err
    assert d["points"] == json.load(open(f"{r}/{committed}.json"))["points"], f"{key} changed the points"
d = json.load(open(f"{t}/vv.json"))
assert "idle_overrides" not in d["provenance"] and "carried no message" not in open(f"{t}/vv.err").read()
assert d["points"] != json.load(open(f"{r}/fig3_latency_2p_intra_openmpi.json"))["points"], "vader's eager limit changed nothing"
print("ok   a BTL that carried no message: its --set listed as idle and warned about; where it carries them, read")
P
# The same for libfabric's providers under LINKx and under Cray MPICH: a cxi parameter on one node (every message goes
# through shm) and, under LINKx, a shm parameter with a node per rank (every message through cxi) are listed as idle,
# with points equal to the run without them; the cxi one with a node per rank moves the points and is not listed.
for stack in openmpi-linkx native; do
  for rpn in 1 2; do
    cat > "$t/sl-$stack-$rpn.json" <<J
{"id": "sl", "machine": "crusher", "stack": "$stack", "ranks": 2, "ranks_per_node": $rpn,
 "benchmark": {"name": "osu_latency", "sizes": [8, 3072, 65536], "iterations": 3, "skip": 1}}
J
    "$BIN" run "$t/sl-$stack-$rpn.json" --out "$t/sl-$stack-$rpn-plain" --json > "$t/sl-$stack-$rpn-plain.json" 2> /dev/null || fail=1
    "$BIN" run "$t/sl-$stack-$rpn.json" --out "$t/sl-$stack-$rpn-cxi" --json --set fi_cxi_rdzv_threshold=512 \
      > "$t/sl-$stack-$rpn-cxi.json" 2> "$t/sl-$stack-$rpn-cxi.err" || fail=1
  done
done
"$BIN" run "$t/sl-openmpi-linkx-1.json" --out "$t/sl-linkx-1-shm" --json --set shm_inject_size=1024 \
  > "$t/sl-linkx-1-shm.json" 2> "$t/sl-linkx-1-shm.err" || fail=1
python3 - "$t" <<'P' || fail=1
import json, sys
t = sys.argv[1]
def load(n): return json.load(open(f"{t}/{n}.json"))
for stack in ("openmpi-linkx", "native"):
    plain2, cxi2 = load(f"sl-{stack}-2-plain"), load(f"sl-{stack}-2-cxi")
    assert cxi2["provenance"].get("idle_overrides") == ["fi_cxi_rdzv_threshold"], (stack, cxi2["provenance"])
    assert cxi2["points"] == plain2["points"], (stack, "fi_cxi_rdzv_threshold changed an on-node run")
    assert "ofi/cxi, which reads it, carried no message" in open(f"{t}/sl-{stack}-2-cxi.err").read()
    plain1, cxi1 = load(f"sl-{stack}-1-plain"), load(f"sl-{stack}-1-cxi")
    assert "idle_overrides" not in cxi1["provenance"] and cxi1["points"] != plain1["points"], (stack, cxi1["provenance"])
shm1, plain1 = load("sl-linkx-1-shm"), load("sl-openmpi-linkx-1-plain")
assert shm1["provenance"].get("idle_overrides") == ["shm_inject_size"], shm1["provenance"]
assert shm1["points"] == plain1["points"], "shm_inject_size changed an inter-node run"
print("ok   LINKx and Cray MPICH: a provider that carried no message has its --set listed as idle; cxi's read off the node")
P
# The same in a scenario's own "mca" block: btl/vader's eager limit with a node per rank is listed in
# provenance.idle_mca and warned about, its points equal the committed ones; on one node it is neither.
python3 - "$SRC/scenarios/gemini" "$t" <<'P'
import json, sys
src, t = sys.argv[1], sys.argv[2]
for f, out in (("fig5_latency_2p_inter_openmpi", "mi"), ("fig3_latency_2p_intra_openmpi", "mv")):
    d = json.load(open(f"{src}/{f}.json"))
    d["mca"] = dict(d.get("mca", {}), btl_vader_eager_limit=1024)
    d["id"] = out
    json.dump(d, open(f"{t}/{out}.json", "w"))
P
for c in mi mv; do
  "$BIN" run "$t/$c.json" --out "$t/o-$c" > /dev/null 2> "$t/$c.err" || { echo "FAIL scenario mca $c: $(cat "$t/$c.err")"; fail=1; }
done
python3 - "$t" "$SRC/results/gemini" <<'P' || fail=1
import json, sys
t, r = sys.argv[1], sys.argv[2]
d = json.load(open(f"{t}/o-mi/mi.json"))
assert d["provenance"].get("idle_mca") == ["btl_vader_eager_limit"], d["provenance"].get("idle_mca")
assert 'scenario "mca" btl_vader_eager_limit: btl/vader, which reads it, carried no message' in open(f"{t}/mi.err").read()
assert d["points"] == json.load(open(f"{r}/fig5_latency_2p_inter_openmpi.json"))["points"], "vader's limit changed an inter-node run"
v = json.load(open(f"{t}/o-mv/mv.json"))
assert "idle_mca" not in v["provenance"] and "carried no message" not in open(f"{t}/mv.err").read(), v["provenance"].get("idle_mca")
print("ok   a scenario mca value of a BTL that carried no message: listed in idle_mca and warned about; on one node, read")
P
# A scenario "mca" value of a component that carried messages but whose path never read it: btl/ugni's FMA limit
# (which picks FMA or BTE for a long GET) on a ping-pong of 8 B to 2 KiB between two Cielo nodes (SMSG and eager gets,
# no long GET): listed in provenance.unread_mca, warned about, and a sweep over it says it changed nothing; on 16 KiB
# (a long GET) it is read.
printf '%s' '{"machine": "cielo", "stack": "openmpi", "ranks": 2, "benchmark": {"name": "osu_latency", "sizes": [8, 2048], "iterations": 20, "skip": 2}, "mca": {"btl_ugni_fma_limit": 1024}}' > "$t/fma.json"
sed 's/\[8, 2048\]/[16384]/' "$t/fma.json" > "$t/fmabig.json"
printf '%s' "{\"base\": \"$t/fma.json\", \"axes\": {\"mca.btl_ugni_fma_limit\": [1024, 4095]}}" > "$t/fmagrid.json"
"$BIN" run "$t/fma.json" --out "$t/o-fma" > /dev/null 2> "$t/fma.err" || { echo "FAIL fma run: $(cat "$t/fma.err")"; fail=1; }
"$BIN" run "$t/fmabig.json" --out "$t/o-fma" > /dev/null 2> "$t/fmabig.err" || { echo "FAIL fmabig run: $(cat "$t/fmabig.err")"; fail=1; }
"$BIN" sweep "$t/fmagrid.json" --out "$t/o-fmagrid" > /dev/null 2> "$t/fmagrid.err" || { echo "FAIL fma grid: $(cat "$t/fmagrid.err")"; fail=1; }
python3 - "$t" <<'P' || fail=1
import json, sys
t = sys.argv[1]
d = json.load(open(f"{t}/o-fma/fma.json"))
assert d["provenance"].get("unread_mca") == ["btl_ugni_fma_limit"], d["provenance"].get("unread_mca")
assert 'scenario "mca" btl_ugni_fma_limit: no part of this run read it' in open(f"{t}/fma.err").read()
b = json.load(open(f"{t}/o-fma/fmabig.json"))
assert "unread_mca" not in b["provenance"] and "no part of this run read it" not in open(f"{t}/fmabig.err").read()
g = json.load(open(f"{t}/o-fmagrid/sweep.json"))
assert g["provenance"].get("unread_overrides") == ["mca.btl_ugni_fma_limit"], g["provenance"]
assert "warning: mca.btl_ugni_fma_limit: no part of any point's run read it" in open(f"{t}/fmagrid.err").read()
print("ok   a scenario mca value its component's path never read: unread_mca, warned; a sweep over it says so; read at 16 KiB")
P
exit $fail
