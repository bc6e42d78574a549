#!/usr/bin/env bash
# Replay of SimGrid SMPI time-independent traces of real MPI programs (benchmark "replay").
# The programs (tests/e2e/replay_programs/*.c: a 2-D halo exchange with Isend/Irecv/Waitall, a CG-like loop with
# Sendrecv and Allreduce, an Alltoall transpose, and one call of every traceable action kind) are compiled with
# smpicc and recorded with smpirun -trace-ti here, so no trace is committed. Skipped (exit 77) without smpicc.
# Checks:
#  (1) per rank, the point-to-point messages the replay sent and received, and their bytes, equal the trace's, on
#      loggp and (the CG trace) on Cielo openmpi and native, Red Storm openmpi-cm, openmpi-ob1 and native (sends: send, isend, sendRecv; receives: recv, irecv, sendRecv; bytes = count x datatype size);
#  (2) the replay on the `loggp` machine and stack agrees with SMPI's own simulated time of the same run (the last
#      rank's MPI_Wtime() before MPI_Finalize, printed by the program) on an equivalent platform, within TOL below.
#      How the platforms are made equivalent (loggp.json: L = 1 us, o = 0.5 us, G = 1 GB/s, O = 100 GB/s, S = 64 KiB):
#      a cluster of 1 Gf hosts, one private split-duplex 1 GBps link of 0.5 us per host (2 links per route: L = 1 us),
#      no backbone; SMPI's latency and bandwidth factors 1 (smpi/lat-factor:0:1, smpi/bw-factor:0:1), no cross
#      traffic; send and receive overheads o + s x O (smpi/os, smpi/ois, smpi/or 0:0.5e-6:1e-11); eager below S
#      (smpi/async-small-thresh and smpi/send-is-detached-thresh 65536); computation only where the program says
#      (smpi_execute_flops; smpi/simulate-computation:no) and flop_rate = the hosts' 1 Gf/s; the same collective
#      algorithms on both sides (SMPI rdb allreduce, pair alltoall, ompi_recursivedoubling barrier; the replay's
#      "algorithms": recursive_doubling, pairwise, recursive_doubling). What stays different: LogGOPS has a gap g
#      (0.2 us) per injection and charges a receiver's CPU o + (s-1)G per message (LogGOPSim), so a rank's
#      concurrent receives and sends serialise on its CPU; SMPI shares link bandwidth and charges o + s x O. Hence
#      TOL: 5 % for the CG loop and the transpose (one message in flight per rank at a time), 10 % for the halo
#      exchange (4 concurrent messages per rank, kept short: 128 B and 1 KiB).
#  (3) anysource.c's wildcard receives (traced as -333 / -444) replay with every message once; every action kind of kinds.c replays (exit 0, counts as in (1)); "ibarrier" is refused naming file, line and
#      reason; a malformed line, a trace of another rank count and a missing index exit 2 with one line naming them.
set -u
BIN=$(realpath "$1"); SRC=$(cd "$(dirname "$0")" && pwd)/replay_programs
command -v smpicc > /dev/null && command -v smpirun > /dev/null || { echo "SKIP smpicc/smpirun not installed (apt-get install simgrid)"; exit 77; }
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT; fail=0; cd "$t"
cat > plat.xml <<'X'
<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<platform version="4.1">
  <cluster id="c" prefix="node-" radical="0-15" suffix="" speed="1Gf" bw="1GBps" lat="0.5us" sharing_policy="SPLITDUPLEX"/>
</platform>
X
for i in $(seq 0 15); do echo "node-$i"; done > hosts
CFG=(--cfg=smpi/simulate-computation:no --cfg=smpi/lat-factor:0:1 --cfg=smpi/bw-factor:0:1 --cfg=network/crosstraffic:0
     --cfg=smpi/os:0:0.5e-6:1e-11 --cfg=smpi/or:0:0.5e-6:1e-11 --cfg=smpi/ois:0:0.5e-6:1e-11
     --cfg=smpi/async-small-thresh:65536 --cfg=smpi/send-is-detached-thresh:65536
     --cfg=smpi/allreduce:rdb --cfg=smpi/alltoall:pair --cfg=smpi/barrier:ompi_recursivedoubling)
