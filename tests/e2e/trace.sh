#!/usr/bin/env bash
# Timelines (run --trace). (1) A Gemini osu_bw run traced as Paje: pj_dump (pajeng) parses it; its states
# include the PML / uGNI functions and the NIC's BTE; its messages, flows and AMOs equal the run's counters; a link's
# value is its type's (coloured) entity value and the bytes it moved are its Info field.
# (2) The same run as Chrome trace-event JSON: the shape Perfetto reads and the same counts. (3) A Cheetah atomic
# barrier: traced AMOs equal the run's AMO counter. (4) --trace-ranks and --trace-window keep a subset. (5) Tracing
# changes no result, also of a library with its own collective cut-offs (Cray MPICH's bcast). (6) Bad input exits 2
# naming the option and the reason, before simulating, and leaves no file.
# (8) A scenario of several points: one trace per point.
# (10) Packet trains: each train is in the trace (Chrome category "train", Paje link "Packet train") as many as the
# run timed, on the link-sharing counters in time order, and tracing them changes no result (no event of their own).
# (2b) Link sharing counters: per resource, rises = the flows crossing it, back to 0 at the end; Paje has as many FLOWS
# values as the JSON has counter events. (7) A Slingshot run: Cassini transmit / receive spans equal the CXI counters.
set -u
BIN=$(realpath "$1"); t=$(mktemp -d); trap 'rm -rf "$t"' EXIT; fail=0
cat > "$t/bw.json" <<'J'
{"id": "bw", "machine": "cielo", "stack": "openmpi", "ranks": 2, "ranks_per_node": 1,
 "benchmark": {"name": "osu_bw", "sizes": [8, 65536, 1048576], "iterations": 3, "skip": 1, "window": 4}}
J
cat > "$t/bar.json" <<'J'
{"id": "bar", "machine": "cielo", "stack": "openmpi", "ranks": 16, "ranks_per_node": 1,
 "benchmark": {"name": "barrier_loop", "algorithm": "cheetah-atomic", "radix": 4, "iterations": 3, "skip": 1}}
J
"$BIN" run "$t/bw.json" --out "$t/plain" > /dev/null 2>&1 || { echo "FAIL untraced run"; fail=1; }
"$BIN" run "$t/bw.json" --out "$t/paje" --trace "$t/bw.paje" > /dev/null 2> "$t/err" || { echo "FAIL traced run: $(cat "$t/err")"; fail=1; }
"$BIN" run "$t/bw.json" --out "$t/json" --trace "$t/bw.json.json" > /dev/null 2> "$t/err2" || { echo "FAIL traced run (json): $(cat "$t/err2")"; fail=1; }
grep -q "wrote trace $t/bw.paje" "$t/err" && echo "ok   $(grep 'wrote trace' "$t/err")" || { echo "FAIL no trace summary: $(cat "$t/err")"; fail=1; }
ls "$t" | grep -q "tmp" && { echo "FAIL temporary left: $(ls "$t")"; fail=1; }
# (5) the traced run's result is the untraced one's
python3 - "$t/plain/bw.json" "$t/paje/bw.json" "$t/json/bw.json" <<'P' || fail=1
import json, sys
a, b, c = (json.load(open(p)) for p in sys.argv[1:])
for x in (b, c):
    assert x["points"] == a["points"] and x["stats"] == a["stats"], "a traced run's result differs from the untraced run's"
print("ok   tracing changes no result (%d points, stats identical)" % len(a["points"]))
P
# (5b) the same for a library whose collectives follow its own documented cut-offs (Cray MPICH's bcast tree on
# Crusher): the traced run takes the untraced run's decisions
cat > "$t/bc.json" <<'J'
{"id": "bc", "machine": "crusher", "stack": "native", "ranks": 64, "ranks_per_node": 8,
 "benchmark": {"name": "osu_bcast", "algorithm": "mpich", "sizes": [1, 65536], "iterations": 2, "skip": 0}}
