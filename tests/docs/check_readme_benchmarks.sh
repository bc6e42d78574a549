#!/usr/bin/env bash
# README.md names every benchmark the tool registers (`ompisim list`), as `name` in its benchmark table.
# Usage: check_readme_benchmarks.sh OMPISIM SOURCE_DIR
set -euo pipefail
tool=$1; readme=$2/README.md
names=$("$tool" list | sed -n '/^benchmarks (/,/^benchmark keys/p' | sed -n 's/^  \([a-z_0-9]*\) .*/\1/p')
[ -n "$names" ] || { echo "no benchmark in 'ompisim list'"; exit 1; }
missing=0
for n in $names; do grep -q "| \`$n\` |" "$readme" || { echo "README.md does not list benchmark $n"; missing=1; }; done
exit $missing
