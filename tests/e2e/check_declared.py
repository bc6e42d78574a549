#!/usr/bin/env python3
"""Every counter a run reports is declared: each key of "stats" -> "counters" in every result JSON under RUN_DIR must be
a statistic of one of the DECLARATIONS files (what `ompisim describe COMPONENT` prints for the components of the run's
stack: under its "## statistics" heading, each statistic's line starts with its name and a blank; parameters do not
count). Used by describe_declared.sh; describe_declared_detects.sh shows it fails.

Prints "ok   NAME declared" or "FAIL NAME declared: ..." per counter (sorted, once each); exit 1 when a counter is not
declared or the run reports none.

Usage: check_declared.py RUN_DIR DECLARATIONS..."""
import json
import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))  # e2echeck.py
from e2echeck import check, exit_status  # noqa: E402


def declared_names(paths):
    """The statistics named in `describe COMPONENT` outputs (the lines under each "## statistics" heading)."""
    names = set()
    for p in paths:
        in_stats = False
        for line in pathlib.Path(p).read_text().splitlines():
            if line.startswith("#"):
                in_stats = line.startswith("## statistics")
            elif in_stats and line and not line[0].isspace():
                names.add(line.split(" ", 1)[0])
    return names


def run_counters(run_dir):
    keys = set()
    for f in sorted(pathlib.Path(run_dir).rglob("*.json")):
        keys.update(json.loads(f.read_text()).get("stats", {}).get("counters", {}))
    return sorted(keys)


if __name__ == "__main__":
    if len(sys.argv) < 3:
        sys.exit("usage: check_declared.py RUN_DIR DECLARATIONS...")
    names = declared_names(sys.argv[2:])
    keys = run_counters(sys.argv[1])
    check(f"{sys.argv[1]}: the run reports counters", keys, "none")
    for k in keys:
        check(f"{k} declared", k in names, "the run reports it, no component of the stack declares it")
    exit_status()
