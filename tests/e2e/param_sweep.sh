#!/usr/bin/env bash
# Configuration: a 6-point grid (stack x nic.bte_bandwidth x ranks-per-node-free axis) over Cielo osu_latency at 2 ranks,
#                run with -j 1, with -j 2, as three shards (--shard I/3) and, when mpirun is installed, under
#                `mpirun --oversubscribe -n 3` (built with MPI: shards from MPI_Comm_rank, rank 0 merges after the
#                barrier; `run` and --shard under launcher variables without mpirun call no MPI_Init); a run killed with SIGKILL after its first point and rerun; bad input (a point given twice, --shard 0/0, PMI_RANK=-1, launcher variables with no launcher to reach); damaged point files merged.
# Expected:      the merged sweep.csv and sweep.json are byte-identical across -j 1, -j 2, shards and mpirun; a rerun
#                runs no point; the killed sweep, rerun, has every point once and no temporary file left; 1 MiB latency
#                falls when bte_bandwidth rises (the axis reaches the model); the axis given as "3 GB/s" is
#                the number 3 under the header 'nic.bte_bandwidth (GB/s)', the axes' columns in the grid's order
#                (stack, then the bandwidth, though Json sorts keys); a radix or ranks axis is one column (no
#                second 'radix' / 'result.ranks' beside it unless the rows' values differ from the axis's); bad input and a damaged point file exit 2 naming file and key.
# How validated: cmp of the merged files, point-file counts, the tool's "N run now" line, grep on stderr.
set -u
BIN=$(realpath "$1"); t=$(mktemp -d); trap 'rm -rf "$t"' EXIT; fail=0; cd "$t"
cat > grid.json <<'G'
{"base": {"id": "lat", "machine": "cielo", "stack": "openmpi",
          "benchmark": {"name": "osu_latency", "sizes": [1, 1048576], "iterations": 20, "skip": 2},
          "ranks": 2, "ranks_per_node": 1},
 "axes": {"stack": ["openmpi", "native"], "nic.bte_bandwidth": ["3 GB/s", "4 GB/s", "6 GB/s"]}}
G
python3 -c "import json; print(json.dumps(json.load(open('grid.json'))['base']))" > grid_base.json
check() { if eval "$2"; then echo "ok   $1"; else echo "FAIL $1"; fail=1; fi; }
"$BIN" sweep grid.json --out j1 -j 1 2> j1.err; check "-j 1 runs" "[[ \$? == 0 ]] && grep -q '6 run now' j1.err"
"$BIN" sweep grid.json --out j2 -j 2 2> j2.err
check "-j 2 merged table identical" "cmp -s j1/sweep.csv j2/sweep.csv && cmp -s j1/sweep.json j2/sweep.json"
for i in 0 1 2; do "$BIN" sweep grid.json --out sh --shard $i/3 2>> sh.err; done
"$BIN" sweep grid.json --out sh --merge 2>> sh.err
check "each shard says what comes next, the last that every point is done and how to merge" \
  "[[ \$(grep -c 'points still to run on the other shards; then .ompisim sweep grid.json --out .*sh --merge.' sh.err) == 2 ]] && grep -q 'every point is done: .ompisim sweep grid.json --out .*sh --merge. (with the same --set and --engine) writes sweep.json' sh.err"
check "three shards then --merge identical" "cmp -s j1/sweep.csv sh/sweep.csv && cmp -s j1/sweep.json sh/sweep.json"
if command -v mpirun > /dev/null; then
  mpirun --allow-run-as-root --oversubscribe -n 3 "$BIN" sweep grid.json --out mpi > mpi.out 2>&1
  check "mpirun -n 3 identical" "cmp -s j1/sweep.csv mpi/sweep.csv && cmp -s j1/sweep.json mpi/sweep.json"
  if "$BIN" --version | grep -q '^MPI: not built in'; then
    echo "SKIP built without MPI (libopenmpi-dev absent): the ranks read the launcher's environment"
    check "mpirun shards from the environment" "grep -q 'from OMPI_COMM_WORLD_RANK' mpi.out"
  else
    # Built with MPI: the shards come from MPI_Comm_rank, rank 0 merges after the barrier, and MPI_* are the MPI
    # library's (libsimgrid exports SMPI's MPI_* too: the link order decides).
    check "--version names the MPI library, not SimGrid's SMPI" "\"\$BIN\" --version | grep '^MPI: ' | grep -qv SMPI"
    check "mpirun shards from MPI_Comm_rank (0/3, 1/3, 2/3), one merge" \
      "[[ \$(grep -c 'run now (shard [012]/3 from MPI_Comm_rank)' mpi.out) == 3 && \$(grep -c 'wrote .*sweep.json' mpi.out) == 1 ]]"
    # -j 2 per rank and a rerun under mpirun: nothing runs again, the table is rewritten identical.
    mpirun --allow-run-as-root --oversubscribe -n 2 "$BIN" sweep grid.json --out mpi -j 2 > mpi2.out 2>&1
    check "mpirun rerun runs no point" "[[ \$(grep -c ' 0 run now' mpi2.out) == 2 ]] && cmp -s j1/sweep.csv mpi/sweep.csv"
  fi
