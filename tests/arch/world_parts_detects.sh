#!/usr/bin/env bash
# Configuration: a copy of models/ and protocols/ with a model file that includes platform/world.hpp and a component
#                README that names World; then an exception listed for a file that does not name World.
# Expected:      check_world_parts.py exits 0 on the unmodified copy; exits 1 naming the model file and the README;
#                reports the stale exception.
# How validated: exit codes and the printed lines.
set -euo pipefail
py=$1; root=$2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cp -r "$root/models" "$root/protocols" "$tmp/"
"$py" "$root/tests/arch/check_world_parts.py" "$tmp" > /dev/null || { echo "unmodified copy fails"; exit 1; }
echo '#include "platform/world.hpp"' >> "$tmp/models/gemini/gni.cpp"
echo 'The component takes the World.' >> "$tmp/protocols/btl/README.md"
if out=$("$py" "$root/tests/arch/check_world_parts.py" "$tmp"); then echo "violation not detected"; exit 1; fi
grep -q '^models/gemini/gni.cpp:.*includes platform/world.hpp' <<<"$out" || { echo "model file not named: $out"; exit 1; }
grep -q '^protocols/btl/README.md:.*names World' <<<"$out" || { echo "README not named: $out"; exit 1; }
stale=$("$py" -c "
import sys; sys.path.insert(0, '$root/tests/arch'); import check_world_parts as c
c.EXCEPTIONS = {'protocols/btl/btl.hpp': 'a reason'}
print('\\n'.join(c.violations('$root')))")
grep -q "^protocols/btl/btl.hpp: listed as an exception but no longer names World" <<<"$stale" \
  || { echo "stale exception not named: $stale"; exit 1; }
echo "violations detected and named"
