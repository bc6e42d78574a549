#!/usr/bin/env bash
# Configuration: a two-point sweep of a two-rank loggp latency whose --out folder is writable but whose points/ folder
#                (left by an earlier sweep, e.g. of another user) is not; run as an unprivileged user (setpriv to
#                nobody when the suite runs as root, where permissions do not bind).
# Expected:      exit 2 and one line naming points/ and why, before any point runs (it was exit 3 with two lines,
#                each point failing after its simulation: "cannot create .../points/<hash>.json.tmp..."); with points/
#                writable again the same sweep runs both points (exit 0).
# How validated: exit status, stderr, the files in points/.
set -u
BIN=$(realpath "$1"); t=$(mktemp -d); trap 'chmod -R u+w "$t"; rm -rf "$t"' EXIT; fail=0
as_user=()
if [[ $(id -u) == 0 ]]; then
  command -v setpriv > /dev/null || { echo "FAIL setpriv is needed to run as an unprivileged user"; exit 1; }
  as_user=(setpriv --reuid=65534 --regid=65534 --clear-groups)
fi
chmod 755 "$t"; cd "$t"
cat > s.json <<J
{"id": "s", "machine": "loggp", "stack": "loggp", "ranks": 2,
 "benchmark": {"name": "osu_latency", "sizes": [1], "iterations": 2, "skip": 0}}
J
echo '{"base": "s.json", "axes": {"benchmark.iterations": [2, 3]}}' > g.json
chmod 644 s.json g.json
mkdir -p out/points; chmod 777 out; chmod 555 out/points
"${as_user[@]}" "$BIN" sweep g.json --out out > o.txt 2> e.txt; rc=$?
if [[ $rc == 2 && $(wc -l < e.txt) == 1 ]] \
  && grep -q "^ompisim: error: .*out/points: the sweep's folder of point results is not writable: Permission denied (2 points to run)$" e.txt \
  && [[ -z $(ls -A out/points) ]]; then echo "ok   unwritable points/: $(cat e.txt)"
else echo "FAIL unwritable points/: exit $rc, $(cat e.txt)"; fail=1; fi
chmod 777 out/points
"${as_user[@]}" "$BIN" sweep g.json --out out > o.txt 2> e.txt; rc=$?
if [[ $rc == 0 && $(ls out/points | grep -c '\.json$') == 2 ]]; then echo "ok   writable points/: both points run"
else echo "FAIL writable points/: exit $rc, $(cat e.txt), $(ls out/points)"; fail=1; fi
exit $fail
