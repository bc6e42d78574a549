#!/usr/bin/env bash
# The regression-of-protocol-choices job, end to end.
# (1) Configuration: Open MPI on Cielo, osu_latency 8 B to 16 KiB, btl_ugni_smsg_limit 16 (below btl/ugni's 80-byte
#     INIT_GET, an SMSG in the same mailboxes), 80 (the least it fits) and 1024.
#     Expected: 16 is refused (exit 2, naming the 80 B); 80 and 1024 exit 0 with every request completed (live_requests
#     0, no eager buffer held) and every latency positive.
# (2) Configuration: Cray MPICH on Crusher (native/mpich_cxi) with --set fi_cxi_rdzv_threshold=16384. Expected: taken
#     (it builds the ofi/cxi provider from the FI_CXI_* parameters; it was refused as not read), the result's
#     provenance.mca lists it, and 8 KiB messages, rendezvous under the default, go eager.
# (3) Configuration: describe ofi/cxi and mtl/ofi, describe native/mpich_cxi. Expected: a parameter that names one of a
#     list shows the list ([one of hardware, software]), not [count]; mpich_cxi says it also reads ofi/cxi's.
# (4) Configuration: compare of two runs differing in btl_ugni_smsg_limit; compare of two sweeps' folders (the second
#     with software.pml_ob1_overhead raised) and of their
#     sweep.json files. Expected: the mailbox memory is compared (mailbox_memory rows, the bytes marked); the sweeps
#     pair their rows by axis values (exit 1 with the changed values marked, no "no result JSON" error); a damaged
#     sweep.json (a row not an object, a latency not a number) exits 2 naming the row and key; a run's result against a
#     sweep's table exits 2 naming both (they share no point).
# (5) Configuration: a points sweep whose only stack point sets no other key its Open MPI points set. Expected: the
#     stack plot's title says no two points differ in the stack alone (not "moves no value").
# (6) Configuration: compare of Open MPI (mtl/ofi over CXI) against Cray MPICH with fi_cxi_rdzv_threshold 16 KiB on
#     Crusher at 8 KiB, rendezvous on the first and eager on the second. Expected: the size's rendezvous and eager
#     counters, which both stacks declare, are compared with 0 on the side that did not take that path (they were
#     dropped as present on one side only).
# (7) Configuration: osu_latency with alloc mpi_alloc_mem on Red Storm's Open MPI 1.3 OB1, and on the heterogeneous
#     paper's Open MPI 1.1 (mpi_leave_pinned 0). Expected: the first warns that no path of its stack depends on the
#     allocation and lists benchmark.alloc in provenance.unread_inputs; the second, whose RDMA needs a registered
#     buffer, does neither.
# How validated: exit codes, python3 on the JSON, grep on the text and the SVG.
set -u
BIN=$(realpath "$1"); SRC=$(realpath "$2"); t=$(mktemp -d); trap 'rm -rf "$t"' EXIT; fail=0
cd "$t"
ok() { echo "ok   $*"; }
bad() { echo "FAIL $*"; fail=1; }
echo '{"id": "lat", "machine": "cielo", "stack": "openmpi", "ranks": 2, "ranks_per_node": 1,
       "benchmark": {"name": "osu_latency", "sizes": [8, 1024, 8192, 16384], "iterations": 200, "skip": 10}}' > lat.json
"$BIN" run lat.json --out o16 --set btl_ugni_smsg_limit=16 > /dev/null 2> err; rc=$?
[[ $rc == 2 ]] && grep -q "16 B is below the 80 B of btl/ugni's largest control message" err && [[ ! -e o16 ]] \
  && ok "smsg limit 16: refused before running ($(cat err))" || bad "smsg limit 16: exit $rc $(cat err)"
for l in 80 1024; do
  "$BIN" run lat.json --out "o$l" --set btl_ugni_smsg_limit=$l > /dev/null 2> err; rc=$?
  [[ $rc == 0 ]] || bad "smsg limit $l: exit $rc $(cat err)"