else
  echo "FAIL mpirun not installed (setup.sh installs openmpi-bin)"; fail=1
fi
# Who calls MPI_Init: a preloaded shim records each call (then calls the library's), and any fork() after it. Positive
# control: each rank of an mpirun sweep calls it once, and no process that called it forks (the point runner was
# forked before). A launcher's variables without mpirun (Open MPI would then init as a singleton, so only
# the shim can tell): `run` and an explicit --shard never call it.
if ! "$BIN" --version | grep -q '^MPI: not built in' && command -v cc > /dev/null; then
  cat > shim.c <<'C'
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
static int initialised;
static void note(const char* what) {
  FILE* f = fopen(getenv("INIT_LOG"), "a");
  if (f) fprintf(f, "%s %d\n", what, (int)getpid()), fclose(f);
}
pid_t fork(void) {
  if (initialised) note("fork-after-MPI_Init");
  pid_t (*real)(void) = (pid_t (*)(void))dlsym(RTLD_NEXT, "fork");
  return real();
}
int MPI_Init(int* argc, char*** argv) {
  note("MPI_Init");
  int (*real)(int*, char***) = (int (*)(int*, char***))dlsym(RTLD_NEXT, "MPI_Init");
  int rc = real(argc, argv);
  initialised = 1;  /* after: the library may fork inside MPI_Init (a singleton's daemon) */
  return rc;
}
C
  cc -shared -fPIC -o shim.so shim.c -ldl
  INIT_LOG=$PWD/init_mpi.log mpirun --allow-run-as-root --oversubscribe -n 3 -x LD_PRELOAD=$PWD/shim.so -x INIT_LOG \
    "$BIN" sweep grid.json --out shimmed > /dev/null 2>&1
  check "mpirun sweep: each rank calls MPI_Init once (shim control), none forks after it" \
    "[[ \$(grep -c '^MPI_Init' init_mpi.log) == 3 ]] && ! grep -q fork-after init_mpi.log && cmp -s j1/sweep.csv shimmed/sweep.csv"
  OMPI_COMM_WORLD_SIZE=3 OMPI_COMM_WORLD_RANK=1 PMIX_RANK=1 LD_PRELOAD=$PWD/shim.so INIT_LOG=$PWD/init_run.log \
    "$BIN" run grid_base.json --out fake > /dev/null 2> fake.err
  check "run under launcher variables: exit 0, no MPI_Init" "[[ \$? == 0 && -s fake/lat.json && ! -e init_run.log ]]"
  OMPI_COMM_WORLD_SIZE=3 OMPI_COMM_WORLD_RANK=1 LD_PRELOAD=$PWD/shim.so INIT_LOG=$PWD/init_shard.log \
    "$BIN" sweep grid.json --out fk --shard 1/3 > /dev/null 2> fk.err
  check "--shard under launcher variables: no MPI_Init" "grep -q '2 run now (shard 1/3 from --shard)' fk.err && [[ ! -e init_shard.log ]]"
  LD_PRELOAD=$PWD/shim.so INIT_LOG=$PWD/init_plain.log "$BIN" sweep grid.json --out j1 > /dev/null 2>&1
  check "plain sweep: no MPI_Init" "[[ ! -e init_plain.log ]]"
