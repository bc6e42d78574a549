#!/usr/bin/env python3
"""Documentation test: every scenario file a source file, script or document names (`scenarios/<...>.json`, in code
comments, help texts, examples and READMEs) exists, so an example a user copies from a header or a --help text runs.
Scanned: every tracked file except those under a `tests/` folder (their fixtures name files they create), results/
(generated) and CHANGELOG.md (history). A name holding a placeholder ('<', '*', '{') is not checked.

Usage: check_named_scenarios.py ROOT   (exit 1 and one line per missing file: file:line: path)"""
import os, re, subprocess, sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # tests/: source_check.py
from source_check import report  # noqa: E402

NAMED = re.compile(r"scenarios/[A-Za-z0-9_./-]+\.json")


def check(root):
    files = subprocess.run(["git", "-C", root, "ls-files", "-z"], capture_output=True, check=True).stdout.decode()
    bad = []
    for rel in (f for f in files.split("\0") if f):
        if rel.startswith(("results/", "tests/")) or "/tests/" in rel or rel == "CHANGELOG.md":
            continue
        try:
            with open(os.path.join(root, rel), encoding="utf-8") as fh:
                lines = fh.readlines()
        except (UnicodeDecodeError, FileNotFoundError, IsADirectoryError):
            continue
        for n, line in enumerate(lines, 1):
            for path in NAMED.findall(line):
                if not os.path.isfile(os.path.join(root, path)):
                    bad.append(f"{rel}:{n}: {path} does not exist")
    return bad


if __name__ == "__main__":
    problems = check(sys.argv[1] if len(sys.argv) > 1 else ".")
    sys.exit(report(problems, "every scenario file named exists", f"{len(problems)} missing scenario file(s) named"))
