# Shared by the e2e scripts: check NAME JSON EXPECTED-REGEX [extra ompisim args...]
# Expected: exit status 2, one line on stderr matching EXPECTED-REGEX (file, key and reason), and no output folder.
check() {
  local name=$1 json=$2 want=$3; shift 3
  printf '%s' "$json" > "$t/$name.json"
  "$BIN" run "$t/$name.json" --out "$t/out-$name" "$@" > /dev/null 2> "$t/$name.err"; local rc=$?
  if [[ $rc != 2 ]] || ! grep -q -- "$want" "$t/$name.err" || [[ $(wc -l < "$t/$name.err") != 1 ]] || [[ -e "$t/out-$name" ]]; then
    echo "FAIL $name: rc=$rc err=$(cat "$t/$name.err")"; fail=1; else echo "ok   $name: $(cat "$t/$name.err")"; fi
}
