#!/usr/bin/env bash
# Units and plain machine-file values (README §Units).
# Configuration: a scenario's "mca" with "btl_ugni_smsg_limit": "4 kB" (and "4 KB", "1 MB"), the same by --set and as a
#                grid axis; a user machine file started with `machine template` whose bte_bandwidth is a plain "8 GB/s"
#                value; the same file with a bare number for a time.
# Expected:      an SI-prefixed byte size exits 2 with one line naming the file, the key and the binary spelling
#                ('4 KiB' (4096 B)), nothing written; "4 KiB" runs. The template loads as written;
#                a plain value loads as {"value": ...} and a run on it records the value; a bare number for a time
#                exits 2 naming the key.
# How validated: exit codes, the error line, the provenance of the run's result JSON.
set -u
BIN=$(realpath "$1"); t=$(mktemp -d); trap 'rm -rf "$t"' EXIT; fail=0
ok() { echo "ok   $1"; }
bad() { echo "FAIL $1"; fail=1; }
scen() {  # file smsg-limit-json
  printf '{"machine": "cielo", "stack": "openmpi", "ranks": 2, "mca": {"btl_ugni_smsg_limit": %s},
    "benchmark": {"name": "osu_latency", "sizes": [1, 4096], "iterations": 2, "skip": 0}}' "$2" > "$1"
}
refused() {  # name expected-text command...
  local name=$1 want=$2; shift 2
  "$@" > /dev/null 2> "$t/$name.err"; local rc=$?
  if [[ $rc == 2 && $(wc -l < "$t/$name.err") == 1 ]] && grep -q -- "$want" "$t/$name.err" && [[ ! -e "$t/out-$name" ]]; then
    ok "$name: $(cat "$t/$name.err")"
  else
    bad "$name: rc=$rc $(cat "$t/$name.err")"
  fi
}
for u in "4 kB" "4 KB"; do
  scen "$t/si.json" "\"$u\""
  refused "si-${u// /}" "si.json: key 'mca.btl_ugni_smsg_limit': '$u': byte sizes are binary.*'4 KiB' (4096 B)" \
    "$BIN" run "$t/si.json" --out "$t/out-si-${u// /}"
done
scen "$t/mb.json" '"1 MB"'
refused si-MB "key 'mca.btl_ugni_smsg_limit'.*'1 MiB' (1048576 B)" "$BIN" run "$t/mb.json" --out "$t/out-si-MB"
scen "$t/kib.json" '"4 KiB"'
refused si-set "btl_ugni_smsg_limit.*byte sizes are binary" "$BIN" run "$t/kib.json" --set "btl_ugni_smsg_limit=4 kB" --out "$t/out-si-set"
refused si-max-input "max-input-size.*'16 MiB' (16777216 B)" "$BIN" --max-input-size "16 MB" run "$t/kib.json" --out "$t/out-si-max-input"
printf '{"base": "kib.json", "axes": {"mca.btl_ugni_smsg_limit": ["2 KiB", "4 kB"]}}' > "$t/grid.json"
refused si-grid "grid.json: key 'axes.mca.btl_ugni_smsg_limit'.*byte sizes are binary" "$BIN" sweep "$t/grid.json" --out "$t/out-si-grid"
if "$BIN" run "$t/kib.json" --json --out "$t/kib" > "$t/kib.out" 2> "$t/kib.err" \
   && python3 -c "import json,sys; p=json.load(open('$t/kib/kib.json'))['provenance']; sys.exit(0 if '4096' in json.dumps(p) else 1)"; then
  ok "4 KiB runs and is 4096 B in the provenance"
else bad "4 KiB: $(cat "$t/kib.err")"; fi

# Machine files: the template loads as written; a plain value loads and is used (the source it gets is checked by
# unit_tests "params: plain values in a machine file").
"$BIN" machine template mine --out "$t" 2> /dev/null || bad "machine template"
"$BIN" run "$t/kib.json" --machine-file "$t/mine.json" --out "$t/tpl" > /dev/null 2> "$t/tpl.err" \
  && ok "the template loads (run --machine-file)" || bad "template: $(cat "$t/tpl.err")"
# a template of every installed machine loads as written (describe reads it whole)
every_fail=0
for m in $("$BIN" list | sed -n '/^machines:/,/^[a-z]/s/^  \([^ ]*\) .*/\1/p'); do
  "$BIN" machine template "t-$m" --like "$m" --out "$t/every" 2> /dev/null \
    && "$BIN" describe "$t/every/t-$m.json" > /dev/null 2> "$t/every.err" \
    || { bad "the template of $m does not load: $(cat "$t/every.err")"; every_fail=1; }
done
[[ $every_fail == 0 ]] && ok "the template of every machine loads ($(ls "$t/every" | wc -l) machines)"
# a template of a machine that extends a base (whatif-cielo-2nic: base cielo) holds the base's parameters too, each
# with its note, and runs as the machine it copies
"$BIN" machine template two --like whatif-cielo-2nic --out "$t" 2> /dev/null || bad "machine template --like whatif-cielo-2nic"
python3 -c "
import json, sys
j = json.load(open('$t/two.json'))
assert 'base' not in j, 'base kept'
e = j['networks']['gemini']['nic']['bte_bandwidth']
assert 'note' in e and 'value' in e, e
assert j['networks']['gemini']['ports_per_node'] == 2
" && "$BIN" run "$t/kib.json" --machine-file "$t/two.json" --out "$t/two" > /dev/null 2>&1 \
  && "$BIN" run "$t/kib.json" --machine-file "$(dirname "$BIN")/../share/ompisim/models/gemini/machines/whatif-cielo-2nic.json" --out "$t/two0" \
    > /dev/null 2>&1 \
  && "$BIN" compare "$t/two/kib.json" "$t/two0/kib.json" > /dev/null \
  && ok "a template of a machine with a base holds every parameter with its note, and runs as that machine" \
  || bad "template of whatif-cielo-2nic: $(head -c 300 "$t/two.json")"
python3 - "$t/mine.json" "$t/plain.json" "$t/bare.json" <<'P'
import json, sys
j = json.load(open(sys.argv[1]))
nic = j["networks"]["gemini"]["nic"]
nic["bte_bandwidth"] = "8 GB/s"
json.dump(j, open(sys.argv[2], "w"), indent=1)
nic["bte_post_latency"] = 1.5  # a time without its unit
json.dump(j, open(sys.argv[3], "w"), indent=1)
P
if "$BIN" run "$t/kib.json" --machine-file "$t/plain.json" --out "$t/plain" > /dev/null 2> "$t/plain.err" \
   && python3 - "$t/plain/kib.json" <<'P'
import json, sys
sys.exit(0 if json.load(open(sys.argv[1]))["provenance"]["parameters"]["nic.bte_bandwidth"] == "8 GB/s" else 1)
P
then ok "plain \"bte_bandwidth\": \"8 GB/s\" loads and runs (provenance: nic.bte_bandwidth 8 GB/s)"
else bad "plain value: $(cat "$t/plain.err")"; fi
refused bare-time "bare.json: key 'networks.gemini.nic.bte_post_latency'.*with its unit" \
  "$BIN" run "$t/kib.json" --machine-file "$t/bare.json" --out "$t/out-bare-time"
exit $fail
