#!/usr/bin/env bash
# Configuration: a tree with one source in protocols/ holding a lambda in a lambda in a lambda (the innermost with a
#                parameter list, `mutable` and a trailing return type), beside lambdas two deep, an array declarator
#                with a brace initialiser, an attribute, a structured binding, a subscript followed by a block, and
#                comments and strings that spell lambdas three deep; a 4-deep nest under a tests/ folder; and a model
#                source nesting two deep.
# Expected:      check_closure_depth.py names the third lambda's line only (exit 1); with it flattened, exit 0; with
#                limit 1 it names the lambdas two deep.
# How validated: exit codes and the printed lines.
set -euo pipefail
py=$1; root=$2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/protocols/x/tests" "$tmp/models/y"
cat > "$tmp/protocols/x/x.cpp" <<'CPP'
#include <functional>
// [this] { [this] { [this] { } } } in a comment
void f(std::function<void()> a) {
  int lanes[2]{1, 2};
  const char* s = "[] { [] { [] { } } }";
  [[maybe_unused]] auto two = [&] { auto in = [&] { return lanes[0]; }; };
  for (auto& [k, v] : std::map<int, int>{}) { k; }
  if (lanes[1]) { a(); }
  a = [a] {
    auto g = [a](int n) {
      auto h = [a, n](double x) mutable -> std::pair<int, double> { return {n, x}; };
    };
  };
}
CPP
cat > "$tmp/protocols/x/tests/t.cpp" <<'CPP'
void t() { [] { [] { [] { [] { }; }; }; }; }
CPP
cat > "$tmp/models/y/y.cpp" <<'CPP'
void m() { auto a = [] { auto b = [](int) noexcept { return 1; }; }; }
CPP
if out=$("$py" "$root/tests/arch/check_closure_depth.py" "$tmp"); then echo "three-deep lambda not detected"; exit 1; fi
grep -qx 'protocols/x/x.cpp:11: lambda nested 3 deep (limit 2)' <<<"$out" \
  || { echo "three-deep lambda not named: $out"; exit 1; }
[ "$(grep -c ': lambda nested ' <<<"$out")" = 1 ] || { echo "more than the one deep lambda named: $out"; exit 1; }
out1=$("$py" "$root/tests/arch/check_closure_depth.py" "$tmp" 1 || true)
for l in 'protocols/x/x.cpp:6: lambda nested 2 deep' 'protocols/x/x.cpp:10: lambda nested 2 deep' \
         'models/y/y.cpp:1: lambda nested 2 deep'; do
  grep -q "^$l" <<<"$out1" || { echo "limit 1: '$l' not named: $out1"; exit 1; }
done
[ "$(grep -c ': lambda nested ' <<<"$out1")" = 4 ] || { echo "limit 1: not the four nested lambdas: $out1"; exit 1; }
sed -i 's/auto h = \[a, n\](double x) mutable -> std::pair<int, double> { return {n, x}; };/int h = n;/' \
  "$tmp/protocols/x/x.cpp"
"$py" "$root/tests/arch/check_closure_depth.py" "$tmp" > /dev/null || { echo "a tree within the limit fails"; exit 1; }
echo "lambda nested too deep detected and named"
