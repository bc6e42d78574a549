#!/usr/bin/env bash
# Configuration: a data folder given by OMPISIM_DATA (models/, scenarios/ and collectives/ of the source, a copy of
# benchmarks/apps/) whose GTC skeleton is damaged one way at a time: a sendrecv size of -1, of 0.5 B and of 1e30 B, a
# phase of 0.5 B, loops nested to 10^10 phases a step; one without collectives/ (no decision file); one with two
# machine files of one name (in two family folders); a run whose absolute --plot names a committed figure in the data
# folder's results/.
# Expected: exit 2 and one line naming the data file, the key and the reason, before any simulation (never exit 0
# with a size wrapped around, nor an internal error or std::bad_alloc).
# How validated: lib_check.sh's expect_input_error (exit code, grep on stderr, line count, no output folder), each
# under a 2 GB address-space limit.
set -u
BIN=$1; SRC=$2; t=$(mktemp -d); trap 'rm -rf "$t"' EXIT; fail=0
. "$(dirname "$0")/lib_check.sh"
ldd "$BIN" | grep -q libasan || ulimit -v 2000000  # (ASan reserves terabytes of shadow address space)
mkdir -p "$t/data/benchmarks"
for d in models scenarios collectives; do ln -s "$SRC/$d" "$t/data/$d"; done
cp -r "$SRC/benchmarks/apps" "$t/data/benchmarks/apps"
printf '%s' '{"machine": "jaguar-xt4", "stack": "openmpi-cm", "benchmark": {"name": "app_skeleton", "app": "GTC", "collectives": "tuned-v1.3"}, "ranks": 32, "ranks_per_node": 2}' > "$t/s.json"
app() {  # name python-edit expected-regex
  python3 - "$SRC/benchmarks/apps/gtc.json" "$t/data/benchmarks/apps/gtc.json" "$2" <<'PY'
import json, sys
d = json.load(open(sys.argv[1])); exec(sys.argv[3]); json.dump(d, open(sys.argv[2], "w"))
PY
  OMPISIM_DATA="$t/data" expect_input_error "$1" "$3" run "$t/s.json" --out "$t/out-$1"
}
SR='d["phases"][1]["sizes"]'
app sendrecv_negative "$SR = [-1, \"\$shift_bytes\"]" "gtc.json: key 'phases\[1\]\.sizes\[0\]': message size must be a whole number of bytes in \[0, 1 GiB\], got -1"
app sendrecv_fraction "$SR = [\"0.5 B\", \"\$shift_bytes\"]" "key 'phases\[1\]\.sizes\[0\]': '0.5 B': a size is a whole number of bytes (write '0 B' or '1 B')"
app sendrecv_huge "$SR = [\"1e30 B\", \"\$shift_bytes\"]" "key 'phases\[1\]\.sizes\[0\]': message size must be a whole number"
app bytes_fraction 'd["phases"][3]["bytes"] = "0.5 B"; d["estimates"].pop("charge_bytes")' "key 'phases\[3\]\.bytes': '0.5 B': a size is a whole number of bytes"
app nested_loops 'd["phases"] = [{"kind": "loop", "count": 100000, "source": "x", "phases": [{"kind": "loop", "count": 100000, "source": "x", "phases": [{"kind": "barrier", "source": "x"}]}]}] + d["phases"]' \
  "key 'phases\[0\]\.count': 100000 copies of 100000 phases: a step above 1000000 phases in all"
cp "$SRC/benchmarks/apps/gtc.json" "$t/data/benchmarks/apps/gtc.json"
rm "$t/data/collectives"
OMPISIM_DATA="$t/data" expect_input_error no_decision_file "collectives/decision/ompi_v1_3_tuned.json: cannot open file" run "$t/s.json" --out "$t/out-no_decision_file"
# Two machine files of one name in two family folders: the name would mean whichever the listing gives first.
ln -s "$SRC/collectives" "$t/data/collectives"
rm "$t/data/models"; mkdir -p "$t/data/models"
for f in "$SRC"/models/*; do ln -s "$f" "$t/data/models/$(basename "$f")"; done
mkdir -p "$t/data/models/zz/machines"; cp "$SRC/models/seastar/machines/jaguar-xt4.json" "$t/data/models/zz/machines/"
OMPISIM_DATA="$t/data" expect_input_error machine_twice "key 'machine': machine 'jaguar-xt4' is defined by 2 files (.*models/seastar/machines/jaguar-xt4.json.*models/zz/machines/jaguar-xt4.json\|.*models/zz/machines/jaguar-xt4.json.*models/seastar/machines/jaguar-xt4.json): rename one" run "$t/s.json" --out "$t/out-machine_twice"
# An absolute --plot inside the data folder's results/ would replace a committed figure, as --out or --trace there
# would: refused before the run, the figure left as it was.
rm -r "$t/data/models/zz"
mkdir -p "$t/data/results/seastar"; echo '<svg/>' > "$t/data/results/seastar/fig.svg"
OMPISIM_DATA="$t/data" expect_input_error plot_in_results "--plot '$t/data/results/seastar/fig.svg': is inside the results folder" run "$t/s.json" --out "$t/out-plot" --plot "$t/data/results/seastar/fig.svg"
[[ "$(cat "$t/data/results/seastar/fig.svg")" == '<svg/>' ]] || { echo "FAIL plot_in_results: the committed figure was replaced"; fail=1; }
exit $fail