fi
"$BIN" sweep grid.json --out j1 2> again.err
check "a rerun runs no point" "grep -q '0 run now' again.err && cmp -s j1/sweep.csv j2/sweep.csv"
check "six point files" "[[ \$(ls j1/points | wc -l) == 6 ]]"
check "bte_bandwidth reaches the model" "python3 - <<'P'
import csv
rows=[r for r in csv.DictReader(open('j1/sweep.csv')) if r['bytes']=='1048576' and r['stack']=='openmpi']
lat={float(r['nic.bte_bandwidth (GB/s)']): float(r['latency_us']) for r in rows}
assert lat[3] > lat[4] > lat[6], lat
P"
# Quantities are numbers: the axis written "3 GB/s" is the number 3 under a header naming the unit, in the CSV and
# in sweep.json (its "units" names the unit per axis).
check "unit axis as numbers, unit in the header" "python3 - <<'P'
import csv, json
head = next(csv.reader(open('j1/sweep.csv')))
assert 'nic.bte_bandwidth (GB/s)' in head and 'nic.bte_bandwidth' not in head, head
assert head[:2] == ['stack', 'nic.bte_bandwidth (GB/s)'], ('the axes in the grid file order', head)
assert head[2] == 'bytes', ('the fields that name a point after the axes, before the measurements', head)
t = json.load(open('j1/sweep.json'))
assert t['units'] == {'nic.bte_bandwidth': 'GB/s'}, t['units']
assert sorted({r['nic.bte_bandwidth'] for r in t['rows']}) == [3, 4, 6], t['rows'][0]
assert all(isinstance(r['latency_us'], (int, float)) for r in t['rows'])
P"
# Killed midway: SIGKILL to the whole process group once the first point is stored, then a rerun.
setsid "$BIN" sweep grid.json --out k -j 1 > /dev/null 2>&1 &
pid=$!
for _ in $(seq 200); do [[ $(ls k/points 2>/dev/null | grep -c '\.json$') -ge 1 ]] && break; sleep 0.05; done
kill -KILL -- -$pid 2> /dev/null; wait $pid 2> /dev/null
# Point processes have their own process group and die with their parent (PR_SET_PDEATHSIG); one may have stored its
# point just before: count once none is left.
for _ in $(seq 100); do pgrep -f -- "sweep grid.json --out k" > /dev/null || break; sleep 0.1; done
before=$(ls k/points | grep -c '\.json$')
"$BIN" sweep grid.json --out k 2> k.err
check "killed after $before point(s), rerun completes each point once" \
  "[[ \$(ls k/points | grep -c '\.json\$') == 6 ]] && grep -q \"$((6 - before)) run now\" k.err && cmp -s j1/sweep.csv k/sweep.csv"
