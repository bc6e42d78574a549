#!/usr/bin/env python3
"""README.md's speed tables say what bench/README.md measured.

Usage: check_readme_speed.py ROOT [README]   (README defaults to ROOT/README.md; bench/README.md is always ROOT's)

Checks, in README's "## Speed and memory" section:
* each row of its Targets table is a row of bench/README.md's Targets table (same target text), its "at" commits are
  in that row's "at", every number of its figure is in that row's figure, and its "met" starts as that row's does;
* each row of the run-list table names its run (`name`, as in bench/run.sh) and gives the mean of the three passes
  of bench/README.md's run-list table for each build (user s, to the README's decimals) and its peak RSS;
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
    bench_runs = {r[0]: r for r in tables(section(bench, "## The run list against"))[0]}
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

    for row in runs:
        m = re.search(r"`([a-z0-9_]+)`\)?$", row[0])
        if not m:
            errors.append(f"README.md speed run list: '{row[0]}' names no run of bench/run.sh")
            continue
        name = m.group(1)
        if not re.search(rf"^run {re.escape(name)} ", run_sh, re.M):
            errors.append(f"README.md speed run list: '{name}' is not a run of bench/run.sh")
        b = bench_runs.get(name)
        if b is None:
            errors.append(f"README.md speed run list: '{name}' is not in bench/README.md's run list")
            continue
        rss = [float(x) for x in b[5].split("/")]
        for k, cell in enumerate(row[1:3]):
            sec = re.match(r"([\d.]+) s / ([\d.]+) (MB|GB)", cell)
            if not sec:
                errors.append(f"README.md speed run list: '{name}': '{cell}' is not 'X s / Y MB'")
                continue
            passes = [float(x) for x in b[1 + k].split()]
            mean = sum(passes) / len(passes)
            decimals = len(sec.group(1).split(".")[1]) if "." in sec.group(1) else 0
            if abs(float(sec.group(1)) - mean) > 0.5 * 10 ** -decimals + 1e-9:
                errors.append(f"README.md speed run list: '{name}': {sec.group(1)} s against the mean {mean:.3f} s "
                              f"of bench/README.md's passes {b[1 + k]}")
            mb = float(sec.group(2)) * (1000 if sec.group(3) == "GB" else 1)
            digits = sec.group(2).split(".")[1] if "." in sec.group(2) else ""
            step = 10 ** -len(digits) * (1000 if sec.group(3) == "GB" else 1)
            if abs(mb - rss[k]) > 0.5 * step + 1e-9:
                errors.append(f"README.md speed run list: '{name}': {sec.group(2)} {sec.group(3)} against "
                              f"bench/README.md's {rss[k]:g} MB")

    for count, pattern in re.findall(r"all (\d+) `([^`]*\*[^`]*)`", readme):
        found = len(glob.glob(os.path.join(root, pattern)))
        if int(count) != found:
            errors.append(f"README.md speed: 'all {count} `{pattern}`' but {found} files match")

    return report(errors, f"ok: {len(targets)} targets and {len(runs)} runs of README.md agree with bench/README.md")


if __name__ == "__main__":
    sys.exit(main())
