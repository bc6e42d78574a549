#!/usr/bin/env bash
# Configuration: the inputs tests/fuzz/mutate.py found ending in an internal error (exit 3), each reduced to its cause:
#                a grid whose 'base' is a name too long for the file system (100,000 bytes; '../' 5,000 times); a
#                machine file whose 'base' adds a second network (osu-elan4 over loggp) under a stack that drives one
#                network (pml/teg); a `machine template --file` whose name is too long for the file system (300 bytes);
#                a result given to `compare` whose "stats" is a number; MPICH-QsNetII's eager limit set above what a
#                QDMA slot holds with its envelope (--set mpich_qsnet_eager_limit=4096); btl/portals' eager limit above
#                its max_send_size (a fragment the receive blocks drop: the run stalled, exit 3); shm's inject size
#                under LINKx below cxi's 192 B, which LINKx reports as its own (shm refused mtl/ofi's fi_tinject of an
#                on-node 8 B send, exit 3), and the same with ompi_mtl_ofi_inject never (runs); Cray MPI's unexpected
#                buffer with halves below its eager limit, or so small that its blocks fill under a message-rate
#                window (a short message dropped: the run stalled, exit 3); btl/portals' receive blocks full under an
#                unexpected-message storm (a fragment dropped, exit 3). And `sensitivity` of a
#                committed scenario (qsnet/table1_basic.json) whose stepped QDMA slot (2028 B) no longer holds
#                ptl/elan4's first fragment and its header: the whole command failed on that one parameter's runs. A
#                size over the QDMA slot on native/elan4_qdma, refused inside a rank's coroutine (std::terminate); the
#                same after a size-0 loop of 10^8 iterations, by `run` and `sweep`, and with the slot lowered by --set.
#                `sensitivity` of a scenario whose machine has two networks (hetero/fig2_bw_gm.json), each network's
#                file giving the host cost pml_ob1_overhead. A scenario's "plot" naming a field its result lacks. A
#                4 GiB NetPIPE message over Open MPI 1.1's registered-buffer PUTs (a PUT header's 32-bit length).
# Expected:      exit status 2 and one line naming the file, the key and the reason; no result written (the QDMA size
#                within 10 s, before any point of the sweep runs: it is checked before the run). sensitivity
#                exits 0 and lists the parameter as not varied with the refusal's reason; a host cost given by both
#                networks is one parameter, its copies named and stepped together, with a derivative.
# How validated: lib_check.sh (exit code, grep on stderr, line count, absence of the output directory).
set -u
BIN=$(realpath "$1"); ROOT=$2; t=$(mktemp -d); trap 'rm -rf "$t"' EXIT; fail=0
. "$(dirname "$0")/lib_check.sh"
long=$(python3 -c 'print("\u00e9" * 50000)')
printf '{"base": "%s", "axes": {"benchmark.sizes": [[1], [2]]}}' "$long" > "$t/long_base.json"
expect_input_error long_base "long_base.json: key 'base': no scenario file" sweep "$t/long_base.json" --out "$t/out-long_base"
printf '{"base": "%s", "axes": {"benchmark.sizes": [[1], [2]]}}' "$(printf '../%.0s' $(seq 5000))x" > "$t/dots_base.json"
expect_input_error dots_base "dots_base.json: key 'base': no scenario file" sweep "$t/dots_base.json" --out "$t/out-dots_base"
# osu-elan4's file over loggp's (a JSON merge patch): networks qsnet and loggp.
python3 - "$ROOT/models/qsnet/machines/osu-elan4.json" "$t/two_nets.json" <<'PY'
import json, sys
j = json.load(open(sys.argv[1])); j["base"] = "loggp"; json.dump(j, open(sys.argv[2], "w"))
PY
expect_input_error two_nets_elan4 "table1_basic.json: key 'stack': pml/teg drives the network without naming one, but machine 'osu-elan4' (.*two_nets.json) has 2 networks (NIC kinds loggp, qsnet)" \
  run "$ROOT/scenarios/qsnet/table1_basic.json" --machine-file "$t/two_nets.json" --out "$t/out-two_nets_elan4"
