#!/usr/bin/env bash
# Configuration: a small tree (not a git checkout: the checker lists files by walking it) whose README names existing
#                paths, stale paths and things the rule leaves alone (results/, build/, globs, placeholders, Open MPI
#                sources, SimGrid sources, URLs, a table row's folder, the papers' folder ../shared/); a Markdown file
#                that is not a README (validation/notes.md) with one stale path; CHANGELOG.md and results/validation.md
#                with a stale path each, which the rule does not read.
# Expected:      check_readme_paths.py exits 1 and names exactly the four stale paths of the README and the notes; with
#                them removed it exits 0.
# How validated: exit codes and the printed lines.
set -euo pipefail
py=$1; root=$2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/platform/node" "$tmp/protocols/ofi/base" "$tmp/validation" "$tmp/results"
touch "$tmp/platform/world.cpp" "$tmp/platform/node/node_type.hpp" "$tmp/protocols/ofi/base/shared_rx_queue.hpp"
cat > "$tmp/protocols/README.md" <<'MD'
Fine: `platform/world.cpp`, `ofi/base/shared_rx_queue` (a stem, from this folder), `platform/{world.cpp,node/}`,
[the node](../platform/node/node_type.hpp), `results/fig2/osu_latency.csv`, `build/bin/ompisim`, `models/*/machines/`,
`models/<nic>/`, `NAME/x.json`, `../shared/reference/x.json`, `ompi/mca/pml/ob1/pml_ob1.c`, `src/kernel/lmm/System.cpp`, `https://example.org/a/b.cpp`, `GB/s`, `send/recv`.
| `platform/` | `node/`, `world.cpp` |
Stale: `runtime/world.cpp`, `platform/host/`, `protocols/ofi/linkx/shared_rx_queue.hpp`.
MD
cat > "$tmp/validation/notes.md" <<'MD'
Fine: `platform/world.cpp`.
Stale: `models/topology/`.
MD
printf 'Removed `runtime/stacks.cpp`.\n' > "$tmp/CHANGELOG.md"
printf 'Copied: `models/host/`.\n' > "$tmp/results/validation.md"
if out=$("$py" "$root/tests/docs/check_readme_paths.py" "$tmp"); then echo "stale paths not detected"; exit 1; fi
want=$'protocols/README.md:5: `runtime/world.cpp`\nprotocols/README.md:5: `platform/host/`\nprotocols/README.md:5: `protocols/ofi/linkx/shared_rx_queue.hpp`\nvalidation/notes.md:2: `models/topology/`'
got=$(grep -o '^[^ ]* `[^`]*`' <<<"$out")
[ "$got" = "$want" ] || { echo "expected exactly:"; echo "$want"; echo "got:"; echo "$out"; exit 1; }
sed -i '/^Stale:/d' "$tmp/protocols/README.md" "$tmp/validation/notes.md"
"$py" "$root/tests/docs/check_readme_paths.py" "$tmp" > /dev/null || { echo "clean tree fails"; exit 1; }
echo "stale paths detected and named"
