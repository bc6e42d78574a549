#!/usr/bin/env bash
# Configuration: a small git repository whose files name work items in prose, a code comment and a JSON string, cite
#                another project's issue with its repository, and keep history in CHANGELOG.md.
# Expected:      check_no_work_items.py exits 1 and names exactly the three work-item lines; with them removed it
#                exits 0 (the cited issue and CHANGELOG.md are allowed).
# How validated: exit codes and the printed lines.
set -euo pipefail
py=$1; root=$2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
git -C "$tmp" init -q
printf 'What holds today.\nMeasured in session 12.\n' > "$tmp/README.md"
printf '// Issue 16: prediction intervals.\nint x;\n' > "$tmp/a.cpp"
printf '{"see": "Gemini (sessions 3 and 4)"}\n' > "$tmp/b.json"
printf 'Default from pmodels/mpich issue #7723 and ofiwg/libfabric issue 5861.\n' > "$tmp/cited.md"
printf '## 0.1.0\n* from session 12 on\n' > "$tmp/CHANGELOG.md"
git -C "$tmp" add -A
if out=$("$py" "$root/tests/docs/check_no_work_items.py" "$tmp"); then echo "work items not detected"; exit 1; fi
want=$'README.md:2: names a work item: session 12\na.cpp:1: names a work item: Issue 16\nb.json:1: names a work item: sessions 3 and 4'
got=$(grep 'names a work item' <<<"$out" | sort)
[ "$got" = "$(sort <<<"$want")" ] || { echo "expected exactly:"; echo "$want"; echo "got:"; echo "$out"; exit 1; }
printf 'What holds today.\n' > "$tmp/README.md"; printf 'int x;\n' > "$tmp/a.cpp"; printf '{}\n' > "$tmp/b.json"
"$py" "$root/tests/docs/check_no_work_items.py" "$tmp" > /dev/null || { echo "clean tree fails"; exit 1; }
echo "work items detected and named"
