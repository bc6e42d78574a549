#!/usr/bin/env bash
# Configuration: scenarios/examples/whatif_gemini_smsg_limit_256.json (osu_latency, 8 sizes, OSU's iteration counts)
#                traced whole as Chrome JSON (about 300 MB), then with --trace-window 0:1ms.
# Expected:      both exit 0; the whole trace, over 100 MiB, is followed on stderr by a note giving its size in MiB (the
#                file's own) and naming --trace-window and --trace-ranks; the windowed one (a few hundred kB) has no
#                note.
# How validated: stderr text against the files' sizes.
set -u
BIN=$(realpath "$1"); SRC=$(realpath "$2"); t=$(mktemp -d); trap 'rm -rf "$t"' EXIT; fail=0
S=$SRC/scenarios/examples/whatif_gemini_smsg_limit_256.json
"$BIN" --quiet run "$S" --trace whole.json --out "$t/a" > /dev/null 2> "$t/err" || { echo "FAIL run: $(cat "$t/err")"; exit 1; }
mib=$(( $(stat -c %s "$t/a/whole.json") >> 20 ))
(( mib > 100 )) || { echo "FAIL precondition: the whole trace is only $mib MiB"; fail=1; }
grep -qx "ompisim: note: the trace is $mib MiB; --trace-window START:END (simulated time, e.g. 0:1ms) or --trace-ranks LIST keeps a part of it" "$t/err" \
  && echo "ok   a $mib MiB trace: $(grep note "$t/err")" || { echo "FAIL no note for a $mib MiB trace: $(cat "$t/err")"; fail=1; }
rm -f "$t/a/whole.json"
"$BIN" --quiet run "$S" --trace part.json --trace-window 0:1ms --out "$t/b" > /dev/null 2> "$t/err" || { echo "FAIL run: $(cat "$t/err")"; exit 1; }
kib=$(( $(stat -c %s "$t/b/part.json") >> 10 ))
! grep -q "note:" "$t/err" && echo "ok   a $kib KiB trace: no note" || { echo "FAIL a note for a $kib KiB trace: $(cat "$t/err")"; fail=1; }
exit $fail
