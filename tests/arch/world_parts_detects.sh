#!/usr/bin/env bash
# Configuration: a copy of models/ and protocols/ with a model file that includes platform/world.hpp, and with one
#                listed exception's file no longer naming World.
# Expected:      check_world_parts.py exits 1, naming the model file and the stale exception; on the unmodified copy it
#                exits 0.
# How validated: exit codes and the printed lines.
set -euo pipefail
py=$1; root=$2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cp -r "$root/models" "$root/protocols" "$tmp/"
"$py" "$root/tests/arch/check_world_parts.py" "$tmp" > /dev/null || { echo "unmodified copy fails"; exit 1; }
echo '#include "platform/world.hpp"' >> "$tmp/models/gemini/gni.cpp"
stale=$("$py" -c "import sys; sys.path.insert(0, '$root/tests/arch'); import check_world_parts as c; print(sorted(c.EXCEPTIONS)[0])")
sed -i -E 's/\bWorld\b/Platform/g; s|platform/world\.hpp|platform/fabric.hpp|g' "$tmp/$stale"
if out=$("$py" "$root/tests/arch/check_world_parts.py" "$tmp"); then echo "violation not detected"; exit 1; fi
grep -q '^models/gemini/gni.cpp:.*includes platform/world.hpp' <<<"$out" || { echo "model file not named: $out"; exit 1; }
grep -q "^$stale: listed as an exception but no longer names World" <<<"$out" || { echo "stale exception not named: $out"; exit 1; }
echo "violations detected and named"