done
python3 - <<'P' || fail=1
import json, sys
r = {l: json.load(open(f"o{l}/lat.json")) for l in (80, 1024)}
lat = {l: {p["bytes"]: p["latency_us"] for p in r[l]["points"]} for l in r}
ok = all(r[l]["stats"]["live_requests"] == 0 and r[l]["stats"]["counters"].get("ugni_eager_buffers_held", 0) == 0 for l in r)
ok = ok and all(v > 0 for l in lat for v in lat[l].values())
print(("ok   " if ok else "FAIL ") + f"smsg limits 80, 1024: all requests done, 8 KiB {lat[80][8192]:.2f} / {lat[1024][8192]:.2f} us")
sys.exit(0 if ok else 1)
P
python3 -c "
import json; d = json.load(open('$SRC/scenarios/slingshot/fig5_latency_inter_h2h_native.json'))
for k in ('paper', 'figure'): d.pop(k)
d['id'] = 'nat'; d['benchmark']['sizes'] = [8192]; d['benchmark']['iterations'] = 50; d['benchmark']['skip'] = 5
json.dump(d, open('nat.json', 'w'))"
"$BIN" run nat.json --out nd > /dev/null 2> err || bad "native default: $(cat err)"
"$BIN" run nat.json --out nt --set fi_cxi_rdzv_threshold=16384 > /dev/null 2> err; rc=$?
if [[ $rc == 0 ]]; then
  python3 - <<'P' || fail=1
import json, sys
d, s = json.load(open("nd/nat.json")), json.load(open("nt/nat.json"))
c = lambda r, k: r["stats"]["counters"].get(k, 0)
ok = c(d, "cxi_rendezvous") > 0 and c(s, "cxi_rendezvous") == 0 and c(s, "cxi_eager") > 0 \
     and s["provenance"]["mca"].get("fi_cxi_rdzv_threshold") == "16384 B"
print(("ok   " if ok else "FAIL ") + f"native/mpich_cxi takes fi_cxi_rdzv_threshold: rendezvous {c(d, 'cxi_rendezvous')} -> {c(s, 'cxi_rendezvous')}, provenance {s['provenance']['mca'].get('fi_cxi_rdzv_threshold')}")
sys.exit(0 if ok else 1)
P
else bad "native --set fi_cxi_rdzv_threshold: exit $rc $(cat err)"; fi
"$BIN" describe ofi/cxi > d1; "$BIN" describe mtl/ofi > d2; "$BIN" describe native/mpich_cxi > d3
grep -q "^fi_cxi_rx_match_mode .*\[one of hardware, software\]" d1 && grep -q "^ompi_mtl_ofi_inject .*\[one of never, blocking, every\]" d2 \
  && ! grep -q "\[count\] .*(hardware\|never)" d1 d2 && grep -q "^## also reads the MCA parameters of ofi/cxi" d3 \
  && ok "describe: choices listed, mpich_cxi reads ofi/cxi's" || bad "describe choices: $(grep -h "rx_match_mode\|ofi_inject \|also reads" d1 d2 d3)"
"$BIN" compare o80/lat.json o1024/lat.json --all > cmp 2>&1
grep -q "mailbox_memory .*mailbox_bytes" cmp && ok "compare: the mailbox memory compared ($(grep -c mailbox_memory cmp) rows)" \
  || bad "compare: no mailbox_memory row: $(head -5 cmp)"
printf '{"base": "lat.json", "axes": {"mca.btl_ugni_eager_limit": [4096, 8192]}}' > g.json
"$BIN" --quiet sweep g.json --out s1 > /dev/null 2>&1 || bad "sweep s1"
"$BIN" --quiet sweep g.json --out s2 --set software.pml_ob1_overhead=0.5us > /dev/null 2>&1 || bad "sweep s2"
"$BIN" compare s1 s2 > c1 2>&1; rc1=$?
"$BIN" compare s1/sweep.json s2/sweep.json > c2 2>&1; rc2=$?
[[ $rc1 == 1 && $rc2 == 1 ]] && grep -q "^1 file, .* beyond tolerance, 0 structural" c1 \
  && grep -qE "^sweep.json +bytes=8 mca.btl_ugni_eager_limit=4096 +latency_us .*[*]$" c1 \
  && grep -q "^1 file, .* beyond tolerance, 0 structural" c2 && ok "compare two sweeps: rows paired by axes, changes marked" \
  || bad "compare sweeps: exit $rc1/$rc2 $(tail -3 c1) $(tail -3 c2)"
