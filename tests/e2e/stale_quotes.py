#!/usr/bin/env python3
"""The figures a validate --json table's rows quote (validation/quotes.hpp), each measured again: prints how many and
names each one that no longer agrees with the run. Exit 1 on a stale one, or with --require when none is declared.
Usage: stale_quotes.py VALIDATE_JSON [--require]"""
import json
import sys

v = json.load(open(sys.argv[1]))
rows = [r for s in ("claims", "points", "held_out", "value_checks") for r in v.get(s, [])]
qs = [(r["id"], q) for r in rows for q in r.get("quotes", [])]
stale = [f'{i} {q["text"]!r} (measured {q["measured"]})' for i, q in qs if not q["agrees"]]
print(f"{len(qs)} figures quoted in the reasons and notes, measured again; {len(stale)} stale")
if stale:
    print("quoted figures that no longer agree with the model (read the text again):", "; ".join(stale))
if not qs and "--require" in sys.argv:
    print("no quoted figure declared: the test would check nothing")
sys.exit(1 if stale or (not qs and "--require" in sys.argv) else 0)