J
"$BIN" run "$t/bc.json" --out "$t/bc-plain" > /dev/null 2>&1 || { echo "FAIL untraced bcast"; fail=1; }
"$BIN" run "$t/bc.json" --out "$t/bc-traced" --trace "$t/bc.trace.json" --trace-ranks 0 > /dev/null 2>&1 || { echo "FAIL traced bcast"; fail=1; }
python3 - "$t/bc-plain/bc.json" "$t/bc-traced/bc.json" <<'P' || fail=1
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:])
assert b["points"] == a["points"] and b["stats"] == a["stats"], "a traced Cray MPICH bcast differs from the untraced one"
print("ok   tracing changes no result of Cray MPICH's bcast (its collective cut-offs kept)")
P
if command -v pj_dump > /dev/null; then
  pj_dump -u -l 12 "$t/bw.paje" > "$t/dump" 2> "$t/pjerr" && [[ ! -s "$t/pjerr" ]] || { echo "FAIL pj_dump: $(head -3 "$t/pjerr")"; fail=1; }
  python3 - "$t/dump" "$t/plain/bw.json" <<'P' || fail=1
import csv, json, sys
rows = [[f.strip() for f in r] for r in csv.reader(open(sys.argv[1]))]
res = json.load(open(sys.argv[2]))["stats"]
states = [r for r in rows if r[0] == "State"]
links = [r for r in rows if r[0] == "Link"]
names = {r[7] for r in states}
need = {"mca_pml_ob1_send_request_start", "mca_pml_ob1_recv_frag_callback", "GNI_SmsgSendWTag", "GNI_PostRdma", "BTE GET"}
assert need <= names, ("missing states", need - names, sorted(names))
msgs = [r for r in links if r[2] == "MPI message"]
flows = [r for r in links if r[2] == "Bulk flow"]
assert len(msgs) == res["sends_posted"] == res["recvs_completed"], (len(msgs), res["sends_posted"])
assert len(flows) == res["flows"], (len(flows), res["flows"])
assert all(float(r[4]) >= float(r[3]) for r in links), "a link ends before it starts"
# a link's value is its type's coloured entity value; what it carried is the user field Info (pj_dump -u: start, end)
assert all(r[6] == r[2] for r in links), "a link whose value is not its type's entity value: %s" % links[:1]
big = [r for r in flows if r[10].startswith("1048576 B over ")]
assert big and all("-ht" in r[10] and "-bte" in r[10] for r in big), flows[:3]
print("ok   pj_dump: %d states (%d names), %d messages = sends_posted, %d flows = stats.flows" % (len(states), len(names), len(msgs), len(flows)))
P
else
  echo "SKIP pj_dump not installed (apt-get install pajeng): the Paje trace is not parsed"
fi
python3 - "$t/bw.json.json" "$t/plain/bw.json" <<'P' || fail=1
import json, sys
tr = json.load(open(sys.argv[1]))
res = json.load(open(sys.argv[2]))["stats"]
ev = tr["traceEvents"]
assert isinstance(ev, list) and ev, "traceEvents"
for e in ev:
    assert e["ph"] in ("X", "M", "b", "e", "s", "f", "C"), e
    assert isinstance(e["pid"], int), e
    if e["ph"] != "M":
        assert isinstance(e["ts"], (int, float)) and e["ts"] >= 0, e
    if e["ph"] == "X":
        assert e["dur"] >= 0 and e["name"], e
s = sum(1 for e in ev if e["ph"] == "s" and e["cat"] == "message")
f = sum(1 for e in ev if e["ph"] == "f" and e["cat"] == "message")
fb = sum(1 for e in ev if e["ph"] == "b" and e["cat"] == "flow")
fe = sum(1 for e in ev if e["ph"] == "e" and e["cat"] == "flow")
assert s == f == res["sends_posted"] == tr["otherData"]["messages"], (s, f, res["sends_posted"])
assert fb == fe == res["flows"] == tr["otherData"]["flows"], (fb, fe, res["flows"])
ids = [e["id"] for e in ev if e["ph"] == "s"]
assert len(set(ids)) == len(ids), "flow-event ids repeat"
names = {e["args"]["name"] for e in ev if e["ph"] == "M"}
assert "rank 0" in names and "rank 1" in names and "NIC BTE" in names, names
print("ok   Chrome JSON: %d events, %d messages = sends_posted, %d flows = stats.flows, threads %s" % (len(ev), s, fb, sorted(names)))
P
# (2b) link sharing: a counter track per resource a flow crosses; each flow adds 1 on each of its resources at its start
# and takes it back at its end, so a track's rises equal the flows listing that resource, and it ends at 0.
python3 - "$t/bw.json.json" <<'P' || fail=1
import json, sys, collections
tr = json.load(open(sys.argv[1]))
ev = tr["traceEvents"]
through = collections.Counter()
for e in ev:
    if e["ph"] == "b" and e["cat"] == "flow":
        for r in e["args"]["resources"].split():
            through[r] += 1