# The message quotes the name cut, with its length; nothing is written.
(cd "$t" && expect_input_error long_file "--file 'x*\.\.\.' (300 bytes): cannot be written: File name too long" \
  machine template my --like loggp --file "$(printf 'x%.0s' $(seq 300))")
python3 - "$ROOT/results/qsnet/table1_basic.json" "$t/stats_number.json" <<'PY'
import json, sys
j = json.load(open(sys.argv[1])); j["stats"] = 257; json.dump(j, open(sys.argv[2], "w"))
PY
expect_input_error stats_number "stats_number.json: key 'stats': must be an object" \
  compare "$t/stats_number.json" "$ROOT/results/qsnet/table1_basic.json"
"$BIN" sensitivity "$ROOT/scenarios/qsnet/table1_basic.json" > "$t/sens.out" 2> "$t/sens.err"; rc=$?
if [[ $rc != 0 ]] || ! grep -q "^# nic.qdma_slot_bytes: not varied, a run at 2028 B or 2069 B is refused: key 'nic.qdma_slot_bytes': 1984 B + the 64-byte header exceeds a QDMA slot" "$t/sens.out"; then
  echo "FAIL sensitivity_refused_step: rc=$rc $(cat "$t/sens.err") $(grep '^#' "$t/sens.out")"; fail=1
else echo "ok   sensitivity_refused_step"; fi
# MPICH-QsNetII's eager limit over the QDMA slot: refused naming the --set and its key (it was an internal error).
expect_input_error qsnet_eager_limit "--set 'mpich_qsnet_eager_limit': 4096 B + the 32-byte envelope exceeds one packet" \
  run "$ROOT/scenarios/qsnet/fig10_latency_native.json" --set mpich_qsnet_eager_limit=4096 --out "$t/out-qsnet_eager_limit"
# btl/portals' eager limit above its largest fragment: refused naming the MCA key (the run stalled, an internal error).
expect_input_error portals_eager_limit "--set 'btl_portals_eager_limit': btl_portals_eager_limit (65536 B) exceeds btl_portals_max_send_size (32768 B)" \
  run "$ROOT/scenarios/seastar/fig2_netpipe_openmpi-ob1.json" --set btl_portals_eager_limit=65536 --out "$t/out-portals_eager_limit"
# shm's inject size under LINKx below the link's (cxi's 192 B): refused naming the MCA key (an internal error, exit 3);
# with mtl/ofi not injecting, the same value runs.
expect_input_error shm_inject_size "--set 'shm_inject_size': 100 B is below the LINKx endpoint's inject size, 192 B" \
  run "$ROOT/scenarios/slingshot/fig5_latency_intra_h2h_openmpi-linkx.json" --set shm_inject_size=100B --out "$t/out-shm_inject_size"
if "$BIN" run "$ROOT/scenarios/slingshot/fig5_latency_intra_h2h_openmpi-linkx.json" --set shm_inject_size=100B \
     --set ompi_mtl_ofi_inject=never --out "$t/out-shm_inject_never" > /dev/null 2> "$t/shm_never.err"; then
  echo "ok   shm_inject_size_no_inject"
else echo "FAIL shm_inject_size_no_inject: $(cat "$t/shm_never.err")"; fail=1; fi
# Cray MPI's unexpected buffer: a half (a block) below its eager limit is refused at start; blocks that fill (each
# unlinks when its free space falls below the eager limit) drop a short message, which Cray MPI aborts on: refused
# naming the key when it happens (both were stalls, exit 3).
expect_input_error unex_buffer_small "--set 'mpich_unex_buffer_size': an unexpected block of 32768 B (1/2 of mca.mpich_unex_buffer_size) cannot hold one short message of up to 128000 B (mca.mpich_max_short_msg_size)" \
  run "$ROOT/scenarios/seastar/fig2_netpipe_native.json" --set "mpich_unex_buffer_size=65537 B" --out "$t/out-unex_small"
expect_input_error unex_buffer_full "fig4_msgrate_native.json: key 'mca.mpich_unex_buffer_size': rank 1 dropped a short message of 1 B from rank 0: its 2 unexpected blocks of 128000 B" \
  run "$ROOT/scenarios/seastar/fig4_msgrate_native.json" --set "mpich_unex_buffer_size=256000 B" --out "$t/out-unex_full"
