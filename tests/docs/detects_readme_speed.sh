#!/usr/bin/env bash
# docs.readme_speed can fail: README.md copies with a figure, a wall time, a peak RSS and a file count that
# bench/README.md and the tree do not give, and one that leaves a run out, are each refused.
# Usage: detects_readme_speed.sh PYTHON SOURCE_DIR
set -u
py=$1; src=$2; tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT; fail=0
mutate() {  # mutate SED-EXPRESSION WHAT: the check must exit 1 on README.md so edited
  sed "$1" "$src/README.md" > "$tmp/README.md"
  cmp -s "$src/README.md" "$tmp/README.md" && { echo "FAIL the edit '$1' changed nothing"; fail=1; return; }
  if "$py" "$src/tests/docs/check_readme_speed.py" "$src" "$tmp/README.md" > "$tmp/out"; then
    echo "FAIL not detected: $2"; fail=1
  else
    echo "ok   detected: $2 ($(head -1 "$tmp/out"))"
  fi
}
mutate 's/| 30\.68 s user;/| 74.0 s user;/' "a target's figure bench/README.md does not give"
mutate 's/(all 72 `scenarios/(all 66 `scenarios/' "a file count the tree does not hold"
mutate 's/(`multi_lat_16384`) | [0-9.]* |/(`multi_lat_16384`) | 1234.5 |/' "a wall time other than bench/README.md's"
mutate 's/(`titan_p2p_299008`) | \([0-9.]*\) | [0-9]* |/(`titan_p2p_299008`) | \1 | 12345 |/' "a peak RSS other than bench/README.md's"
mutate '/(`qsnet_whole_paper`)/d' "a run of bench/run.sh left out"
exit $fail
