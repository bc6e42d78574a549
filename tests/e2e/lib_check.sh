# Shared by the e2e scripts (they set BIN, t and fail before sourcing it).
# expect_input_error NAME EXPECTED-REGEX ompisim-arguments...: runs ompisim with them. Expected: exit status 2, one line
# on stderr matching EXPECTED-REGEX (file, key and reason), and no output folder $t/out-NAME.
expect_input_error() {
  local name=$1 want=$2; shift 2
  "$BIN" "$@" > /dev/null 2> "$t/$name.err"; local rc=$?
  if [[ $rc != 2 ]] || ! grep -q -- "$want" "$t/$name.err" || [[ $(wc -l < "$t/$name.err") != 1 ]] || [[ -e "$t/out-$name" ]]; then
    echo "FAIL $name: rc=$rc err=$(cat "$t/$name.err")"; fail=1; else echo "ok   $name: $(cat "$t/$name.err")"; fi
}
# check NAME JSON EXPECTED-REGEX [extra ompisim run arguments...]: `ompisim run` of the scenario JSON, as above.
check() {
  local name=$1 json=$2 want=$3; shift 3
  printf '%s' "$json" > "$t/$name.json"
  expect_input_error "$name" "$want" run "$t/$name.json" --out "$t/out-$name" "$@"
}
