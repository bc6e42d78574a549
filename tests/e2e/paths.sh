#!/usr/bin/env bash
# Security: nothing is written outside --out. (1) Names that become paths ("..", absolute, a slash, a
# leading dot) and machine names that are paths: exit 2, nothing written anywhere. (2) A symlinked --out is resolved
# once and written into (documented); a symlinked result file inside it is refused, link and target untouched; a symlinked
# folder inside the output folder is never followed. (3) --machine-file reads an explicit file.
# How validated: exit codes, stderr, and a listing of the whole temporary tree before and after.
set -u
BIN=$(realpath "$1"); SRC=$(cd "$(dirname "$0")/../.." && pwd); t=$(mktemp -d); trap 'rm -rf "$t"' EXIT; fail=0
. "$SRC/tests/e2e/lib_check.sh"
mkdir -p "$t/a/b/c"; cd "$t/a/b/c"
Q='"stack": "openmpi", "benchmark": {"name": "osu_latency", "sizes": [1], "iterations": 2, "skip": 0}, "ranks": 2'
check id_dotdot "{\"id\": \"../../escaped\", \"machine\": \"cielo\", $Q}" "key 'id': '../../escaped' is not a valid name"
check id_absolute "{\"id\": \"/tmp/escaped\", \"machine\": \"cielo\", $Q}" "key 'id'.*not a valid name"
check id_slash "{\"id\": \"sub/escaped\", \"machine\": \"cielo\", $Q}" "key 'id'.*not a valid name"
check id_dot "{\"id\": \".hidden\", \"machine\": \"cielo\", $Q}" "key 'id'.*not a valid name"
check figure_slash "{\"figure\": \"../fig2\", \"machine\": \"cielo\", $Q}" "key 'figure'.*cannot name a file"
check machine_dotdot "{\"machine\": \"../../../etc/passwd\", $Q}" "key 'machine'.*not a valid name"
check machine_absolute "{\"machine\": \"/etc/passwd\", $Q}" "key 'machine'.*not a valid name"
check machine_slash "{\"machine\": \"gemini/cielo\", $Q}" "key 'machine'.*not a valid name"
check machine_json "{\"machine\": \"cielo.json\", $Q}" "key 'machine'.*unknown machine 'cielo.json'"
if ls "$t"/escaped* "$t"/a/escaped* "$t"/a/b/escaped* /tmp/escaped* 2> /dev/null; then echo "FAIL: a file escaped"; fail=1; fi
# (2) symlinked --out: results land in its target and nowhere else.
printf '{"id": "r", "machine": "cielo", %s}' "$Q" > "$t/s.json"
mkdir "$t/target"; ln -s "$t/target" "$t/outlink"
before=$(cd "$t" && find . ! -name err | sort)
"$BIN" run "$t/s.json" --out "$t/outlink" > /dev/null 2> "$t/err" || { echo "FAIL symlinked out: $(cat "$t/err")"; fail=1; }
after=$(cd "$t" && find . ! -name err | sort)
new=$(comm -13 <(echo "$before") <(echo "$after") | tr '\n' ' ')
[[ "$new" == "./target/r.csv ./target/r.json " ]] && echo "ok   symlinked --out: wrote $new" || { echo "FAIL symlinked --out wrote: $new"; fail=1; }
grep -q "wrote $t/target/r.json" "$t/err" || { echo "FAIL: stderr does not say where: $(cat "$t/err")"; fail=1; }
# a result file that is a symlink to a file elsewhere: refused, neither followed nor replaced
echo precious > "$t/victim"; rm "$t/target/r.json"; ln -s "$t/victim" "$t/target/r.json"
"$BIN" run "$t/s.json" --out "$t/target" > /dev/null 2> "$t/err"; rc=$?
[[ $rc == 2 && $(cat "$t/victim") == precious && -L "$t/target/r.json" ]] && grep -q "symbolic link: refusing to replace it" "$t/err" && echo "ok   symlinked result file refused, link and target untouched" || { echo "FAIL symlinked result: rc=$rc $(cat "$t/err")"; fail=1; }
rm "$t/target/r.json"
# a relative --plot is a path inside the output folder: '..' is refused
"$BIN" run "$t/s.json" --out "$t/target" --plot ../escaped.svg > /dev/null 2> "$t/err"; rc=$?
[[ $rc == 2 && ! -e "$t/escaped.svg" ]] && grep -q "^ompisim: error: --plot '../escaped.svg': '..' is not a valid name" "$t/err" && echo "ok   --plot ../escaped.svg: $(cat "$t/err")" || { echo "FAIL --plot path: rc=$rc $(cat "$t/err")"; fail=1; }
# (3) --machine-file: an explicit file, recorded as given.
cp "$SRC/models/gemini/machines/cielo.json" "$t/mymachine.json"
"$BIN" run "$t/s.json" --machine-file "$t/mymachine.json" --json --out "$t/mf" > "$t/mf.json" 2> "$t/err" || { echo "FAIL --machine-file: $(cat "$t/err")"; fail=1; }
python3 -c "import json,sys; p=json.load(open(sys.argv[1]))['provenance']; assert p['machine_file']==sys.argv[2], p['machine_file']" "$t/mf.json" "$t/mymachine.json" \
  && echo "ok   --machine-file recorded" || fail=1
exit $fail
