#!/usr/bin/env bash
# Configuration: a README in a temporary folder with a table of three declared btl/ugni parameters and a table of
#                preset names. Expected: check_param_tables.py exits 1 naming the parameter table's lines only; with
#                that table replaced by `ompisim describe btl/ugni` it exits 0. How validated: exit codes, printed line.
set -euo pipefail
py=$1; tool=$2; root=$3
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cat > "$tmp/README.md" <<'MD'
| name | unit | default |
|---|---|---|
| `btl_ugni_smsg_limit` | size | 0 |
| `btl_ugni_eager_limit` | size | 8 KiB |
| `btl_ugni_fma_limit` | size | 1024 |

| preset | components |
|---|---|
| `openmpi` | ob1, ugni |
| `native` | mpich_gni |
MD
if out=$("$py" "$root/tests/docs/check_param_tables.py" "$tool" "$tmp" README.md); then echo "table not detected"; exit 1; fi
grep -q '^README.md:1-5: a table of 3 declared parameters' <<<"$out" || { echo "wrong report: $out"; exit 1; }
[ "$(grep -c '^README.md:' <<<"$out")" = 1 ] || { echo "the preset table was reported too: $out"; exit 1; }
sed -i '1,5d' "$tmp/README.md"; printf '```sh\nbuild/bin/ompisim describe btl/ugni\n```\n' >> "$tmp/README.md"
"$py" "$root/tests/docs/check_param_tables.py" "$tool" "$tmp" README.md > /dev/null || { echo "clean README fails"; exit 1; }
echo "a copied parameter table is detected and named"
