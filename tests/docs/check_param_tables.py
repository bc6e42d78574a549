#!/usr/bin/env python3
"""Documentation test: no README copies the parameter declarations into a table. A parameter's unit, default, range,
meaning and source are declared once, beside the component (MCA parameters) or in the machine file (hardware values),
and `ompisim describe NAME` prints them; a README points to that command (a `sh` block that docs.readme_blocks runs).

A parameter table, the rule: a markdown table (consecutive lines starting with '|') at least half of whose rows, and
at least two, start with a `code span` naming a declared parameter: a name `ompisim describe MACHINE` prints at the
start of a line, for every machine `ompisim list` names, in full (`nic.bte_bandwidth`) or by its last part
(`bte_bandwidth`). Other tables (presets, file lists, measurements, an error catalogue) are left alone.

Usage: check_param_tables.py OMPISIM ROOT [README ...]   (exit 1 and one line per table: file:lines)"""
import os, re, subprocess, sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # tests/: source_check.py
from source_check import report  # noqa: E402


def declared(tool):
    listing = subprocess.run([tool, "list"], capture_output=True, text=True, check=True).stdout
    names = set()
    for machine in re.findall(r"^  (\S+)  \(", listing, re.M):
        out = subprocess.run([tool, "describe", machine], capture_output=True, text=True, check=True).stdout
        for n in re.findall(r"^([a-z][A-Za-z0-9_.]*[A-Za-z0-9_])\s{2,}\S", out, re.M):
            names.update((n, n.split(".")[-1]))
    return names


def tables(text):
    """(first line, last line, rows) of every markdown table of the text, lines counted from 1."""
    lines, i = text.split("\n"), 0
    while i < len(lines):
        if not lines[i].startswith("|"):
            i += 1
            continue
        j = i
        while j < len(lines) and lines[j].startswith("|"):
            j += 1
        yield i + 1, j, lines[i + 2:j]
        i = j


def check(tool, root, docs):
    names, bad = declared(tool), []
    for doc in docs:
        with open(f"{root}/{doc}", encoding="utf-8") as fh:
            text = fh.read()
        for first, last, rows in tables(text):
            hits = [m.group(1) for m in (re.match(r"\|\s*`([^`]+)`", r) for r in rows) if m and m.group(1) in names]
            if rows and len(hits) >= max(2, len(rows) // 2):
                bad.append(f"{doc}:{first}-{last}: a table of {len(hits)} declared parameters ({', '.join(hits[:3])}, "
                           "...): point to `ompisim describe NAME` instead")
    return bad


if __name__ == "__main__":
    tool, root = sys.argv[1], sys.argv[2]
    docs = sys.argv[3:] or subprocess.run(["git", "-C", root, "ls-files", "README.md", "*/README.md"],
                                          capture_output=True, text=True, check=True).stdout.split()
    problems = check(tool, root, docs)
    sys.exit(report(problems, "no README copies the parameter declarations",
                    f"{len(problems)} parameter table(s) copied into READMEs"))
