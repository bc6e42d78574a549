#!/usr/bin/env bash
# Configuration: a copy of the tree's layer folders with deliberate violations added (platform/ including
#                protocols/, a models/ file including SimGrid, and an include cycle between two component folders of
#                one layer: ofi/shm including ofi/linkx, which includes ofi/shm).
# Expected:      check_layers.py exits 1 and names the files and the cycle; on the unmodified copy it exits 0.
# How validated: exit codes and the printed lines.
set -euo pipefail
py=$1; root=$2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
for d in core engine platform models mpi protocols collectives benchmarks runner validation tools tests bench; do
  [ -d "$root/$d" ] && cp -r "$root/$d" "$tmp/$d"
done
"$py" "$root/tests/arch/check_layers.py" "$tmp" > /dev/null || { echo "unmodified copy fails"; exit 1; }
echo '#include "protocols/btl/btl.hpp"' >> "$tmp/platform/world.hpp"
echo '#include <simgrid/s4u.hpp>' >> "$tmp/models/gemini/gni.cpp"
echo '#include "protocols/ofi/linkx/linkx.hpp"' >> "$tmp/protocols/ofi/shm/shm_provider.cpp"
if out=$("$py" "$root/tests/arch/check_layers.py" "$tmp"); then echo "violation not detected"; exit 1; fi
grep -q 'platform/world.hpp:.*platform/ may not include protocols/' <<<"$out" || { echo "layer violation not named: $out"; exit 1; }
grep -q 'models/gemini/gni.cpp:.*only engine/ may include SimGrid' <<<"$out" || { echo "SimGrid violation not named: $out"; exit 1; }
grep -q 'include cycle between component folders protocols/ofi/linkx, protocols/ofi/shm: .*protocols/ofi/shm/shm_provider.cpp:' <<<"$out" \
  || { echo "component-folder cycle not named: $out"; exit 1; }
echo "violations detected and named"