# btl/portals' receive blocks full under an unexpected-message storm: a fragment dropped, which btl/portals never
# resends (the storm's receive count fell short, exit 3); refused naming the key when it happens.
cat > "$t/storm_ob1.json" <<'JSON'
{"id": "storm_ob1", "machine": "red-storm", "stack": "openmpi-ob1", "ranks": 2,
 "benchmark": {"name": "unexpected_storm", "sizes": [16384], "messages": 16, "delay": "1 ms"}}
JSON
expect_input_error recv_blocks_full "storm_ob1.json: key 'mca.btl_portals_recv_block_size': rank 0 dropped a fragment of 16416 B from rank 1: its 3 receive blocks of 65536 B were full" \
  run "$t/storm_ob1.json" --set "btl_portals_recv_block_size=64 KiB" --out "$t/out-recv_blocks_full"
# A size over the QDMA slot on the raw QDMA program: found while simulating, in a rank's coroutine (it was a crash of
# the simulation process, exit 3).
python3 - "$ROOT/scenarios/qsnet/fig9_qdma.json" "$t/qdma_size.json" <<'PY'
import json, sys
j = json.load(open(sys.argv[1])); j["benchmark"]["sizes"] = [4096]; j["id"] = "qdma_size"; json.dump(j, open(sys.argv[2], "w"))
PY
expect_input_error qdma_size "qdma_size.json: key 'benchmark.sizes': native/elan4_qdma: a QDMA carries at most one 2048-byte slot; 4096 B" \
  run "$t/qdma_size.json" --out "$t/out-qdma_size"
# The component checks the benchmark's largest size before anything is simulated (ComponentInfo::check), naming the
# size, the slot and where the slot's value comes from: after a size-0 loop of 10^8 iterations (hours of simulation)
# it is refused at once, by `run` and by `sweep` before any point runs; a slot lowered by --set is said to be.
python3 - "$ROOT/scenarios/qsnet/fig9_qdma.json" "$t/qdma_late.json" <<'PY'
import json, sys
j = json.load(open(sys.argv[1])); j["benchmark"]["sizes"] = [0, 4096]; j["benchmark"]["iterations"] = 100000000
j["id"] = "qdma_late"; json.dump(j, open(sys.argv[2], "w"))
PY
printf '{"base": "%s", "axes": {"mca.elan4_qdma_extra_bytes": [64]}}' "$t/qdma_late.json" > "$t/qdma_grid.json"
slot_words="native/elan4_qdma: a QDMA carries at most one 2048-byte slot; 4096 B + elan4_qdma_extra_bytes 64 B do not fit (its largest size; the slot is nic.qdma_slot_bytes of machine osu-elan4, models/qsnet/machines/osu-elan4.json: paper §3.1"
for cmd in run sweep; do
  f=$([[ $cmd == run ]] && echo qdma_late || echo qdma_grid)
  SECONDS=0
  timeout 60 "$BIN" $cmd "$t/$f.json" --out "$t/out-$cmd-late" > /dev/null 2> "$t/$cmd-late.err"; rc=$?
  if [[ $rc != 2 || $SECONDS -gt 10 ]] || ! grep -qF -- "key 'benchmark.sizes': $slot_words" "$t/$cmd-late.err" ||
     ! grep -q "^ompisim: error: .*$f.json: key '" "$t/$cmd-late.err" ||
     [[ $(wc -l < "$t/$cmd-late.err") != 1 || -e "$t/out-$cmd-late/points" || -e "$t/out-$cmd-late/qdma_late.json" ]]; then
    echo "FAIL qdma_before_run ($cmd): rc=$rc after ${SECONDS} s: $(head -c 400 "$t/$cmd-late.err")"; fail=1
  else echo "ok   qdma_before_run ($cmd): $(cat "$t/$cmd-late.err")"; fi
