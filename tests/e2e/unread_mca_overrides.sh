#!/usr/bin/env bash
# A --set of an MCA parameter that no part of the run reads changes nothing, and the run says so, as for a machine
# parameter (e2e.unread_overrides).
# Configuration: Open MPI's 2-rank inter-node osu_latency on Cielo (fig5) with --set of btl/vader's
#                btl_vader_max_inline_send (the on-node BTL: no on-node peer) and btl/ugni's btl_ugni_eager_limit
#                (the inter-node path's eager limit, set below the sizes it runs); Crusher's LINKx latency (fig5 inter
#                H2H) with --set fi_cxi_rx_match_mode=software (LINKx's shared queues match in software whatever it
#                says) and fi_cxi_rdzv_threshold.
# Expected:      btl_vader_max_inline_send and fi_cxi_rx_match_mode are listed in provenance.unread_overrides and warned
#                about on stderr, and their points equal the run without them; btl_ugni_eager_limit and
#                fi_cxi_rdzv_threshold are neither listed nor warned about.
# How validated: exit status, stderr, the result JSON read back with python3.
set -u
BIN=$(realpath "$1"); SRC=$(cd "$(dirname "$0")/../.." && pwd); t=$(mktemp -d); trap 'rm -rf "$t"' EXIT; fail=0
G="$SRC/scenarios/gemini/fig5_latency_2p_inter_openmpi.json"
L="$SRC/scenarios/slingshot/fig5_latency_inter_h2h_openmpi-linkx.json"
run() {  # NAME SCENARIO [--set ...]
  local n=$1 s=$2; shift 2
  "$BIN" run "$s" --out "$t/$n" --json "$@" > "$t/$n.json" 2> "$t/$n.err" || { echo "FAIL run $n: $(cat "$t/$n.err")"; fail=1; }
}
run g "$G"
run g_vader "$G" --set btl_vader_max_inline_send=64
run g_ugni "$G" --set btl_vader_max_inline_send=64 --set btl_ugni_eager_limit=512
run l "$L"
run l_mode "$L" --set fi_cxi_rx_match_mode=software --set fi_cxi_rdzv_threshold=1024
python3 - "$t" <<'P' || fail=1
import json, sys
t = sys.argv[1]
r = {n: json.load(open(f"{t}/{n}.json")) for n in ("g", "g_vader", "g_ugni", "l", "l_mode")}
err = {n: open(f"{t}/{n}.err").read() for n in r}
def unread(n): return r[n]["provenance"].get("unread_overrides")
assert unread("g_vader") == ["btl_vader_max_inline_send"], unread("g_vader")
assert "warning: --set btl_vader_max_inline_send: no part of this run read it" in err["g_vader"], err["g_vader"]
assert r["g_vader"]["points"] == r["g"]["points"], "an unread MCA --set changed the points"
assert unread("g_ugni") == ["btl_vader_max_inline_send"], unread("g_ugni")
assert "--set btl_ugni_eager_limit: no part" not in err["g_ugni"], err["g_ugni"]
assert r["g_ugni"]["points"] != r["g"]["points"], "the eager limit changed nothing"
assert unread("l_mode") == ["fi_cxi_rx_match_mode"], unread("l_mode")
assert "warning: --set fi_cxi_rx_match_mode: no part of this run read it" in err["l_mode"], err["l_mode"]
print("ok   unread MCA --set listed and warned (an on-node BTL's between nodes; cxi's match mode under LINKx), read ones not")
P
exit $fail
