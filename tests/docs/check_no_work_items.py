#!/usr/bin/env python3
"""Documentation test: no tracked file names the work items that produced it; the project's history is git log and
CHANGELOG.md (kept by version), and every other file says what holds today.

A work item is named as "session N", "session-N", "sessions N and M", "issue N" or "issues N and M" (any case, N a
number). Not a work item, and allowed: another project's issue cited as a source, written with its repository first
(`pmodels/mpich issue #7723`) or as `owner/name#N` (`ofiwg/libfabric#5861`) (any "issue #N" with a '#').
Scanned: every file `git ls-files` lists (code comments included), except CHANGELOG.md and binary files. The results/
folder is included: it is regenerated from the sources, so a hit there is fixed at its source.

Usage: check_no_work_items.py ROOT   (exit 1 and one line per hit: file:line: the words)"""
import os, re, subprocess, sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # tests/: source_check.py
from source_check import report  # noqa: E402

WORK_ITEM = re.compile(r"\b(?:sessions?|issues?)[- ](\d+)(?:(?:, | and | or )\d+)*\b", re.IGNORECASE)
CITED_REPO = re.compile(r"[\w.-]+/[\w.-]+`?\s*$")
ALLOWED_FILES = {"CHANGELOG.md"}


def tracked(root):
    out = subprocess.run(["git", "-C", root, "ls-files", "-z"], capture_output=True, check=True).stdout
    return [f for f in out.decode().split("\0") if f and f not in ALLOWED_FILES]


def hits(text):
    for m in WORK_ITEM.finditer(text):
        if m.group(0).lower().startswith("issue") and CITED_REPO.search(text[max(0, m.start() - 80):m.start()]):
            continue  # another project's issue, cited with its repository
        yield m.group(0)


def check(root):
    bad = []
    for rel in tracked(root):
        try:
            with open(f"{root}/{rel}", encoding="utf-8") as fh:
                lines = fh.readlines()
        except (UnicodeDecodeError, FileNotFoundError, IsADirectoryError):
            continue
        for n, line in enumerate(lines, 1):
            found = list(hits(line))
            if found:
                bad.append(f"{rel}:{n}: names a work item: {', '.join(found)}")
    return bad


if __name__ == "__main__":
    problems = check(sys.argv[1] if len(sys.argv) > 1 else ".")
    files = sorted({p.split(":")[0] for p in problems})
    sys.exit(report(problems, "no file names the work items that produced it",
                    f"{len(problems)} line(s) in {len(files)} file(s) name work items"))