series = collections.defaultdict(list)
for e in ev:
    if e["ph"] == "C":
        series[e["name"]].append(e["args"]["flows"])
assert series and set(series) == set(through), (sorted(series)[:5], sorted(through)[:5])
for name, vals in series.items():
    prev, ups = 0, 0
    for v in vals:
        assert abs(v - prev) == 1, (name, vals[:10])
        ups += v > prev
        prev = v
    assert ups == through[name] and vals[-1] == 0, (name, ups, through[name], vals[-1])
assert sum(len(v) for v in series.values()) == tr["otherData"]["link_changes"]
print("ok   link sharing: %d resources, rises = flows over each (max %d flows at once on %s), every track back to 0"
      % (len(series), max(max(v) for v in series.values()), max(series, key=lambda k: max(series[k]))))
P
if command -v pj_dump > /dev/null; then
  python3 - "$t/dump" "$t/bw.json.json" <<'P' || fail=1
import csv, json, sys
rows = [[f.strip() for f in r] for r in csv.reader(open(sys.argv[1]))]
tr = json.load(open(sys.argv[2]))
var = [r for r in rows if r[0] == "Variable"]
assert len(var) == tr["otherData"]["link_changes"], (len(var), tr["otherData"]["link_changes"])
assert all(r[2] == "Flows in flight" for r in var), var[:2]
print("ok   Paje: %d FLOWS variable values = the JSON's counter events" % len(var))
P
fi
# (3) AMOs
"$BIN" run "$t/bar.json" --out "$t/bar" --trace "$t/bar.json.json" > /dev/null 2> "$t/err" || { echo "FAIL barrier: $(cat "$t/err")"; fail=1; }
python3 - "$t/bar.json.json" "$t/bar/bar.json" <<'P' || fail=1
import json, sys
tr = json.load(open(sys.argv[1])); res = json.load(open(sys.argv[2]))["stats"]
ev = tr["traceEvents"]
amo = sum(1 for e in ev if e["ph"] == "s" and e["cat"] == "amo")
nic = sum(1 for e in ev if e["ph"] == "X" and e["cat"] == "nic" and e["name"] == "AMO add")
assert res["amos"] > 0 and amo == res["amos"] == nic, (amo, nic, res["amos"])
print("ok   barrier: %d AMO arrows = %d target-NIC AMO spans = stats.amos" % (amo, nic))
P
# (4) subsets
"$BIN" run "$t/bar.json" --out "$t/bar2" --trace "$t/sub.json" --trace-ranks 0,3-4 --trace-window 2us:8us > /dev/null 2>&1 || { echo "FAIL subset run"; fail=1; }
python3 - "$t/sub.json" "$t/bar.json.json" <<'P' || fail=1
import json, sys
sub = json.load(open(sys.argv[1]))["traceEvents"]; full = json.load(open(sys.argv[2]))["traceEvents"]
cpu = [e for e in sub if e["ph"] == "X" and e["cat"] == "cpu"]
assert cpu and {e["tid"] for e in cpu} <= {0, 3, 4}, sorted({e["tid"] for e in cpu})
assert all(e["ts"] + e["dur"] >= 2 and e["ts"] <= 8 for e in cpu), "span outside the window"
assert len(sub) < len(full)
print("ok   --trace-ranks 0,3-4 --trace-window 2us:8us: %d of %d events, CPU threads %s" % (len(sub), len(full), sorted({e["tid"] for e in cpu})))
P
# a window after the run's end keeps nothing, and says so (the run itself succeeds)
"$BIN" run "$t/bar.json" --out "$t/bar3" --trace "$t/late.json" --trace-window 100s:200s > /dev/null 2> "$t/lateerr" || { echo "FAIL late-window run"; fail=1; }
grep -q "warning: the trace is empty: --trace-window starts at 100000.000000 ms of simulated time, after the run's end" "$t/lateerr" \
  && echo "ok   a window after the run's end: warned" || { echo "FAIL no warning for a window after the run: $(cat "$t/lateerr")"; fail=1; }