done
# A host cost that both networks' files give (lanl-multi-nic: software.pml_ob1_overhead under infiniband and myrinet)
# was listed under step_refused (one copy stepped alone differs from the other): now one parameter whose row names
# the copies, both stepped together, with a derivative (more per-message overhead: less NetPIPE bandwidth at 1 B).
"$BIN" sensitivity "$ROOT/scenarios/hetero/fig2_bw_gm.json" --json > "$t/sens2.json" 2> "$t/sens2.err"; rc=$?
"$BIN" sensitivity "$ROOT/scenarios/hetero/fig2_bw_gm.json" > "$t/sens2.out" 2>> "$t/sens2.err"
if [[ $rc == 0 ]] && python3 - "$t/sens2.json" "$t/sens2.out" <<'PY'
import json, sys
r = json.load(open(sys.argv[1])); text = open(sys.argv[2]).read()
name = "networks.{infiniband,myrinet}.software.pml_ob1_overhead"
copies = ["networks.infiniband.software.pml_ob1_overhead", "networks.myrinet.software.pml_ob1_overhead"]
row = [p for p in r["parameters"] if p["name"] == name]
assert len(row) == 1 and row[0]["copies"] == copies, r["parameters"][:3]
assert row[0]["derivatives"][0] < 0 and row[0]["max_abs"] > 0, row[0]
assert not any("pml_ob1_overhead" in p["name"] for p in r["step_refused"]), r["step_refused"]
assert not any(p["name"] in copies for p in r["parameters"]), "a copy varied alone"
assert any(l.startswith(name + " ") for l in text.splitlines()), text
assert "# %s: one host cost that 2 networks' files each give (the stack reads one value): its copies %s stepped together" % (name, ", ".join(copies)) in text, text
PY
then echo "ok   sensitivity_shared_cost"; else echo "FAIL sensitivity_shared_cost: rc=$rc $(cat "$t/sens2.err")"; fail=1; fi
expect_input_error qdma_slot_set "fig9_qdma.json: key 'benchmark.sizes': .*1984 B + elan4_qdma_extra_bytes 64 B do not fit (its largest size; the slot is nic.qdma_slot_bytes of machine osu-elan4, set by --set)" \
  run "$ROOT/scenarios/qsnet/fig9_qdma.json" --set nic.qdma_slot_bytes=1024 --out "$t/out-qdma_slot_set"
# A scenario whose "plot" names a field its result does not have: exit 2 after the run, before anything is written
# (run and run --plot drew another field and exited 0).
python3 - "$ROOT/scenarios/qsnet/table1_basic.json" "$t/plot_field.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1])); d["plot"] = "latency_z"; d.pop("id", None); json.dump(d, open(sys.argv[2], "w"))
PY
expect_input_error plot_field "plot_field.json: key 'plot': the result has no field 'latency_z' (its points' fields: .*latency_us" \
  run "$t/plot_field.json" --out "$t/out-plot_field" --plot p.svg
# A message above 4 GiB over Open MPI 1.1's registered-buffer PUTs (NetPIPE, MPI_Alloc_mem, one BTL): the PUT header's
# 32-bit segment length truncated the one PUT to 0 and its FIN came while the request still expected data (exit 3).
# Now two PUTs: the run ends (exit 0), 4 GiB at the bandwidth of the 2 GiB size's run.
printf '{"id": "big", "machine": "lanl-multi-nic", "stack": "openmpi-gm", "ranks": 2, "ranks_per_node": 1,
  "benchmark": {"name": "netpipe", "sizes": [2147483648, 4294967296], "alloc": "mpi_alloc_mem", "iterations": 1, "skip": 0}}' > "$t/big_put.json"
if "$BIN" run "$t/big_put.json" --out "$t/out-big_put" > /dev/null 2> "$t/big_put.err" && python3 - "$t/out-big_put/big.json" <<'PY'
import json, sys
p = json.load(open(sys.argv[1]))["points"]
a, b = p[0]["bandwidth_GBps"], p[1]["bandwidth_GBps"]
assert abs(a / b - 1) < 0.01, (a, b)
PY
then echo "ok   big_put: 4 GiB over registered PUTs runs"; else echo "FAIL big_put: $(cat "$t/big_put.err")"; fail=1; fi
exit $fail
