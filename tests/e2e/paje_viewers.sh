#!/usr/bin/env bash
# Paje traces as their viewers read them. Two traces, each a window where messages happen: the first 8 KiB window of
# Gemini Fig. 6 (bi-directional bandwidth: CPU and BTE spans, MPI messages, bulk flows) and a Cheetah atomic barrier on
# 16 Cielo nodes (remote atomics). For each: the trace is written inside --out; every state and link value it uses has
# a colour declared (tests/e2e/paje_check.py declared); pj_dump (pajeng) reads it with exit 0 and nothing on stderr,
# and its containers, states and links are the trace's; ViTE, headless (Qt's offscreen platform, its settings in a
# temporary folder so a user's palette cannot recolour anything), exports it as SVG, where every state value is drawn
# in the colour the trace declares and no state in another (black is a state ViTE found no value for), with an arrow
# per link. ViTE 1.2 takes no link colour from a trace (core/README.md): its arrows are white, printed, not checked;
# exported again with settings whose link palette gives each link value the trace declares its colour
# (paje_check.py vite-palette), every arrow is drawn in its kind's colour (the names ViTE shows are the declared ones).
# A missing pj_dump or vite skips (exit 77) after the checks that could run; it never passes.
# Usage: paje_viewers.sh OMPISIM SOURCE_DIR
set -u
BIN=$(realpath "$1"); SRC=$(realpath "$2"); CHECK="$SRC/tests/e2e/paje_check.py"
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT; fail=0; missing=()
cat > "$t/bar.json" <<'J'
{"id": "bar", "machine": "cielo", "stack": "openmpi", "ranks": 16, "ranks_per_node": 1,
 "benchmark": {"name": "barrier_loop", "algorithm": "cheetah-atomic", "radix": 4, "iterations": 3, "skip": 1}}
J
command -v pj_dump > /dev/null || missing+=("pj_dump (apt-get install pajeng)")
command -v vite > /dev/null || missing+=("vite (apt-get install vite)")
run() {  # name, expected link type, ompisim run arguments...
  local name=$1 link=$2; shift 2
  local out="$t/$name" trace="$t/$name/$name.paje"
  "$BIN" run "$@" --trace "$name.paje" --out "$out" > /dev/null 2> "$t/$name.err" \
    || { echo "FAIL $name: run exited $?: $(cat "$t/$name.err")"; fail=1; return; }
  [[ -s $trace ]] || { echo "FAIL $name: no trace inside --out: $(ls "$out")"; fail=1; return; }
  python3 "$CHECK" declared "$trace" || fail=1
  grep -q "^15 [0-9.]* $link " "$trace" || { echo "FAIL $name: no link of type $link"; fail=1; }
  if command -v pj_dump > /dev/null; then
    if pj_dump -u "$trace" > "$t/$name.csv" 2> "$t/$name.pjerr" && [[ ! -s "$t/$name.pjerr" ]]; then
      python3 "$CHECK" dump "$trace" "$t/$name.csv" || fail=1
    else echo "FAIL $name: pj_dump: $(head -3 "$t/$name.pjerr")"; fail=1; fi
  fi
  if command -v vite > /dev/null; then
    mkdir -p "$t/cfg" "$t/run"; chmod 700 "$t/run"
    if QT_QPA_PLATFORM=offscreen XDG_CONFIG_HOME="$t/cfg" XDG_RUNTIME_DIR="$t/run" HOME="$t" \
        timeout 120 vite "$trace" -e "$t/$name.svg" > "$t/$name.vite" 2>&1 && [[ -s "$t/$name.svg" ]]; then
      grep -q "^0 errors and 0 warnings were found during parsing" "$t/$name.vite" \
        || { echo "FAIL $name: ViTE reports parse errors: $(grep -i 'error\|warning' "$t/$name.vite" | head -3)"; fail=1; }
      python3 "$CHECK" svg "$trace" "$t/$name.svg" || fail=1
      grep -q "define_entity_value" "$t/$name.vite" && echo "note ViTE: $(grep -c define_entity_value "$t/$name.vite") x '$(grep -m1 define_entity_value "$t/$name.vite")' (one per link type: it keeps entity values of state types only)"
      python3 "$CHECK" vite-palette "$trace" "$t/pal-$name" > /dev/null || fail=1
      if QT_QPA_PLATFORM=offscreen XDG_CONFIG_HOME="$t/pal-$name" XDG_RUNTIME_DIR="$t/run" HOME="$t" \
          timeout 120 vite "$trace" -e "$t/$name-pal.svg" > "$t/$name-pal.vite" 2>&1 && [[ -s "$t/$name-pal.svg" ]]; then
        python3 "$CHECK" svg-links "$trace" "$t/$name-pal.svg" || fail=1
      else echo "FAIL $name: vite with a link palette: exit $?: $(tail -3 "$t/$name-pal.vite")"; fail=1; fi
    else echo "FAIL $name: vite $trace -e $name.svg: exit $?: $(tail -3 "$t/$name.vite")"; fail=1; fi
  fi
}
run fig6 MSG "$SRC/scenarios/gemini/fig6_bibw_2p_inter_openmpi.json" --trace-window 204.85ms:205.05ms
grep -q '^15 [0-9.]* FLOW ' "$t/fig6/fig6.paje" 2> /dev/null || { echo "FAIL fig6: no bulk flow in the window"; fail=1; }
run bar AMO "$t/bar.json" --trace-window 2us:8us
(( fail )) && exit 1
(( ${#missing[@]} )) && { echo "SKIP not installed: ${missing[*]}: those viewers' checks did not run"; exit 77; }
exit 0
