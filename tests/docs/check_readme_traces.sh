#!/usr/bin/env bash
# The README's timeline examples show what they say: each `build/bin/ompisim run ... --trace FILE` line of README.md runs
# (into a temporary --out) and its trace holds CPU spans and bulk flows; a Paje trace gives every state a colour (its
# value the alias of a PajeDefineEntityValue with a colour: ViTE looks values up by alias and draws the others black),
# every link a value of its link type that has one, named by its name (tests/e2e/paje_check.py declared), starts at time 0 (ViTE opens a trace on [0, its end]), and
# pj_dump (pajeng) reads it when installed. A
# message size the line's comment names ("the first 8 KiB window") is a size of a traced message, and a "timeline"
# holds CPU spans (the counts are the run's own summary line on stderr); "N flows in flight on each X / Y" in the
# line's comment or the comment line below it is the peak of every traced resource whose name holds X or Y.
# Usage: check_readme_traces.sh OMPISIM SOURCE_DIR
set -uo pipefail
tool=$1; src=$2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cd "$src"
fail=0; n=0
while IFS= read -r line; do
  cmd=${line%%#*}
  read -r -a args <<< "${cmd#build/bin/ompisim }"
  n=$((n + 1)); out="$tmp/$n"
  "$tool" "${args[@]}" --out "$out" > "$out.log" 2>&1 || { echo "FAIL (exit $?): $cmd"; cat "$out.log"; fail=1; continue; }
  trace=$(ls "$out" | grep -E '\.(paje|json)$' | grep -v "^fig\|^whatif" | head -1)
  [ -n "$trace" ] || { echo "FAIL no trace: $cmd"; fail=1; continue; }
  t="$out/$trace"
  if [[ $trace == *.paje ]]; then
    states=$(grep -c '^12 ' "$t"); flows=$(grep -c '^15 .* FLOW ' "$t")
    python3 "$src/tests/e2e/paje_check.py" declared "$t" > "$out.colours" || { cat "$out.colours"; echo "FAIL a state or link value without its coloured entity value: $cmd"; fail=1; }
    grep -q '^6 0\.000000000000 ' "$t" || { echo "FAIL the trace does not start at time 0 (ViTE opens on [0, end]): $cmd"; fail=1; }
    if command -v pj_dump > /dev/null && ! pj_dump "$t" > /dev/null 2>&1; then echo "FAIL pj_dump cannot read $t"; fail=1; fi
  else
    states=$(grep -o '"ph": *"X"' "$t" | wc -l); flows=$(grep -o '"cat": *"flow' "$t" | wc -l)
  fi
  comment=${line#*#}; [[ $line == *#* ]] || comment=
  next=$(grep -F -x -A1 -- "$line" README.md | sed -n 2p)
  [[ $next == '# '* ]] && comment="$comment ${next#\# }"
  if [[ $comment =~ ([0-9]+)\ flows\ in\ flight\ on\ each\ ([a-z-]+)\ /\ ([a-z-]+) ]]; then
    python3 - "$t" "${BASH_REMATCH[@]:1}" <<'PY' || fail=1
import json, re, sys
path, want, *kinds = sys.argv[1:]
peak = {}
if path.endswith(".json"):
    for e in json.load(open(path))["traceEvents"]:
        if e["ph"] == "C":
            peak[e["name"]] = max(peak.get(e["name"], 0), e["args"]["flows"])
else:
    names = {}
    for line in open(path):
        if line.startswith("6 ") and " L 0 " in line:
            f = line.split()
            names[f[2]] = f[-1].strip('"')
        elif line.startswith("8 ") and " FLOWS " in line:
            f = line.split()
            peak[names[f[3]]] = max(peak.get(names[f[3]], 0), int(float(f[4])))
claimed = {r: v for r, v in peak.items() if any(k in r for k in kinds)}
if not claimed or any(v != int(want) for v in claimed.values()):
    print("FAIL the comment says %s flows in flight on each %s; the trace's peaks: %s" % (want, " / ".join(kinds), claimed or peak))
    sys.exit(1)
print("ok   %s flows in flight at the peak on each of %s" % (want, sorted(claimed)))
PY
  fi
  if [[ $comment =~ ([0-9]+)\ (B|KiB|MiB)\  ]]; then
    mult=1; [[ ${BASH_REMATCH[2]} == KiB ]] && mult=1024; [[ ${BASH_REMATCH[2]} == MiB ]] && mult=1048576
    bytes=$((BASH_REMATCH[1] * mult))
    grep -qE "\"$bytes B tag |\"bytes\": $bytes," "$t" \
      || { echo "FAIL no message of ${BASH_REMATCH[1]} ${BASH_REMATCH[2]} ($bytes B) in the window the comment names: $cmd"; fail=1; }
  fi
  cpu=$(sed -n 's/.*wrote trace .*(\([0-9]*\) CPU spans.*/\1/p' "$out.log")
  if [[ $comment == *timeline* ]] && ! (( ${cpu:-0} > 0 )); then
    echo "FAIL a timeline without CPU spans (${cpu:-?}): $cmd"; fail=1
  fi
  if (( states > 0 && flows > 0 )); then echo "ok   $states spans, $flows flows: $cmd"
  else echo "FAIL $states spans, $flows flows (the window shows nothing): $cmd"; fail=1; fi
done < <(grep -E '^build/bin/ompisim run [^ ]+\.json .*--trace ' README.md)
(( n > 0 )) || { echo "no trace example in README.md"; exit 1; }
exit $fail