record() {  # program ranks [cflags] -> traces/<program>.txt, <program>.wtime
  local p=$1 np=$2; shift 2
  smpicc -O1 "$@" "$SRC/${p%%_*}.c" -o "$p" > "$p.cc" 2>&1 || { echo "FAIL smpicc $p: $(tail -3 "$p.cc")"; fail=1; return 1; }
  mkdir -p traces
  smpirun -np "$np" -platform plat.xml -hostfile hosts -trace-ti --cfg=tracing/filename:traces/$p.txt "${CFG[@]}" "./$p" \
    > "$p.out" 2> "$p.err" || { echo "FAIL smpirun $p: $(tail -3 "$p.err")"; fail=1; return 1; }
  grep '^WTIME' "$p.out" > "$p.wtime" || true
}
scenario() {  # program ranks -> <program>.json (trace path relative to the scenario file)
  cat > "$1.json" <<J
{"id": "$1", "machine": "loggp", "stack": "loggp", "ranks": $2,
 "benchmark": {"name": "replay", "trace": "traces/$1.txt", "flop_rate": "1 Gf/s",
               "algorithms": {"allreduce": "recursive_doubling", "alltoall": "pairwise", "barrier": "recursive_doubling"}}}
J
}
check() {  # program tolerance(or "-")
  python3 - "$1" "$2" <<'P' || fail=1
import glob, json, os, sys
p, tol = sys.argv[1], sys.argv[2]
res = json.load(open(f"out/{p}.json"))
pts = res["points"]
ranks = {q["rank"]: q for q in pts if q["row"] == "rank"}
files = [l.strip() for l in open(f"traces/{p}.txt") if l.strip()]
dt = {"0": 8, "1": 4, "2": 1, "6": 1}
bad = 0
for r, f in enumerate(files):
    s = sb = rv = rb = 0
    for line in open(f):
        w = line.split()
        if len(w) < 2: continue
        if w[1] in ("send", "isend"): s += 1; sb += int(w[4]) * dt[w[5]]
        if w[1] in ("recv", "irecv"): rv += 1; rb += int(w[4]) * dt[w[5]]
        if w[1] == "sendRecv": s += 1; sb += int(w[2]) * dt[w[6]]; rv += 1; rb += int(w[4]) * dt[w[7]]
    q = ranks[r]
    got = (q["sends"], q["send_bytes"], q["recvs"], q["recv_bytes"])
    if got != (s, sb, rv, rb):
        print(f"FAIL {p} rank {r}: replay sends/bytes/recvs/bytes {got}, trace {(s, sb, rv, rb)}"); bad = 1
if not bad:
    tot = next(q for q in pts if q["row"] == "total")
    print(f"ok   {p}: {len(files)} ranks, per-rank messages and bytes equal the trace's ({tot['sends']} sends, {tot['send_bytes']} B)")
if tol != "-":
    smpi = max(float(l.split()[2]) for l in open(f"{p}.wtime"))
    rep = next(q for q in pts if q["row"] == "total")["time_s"]
    dev = abs(rep - smpi) / smpi
    verdict = "ok  " if dev <= float(tol) else "FAIL"
    print(f"{verdict} {p}: replay on loggp {rep * 1e6:.1f} us, SMPI {smpi * 1e6:.1f} us, deviation {100 * dev:.1f} % (tolerance {100 * float(tol):.0f} %)")
    if dev > float(tol): bad = 1
sys.exit(bad)
P
}
for spec in "halo2d 16 0.10" "cg 16 0.05" "transpose 16 0.05" "kinds 4 -" "anysource 4 -"; do
  read -r p np tol <<< "$spec"
  record "$p" "$np" || continue
  scenario "$p" "$np"
  "$BIN" run "$p.json" --out out > "$p.run" 2>&1 || { echo "FAIL replay $p: $(tail -3 "$p.run")"; fail=1; continue; }
  check "$p" "$tol"
done

# (1) on the faithful stacks too: the CG trace through pml/ob1 + btl/ugni/vader on Cielo and pml/cm + mtl/portals on
# Red Storm delivers every message with its bytes.
if [[ -f traces/cg.txt ]]; then
  for ms in "cielo openmpi" "cielo native" "red-storm openmpi-cm" "red-storm openmpi-ob1" "red-storm native"; do
    read -r m st <<< "$ms"; n="cg_${m//-/_}_$st"
    sed "s/\"machine\": \"loggp\", \"stack\": \"loggp\"/\"machine\": \"$m\", \"stack\": \"$st\"/; s/\"id\": \"cg\"/\"id\": \"$n\"/" cg.json > "$n.json"
    cp cg.wtime "$n.wtime"; mkdir -p traces && ln -sf cg.txt "traces/$n.txt"
    "$BIN" run "$n.json" --out out > "$n.run" 2>&1 || { echo "FAIL replay cg on $m $st: $(tail -3 "$n.run")"; fail=1; continue; }
    check "$n" -
  done
fi

