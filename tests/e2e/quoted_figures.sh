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
python3 "$(dirname "$0")/stale_quotes.py" "$t/v.json" --require
