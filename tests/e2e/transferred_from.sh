#!/usr/bin/env bash
# Errors reached through a machine file's transferred_from name that file and the key of the transfer: an unknown source
# machine and a source parameter that does not exist, each one line "ompisim: error: FILE: key 'K': ...", exit 2.
# Configuration: jaguar-xt4's machine file with one transfer broken, given with --machine-file to a Jaguar scenario.
set -u
BIN=$(realpath "$1"); SRC=$(realpath "$2"); t=$(mktemp -d); trap 'rm -rf "$t"' EXIT; fail=0
key=networks.seastar.software.pml_cm_overhead.transferred_from
python3 - "$SRC/models/seastar/machines/jaguar-xt4.json" "$t" <<'PY'
import json, sys
src, t = sys.argv[1], sys.argv[2]
for name, field, value in (("machine", "machine", "no-such-machine"), ("key", "key", "software.no_such_key")):
    d = json.load(open(src))
    d["networks"]["seastar"]["software"]["pml_cm_overhead"]["transferred_from"][field] = value
    json.dump(d, open(f"{t}/{name}.json", "w"), indent=1)
PY
check() {  # check NAME FILE REGEX
  "$BIN" run "$SRC/scenarios/seastar/fig5_app_gtc_native.json" --machine-file "$t/$2" --out "$t/out" > /dev/null 2> "$t/err"
  local rc=$?
  if [[ $rc == 2 && $(wc -l < "$t/err") == 1 ]] && grep -q -E -- "$3" "$t/err" && [[ ! -e $t/out/fig5_app_gtc_native.json ]]; then
    echo "ok   $1: $(cut -c1-160 "$t/err")"
  else echo "FAIL $1: exit $rc: $(head -c 300 "$t/err")"; fail=1; fi
}
check "unknown source machine" machine.json "^ompisim: error: $t/machine.json: key '$key.machine': unknown machine 'no-such-machine'"
check "unknown source parameter" key.json "^ompisim: error: $t/key.json: key '$key.key': machine 'red-storm' .* has no parameter 'software.no_such_key'"
exit $fail
