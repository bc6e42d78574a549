#!/usr/bin/env bash
# The check that every counter a run reports is declared (check_declared.py, used by describe_declared.sh) can fail.
# Configuration: a run of the heterogeneous stack (pml/ob1 over btl/openib + btl/gm, btl/self) on lanl-multi-nic, 2
#                ranks, an eager and a rendezvous size; the describe outputs of its four components as the declarations,
#                then the same with one statistic removed (gm_channel_waits), with one renamed (openib_puts ->
#                openib_rdma_writes), and the run with a counter added that nobody declares and one named like a
#                parameter of btl/gm (btl_gm_eager_limit: a parameter, not a statistic).
# Expected:      exit 0 on the run and the full declarations; exit 1 in each other case, naming the undeclared counter
#                and no other.
# How validated: exit codes and the FAIL lines.
set -u
BIN=$(realpath "$1"); HERE=$(dirname "$(realpath "$0")"); t=$(mktemp -d); trap 'rm -rf "$t"' EXIT; fail=0
echo '{"id": "hetero", "machine": "lanl-multi-nic", "stack": "openmpi", "ranks": 2, "ranks_per_node": 1, "benchmark": {"name": "osu_latency", "iterations": 2, "skip": 0, "sizes": [8, 1048576]}}' > "$t/h.json"
"$BIN" run "$t/h.json" --json --out "$t/run" > /dev/null 2>&1 || { echo "FAIL run"; exit 1; }
for c in pml/ob1 btl/openib btl/gm btl/self; do "$BIN" describe "$c" || fail=1; done > "$t/decl"
python3 "$HERE/check_declared.py" "$t/run" "$t/decl" > "$t/full" && echo "ok   full declarations pass" \
  || { echo "FAIL full declarations fail:"; cat "$t/full"; fail=1; }
# fails NAME RUN DECL COUNTER: the checker exits 1 and names COUNTER, and only it, as not declared.
fails() {
  local name=$1 run=$2 decl=$3 counter=$4 out rc
  out=$(python3 "$HERE/check_declared.py" "$run" "$decl"); rc=$?
  if [[ $rc == 1 ]] && grep -qx "FAIL $counter declared: .*" <<<"$out" && [[ $(grep -c '^FAIL' <<<"$out") == 1 ]]; then
    echo "ok   $name: $(grep '^FAIL' <<<"$out")"
  else
    echo "FAIL $name: rc=$rc, expected one FAIL line naming $counter:"; grep '^FAIL' <<<"$out"; fail=1
  fi
}
grep -q '^gm_channel_waits ' "$t/decl" && grep -q '^openib_puts ' "$t/decl" \
  || { echo "FAIL the declarations lack gm_channel_waits or openib_puts"; fail=1; }
grep -v '^gm_channel_waits ' "$t/decl" > "$t/removed"
fails "statistic removed" "$t/run" "$t/removed" gm_channel_waits
sed 's/^openib_puts /openib_rdma_writes /' "$t/decl" > "$t/renamed"
fails "statistic renamed" "$t/run" "$t/renamed" openib_puts
for k in gm_unknown_frags btl_gm_eager_limit; do
  rm -rf "$t/extra"; mkdir "$t/extra"
  python3 -c 'import json, sys
r = json.load(open(sys.argv[1])); r["stats"]["counters"][sys.argv[3]] = 1; json.dump(r, open(sys.argv[2], "w"))' \
    "$t/run/hetero.json" "$t/extra/hetero.json" "$k"
  fails "run counter $k added" "$t/extra" "$t/decl" "$k"
done
exit $fail
