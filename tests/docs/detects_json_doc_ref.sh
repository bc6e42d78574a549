#!/usr/bin/env bash
# Configuration: a small tree whose machine file cites a document's section that exists, one in a document that
#                exists but lacks the section, and one in a document that does not exist.
# Expected:      check_json_doc_refs.py exits 1 and names exactly the two stale citations; with them removed it exits 0.
# How validated: exit codes and the printed lines.
set -euo pipefail
py=$1; root=$2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/models/x/machines" "$tmp/protocols/native"
printf '# native\n\n### Per-path costs (fitted)\n\ntext\n' > "$tmp/protocols/native/README.md"
cat > "$tmp/models/x/machines/m.json" <<'JSON'
{"software": {"a": {"value": "1 us", "fit": "black box (protocols/native/README.md, 'Per-path costs'): least squares"},
  "b": {"value": "1 us", "fit": "black box (protocols/native/README.md, 'Cray MPICH on Slingshot: per-path costs')"},
  "c": {"value": "1 us", "source": ["estimate (protocols/gone/README.md, 'Per-path costs')"]}}}
JSON
if out=$("$py" "$root/tests/docs/check_json_doc_refs.py" "$tmp"); then echo "stale citations not detected"; exit 1; fi
want=$'models/x/machines/m.json: `protocols/native/README.md`, \'Cray MPICH on Slingshot: per-path costs\': the document has no such section or term\nmodels/x/machines/m.json: `protocols/gone/README.md`, \'Per-path costs\': the document does not exist'
[ "$out" = "$want" ] || { echo "expected exactly:"; echo "$want"; echo "got:"; echo "$out"; exit 1; }
cat > "$tmp/models/x/machines/m.json" <<'JSON'
{"software": {"a": {"value": "1 us", "fit": "black box (protocols/native/README.md, 'Per-path costs'): least squares"}}}
JSON
"$py" "$root/tests/docs/check_json_doc_refs.py" "$tmp" > /dev/null || { echo "clean tree fails"; exit 1; }
echo "stale document citations in JSON inputs detected and named"