check "no temporary left" "[[ -z \$(ls k/points k | grep tmp) ]]"
# Bad input: one line naming file and key, exit 2, nothing written.
B='"base": {"id": "lat", "machine": "cielo", "stack": "openmpi", "benchmark": {"name": "osu_latency", "sizes": [1]}, "ranks": 2, "ranks_per_node": 1}'
bad() {  # name grid-tail expected [options]
  printf '{%s, %s}' "$B" "$2" > "$1.json"
  "$BIN" sweep "$1.json" --out "out-$1" ${4:-} > /dev/null 2> "$1.err"; rc=$?
  if [[ $rc != 2 ]] || ! grep -q -- "$3" "$1.err" || [[ $(wc -l < "$1.err") != 1 ]] || [[ -e "out-$1/sweep.json" ]]; then
    echo "FAIL bad $1: rc=$rc $(cat "$1.err")"; fail=1; else echo "ok   bad $1: $(cat "$1.err")"; fi
}
bad unknown_param '"axes": {"nic.bte_bandwdith": ["4 GB/s"]}' "key 'axes.nic.bte_bandwdith': unknown parameter (did you mean 'nic.bte_bandwidth'?)"
bad bare_bench_key '"axes": {"iterations": [2]}' "key 'axes.iterations': a key of benchmark 'osu_latency', not a parameter: name the axis 'benchmark.iterations'"
bad bare_bench_key_point '"points": [{"skip": 0}]' "key 'points\[0\].skip': a key of benchmark 'osu_latency', not a parameter: name the axis 'benchmark.skip'"
bad unknown_mca '"axes": {"mca.btl_ugni_smsg_limt": [1]}' "key 'axes.mca.btl_ugni_smsg_limt': unknown MCA parameter"
bad bad_unit '"axes": {"nic.bte_bandwidth": ["4 GB"]}' "key 'axes.nic.bte_bandwidth'.*not a unit of rate"
bad unknown_stack '"axes": {"stack": ["natve"]}' "key 'axes.stack': unknown stack 'natve'"
bad unknown_key '"axis": {"ranks": [2]}' "key 'axis': unknown key (did you mean 'axes'?)"
bad empty_axis '"axes": {"ranks": []}' "key 'axes.ranks': expected a non-empty list"
bad zip_lengths '"axes": {"ranks": [2, 2], "stack": ["native"]}, "combine": "zip"' "key 'axes.stack'"
bad id_axis '"axes": {"id": ["a", "b"]}' "key 'axes.id': 'id' is a key of the scenario that a sweep does not vary"
# the first axis is the first written, not the first in alphabetical order
bad zip_written_order '"axes": {"stack": ["native"], "ranks": [2, 2]}, "combine": "zip"' "key 'axes.ranks': 2 values, but the first axis, stack, has 1"
bad shard '"axes": {"ranks": [2]}' "shard index 3 is out of range 0..2" "--shard 3/3"
bad shard_count '"axes": {"ranks": [2]}' "--shard '0/0': 0 shards: the count N is at least 1" "--shard 0/0"
# a point given twice would run once and fill two rows of the table
bad repeated_value '"axes": {"ranks_per_node": [1, 2, 1]}' "key 'axes': point 3 ({\"ranks_per_node\":1}) repeats point 1"
bad empty_point '"points": [{"ranks": 2}, {}]' "key 'points\[1\]': an empty point sets no key, and its row would name nothing: for the base as it is, give one of the other points' keys ('ranks') at its base value"
bad repeated_point '"points": [{"ranks": 2}, {"ranks": 2}]' "key 'points\[1\]': point 2 ({\"ranks\":2}) repeats point 1"
# one value in two spellings (4096 and "4 KiB") is one point too
bad repeated_units '"axes": {"mca.btl_ugni_smsg_limit": [4096, "4 KiB"]}' "key 'axes': point 2 ({\"mca.btl_ugni_smsg_limit\":\"4 KiB\"}) is point 1 ({\"mca.btl_ugni_smsg_limit\":4096}) in other units"
bad repeated_list_units '"axes": {"benchmark.sizes": [[8], ["8 B"]]}' "key 'axes': point 2 ({\"benchmark.sizes\":\[\"8 B\"\]}) is point 1 ({\"benchmark.sizes\":\[8\]}) in other units"
# a launcher's rank variable out of range is refused before anything (with MPI built in: before MPI_Init, which would
# wait for a launcher that is not there)
printf '{%s, "axes": {"ranks": [2]}}' "$B" > pmi.json
PMI_RANK=-1 PMI_SIZE=2 timeout 60 "$BIN" sweep pmi.json --out out-pmi > /dev/null 2> pmi.err; rc=$?
check "PMI_RANK=-1: exit 2 naming it" "[[ $rc == 2 && \$(wc -l < pmi.err) == 1 ]] && grep -q \"PMI_RANK: key '-1/2': shard index -1 is out of range\" pmi.err"
# a launcher's rank variables with no way to reach a launcher (no PMIX_SERVER_URI*, OMPI_MCA_orte_hnp_uri, PMI_FD or
# PMI_PORT) are refused before MPI_Init, which would wait for it; built without MPI they only pick the shard
if ! "$BIN" --version | grep -q '^MPI: not built in'; then
  env -u PMIX_SERVER_URI2 -u PMIX_SERVER_URI3 -u PMIX_SERVER_URI4 -u PMIX_SERVER_URI21 -u PMIX_SERVER_URI41 \
    -u OMPI_MCA_orte_hnp_uri -u PMI_FD -u PMI_PORT OMPI_COMM_WORLD_RANK=1 OMPI_COMM_WORLD_SIZE=2 \
    timeout 60 "$BIN" sweep pmi.json --out out-fake > /dev/null 2> fake_launch.err; rc=$?
  check "launcher variables without a launcher: exit 2 naming the variable, no hang" \
    "[[ $rc == 2 ]] && grep -q \"OMPI_COMM_WORLD_SIZE: key '2': .*MPI_Init would wait for a launcher that is not there\" fake_launch.err"
