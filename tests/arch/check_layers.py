#!/usr/bin/env python3
"""Architecture test: every #include "..." between top-level folders follows the allowed dependency table, and only
engine/ includes SimGrid (<simgrid/...>, <xbt/...>, <smpi/...>).

Layers, lowest first; a folder may include its own files and those of folders below it:
  core <- engine <- platform <- models <- mpi <- protocols <- collectives <- benchmarks <- runner <- validation <- tools
Test sources (any path with a tests/ component, and the top-level tests/ helpers) assemble fixtures from every layer:
they are exempt from the table but not from the SimGrid rule (engine/tests may include SimGrid).

Usage: check_layers.py ROOT   (exit 1 and one line per violation)"""
import os, re, sys

LAYERS = ["core", "engine", "platform", "models", "mpi", "protocols", "collectives", "benchmarks", "runner",
          "validation", "tools"]
RANK = {name: i for i, name in enumerate(LAYERS)}
SIMGRID = re.compile(r'#\s*include\s*<(simgrid|xbt|smpi)[/.]')
LOCAL = re.compile(r'#\s*include\s*"([^"]+)"')


def is_test(rel):
    parts = rel.split(os.sep)
    return parts[0] == "tests" or "tests" in parts[1:-1] or parts[0] == "bench"


def check(root):
    bad = []
    for top in LAYERS + ["tests", "bench"]:
        base = os.path.join(root, top)
        for dirpath, _, files in os.walk(base):
            for f in files:
                if not f.endswith((".hpp", ".cpp", ".h", ".cc")):
                    continue
                path = os.path.join(dirpath, f)
                rel = os.path.relpath(path, root)
                layer = rel.split(os.sep)[0]
                with open(path, encoding="utf-8", errors="replace") as fh:
                    for n, line in enumerate(fh, 1):
                        if SIMGRID.search(line) and layer != "engine":
                            bad.append(f"{rel}:{n}: only engine/ may include SimGrid: {line.strip()}")
                        m = LOCAL.search(line)
                        if not m or is_test(rel):
                            continue
                        target = m.group(1).split("/")[0]
                        if target not in RANK or layer not in RANK:
                            continue
                        if RANK[target] > RANK[layer]:
                            bad.append(f"{rel}:{n}: {layer}/ may not include {target}/ (layers: {' <- '.join(LAYERS)}): "
                                       f"{line.strip()}")
    return bad


if __name__ == "__main__":
    root = sys.argv[1] if len(sys.argv) > 1 else "."
    problems = check(root)
    for p in problems:
        print(p)
    print(f"{len(problems)} include violation(s)" if problems else "layers: every include follows the table")
    sys.exit(1 if problems else 0)
