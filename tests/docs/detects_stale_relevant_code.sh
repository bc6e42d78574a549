#!/usr/bin/env bash
# Configuration: a small tree whose scenario lists an existing source, an existing one with a note, two paths joined
#                with ", " (a comma inside a note's parentheses), and two stale paths.
# Expected:      check_relevant_code.py exits 1 and names exactly the two stale paths; with them removed it exits 0.
# How validated: exit codes and the printed lines.
set -euo pipefail
py=$1; root=$2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/scenarios/gemini" "$tmp/platform/topology" "$tmp/protocols/btl/ugni"
touch "$tmp/platform/fabric.cpp" "$tmp/platform/topology/torus.cpp" "$tmp/protocols/btl/ugni/btl_ugni_mca.hpp"
cat > "$tmp/scenarios/gemini/x.json" <<'JSON'
{"relevant_code": ["platform/topology/torus.cpp", "platform/fabric.cpp (bulk flows, shared)",
  "protocols/btl/ugni/btl_ugni_mca.hpp (a, b), protocols/btl/ugni", "runtime/world.cpp (copy flows)",
  "platform/fabric.cpp, models/host/host_params.hpp"]}
JSON
if out=$("$py" "$root/tests/docs/check_relevant_code.py" "$tmp"); then echo "stale paths not detected"; exit 1; fi
want=$'scenarios/gemini/x.json: relevant_code[3]: `runtime/world.cpp` does not exist\nscenarios/gemini/x.json: relevant_code[4]: `models/host/host_params.hpp` does not exist'
[ "$out" = "$want" ] || { echo "expected exactly:"; echo "$want"; echo "got:"; echo "$out"; exit 1; }
cat > "$tmp/scenarios/gemini/x.json" <<'JSON'
{"relevant_code": ["platform/topology/torus.cpp", "protocols/btl/ugni/btl_ugni_mca.hpp (a, b), protocols/btl/ugni"]}
JSON
"$py" "$root/tests/docs/check_relevant_code.py" "$tmp" > /dev/null || { echo "clean tree fails"; exit 1; }
echo "stale relevant_code paths detected and named"