# (1b) the what-if in a sweep: the CG trace under two stacks of Cielo, one grid (the trace path stays relative to the
# base scenario); the merged table has one row per stack, each with the trace's message count.
if [[ -f cg_cielo_openmpi.json ]]; then
  sed 's/"id": "cg_cielo_openmpi"/"id": "cg_sweep"/' cg_cielo_openmpi.json > cg_sweep.json; ln -sf cg.txt traces/cg_sweep.txt
  printf '{"base": "cg_sweep.json", "axes": {"stack": ["openmpi", "native"]}}' > cg_grid.json
  if "$BIN" sweep cg_grid.json --out sweep -j 1 > sweep.run 2>&1 && python3 - <<'P'
import json, sys
rows = json.load(open("sweep/sweep.json"))["rows"]
totals = {r["stack"]: r for r in rows if r.get("row") == "total"}
res = json.load(open("out/cg_cielo_openmpi.json"))
sends = next(p["sends"] for p in res["points"] if p.get("row") == "total")
ok = sorted(totals) == ["native", "openmpi"] and all(t["sends"] == sends for t in totals.values())
ok = ok and totals["openmpi"]["time_s"] != totals["native"]["time_s"]  # two stacks, two predictions
print({k: (v["sends"], v["time_s"]) for k, v in totals.items()}, "sends of the single run:", sends)
sys.exit(0 if ok else 1)
P
  then echo "ok   sweep over stacks of the CG replay: openmpi and native"
  else echo "FAIL sweep over stacks of the CG replay: $(tail -3 sweep.run)"; fail=1
  fi
fi

# (2) run --plot on a replay draws per rank its compute and MPI time (DriverInfo::row_plot), one point per rank.
if [[ -f cg.json ]] && command -v gnuplot > /dev/null; then
  if "$BIN" run cg.json --out plot --plot cg.svg > cg.plot.run 2>&1 && [[ -s plot/cg.svg ]] &&
     grep -q "compute (simulated)" plot/cg.svg && grep -q "MPI (simulated)" plot/cg.svg; then
    echo "ok   run --plot on a replay: plot/cg.svg has the compute and MPI curves"
  else
    echo "FAIL run --plot on a replay: $(tail -2 cg.plot.run)"; fail=1
  fi
fi

refuse() {  # name scenario expected-regex...
  local name=$1 sc=$2; shift 2
  "$BIN" run "$sc" --out "out-$name" > /dev/null 2> "$name.err"; local rc=$?
  local ok=1; for re in "$@"; do grep -q -E -- "$re" "$name.err" || ok=0; done
  if [[ $rc != 2 || $ok != 1 || $(wc -l < "$name.err") != 1 ]]; then echo "FAIL $name: rc=$rc err=$(cat "$name.err")"; fail=1
  else echo "ok   $name: $(cat "$name.err")"; fi
}
# (3) ibarrier: SMPI writes it, nobody can replay it.
if record kinds_ibarrier 4 -DWITH_IBARRIER; then
  scenario kinds_ibarrier 4
  refuse ibarrier kinds_ibarrier.json "rank-[0-9]+\.txt: line [0-9]+: action 'ibarrier' cannot be replayed: nonblocking collective"
  # the file and line named are those of an ibarrier
  where=$(grep -o -E '[^ ]+rank-[0-9]+\.txt: line [0-9]+' ibarrier.err)
  grep -q ' ibarrier' <(sed -n "${where##* }p" "${where%%: line*}") || { echo "FAIL ibarrier: '$where' is not an ibarrier line"; fail=1; }
fi
if [[ -f traces/cg.txt ]]; then
  # A malformed line in rank 3's file (a tag that is not a number), a truncated line, a peer outside the run.
  mkdir -p bad && cp -r traces/cg.txt traces/cg.txt_files bad/
  f=$(ls bad/cg.txt_files/*rank-4.txt); sed -i '5s/.*/3 isend 0 x7 512 0/' "$f"
  sed 's|traces/cg.txt|bad/cg.txt|; s|"id": "cg"|"id": "bad"|' cg.json > bad.json
  refuse malformed_line bad.json "rank-4.txt: line 5: isend: tag 'x7' is not an integer"
  sed -i '5s/.*/3 isend 0 7/' "$f"
  refuse short_line bad.json "rank-4.txt: line 5: isend: expected 'peer tag count \[datatype\]'"
  sed -i '5s/.*/3 isend 16 7 512 0/' "$f"
  refuse bad_peer bad.json "rank-4.txt: line 5: isend: peer 16 is not a rank of the trace's 16 ranks"
  sed 's/"ranks": 16/"ranks": 8/' cg.json > cg8.json
  refuse wrong_ranks cg8.json "key 'ranks'" "has 16 ranks"
  sed 's|traces/cg.txt|traces/none.txt|' cg.json > none.json
  refuse missing_index none.json "key 'benchmark.trace'" "none.txt"
fi
exit $fail
