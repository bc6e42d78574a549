#!/usr/bin/env python3
"""Architecture test: every #include "..." between top-level folders follows the allowed dependency table, and only
engine/ includes SimGrid (<simgrid/...>, <xbt/...>, <smpi/...>).

Layers, lowest first; a folder may include its own files and those of folders below it:
  core <- engine <- platform <- models <- mpi <- protocols <- collectives <- benchmarks <- runner <- validation <- tools
Test sources (any path with a tests/ component, and the top-level tests/ helpers) assemble fixtures from every layer:
they are exempt from the table but not from the SimGrid rule (engine/tests may include SimGrid).

Inside a layer, component folders stay acyclic too. A component folder is any folder below a layer's top folder
(protocols/ofi, protocols/ofi/cxi, collectives/barrier, ...); folder A depends on folder B when a non-test file directly
in A includes a file directly in B. Any cycle of such dependencies is a violation (e.g. ofi/cxi including ofi/linkx
while ofi/linkx includes ofi/cxi): the pieces both sides need belong in a folder below both (e.g. protocols/ofi/base/).
Files directly in a layer's top folder (the layer's registries, which include every component) are not a component
folder and take no part in this check.

Usage: check_layers.py ROOT   (exit 1 and one line per violation)"""
import os, re, sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # tests/: source_check.py
from source_check import report  # noqa: E402

LAYERS = ["core", "engine", "platform", "models", "mpi", "protocols", "collectives", "benchmarks", "runner",
          "validation", "tools"]
RANK = {name: i for i, name in enumerate(LAYERS)}
SIMGRID = re.compile(r'#\s*include\s*<(simgrid|xbt|smpi)[/.]')
LOCAL = re.compile(r'#\s*include\s*"([^"]+)"')


def is_test(rel):
    parts = rel.split(os.sep)
    return parts[0] == "tests" or "tests" in parts[1:-1] or parts[0] == "bench"


def sources(root, top):
    for dirpath, _, files in os.walk(os.path.join(root, top)):
        for f in sorted(files):
            if f.endswith((".hpp", ".cpp", ".h", ".cc")):
                yield os.path.relpath(os.path.join(dirpath, f), root)


def folder_edges(root):
    """{(from_folder, to_folder): first 'file:line' that makes the edge}, component folders of one layer only."""
    edges = {}
    for layer in LAYERS:
        for rel in sources(root, layer):
            src = os.path.dirname(rel).replace(os.sep, "/")
            if is_test(rel) or "/" not in src:
                continue
            with open(os.path.join(root, rel), encoding="utf-8", errors="replace") as fh:
                for n, line in enumerate(fh, 1):
                    m = LOCAL.search(line)
                    dst = os.path.dirname(m.group(1)) if m else ""
                    if dst.split("/")[0] == layer and "/" in dst and dst != src:
                        edges.setdefault((src, dst), f"{rel}:{n}")
    return edges


def strong_components(nodes, succ):
    """Tarjan's strongly connected components (iterative); yields those with more than one folder."""
    index, low, stack, on, counter = {}, {}, [], set(), [0]
    for start in nodes:
        if start in index:
            continue
        work = [(start, iter(succ.get(start, ())))]
        index[start] = low[start] = counter[0]; counter[0] += 1; stack.append(start); on.add(start)
        while work:
            v, it = work[-1]
            w = next(it, None)
            if w is not None:
                if w not in index:
                    index[w] = low[w] = counter[0]; counter[0] += 1; stack.append(w); on.add(w)
                    work.append((w, iter(succ.get(w, ()))))
                elif w in on:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                comp = []
                while True:
                    w = stack.pop(); on.discard(w); comp.append(w)
                    if w == v:
                        break
                if len(comp) > 1:
                    yield sorted(comp)


def check_folder_cycles(root):
    edges = folder_edges(root)
    succ = {}
    for a, b in sorted(edges):
        succ.setdefault(a, []).append(b)
    bad = []
    for comp in strong_components(sorted(succ), succ):
        inside = [f"{a} -> {b} ({edges[(a, b)]})" for a, b in sorted(edges) if a in comp and b in comp]
        bad.append(f"include cycle between component folders {', '.join(comp)}: {'; '.join(inside)}")
    return bad


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
    return bad + check_folder_cycles(root)


if __name__ == "__main__":
    root = sys.argv[1] if len(sys.argv) > 1 else "."
    problems = check(root)
    sys.exit(report(problems, "layers: every include follows the table",
                    f"{len(problems)} include violation(s)"))
