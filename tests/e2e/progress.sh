#!/usr/bin/env bash
# Progress. On a terminal (a pseudo-terminal here), a sweep of three rank counts shows one progress line per
# point (points done and left, the point starting) and erases it before the final message; with --quiet, or when
# stderr is a file or a pipe, stderr holds only the final message. compare --against shows its points the same way.
set -u
BIN=$(realpath "$1"); t=$(mktemp -d); trap 'rm -rf "$t"' EXIT
cat > "$t/sw.json" <<'J'
{"id": "sw", "machine": "cielo", "stack": "openmpi", "ranks": [2, 4, 8], "ranks_per_node": 1,
 "benchmark": {"name": "barrier_loop", "algorithm": "cheetah-atomic", "iterations": 2}}
J
python3 - "$BIN" "$t" <<'P'
import os, pty, subprocess, sys
bin, t = sys.argv[1], sys.argv[2]
def run(args, tty):
    if not tty:
        p = subprocess.run(args, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        return p.returncode, p.stderr
    m, s = pty.openpty()
    p = subprocess.run(args, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=s)
    os.close(s)
    out = b""
    while True:
        try:
            d = os.read(m, 65536)
        except OSError:
            break
        if not d:
            break
        out += d
    os.close(m)
    return p.returncode, out
fail = 0
run_args = [bin, "run", t + "/sw.json", "--out", t + "/o"]
rc, err = run(run_args, True)
lines = [x for x in err.decode().replace("\r\n", "\n").split("\r") if x.strip()]
want = ["[0/3 done, 3 left]", "[1/3 done, 2 left]", "[2/3 done, 1 left]"]
ok = rc == 0 and all(any(w in x for x in lines) for w in want) and "sw ranks=8" in err.decode() and err.endswith(b"\x1b[Kompisim: wrote " + (t + "/o/sw.json, " + t + "/o/sw.csv\r\n").encode())
print(("ok  " if ok else "FAIL") + " terminal: progress per point, erased before the final message: %r" % err[:160]); fail |= not ok
for name, args, tty in (("--quiet on a terminal", run_args + ["--quiet"], True), ("stderr a pipe", run_args, False)):
    rc, err = run(args, tty)
    ok = rc == 0 and b"done," not in err and b"\x1b" not in err and err.count(b"\n") == 1 and err.startswith(b"ompisim: wrote ")
    print(("ok  " if ok else "FAIL") + " %s: only %r" % (name, err)); fail |= not ok
rc, err = run([bin, "compare", "--against", t + "/o"], True)
ok = rc == 0 and b"[0/1 done, 1 left]" in err
print(("ok  " if ok else "FAIL") + " compare --against on a terminal: %r" % err[:100]); fail |= not ok
sys.exit(fail)
P