# a damaged sweep table is bad input, named to the row and key (exit 2), as a damaged result is
python3 -c "
import json; d = json.load(open('s1/sweep.json')); d['rows'][1]['latency_us'] = 'x'; json.dump(d, open('bad1.json', 'w'))
d['rows'][0] = 3; json.dump(d, open('bad2.json', 'w'))"
"$BIN" compare s1/sweep.json bad1.json > /dev/null 2> e1; r1=$?; "$BIN" compare s1/sweep.json bad2.json > /dev/null 2> e2; r2=$?
[[ $r1 == 2 && $r2 == 2 ]] && grep -q "bad1.json: key 'rows\[1\].latency_us': must be a number" e1 && grep -q "bad2.json: key 'rows\[0\]': must be an object" e2 \
  && ok "a damaged sweep table: exit 2 naming the row" || bad "damaged sweep table: $r1/$r2 $(cat e1 e2)"
# a run's result against a sweep's table: no point in common, refused (exit 2) naming both, not listed point by point
"$BIN" compare o80/lat.json s1/sweep.json > o3 2> e3; r3=$?
[[ $r3 == 2 && ! -s o3 ]] && grep -q "o80/lat.json': a run's result, compared with a sweep's table (s1/sweep.json)" e3 \
  && ok "a result against a sweep table: exit 2 naming both" || bad "result against sweep table: exit $r3 $(head -3 o3) $(cat e3)"
printf '{"base": "lat.json", "points": [{"mca.btl_ugni_smsg_limit": 256}, {"mca.btl_ugni_eager_limit": 4096}, {"stack": "native"}]}' > p.json
"$BIN" --quiet sweep p.json --out sp > /dev/null 2>&1 || bad "points sweep"
if command -v gnuplot > /dev/null; then
  grep -q "no two points differ in stack alone" sp/sweep_stack.svg && ! grep -q "moves no value" sp/sweep_stack.svg \
    && ok "a points sweep's stack plot: no two points differ in the stack alone" || bad "stack plot title: $(grep -o 'latency[^<]*against stack[^<]*' sp/sweep_stack.svg)"
fi
# (6) two stacks: a counter both declare is compared at the size where only one side took its path
python3 -c "
import json; d = json.load(open('nat.json')); d['id'] = 'omp'; d['stack'] = 'openmpi-cxi'; json.dump(d, open('omp.json', 'w'))"
"$BIN" run omp.json --out nd > /dev/null 2> err || bad "openmpi-cxi run: $(cat err)"
"$BIN" compare nd/omp.json nt/nat.json --all > c6 2>&1
grep -qE "bytes=8192 +counters.cxi_rendezvous +[1-9][0-9]* +0 " c6 && grep -qE "bytes=8192 +counters.cxi_eager +0 +[1-9][0-9]* " c6 \
  && ok "compare of two stacks: the size's rendezvous and eager counters, 0 on the side that did not take them" \
  || bad "two stacks' per-size counters: $(grep 8192 c6)"
# (7) MPI_Alloc_mem buffers: warned about where no path of the stack depends on them
echo '{"id": "al", "machine": "red-storm", "stack": "openmpi-ob1", "ranks": 2, "ranks_per_node": 1,
       "benchmark": {"name": "osu_latency", "sizes": [8, 65536], "iterations": 5, "skip": 1, "alloc": "mpi_alloc_mem"}}' > al.json
python3 -c "
import json; d = json.load(open('$SRC/scenarios/hetero/fig2_bw_both.json'))
for k in ('paper', 'figure', 'plot'): d.pop(k, None)
d['id'] = 'al11'; d['benchmark']['sizes'] = [65536, 4194304]; d['benchmark']['iterations'] = 3; d['benchmark']['skip'] = 1
json.dump(d, open('al11.json', 'w'))"
"$BIN" run al.json --out oa > /dev/null 2> ea || bad "alloc run: $(cat ea)"
"$BIN" run al11.json --out oa > /dev/null 2> eb || bad "alloc run 1.1: $(cat eb)"
python3 -c "
import json, sys
a, b = json.load(open('oa/al.json')), json.load(open('oa/al11.json'))
sys.exit(0 if a['provenance'].get('unread_inputs') == ['benchmark.alloc'] and 'unread_inputs' not in b['provenance'] else 1)" \
  && grep -q "warning: benchmark.alloc mpi_alloc_mem: no path of stack openmpi-ob1 depends on how the buffers were allocated" ea \
  && ! grep -q "alloc" eb && ok "mpi_alloc_mem: warned about on Open MPI 1.3's OB1, not on 1.1's" \
  || bad "alloc warning: $(cat ea eb)"
exit $fail