# (7) Slingshot (Cassini) NIC rows: each command the source NIC executes is a "transmit" span (IDC inject, eager DMA,
# rendezvous header), each payload the target NIC lands a "receive" span (eager payload, rendezvous header, rendezvous
# Get); their counts equal the CXI provider's counters. The Paje form parses with pj_dump and has the same spans.
cat > "$t/cxi.json" <<'J'
{"id": "cxi", "machine": "crusher", "stack": "openmpi-cxi", "ranks": 2, "ranks_per_node": 1,
 "benchmark": {"name": "osu_bw", "sizes": [8, 1024, 1048576], "iterations": 3, "skip": 1, "window": 4}}
J
"$BIN" run "$t/cxi.json" --out "$t/cxi" --trace "$t/cxi.trace.json" > /dev/null 2> "$t/err" || { echo "FAIL cxi: $(cat "$t/err")"; fail=1; }
"$BIN" run "$t/cxi.json" --out "$t/cxi2" --trace "$t/cxi.paje" > /dev/null 2> "$t/err" || { echo "FAIL cxi paje: $(cat "$t/err")"; fail=1; }
python3 - "$t/cxi.trace.json" "$t/cxi/cxi.json" <<'P' || fail=1
import json, sys, collections
ev = json.load(open(sys.argv[1]))["traceEvents"]
c = json.load(open(sys.argv[2]))["stats"]["counters"]
names = {(e["pid"], e["tid"]): e["args"]["name"] for e in ev if e["ph"] == "M" and e["name"] == "thread_name"}
rows = collections.Counter()
values = collections.Counter()
for e in ev:
    if e["ph"] == "X" and e["cat"] == "nic":
        rows[names[(e["pid"], e["tid"])]] += 1
        values[e["name"]] += 1
assert c["cxi_inject"] > 0 and c["cxi_eager"] > 0 and c["cxi_rendezvous"] > 0, c
tx = c["cxi_inject"] + c["cxi_eager"] + c["cxi_rendezvous"]
rx = c["cxi_eager"] + c["cxi_rendezvous"] + c["cxi_rdzv_gets"]
assert rows["NIC transmit"] == tx and rows["NIC receive"] == rx, (rows, c)
assert values["IDC inject"] == c["cxi_inject"] and values["rendezvous Get"] == c["cxi_rdzv_gets"], values
assert all(e["dur"] > 0 for e in ev if e["ph"] == "X" and e["cat"] == "nic" and e["name"] != "priority list match"
           and not e["name"].startswith("overflow")), "a transfer span without duration"
print("ok   Cassini: %d transmit spans = inject + eager + rendezvous, %d receive spans = eager + rendezvous + Gets (%s)"
      % (rows["NIC transmit"], rows["NIC receive"], dict(values)))
P
if command -v pj_dump > /dev/null; then
  pj_dump -l 12 "$t/cxi.paje" > "$t/cxidump" 2> "$t/pjerr" && [[ ! -s "$t/pjerr" ]] || { echo "FAIL pj_dump cxi: $(head -3 "$t/pjerr")"; fail=1; }
  python3 - "$t/cxidump" "$t/cxi/cxi.json" <<'P' || fail=1
import csv, json, sys
rows = [[f.strip() for f in r] for r in csv.reader(open(sys.argv[1]))]
c = json.load(open(sys.argv[2]))["stats"]["counters"]
st = [r for r in rows if r[0] == "State" and r[2] == "NIC engine state"]
n = lambda v: sum(1 for r in st if r[7] == v)
assert n("IDC inject") == c["cxi_inject"] and n("rendezvous Get") == c["cxi_rdzv_gets"], (n("IDC inject"), c)
assert n("eager send (DMA)") == c["cxi_eager"] and n("rendezvous header (DMA)") == c["cxi_rendezvous"], c
print("ok   Cassini Paje (pj_dump): IDC inject %d, eager %d, rendezvous header %d, Get %d spans = the counters"
      % (n("IDC inject"), n("eager send (DMA)"), n("rendezvous header (DMA)"), n("rendezvous Get")))
