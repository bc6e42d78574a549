#!/usr/bin/env bash
# Configuration: a tree with one source in core/ holding a 120-line function, a 121-line function (its braces, strings
#                and comments holding stray braces), a 121-line class whose member functions are short, and a 200-line
#                function under a tests/ folder.
# Expected:      check_function_length.py names the 121-line function only (exit 1); with it removed, exit 0.
# How validated: exit codes and the printed line.
set -euo pipefail
py=$1; root=$2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/core/tests"
body() {  # a function header, $1 - 2 body lines, its closing brace: $1 lines in all
  echo "int $2(int a) {"
  for ((i = 0; i < $1 - 2; i++)); do echo '  a += 1;  // } { "'; done
  echo '}'
}
{
  body 120 fits
  echo 'int too_long(int a) {'
  echo '  const char* s = "}}}";'
  echo "  char c = '{';"
  for ((i = 0; i < 116; i++)); do echo '  if (a) { a -= 1; }'; done
  echo '  return a + c + s[0];'
  echo '}'
  echo 'struct Big {'
  for ((i = 0; i < 119; i++)); do echo "  int f$i() const { return $i; }"; done
  echo '};'
} > "$tmp/core/sample.cpp"
body 200 in_a_test > "$tmp/core/tests/sample_test.cpp"
if out=$("$py" "$root/tests/arch/check_function_length.py" "$tmp"); then echo "over-long function not detected"; exit 1; fi
grep -q '^core/sample.cpp:121: function of 121 lines (limit 120): int too_long(int a)$' <<<"$out" \
  || { echo "over-long function not named: $out"; exit 1; }
[ "$(grep -c ': function of ' <<<"$out")" = 1 ] || { echo "more than the one over-long function named: $out"; exit 1; }
sed -i '/^int too_long/,/^}/d' "$tmp/core/sample.cpp"
"$py" "$root/tests/arch/check_function_length.py" "$tmp" > /dev/null || { echo "a tree within the limit fails"; exit 1; }
echo "over-long function detected and named"
