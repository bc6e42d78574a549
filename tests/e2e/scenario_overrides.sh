#!/usr/bin/env bash
# The options of the subcommands that run scenarios are declared once (tools/ompisim/common.hpp
# add_scenario_overrides): run, compare and validate offer --set with one description, run and compare --engine.
# Configuration: each subcommand's --help; then --set without '=' on each, and an unknown --engine on run.
# Expected: the help texts carry the shared descriptions; each refuses the malformed --set with exit 2 and one line
# naming --set before running anything, and a key given twice; run names the unknown engine with exit 2, and reads
# '--set "k = v"' as k=v.
# How validated: help text, exit codes and the error lines.
set -u
BIN=$1; t=$(mktemp -d); trap 'rm -rf "$t"' EXIT; fail=0
has() { grep -qF -- "$2" "$t/$1" && echo "ok   $1: $2" || { echo "FAIL $1: no '$2'"; fail=1; }; }
for c in run compare validate; do "$BIN" $c --help > "$t/$c" 2>&1; done
has run "override a machine or MCA parameter in the scenario (key=value; an MCA parameter as NAME or mca.NAME), repeatable (one key=value each)"
has run "run the scenario on this engine instead of its own (ompisim list)"
has compare "override a machine or MCA parameter in every scenario rerun by --against (key=value; an MCA parameter as NAME or mca.NAME), repeatable (one key=value each)"
has compare "run every scenario rerun by --against on this engine instead of its own (ompisim list)"
has validate "override a machine or MCA parameter in every scenario (key=value; an MCA parameter as NAME or mca.NAME), repeatable (one key=value each): the table for a what-if"
echo '{"id": "s", "machine": "cielo", "stack": "openmpi", "ranks": 2, "benchmark": {"name": "osu_latency", "iterations": 2, "skip": 0, "sizes": [8]}}' > "$t/s.json"
mkdir -p "$t/results"
refused() {  # $1: label, then the command line: exit 2, one line naming --set
  local label=$1; shift
  "$@" > /dev/null 2> "$t/err"; local rc=$?
  if [ "$rc" -eq 2 ] && [ "$(wc -l < "$t/err")" -eq 1 ] && grep -q -- "--set" "$t/err"; then echo "ok   $label refused"
  else echo "FAIL $label: exit $rc, stderr: $(cat "$t/err")"; fail=1; fi
}
refused run "$BIN" run "$t/s.json" --out "$t/o" --set nokey
refused compare "$BIN" compare --against "$t/results" --set nokey
refused validate "$BIN" validate --paper seastar-portals --set nokey
"$BIN" run "$t/s.json" --out "$t/o2" --engine nosuch > /dev/null 2> "$t/err"; rc=$?
if [ "$rc" -eq 2 ] && grep -q "nosuch" "$t/err"; then echo "ok   run --engine nosuch refused"
else echo "FAIL run --engine nosuch: exit $rc, $(cat "$t/err")"; fail=1; fi
# The same key twice is refused on each, naming both values (the last would win silently); blanks around '=' are
# spacing: the key and value read without them.
refused "run, a key given twice" "$BIN" run "$t/s.json" --out "$t/o3" --set btl_ugni_smsg_limit=1024 --set btl_ugni_smsg_limit=2048
grep -qF -- "--set 'btl_ugni_smsg_limit': given twice ('1024', then '2048')" "$t/err" || { echo "FAIL twice: $(cat "$t/err")"; fail=1; }
refused "compare, a key given twice" "$BIN" compare --against "$t/results" --set a=1 --set a=2
refused "validate, a key given twice" "$BIN" validate --paper seastar-portals --set a=1 --set a=2
"$BIN" run "$t/s.json" --out "$t/o4" --set "nic.bte_bandwidth = 5 GB/s" > "$t/table" 2> "$t/err"; rc=$?
if [ "$rc" -eq 0 ] && grep -qxF "# overrides (--set): nic.bte_bandwidth=5 GB/s" "$t/table"; then echo "ok   --set 'k = v' reads k=v"
else echo "FAIL --set 'k = v': exit $rc, $(cat "$t/err") $(head -2 "$t/table")"; fail=1; fi
exit $fail
