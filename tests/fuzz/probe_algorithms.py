#!/usr/bin/env python3
"""Runs every collective algorithm the tool lists (the library decisions "tuned" and "mpich", and none: the stack's
library) on every preset stack of one machine per NIC kind, at small rank counts and odd sizes, through the
command-line tool (standard library only).

Machines, stacks, collectives and their algorithms come from `ompisim list` and `ompisim describe MACHINE`, so an
algorithm registered later is probed without editing this file. For each (machine, stack, collective, algorithm) one
scenario: a rank count drawn from 1, 2, 3, 5, 6, 7, 9, 12, 13, 17, ranks per node from 1, 2, 4 (at most the ranks),
three sizes drawn from 0, 1, 3, 7, 8, 1023, 4097, 65537, 1048577 (multiples of 4 for the collectives whose benchmark
counts 4-byte elements), 2 timed calls after 1 warm-up; run with a timeout and `--max-events`.

A run is fine when it exits 0 or 1, or 2 with one line `ompisim: error: ...` (a scenario the model refuses, with its
file, key and reason). A finding: any other exit status (3: an internal error, a signal), a timeout, or an exit 2
whose last line is not that line. Exit status 1 when there is a finding.

  tests/fuzz/probe_algorithms.py --bin build/bin/ompisim --seed 1 [--keep DIR]
"""
import argparse
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile

BENCHMARK = {"barrier": "barrier_loop", "allreduce": "osu_allreduce", "alltoall": "osu_alltoall",
             "bcast": "osu_bcast", "allgather": "osu_allgather", "gather": "osu_gather",
             "scatter": "osu_scatter", "reduce": "imb_reduce"}
ELEMENT = {"osu_allreduce": 4, "imb_reduce": 4}  # benchmarks whose sizes count 4-byte elements
DECISIONS = {"osu_alltoall", "osu_bcast", "osu_allgather", "osu_gather", "osu_scatter", "osu_allreduce"}


def tool(bin_, *args):
    return subprocess.run([bin_, *args], capture_output=True, text=True, check=True).stdout


def inventory(bin_):
    machines = re.findall(r"^  (\S+)  \(", tool(bin_, "list", "machines"), re.M)
    stacks = re.findall(r"^  (\S+) \[([^\]]+)\]", tool(bin_, "list", "stacks"), re.M)
    colls = {c: [a.strip() for a in algos.split(",")]
             for c, algos in re.findall(r"^  (\w+) +(.+)$", tool(bin_, "list", "collectives"), re.M)
             if c in BENCHMARK}
    chosen = {}  # NIC kinds (as the machine lists them) -> its first machine
    for m in machines:
        kinds = re.search(r"NIC kinds ([^:]+):", tool(bin_, "describe", m))
        if kinds and kinds.group(1) not in chosen:
            chosen[kinds.group(1)] = m
    runs = []
    for kinds, m in chosen.items():
        have = {k.strip() for k in kinds.split(",")}
        for name, stack_kinds in stacks:
            if {k.strip() for k in stack_kinds.split(",")} & have:
                runs.append((m, name))
    return sorted(set(runs)), colls


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--bin", required=True)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--timeout", type=float, default=120)
    ap.add_argument("--keep", help="folder for each finding's scenario and output")
    a = ap.parse_args()
    bin_ = os.path.abspath(a.bin)
    rng = random.Random(a.seed)
    pairs, colls = inventory(bin_)
    findings, count = [], 0
    for machine, stack in pairs:
        for coll, algos in colls.items():
            bench = BENCHMARK[coll]
            # None: no "algorithm", the stack preset's collective library or the benchmark's own default
            for algo in algos + (["tuned", "mpich"] if bench in DECISIONS else []) + [None]:
                ranks = rng.choice([1, 2, 3, 5, 6, 7, 9, 12, 13, 17])
                block = {"name": bench} if algo is None else {"name": bench, "algorithm": algo}
                if bench == "barrier_loop":
                    block.update({"iterations": 2, "skip": 1})
                else:
                    sizes = rng.sample([0, 1, 3, 7, 8, 1023, 4097, 65537, 1048577], 3)
                    el = ELEMENT.get(bench, 1)
                    block["sizes"] = sorted({s - s % el for s in sizes})
                    block.update({"repetitions": 2} if bench == "imb_reduce" else {"iterations": 2, "skip": 1})
                scenario = {"id": "probe", "machine": machine, "stack": stack, "ranks": ranks,
                            "ranks_per_node": min(ranks, rng.choice([1, 2, 4])), "benchmark": block}
                count += 1
                work = tempfile.mkdtemp(prefix="probe-")
                path = os.path.join(work, "probe.json")
                with open(path, "w") as f:
                    json.dump(scenario, f)
                try:
                    r = subprocess.run([bin_, "run", path, "--out", os.path.join(work, "out"), "--max-events",
                                        "20000000"], capture_output=True, text=True, timeout=a.timeout, cwd=work)
                    rc, lines = r.returncode, r.stderr.strip().splitlines()
                except subprocess.TimeoutExpired:
                    rc, lines = "timeout", []
                fine = rc in (0, 1) or (rc == 2 and lines and lines[-1].startswith("ompisim: error:"))
                if not fine:
                    findings.append({"exit": rc, "stderr": lines[-3:], "scenario": scenario})
                    print(f"FINDING exit {rc}: {machine} {stack} {bench} {algo} ranks {ranks}: "
                          f"{lines[-1] if lines else ''}", flush=True)
                    if a.keep:
                        os.makedirs(a.keep, exist_ok=True)
                        shutil.copy(path, os.path.join(a.keep, f"finding-{len(findings)}.json"))
                shutil.rmtree(work, ignore_errors=True)
    print(f"{count} runs, {len(findings)} findings ({len(pairs)} machine and stack pairs)")
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
