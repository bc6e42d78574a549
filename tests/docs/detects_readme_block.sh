#!/usr/bin/env bash
# Configuration: a small git repository whose README.md has a command block with its output shown (wildcards {n},
#                {*}, ...), a block expected to exit 2, a block written as a file for the next one, and a skipped block.
# Expected:      run_readme_blocks.py exits 0 on it; it exits 1 when the shown output differs, when a command fails,
#                when a skip has no reason, and when a block writes into the repository.
# How validated: exit codes and the FAIL lines.
set -euo pipefail
py=$1; tool=$2; root=$3
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
repo=$tmp/repo; mkdir "$repo"; git -C "$repo" init -q
good() { cat > "$repo/README.md" <<'MD'
# planted
<!-- readme-test: file g.json -->
```json
{"x": 1}
```
```sh
cat g.json; echo "latency 3.25 us at $(date +%s)"; echo "a"; echo "b"; echo "end"
```
<!-- readme-test: output -->
```text
{"x": 1}
latency {n} us at {*}
...
end
```
<!-- readme-test: exit 2 -->
```sh
ompisim --no-such-option
```
<!-- readme-test: skip (would take an hour) -->
```sh
sleep 3600
```
MD
}
run() { "$py" "$root/tests/docs/run_readme_blocks.py" "$tool" "$repo" > "$tmp/out" 2>&1; }
expect_fail() {  # $1: what was planted
  git -C "$repo" add -A
  if run; then echo "not detected: $1"; cat "$tmp/out"; exit 1; fi
  grep -q '^FAIL' "$tmp/out" || { echo "no FAIL line for: $1"; cat "$tmp/out"; exit 1; }
}
good; git -C "$repo" add -A
run || { echo "the good README fails:"; cat "$tmp/out"; exit 1; }
good; sed -i 's/^latency {n} us/latency {n} ms/' "$repo/README.md"; expect_fail "output differs"
good; sed -i 's/^cat g.json;/cat missing.json;/' "$repo/README.md"; expect_fail "a command fails"
good; sed -i 's/skip (would take an hour)/skip/' "$repo/README.md"; expect_fail "skip without a reason"
good; sed -i 's/^ompisim --no-such-option/ompisim --version/' "$repo/README.md"; expect_fail "exit 0 where 2 is shown"
good; sed -i "s#^cat g.json;#cat g.json; touch \"\$(readlink -f README.md | xargs dirname)/written.txt\";#" "$repo/README.md"
expect_fail "a block writes into the repository"
grep -q "wrote into the repository" "$tmp/out" || { echo "the write was not named"; cat "$tmp/out"; exit 1; }
echo "failing README blocks detected"
