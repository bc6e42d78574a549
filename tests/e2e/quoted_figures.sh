#!/usr/bin/env bash
# The figures a paper's reasons quote, measured again. Usage: quoted_figures.sh BIN PAPER
# Configuration: `validate --paper PAPER --samples 0 --json` (the nominal parameters: the quotes are measured there
# alone). Expected: exit 0; at least one figure declared with its measure (not_holding.quotes, validation/quotes.hpp),
# and every one agreeing with this run to the digits its text writes. The papers whose validate the comparison-interval
# tests run (gemini, seastar, qsnet) are checked there. How validated: the JSON.
set -u
BIN=$1; PAPER=$2; t=$(mktemp -d); trap 'rm -rf "$t"' EXIT
"$BIN" validate --paper "$PAPER" --samples 0 --json > "$t/v.json"
rc=$?
if [ $rc -ne 0 ]; then echo "validate --paper $PAPER exited $rc"; exit 1; fi
python3 - "$t/v.json" <<'P'
import json, sys
v = json.load(open(sys.argv[1]))
rows = [r for s in ("claims", "points", "held_out", "value_checks") for r in v.get(s, [])]
qs = [(r["id"], q) for r in rows for q in r.get("quotes", [])]
stale = [f'{i} {q["text"]!r} (measured {q["measured"]})' for i, q in qs if not q["agrees"]]
print(f"{len(qs)} figures quoted in the reasons, measured again; {len(stale)} stale")
if not qs:
    print("no quoted figure declared: the test would check nothing"); sys.exit(1)
if stale:
    print("quoted figures that no longer agree with the model (read the reason again):", "; ".join(stale)); sys.exit(1)
P
