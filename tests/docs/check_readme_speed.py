#!/usr/bin/env python3
"""README.md's speed tables say what bench/README.md measured.

Usage: check_readme_speed.py ROOT [README]   (README defaults to ROOT/README.md; bench/README.md is always ROOT's)

Checks, in README's "## Speed and memory" section:
* each row of its Targets table is a row of bench/README.md's Targets table (same target text), its "at" commits are
  in that row's "at", every number of its figure is in that row's figure, and its "met" starts as that row's does;
* each row of the run-list table names its run (`name`, as in bench/run.sh) and gives the wall time and peak RSS of
  that run in bench/README.md's "run.sh on this build" table, and that table has a row for every run of run.sh;
* a count of files written "all N `GLOB`" is the number of files GLOB matches in ROOT.
Exit 1 with one line per disagreement.
"""
import glob
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # tests/: source_check.py
from source_check import report  # noqa: E402


def section(text, title_start):
    i = text.index(title_start)
    j = text.find("\n## ", i + 1)
    return text[i:] if j < 0 else text[i:j]


def tables(text):
    """Every markdown table of text as a list of rows (lists of stripped cells), header and rule left out."""
    out, cur = [], []
    for line in text.splitlines():
        if line.startswith("|"):
            cur.append([c.strip() for c in line.strip().strip("|").split("|")])
        elif cur:
            out.append(cur)
            cur = []
    if cur:
        out.append(cur)
    return [[r for r in t[2:]] for t in out if len(t) > 2]


def numbers(cell):
    return re.findall(r"\d[\d,]*(?:\.\d+)?", cell)


def main():
    root = sys.argv[1]
    readme_path = sys.argv[2] if len(sys.argv) > 2 else os.path.join(root, "README.md")
    readme = section(open(readme_path, encoding="utf-8").read(), "## Speed and memory")
    bench = open(os.path.join(root, "bench", "README.md"), encoding="utf-8").read()
    run_sh = open(os.path.join(root, "bench", "run.sh"), encoding="utf-8").read()
    errors = []

    bench_targets = {r[0]: r for r in tables(section(bench, "## Targets"))[0]}
    bench_runs = {r[0].strip("`"): r for r in tables(section(bench, "## run.sh on this build"))[0]}
    readme_tables = tables(readme)
    if len(readme_tables) < 2:
        errors.append("README.md: the speed section has fewer than two tables (Targets, the run list)")
        readme_tables += [[], []]
    targets, runs = readme_tables[0], readme_tables[1]

    for row in targets:
        b = bench_targets.get(row[0])
        if b is None:
            errors.append(f"README.md speed Targets: '{row[0]}' is not a target of bench/README.md")
            continue
        for n in numbers(row[1]):
            if n not in numbers(b[1]):
                errors.append(f"README.md speed Targets: '{row[0]}': {n} is not in bench/README.md's figure '{b[1]}'")
        for c in re.findall(r"`([0-9a-f]{7,40})`", row[2]):
            if c not in b[2]:
                errors.append(f"README.md speed Targets: '{row[0]}': commit {c} is not bench/README.md's '{b[2]}'")
        if row[3].split()[0].strip(":;,") != b[3].split()[0].strip(":;,"):
            errors.append(f"README.md speed Targets: '{row[0]}': met '{row[3]}' against bench/README.md's '{b[3]}'")

    run_names = re.findall(r"^run(?:_all)? ([a-z0-9_]+) ", run_sh, re.M)
    for name in run_names:
        if name not in bench_runs:
            errors.append(f"bench/README.md: run.sh's '{name}' has no row in 'run.sh on this build'")
    for row in runs:
        m = re.search(r"`([a-z0-9_]+)`\)?$", row[0])
        if not m:
            errors.append(f"README.md speed run list: '{row[0]}' names no run of bench/run.sh")
            continue
        name = m.group(1)
        if name not in run_names:
            errors.append(f"README.md speed run list: '{name}' is not a run of bench/run.sh")
        b = bench_runs.get(name)
        if b is None:
            errors.append(f"README.md speed run list: '{name}' is not in bench/README.md's run list")
            continue
        for k, what in ((1, "wall s"), (2, "peak MiB")):
            if numbers(row[k]) != numbers(b[k]):
                errors.append(f"README.md speed run list: '{name}': {what} '{row[k]}' against bench/README.md's "
                              f"'{b[k]}'")

    listed = {m.group(1) for row in runs if (m := re.search(r"`([a-z0-9_]+)`\)?$", row[0]))}
    for name in run_names:
        if name not in listed:
            errors.append(f"README.md speed run list: run.sh's '{name}' has no row")

    for count, pattern in re.findall(r"all (\d+) `([^`]*\*[^`]*)`", readme):
        found = len(glob.glob(os.path.join(root, pattern)))
        if int(count) != found:
            errors.append(f"README.md speed: 'all {count} `{pattern}`' but {found} files match")

    return report(errors, f"ok: {len(targets)} targets and {len(runs)} runs of README.md agree with bench/README.md")


if __name__ == "__main__":
    sys.exit(main())
