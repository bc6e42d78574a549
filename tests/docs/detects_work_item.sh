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
# the planted words are put together at run time, so this file itself names no work item
s=sess; S=Iss; i=iss
printf "What holds today.\nMeasured in ${s}ion 12.\n" > "$tmp/README.md"
printf "// ${S}ue 16: prediction intervals.\nint x;\n" > "$tmp/a.cpp"
printf '{"see": "Gemini (%sions 3 and 4)"}\n' "$s" > "$tmp/b.json"
printf "Default from pmodels/mpich ${i}ue #7723 and ofiwg/libfabric ${i}ue 5861.\n" > "$tmp/cited.md"
printf "## 0.1.0\n* from ${s}ion 12 on\n" > "$tmp/CHANGELOG.md"
git -C "$tmp" add -A
if out=$("$py" "$root/tests/docs/check_no_work_items.py" "$tmp"); then echo "work items not detected"; exit 1; fi
want="README.md:2: names a work item: ${s}ion 12"$'\n'"a.cpp:1: names a work item: ${S}ue 16"$'\n'"b.json:1: names a work item: ${s}ions 3 and 4"
got=$(grep 'names a work item' <<<"$out" | sort)
[ "$got" = "$(sort <<<"$want")" ] || { echo "expected exactly:"; echo "$want"; echo "got:"; echo "$out"; exit 1; }
printf 'What holds today.\n' > "$tmp/README.md"; printf 'int x;\n' > "$tmp/a.cpp"; printf '{}\n' > "$tmp/b.json"
"$py" "$root/tests/docs/check_no_work_items.py" "$tmp" > /dev/null || { echo "clean tree fails"; exit 1; }
echo "work items detected and named"