fi
bad merge_early '"axes": {"ranks": [2]}' "key 'points': 1 of 1 points have no result yet" "--merge"
# A damaged point file (a point that is a number, a result without points, another point's hash) is refused by --merge
# naming the file and the key (exit 2, not an internal error); the sweep's other files stay.
cp -r j1 dmg
for m in 'd["result"]["points"][0] = 7:result\.points\[0\]' 'd["result"]["points"] = []:result\.points' 'd["hash"] = "x":hash'; do
  f=$(ls dmg/points/*.json | head -1); cp "$f" dmg.keep
  python3 -c "import json; d = json.load(open('$f')); ${m%%:*}; json.dump(d, open('$f', 'w'))"
  "$BIN" sweep grid.json --out dmg --merge > /dev/null 2> dmg.err; rc=$?
  check "--merge of a point with ${m%%:*}: exit 2 naming key ${m#*:}" \
    "[[ $rc == 2 && \$(wc -l < dmg.err) == 1 ]] && grep -q \"$(basename "$f"): key '${m#*:}'\" dmg.err"
  cp dmg.keep "$f"
done
# a point file cut short (a full disk, an edit): not valid JSON, named with the way out (remove it, the point reruns)
f=$(ls dmg/points/*.json | head -1); cp "$f" dmg.keep; head -c 200 dmg.keep > "$f"
"$BIN" sweep grid.json --out dmg --merge > /dev/null 2> dmg.err; rc=$?
check "--merge of a point file cut short: exit 2 saying to remove it" \
  "[[ $rc == 2 ]] && grep -q \"$(basename "$f").*remove the file to run the point again\" dmg.err"
cp dmg.keep "$f"
# Each quantity one column, named by its axis: a radix axis over a barrier (whose points report their radix) has no
# "radix" column beside "benchmark.radix"; a "ranks" axis of single counts none beside "ranks"; an axis whose value is
# a list of counts (each row one of them) keeps the rows' counts as "result.ranks".
cat > radix.json <<'G'
{"base": {"id": "bar", "machine": "cielo", "stack": "openmpi",
          "benchmark": {"name": "barrier_loop", "algorithm": "cheetah-atomic", "radix": 4, "iterations": 2},
          "ranks": [4, 8], "ranks_per_node": 1},
 "axes": {"benchmark.radix": [2, 4]}}
G
"$BIN" sweep radix.json --out radix > /dev/null 2> radix.err
check "radix axis: one radix column, the axis's" "[[ \$? == 0 ]] && python3 - <<'P'
import csv, json
head = next(csv.reader(open('radix/sweep.csv')))
assert head.count('benchmark.radix') == 1 and 'radix' not in head and 'result.radix' not in head, head
rows = list(csv.DictReader(open('radix/sweep.csv')))
assert sorted((r['benchmark.radix'], r['ranks']) for r in rows) == [('2', '4'), ('2', '8'), ('4', '4'), ('4', '8')], rows
t = json.load(open('radix/sweep.json'))
assert 'radix' not in t['columns'] and all('radix' not in r for r in t['rows']), t['columns']
P"
printf '{"base": "bar.json", "axes": {"ranks": [4, 8]}}' > ranks.json
printf '{"base": "bar.json", "axes": {"ranks": [[4, 8]]}}' > ranks_list.json
python3 -c "import json; print(json.dumps(json.load(open('radix.json'))['base']))" > bar.json
"$BIN" sweep ranks.json --out ranks > /dev/null 2> ranks.err
"$BIN" sweep ranks_list.json --out ranks_list > /dev/null 2> ranks_list.err
check "ranks axis: one ranks column; a list-valued axis keeps result.ranks" "python3 - <<'P'
import csv
head = next(csv.reader(open('ranks/sweep.csv')))
assert head.count('ranks') == 1 and 'result.ranks' not in head, head
head = next(csv.reader(open('ranks_list/sweep.csv')))
assert 'ranks' in head and 'result.ranks' in head, head
rows = list(csv.DictReader(open('ranks_list/sweep.csv')))
assert [r['result.ranks'] for r in rows] == ['4', '8'], rows
P"
exit $fail