P
fi
# (6) bad input: exit 2, one line naming the option, nothing written
bad() {  # name, expected text, args...
  local name=$1 want=$2; shift 2
  "$BIN" run "$t/bw.json" --out "$t/bad" "$@" > /dev/null 2> "$t/e"; local rc=$?
  if [[ $rc == 2 && $(wc -l < "$t/e") == 1 ]] && grep -q -- "$want" "$t/e"; then echo "ok   $name: $(cat "$t/e")"
  else echo "FAIL $name: rc=$rc $(cat "$t/e")"; fail=1; fi
}
bad "missing folder" "--trace.*does not exist" --trace "$t/nowhere/x.paje"
bad "unknown format" "--trace.*must end in .paje or .json" --trace "$t/x.txt"
mkdir -p "$t/d.json"; bad "folder as trace" "--trace.*is a folder" --trace "$t/d.json"
chmod 500 "$t/bar"; [[ $(id -u) != 0 ]] && bad "unwritable folder" "--trace.*not writable" --trace "$t/bar/x.json"; chmod 700 "$t/bar"
bad "window end before start" "--trace-window.*ends before it starts" --trace "$t/w.json" --trace-window 50us:10us
bad "window without unit" "--trace-window.*not a time" --trace "$t/w.json" --trace-window 10:50us
bad "bad rank list" "--trace-ranks.*not a rank" --trace "$t/w.json" --trace-ranks 0-3,x
bad "rank range backwards" "--trace-ranks.*ends before it starts" --trace "$t/w.json" --trace-ranks 5-2
bad "rank outside the job" "--trace-ranks.*not in the job" --trace "$t/w.json" --trace-ranks 1024
bad "--trace-ranks without --trace" "--trace-ranks.*give --trace" --trace-ranks 0
echo '{"id": "sw", "machine": "cielo", "stack": "openmpi", "ranks": [2, 4], "ranks_per_node": 1, "benchmark": {"name": "barrier_loop", "algorithm": "cheetah-atomic", "iterations": 2}}' > "$t/sw.json"
ls "$t" | grep -q "^w.json\|tmp" && { echo "FAIL a refused run left a file: $(ls "$t")"; fail=1; }
# (8) A scenario of several points (rank counts; radices) writes one trace per point beside the path given, named by
# the values that vary, and the same result as untraced; --trace-ranks is checked against the largest point and a
# smaller point traces the listed ranks it has.
"$BIN" run "$t/sw.json" --out "$t/sw0" > /dev/null 2>&1
"$BIN" run "$t/sw.json" --out "$t/sw" --trace "$t/sw.paje" --trace-ranks 1-3 > /dev/null 2> "$t/e"; rc=$?
[[ $rc == 0 && -s "$t/sw-ranks2.paje" && -s "$t/sw-ranks4.paje" && ! -e "$t/sw.paje" ]] \
  && grep -q "wrote trace $t/sw-ranks2.paje" "$t/e" && grep -q "wrote trace $t/sw-ranks4.paje" "$t/e" \
  && "$BIN" compare "$t/sw0" "$t/sw" --tolerance 0 > /dev/null \
  && echo "ok   several points: one trace each, the untraced result" || { echo "FAIL several points: rc=$rc $(cat "$t/e")"; fail=1; }
if command -v pj_dump > /dev/null; then
  ranks_of() { pj_dump "$1" | awk -F', *' '$1 == "State" && $2 ~ /^rank / {print $2}' | sort -u | tr '\n' ' '; }
  r2=$(ranks_of "$t/sw-ranks2.paje"); r4=$(ranks_of "$t/sw-ranks4.paje")
  [[ $r2 == "rank 1 " && $r4 == "rank 1 rank 2 rank 3 " ]] && echo "ok   --trace-ranks 1-3: ranks 1 of 2, 1-3 of 4" \
    || { echo "FAIL --trace-ranks per point: '$r2' '$r4'"; fail=1; }
fi
sed 's/"ranks": \[2, 4\]/"ranks": 4/; s/"iterations": 2/"radix": [2, 4], "iterations": 2/' "$t/sw.json" > "$t/rx.json"
"$BIN" run "$t/rx.json" --out "$t/rx" --trace rx.json > /dev/null 2> "$t/e"; rc=$?
[[ $rc == 0 && -s "$t/rx/rx-radix2.json" && -s "$t/rx/rx-radix4.json" ]] && echo "ok   radices: rx-radix2.json, rx-radix4.json" \
  || { echo "FAIL radices: rc=$rc $(ls "$t/rx") $(cat "$t/e")"; fail=1; }
