#!/usr/bin/env bash
# The folder READMEs name what they say they list: tools/README.md every subcommand file tools/ompisim/cmd_*.cpp,
# runner/README.md every stack preset `ompisim list` prints.
# Usage: check_folder_readmes.sh OMPISIM SOURCE_DIR
set -u
tool=$1; src=$2; fail=0
for f in "$src"/tools/ompisim/cmd_*.cpp; do
  n=$(basename "$f")
  grep -q "\`\(ompisim/\)\{0,1\}$n\`" "$src/tools/README.md" || { echo "tools/README.md does not name $n"; fail=1; }
done
presets=$("$tool" list | sed -n '/^stacks (presets):/,/^[a-z]/p' | sed -n 's/^  \([a-z0-9-]*\) .*/\1/p' | sort -u)
[ -n "$presets" ] || { echo "no stack preset in 'ompisim list'"; exit 1; }
for p in $presets; do
  grep -q "\`$p\`" "$src/runner/README.md" || { echo "runner/README.md does not name stack preset $p"; fail=1; }
done
[[ $fail == 0 ]] && echo "ok: tools/README.md names every cmd_*.cpp, runner/README.md every preset ($(echo $presets))"
exit $fail
