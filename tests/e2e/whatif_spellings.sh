#!/usr/bin/env bash
# A what-if names one parameter once, and says when it changed nothing.
# Configuration: a 2-rank inter-node osu_latency on Cielo (Open MPI), run, swept and compared.
# Expected:      (1) run with one machine parameter under two spellings (nic.nic_latency and nic_latency) exits 2 naming
#                both (the last won silently, and the header listed both); (2) a sweep whose --set gives an axis's
#                parameter under another spelling exits 2 (the --set overrode the axis at every point and the CSV
#                labelled values no point ran); (3) a grid with one MCA parameter as two axes (mca.X and X) exits 2;
#                (4) a sweep over a machine parameter no point reads warns on stderr and lists it in sweep.json's
#                provenance.unread_overrides; a sweep over one that is read does neither; (5) compare --against with
#                an MCA --set that one file's stack does not read says so for that file and not for the other;
#                (6) run --engine other than the scenario's, without --out, writes ompisim-out/<id>-whatif-<hash>/;
#                (7) one --set under its short, path and long names, without --out, writes one what-if folder.
# How validated: exit status, stderr, the JSON read back with python3.
set -u
BIN=$(realpath "$1"); SRC=$(cd "$(dirname "$0")/../.." && pwd); t=$(mktemp -d); trap 'rm -rf "$t"' EXIT; fail=0
ok() { echo "ok   $1"; }
ko() { echo "FAIL $1"; fail=1; }
cd "$t"
echo '{"id": "lat", "machine": "cielo", "stack": "openmpi", "ranks": 2, "ranks_per_node": 1, "benchmark": {"name": "osu_latency", "iterations": 2, "skip": 0, "sizes": [1]}}' > lat.json
# (1)
"$BIN" run lat.json --set nic.nic_latency=1us --set nic_latency=2us --out o1 > /dev/null 2> err; rc=$?
[[ $rc == 2 && ! -e o1/lat.json ]] && grep -q "^ompisim: error: --set 'nic_latency': sets the same parameter as 'nic.nic_latency': give it once$" err \
  && ok "run: one parameter under two spellings refused" || ko "run two spellings: rc=$rc $(cat err)"
# (1b) an MCA parameter named as the scenario's mca block and a grid name it, mca.X, is X (it was "unknown parameter");
# X and mca.X together are one parameter given twice
"$BIN" run lat.json --set mca.btl_ugni_smsg_limit=256 --out o1b --json > a.json 2> err; rc=$?
"$BIN" run lat.json --set btl_ugni_smsg_limit=256 --out o1c --json > b.json 2> /dev/null
"$BIN" run lat.json --set mca.btl_ugni_smsg_limit=256 --set btl_ugni_smsg_limit=512 --out o1d > /dev/null 2> err2; rc2=$?
[[ $rc == 0 && $rc2 == 2 ]] && python3 -c "import json; a=json.load(open('a.json')); b=json.load(open('b.json'))
assert a['points'] == b['points'] and a['provenance']['overrides'] == [['btl_ugni_smsg_limit', '256']], a['provenance']['overrides']" \
  && grep -q -- "--set 'btl_ugni_smsg_limit': given twice ('256', then '512')" err2 \
  && ok "run --set mca.X is X; X and mca.X together refused" || ko "--set mca.X: rc=$rc rc2=$rc2 $(cat err err2)"
# (2)
echo '{"base": "lat.json", "axes": {"nic.nic_latency": ["1 us", "2 us"]}}' > g1.json
"$BIN" sweep g1.json --set nic_latency=3us --out s1 > /dev/null 2> err; rc=$?
[[ $rc == 2 && ! -e s1/sweep.csv ]] && grep -q -- "--set 'nic_latency': sets the same parameter as 'nic.nic_latency'.*(grid g1.json, point 1 of 2)" err \
  && ok "sweep: a --set of an axis's parameter under another spelling refused" || ko "sweep --set spelling: rc=$rc $(cat err)"