"$BIN" run "$t/sw.json" --out "$t/sw5" --trace "$t/sw5.json" --trace-ranks 4 > /dev/null 2> "$t/e"; rc=$?
[[ $rc == 2 && ! -e "$t/sw5" ]] && ! ls "$t" | grep -q "^sw5" && grep -q "rank 4 is not in the job (scenario sw runs ranks 0..3 in its largest point)" "$t/e" \
  && echo "ok   several points: a rank beyond the largest refused" || { echo "FAIL beyond the largest: rc=$rc $(cat "$t/e")"; fail=1; }
# (9) A Chrome trace written into the result's folder is not read as a result by compare, whatever its size (a trace
# above the input limit was listed as "not compared, does not load")
"$BIN" run "$t/bw.json" --out "$t/cmp" --trace t.json > /dev/null 2>&1
lim=$(( $(stat -c %s "$t/cmp/bw.json") + 4096 ))
if [[ $(stat -c %s "$t/cmp/t.json") -gt $lim ]]; then
  "$BIN" --max-input-size $lim compare "$t/plain" "$t/cmp" > "$t/cmpout" 2>&1; rc=$?
  [[ $rc == 0 ]] && ! grep -q "not compared" "$t/cmpout" && grep -q "^1 file, " "$t/cmpout" \
    && echo "ok   compare: the trace beside a result is no result" || { echo "FAIL compare with a trace: rc=$rc $(cat "$t/cmpout")"; fail=1; }
else echo "FAIL the trace ($(stat -c %s "$t/cmp/t.json") B) is not above the limit $lim: the check cannot fail"; fail=1; fi
# (10) packet trains in the trace
sed 's/"ranks_per_node": 1,/"ranks_per_node": 1, "packet_trains": "64 KiB",/' "$t/bw.json" > "$t/pt.json"
"$BIN" run "$t/pt.json" --out "$t/pt0" > /dev/null 2>&1
"$BIN" run "$t/pt.json" --out "$t/pt" --trace "$t/pt.trace.json" > /dev/null 2> "$t/e" \
  && grep -q "16 of 16 packet trains" "$t/e" || { echo "FAIL traced trains: $(cat "$t/e")"; fail=1; }
python3 - "$t/pt0/bw.json" "$t/pt/bw.json" "$t/pt.trace.json" <<'P2' || fail=1
import json, sys, collections
a, b, tr = (json.load(open(p)) for p in sys.argv[1:])
assert b["points"] == a["points"] and b["stats"] == a["stats"], "tracing packet trains changed the result"
pt = a["provenance"]["packet_trains"]
ev = tr["traceEvents"]
starts = [e for e in ev if e["ph"] == "b"]
trains = [e for e in starts if e["cat"] == "train"]
flows = [e for e in starts if e["cat"] == "flow"]
assert pt["trains"] > 0 and len(trains) == pt["trains"] == tr["otherData"]["trains"], (len(trains), pt)
assert len(flows) == pt["flows"] == a["stats"]["flows"], (len(flows), pt, a["stats"]["flows"])
assert all(e["name"].startswith("train ") and e["args"]["resources"] for e in trains)
through = collections.Counter(r for e in starts for r in e["args"]["resources"].split())
series = collections.defaultdict(list)
for e in ev:
    if e["ph"] == "C":
        series[e["name"]].append((e["ts"], e["args"]["flows"]))
assert set(series) == set(through), (sorted(series)[:5], sorted(through)[:5])
for name, vals in series.items():
    assert [x for x, _ in vals] == sorted(x for x, _ in vals), (name, "counter out of time order")
    prev, ups = 0, 0
    for _, v in vals:
        assert abs(v - prev) == 1, (name, vals[:10])
        ups += v > prev
        prev = v
    assert ups == through[name] and prev == 0, (name, ups, through[name], prev)
print("ok   packet trains traced: %d trains and %d flows, counters in time order, the untraced result" % (len(trains), len(flows)))
P2
if command -v pj_dump > /dev/null; then
  "$BIN" run "$t/pt.json" --out "$t/ptp" --trace "$t/pt.paje" > /dev/null 2>&1
  n=$(pj_dump -u "$t/pt.paje" 2> /dev/null | grep -c '^Link, 0, Packet train,')
  [[ $n == 16 ]] && echo "ok   Paje: 16 'Packet train' links" || { echo "FAIL Paje trains: $n"; fail=1; }
fi
[[ -z $(find "$t" -name '*.tmp.*') ]] || { echo "FAIL temporary left: $(find "$t" -name '*.tmp.*')"; fail=1; }
exit $fail