# (3)
echo '{"base": "lat.json", "axes": {"mca.btl_ugni_smsg_limit": [256, 1024], "btl_ugni_smsg_limit": [512]}}' > g2.json
"$BIN" sweep g2.json --out s2 > /dev/null 2> err; rc=$?
[[ $rc == 2 ]] && grep -q "g2.json: key 'axes.btl_ugni_smsg_limit': axis 'btl_ugni_smsg_limit' sets the MCA parameter that axis 'mca.btl_ugni_smsg_limit' sets" err \
  && ok "sweep: one MCA parameter as two axes refused" || ko "sweep two MCA axes: rc=$rc $(cat err)"
# (4)
echo '{"base": "lat.json", "axes": {"nic.amo_latency": ["0.1 us", "1 us"]}}' > g3.json
echo '{"base": "lat.json", "axes": {"nic.nic_latency": ["1 us", "2 us"]}}' > g4.json
"$BIN" sweep g3.json --out s3 > /dev/null 2> err3; rc3=$?
"$BIN" sweep g4.json --out s4 > /dev/null 2> err4; rc4=$?
[[ $rc3 == 0 && $rc4 == 0 ]] && grep -q "^ompisim sweep: warning: nic.amo_latency: no part of any point's run read it" err3 && ! grep -q warning err4 \
  && python3 -c "import json; a=json.load(open('s3/sweep.json'))['provenance']; b=json.load(open('s4/sweep.json'))['provenance']
assert a['unread_overrides'] == ['nic.amo_latency'] and 'unread_overrides' not in b, (a, b)" \
  && ok "sweep over a parameter no point reads: warned and listed; one that is read: neither" || ko "sweep unread: $rc3 $rc4 $(cat err3 err4)"
# (5)
"$BIN" --quiet compare --against "$SRC/results" --only gemini/fig5_latency_2p_inter --set btl_ugni_smsg_limit=256 > cmp.txt 2> err; rc=$?
[[ $rc == 0 || $rc == 1 ]] && grep -q "^# gemini/fig5_latency_2p_inter_native.json: --set btl_ugni_smsg_limit: stack 'native' does not read it" cmp.txt \
  && ! grep -q "fig5_latency_2p_inter_openmpi.json: --set" cmp.txt \
  && ok "compare --against --set: an MCA parameter one stack does not read is said of that file" || ko "compare note: rc=$rc $(grep '^#' cmp.txt) $(cat err)"
# (6)
"$BIN" run lat.json > /dev/null 2> /dev/null; plain=$(sha256sum < ompisim-out/lat/lat.json)
"$BIN" run lat.json --engine des > /dev/null 2> err; rc=$?
w=$(ls -d ompisim-out/lat-whatif-* 2> /dev/null)
[[ $rc == 0 && -n "$w" && -s "$w/lat.json" && $(sha256sum < ompisim-out/lat/lat.json) == "$plain" ]] \
  && python3 -c "import json,sys; assert json.load(open(sys.argv[1]))['provenance']['engine'] == 'des'" "$w/lat.json" \
  && ok "run --engine des without --out: $w/, the plain result kept" || ko "run --engine folder: rc=$rc $(ls ompisim-out) $(cat err)"
# (7)
rm -rf ompisim-out
for k in bte_bandwidth nic.bte_bandwidth networks.gemini.nic.bte_bandwidth; do
  "$BIN" run lat.json --set "$k=6 GB/s" > /dev/null 2>> err7 || ko "run --set $k"
done
n=$(ls -d ompisim-out/lat-whatif-* 2> /dev/null | wc -l)
[[ $n == 1 ]] && ok "one what-if under three spellings of its parameter: one folder ($(ls ompisim-out))" \
  || ko "what-if spellings: $n folders: $(ls ompisim-out)"
exit $fail
