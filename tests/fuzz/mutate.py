#!/usr/bin/env python3
"""Mutation fuzzer of every input ompisim reads, run through the command-line tool (standard library only).

Seeds: small committed scenarios of each family (gemini, seastar, qsnet, slingshot, hetero, and loggp written here),
a sweep grid, an SMPI trace replay (index and rank files), a machine file, a reference file read by `validate` (a
copy of the data folder whose validation/reference holds the mutant), and the command line itself (option values).
Each seed is mutated structurally (keys dropped, duplicated, renamed; values swapped for another JSON type, extreme
numbers, numbers JSON does not allow, wrong units, long strings, paths with '..' and '/', huge arrays, deep nesting)
and at the byte level (truncation, invalid UTF-8, a BOM, a NUL, flipped bytes); then run with a timeout in a fresh
current folder, under a memory limit and `--max-events`.

A mutant is fine when it exits 0 or 1, or 2 with one line `ompisim: error: ...` naming the mutated file (or, for the
command line, the option). A finding: any other exit status (3, a signal), a timeout, an exit 2 with an empty,
multi-line or unnamed error, a result written on exit 2, a file written outside the --out folder (or the default
output folder under the current folder), or a temporary left behind. Exit status 1 when there is a finding.

  tests/fuzz/mutate.py --bin build/bin/ompisim --src . --seed 1 --per-kind 300 [--kinds scenario,grid] [--keep DIR]
"""
import argparse
import copy
import json
import os
import random
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import time

# ---------------------------------------------------------------------------------------------------- JSON writing
class Raw:
    """A token written as is (NaN, Infinity, 1e400: numbers JSON does not allow or Python would not write)."""
    def __init__(self, text): self.text = text


class Dup:
    """An object written with a key given twice."""
    def __init__(self, pairs): self.pairs = pairs


def dump(v):
    if isinstance(v, Raw): return v.text
    if isinstance(v, Dup): return "{" + ", ".join(json.dumps(k) + ": " + dump(x) for k, x in v.pairs) + "}"
    if isinstance(v, dict): return "{" + ", ".join(json.dumps(k) + ": " + dump(x) for k, x in v.items()) + "}"
    if isinstance(v, list): return "[" + ", ".join(dump(x) for x in v) + "]"
    if isinstance(v, float) and v == 0.0 and str(v).startswith("-"): return "-0.0"
    return json.dumps(v, ensure_ascii=False)


# ---------------------------------------------------------------------------------------------------- values
NUMBERS = [0, -1, 1, 2, 3, 1e308, -1e308, -0.0, 2**31, 2**31 - 1, 2**32, 2**53 + 1, 2**63, 2**63 - 1, -2**63, 2**64,
           1e-320, 5e-324, 0.5, -0.5, 1e-9, 1.5, 1e18, 1e19, 65, 257, 1025, 4194305]
RAW_NUMBERS = ["NaN", "Infinity", "-Infinity", "1e400", "-1e400", "1e-400", "-0", "00", "01", "1.", ".5", "0x10", "+1",
               "1e", "--1", "99999999999999999999999999999"]
STRINGS = ["", " ", "1 parsec", "5 us", "5 ms", "8 KiB", "4 kB", "8 B", "5 GB/s", "5 Gb/s", "1 Gf/s", "-1 B", "-1 us",
           "0 s", "-0 s", "1e308 B", "1e308 s", "1e-320 s", "NaN us", "inf s", "Infinity B", "1e400 B", "1 us 2 us",
           "us", "B", "2^31", "18446744073709551616", "18446744073709551616 B", "9.3e18 B", "1 TiB", "0x10 B",
           "../x", "../../escape", "/etc/passwd", "/dev/zero", "/proc/self/mem", "a/b", ".hidden", "x" * 300,
           "\u00e9\u00e8", "nul\u0000byte", "line\nbreak", "tab\there", "\u202e", "null", "true", "1", "-1",
           "osu_latency", "openmpi", "cielo", "replay", "dimension_order", "fluid", "tuned"]
KEYS = ["", " ", "id", "machine", "stack", "ranks", "benchmark", "mca", "sizes", "name", "base", "axes", "points",
        "value", "source", "kind", "x" * 200, "../k", "a.b", "\u00e9", "__proto__"]


def random_scalar(rng):
    r = rng.random()
    if r < 0.35: return rng.choice(NUMBERS)
    if r < 0.5: return Raw(rng.choice(RAW_NUMBERS))
    if r < 0.9: return rng.choice(STRINGS)
    return rng.choice([None, True, False])


def swap_type(rng, v):
    choices = [lambda: None, lambda: True, lambda: rng.choice(NUMBERS), lambda: rng.choice(STRINGS),
               lambda: [v], lambda: {"value": v}, lambda: [], lambda: {}, lambda: str(v) if not isinstance(v, (Raw, Dup)) else "x",
               lambda: Raw(rng.choice(RAW_NUMBERS))]
    return rng.choice(choices)()


def huge_array(rng, v):
    n = rng.choice([300, 5000, 100000, 1000000])
    item = v[0] if isinstance(v, list) and v else rng.choice([1, 2, "8 KiB", 0, {"a": 1}])
    if isinstance(item, (Raw, Dup)): item = 1
    return Raw("[" + ", ".join([dump(item)] * n) + "]")  # written once: a million-element list is slow to walk


def deep(rng, v):
    n = rng.choice([63, 64, 65, 200, 5000, 100000])
    if rng.random() < 0.5:
        return Raw("[" * n + "1" + "]" * n)
    return Raw('{"a": ' * n + "1" + "}" * n)


def paths(v, here=()):
    """Every path (tuple of keys and indices) into a parsed JSON value, the root included."""
    out = [here]
    if isinstance(v, dict):
        for k, x in v.items(): out += paths(x, here + (k,))
    elif isinstance(v, list):
        for i, x in enumerate(v[:50]): out += paths(x, here + (i,))
    return out


def get(v, p):
    for k in p: v = v[k]
    return v


def put(doc, p, new):
    if not p: return new
    get(doc, p[:-1])[p[-1]] = new
    return doc


def rename(rng, k):
    r = rng.random()
    if r < 0.25 and len(k) > 1:
        i = rng.randrange(len(k) - 1)
        return k[:i] + k[i + 1] + k[i] + k[i + 2:]
    if r < 0.4: return k.upper()
    if r < 0.55: return k + "s"
    if r < 0.7: return k[:-1]
    return rng.choice(KEYS)


def mutate_tree(rng, doc, hints, leaf=False):
    """One structural mutation of a parsed JSON document; hints: values meaningful for this kind of file. `leaf`: one
    value replaced, the document's shape kept (such mutants reach the checks past the parser's)."""
    doc = copy.deepcopy(doc)
    ps = paths(doc)
    if leaf: ps = [q for q in ps if not isinstance(get(doc, q), (dict, list))] or ps
    p = rng.choice(ps)
    v = get(doc, p)
    op = rng.choice(["scalar", "scalar", "swap"] if leaf else
                    ["drop", "dup", "rename", "swap", "scalar", "scalar", "hint", "hint", "huge", "deep", "long", "add",
                     "empty"])
    if op in ("drop", "dup", "rename", "add") and not isinstance(v, dict):
        op = "swap" if not isinstance(v, list) or not v else op
    if op == "drop":
        if isinstance(v, dict) and v: del v[rng.choice(list(v))]
        elif isinstance(v, list) and v: del v[rng.randrange(len(v))]
    elif op == "dup":
        if isinstance(v, dict) and v:
            k = rng.choice(list(v))
            pairs = list(v.items()) + [(k, random_scalar(rng) if rng.random() < 0.5 else v[k])]
            doc = put(doc, p, Dup(pairs))
        elif isinstance(v, list) and v:
            v.insert(rng.randrange(len(v) + 1), rng.choice(v))
    elif op == "rename":
        if isinstance(v, dict) and v:
            k = rng.choice(list(v))
            doc = put(doc, p, {(rename(rng, kk) if kk == k else kk): x for kk, x in v.items()})
    elif op == "add":
        if isinstance(v, dict): v[rng.choice(KEYS + list(hints))] = random_scalar(rng)
        else: v.append(random_scalar(rng))
    elif op == "swap": doc = put(doc, p, swap_type(rng, v))
    elif op == "scalar": doc = put(doc, p, random_scalar(rng))
    elif op == "hint":
        if hints:
            k = rng.choice(list(hints))
            target = get(doc, p) if isinstance(get(doc, p), dict) else None
            if target is None or rng.random() < 0.5: target = doc if isinstance(doc, dict) else None
            if target is not None: target[k] = rng.choice(hints[k]) if rng.random() < 0.7 else random_scalar(rng)
    elif op == "huge": doc = put(doc, p, huge_array(rng, v))
    elif op == "deep": doc = put(doc, p, deep(rng, v))
    elif op == "long": doc = put(doc, p, rng.choice(["x" * 100000, "../" * 5000 + "x", "\u00e9" * 50000]))
    elif op == "empty": doc = put(doc, p, type(v)() if isinstance(v, (dict, list, str)) else None)
    return doc, op


def mutate_bytes(rng, data):
    op = rng.choice(["truncate", "truncate", "utf8", "bom", "nul", "flip", "insert", "delete", "ctrl", "crlf"])
    n = len(data)
    i = rng.randrange(n + 1) if n else 0
    if op == "truncate": return data[:i], op
    if op == "utf8": return data[:i] + rng.choice([b"\xff", b"\xc3", b"\xc0\x80", b"\xed\xa0\x80", b"\xe9"]) + data[i:], op
    if op == "bom": return b"\xef\xbb\xbf" + data, op
    if op == "nul": return data[:i] + b"\x00" + data[i:], op
    if op == "flip" and n:
        j = rng.randrange(n)
        return data[:j] + bytes([data[j] ^ (1 << rng.randrange(8))]) + data[j + 1:], op
    if op == "insert": return data[:i] + bytes([rng.choice(b'{}[],:"\\0123456789-eE. ')]) + data[i:], op
    if op == "delete" and n:
        j = rng.randrange(n)
        return data[:j] + data[j + 1:], op
    if op == "ctrl": return data[:i] + bytes([rng.randrange(1, 32)]) + data[i:], op
    return data.replace(b"\n", b"\r\n"), op


def mutant_bytes(rng, doc, hints):
    """A mutant of a JSON seed: structural mutations (one to three), sometimes followed by a byte-level one."""
    ops = []
    r = rng.random()
    if r < 0.35:
        doc, op = mutate_tree(rng, doc, hints, leaf=True)
        return dump(doc).encode("utf-8", "surrogatepass"), ["leaf " + op]
    if r < 0.75:
        for _ in range(rng.choice([1, 1, 1, 2, 3])):
            doc, op = mutate_tree(rng, doc, hints)
            ops.append(op)
    data = dump(doc).encode("utf-8", "surrogatepass")
    if r >= 0.6:
        data, op = mutate_bytes(rng, data)
        ops.append(op)
    return data, ops


# ---------------------------------------------------------------------------------------------------- seeds
SCENARIOS = ["scenarios/gemini/fig5_latency_2p_inter_openmpi.json", "scenarios/gemini/fig7_barrier_cheetah_atomic.json",
             "scenarios/seastar/fig3_smb_send_openmpi-cm.json", "scenarios/qsnet/table1_basic.json",
             "scenarios/slingshot/fig5_latency_inter_h2h_openmpi-cxi.json", "scenarios/hetero/fig2_bw_gm.json",
             "scenarios/hetero/fig4_imb_reduce_block.json"]
LOGGP = {"id": "fz_loggp", "machine": "loggp", "stack": "loggp", "ranks": 2,
         "benchmark": {"name": "osu_latency", "sizes": [1, 1024, 65536]}}
SCENARIO_HINTS = {
    "ranks": [1, 2, 3, 0, -1, 2**31, [2, 4], [], "2"], "ranks_per_node": [1, 2, 0, 3, 2**31],
    "nodes": [[0, 1], [0, 0], [-1], [2**40], []], "machine": ["cielo", "loggp", "../cielo", "/etc/passwd", "crusher"],
    "stack": ["openmpi", "native", "loggp", "openmpi-cm", "nope"], "map_by": ["core", "socket", "ppr:1:node", "ppr:0:node", "ppr:99999999999:node"],
    "bind_to": ["core", "none", "x"], "rank_by": ["slot", "node", "x"], "cpu_list": [[1], [-1], [2**31], []],
    "routing": ["minimal", "valiant", "ugal", "x"], "engine": ["fluid", "lmm", "simgrid", "des"],
    "mca": [{"btl_ugni_smsg_limit": 0}, {"btl_ugni_smsg_limit": "1 parsec"}, {"x": 1}],
    "neighbour_job": [{"nodes": [2, 3], "pattern": "pairs"}, {"nodes": [0], "pattern": "shift", "shift": -1}],
    "sizes": [[1], [0], [-1], [2**62], ["1 parsec"], []], "iterations": [0, 1, -1, 2**31, 1e308],
    "skip": [0, -1, 2**31], "window": [0, 1, 2**31], "radix": [0, 1, 2, [2, 4]], "algorithm": ["tuned", "x"],
    "id": ["../x", "/x", ".x", "a" * 129, ""], "figure": ["Fig. 2", "../../x", "/"], "paper": ["x"]}
GRID_HINTS = {"base": ["scenarios/gemini/fig5_latency_2p_inter_openmpi.json", "../x.json", "/dev/zero", "", "grid.json"],
              "axes": [{}, {"ranks": [2, 2**31]}, {"mca.btl_ugni_smsg_limit": []}, {"nic.bte_bandwidth": ["1 parsec"]}],
              "combine": ["zip", "product", "x"], "points": [[], [{}], [{"ranks": 2}]]}
MACHINE_HINTS = {"base": ["cielo", "../cielo", "/etc/passwd", "loggp"], "name": ["../x", "x"]}
REFERENCE_HINTS = {"points": [[], [1], [{}]], "claims": [[], [{}]], "fit_gaps": [[], [{}]], "tolerance_pct": [0, -1, 1e308]}


def reference_seed(src):
    """The qsnet-elan4 reference file's shape, cut to its first calibration point, two claims and its fit gaps."""
    with open(os.path.join(src, "validation/reference/qsnet-elan4.json"), encoding="utf-8") as f:
        d = json.load(f)
    d.pop("held_out", None)
    d["points"] = [p for p in d["points"] if p.get("role") == "calibration"][:1]
    d["claims"] = d["claims"][:2]
    d.pop("mechanism_checks", None)
    d["paper"] = "fz"
    return d


# ---------------------------------------------------------------------------------------------------- running
class Runner:
    def __init__(self, a, work):
        self.a, self.work = a, work
        self.bin = os.path.abspath(a.bin)
        self.counts, self.findings = {}, []

    def run(self, kind, desc, args, files, mutated_names, env=None, out=None, allow_out=(), links=None):
        """Runs ompisim with args in a fresh folder holding `files` (name -> bytes) and `links` (name -> target)."""
        case = tempfile.mkdtemp(dir=self.work)
        for name, target in (links or {}).items():
            os.makedirs(os.path.dirname(os.path.join(case, name)), exist_ok=True)
            os.symlink(target, os.path.join(case, name))
        for name, data in files.items():
            path = os.path.join(case, name)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "wb") as f: f.write(data)
        before = self.tree(case)
        bound = [] if "--max-events" in args else ["--max-events", "3e6"]  # a case of the option gives its own
        full = ["nice", "-n", "10", self.bin] + bound + [x.replace("@CASE@", case) for x in args]
        e = dict(os.environ)
        e["OMPISIM_DATA"] = self.a.src  # a copy of the binary elsewhere reads the tree's data too
        if env: e.update({k: v.replace("@CASE@", case) for k, v in env.items()})
        t0 = time.time()
        p = subprocess.Popen(full, cwd=case, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             env=e, start_new_session=True, preexec_fn=limit_memory)
        try:
            so, se = p.communicate(timeout=self.a.timeout)
            rc = p.returncode
        except subprocess.TimeoutExpired:
            os.killpg(p.pid, signal.SIGKILL)
            so, se = p.communicate()
            rc = "timeout"
        dt = time.time() - t0
        problem = self.classify(rc, se.decode("utf-8", "replace"), case, before, mutated_names, out, allow_out)
        c = self.counts.setdefault(kind, {"mutants": 0, "exit": {}, "findings": 0, "seconds": 0.0})
        c["mutants"] += 1
        c["exit"][str(rc)] = c["exit"].get(str(rc), 0) + 1
        c["seconds"] += dt
        if self.a.verbose:
            print(f"{kind} rc={rc} {dt:.1f}s [{desc[:100]}] {se.decode('utf-8', 'replace')[:160]!r}", flush=True)
        if problem:
            c["findings"] += 1
            keep = os.path.join(self.a.keep, f"{kind}-{len(self.findings):04d}") if self.a.keep else None
            if keep:
                shutil.copytree(case, keep, symlinks=True, dirs_exist_ok=True)
                with open(os.path.join(keep, "CMD"), "w") as f:
                    f.write(" ".join(repr(x) for x in full) + f"\nenv: {env}\nrc: {rc}\nstderr:\n" + se.decode("utf-8", "replace")[-3000:])
            self.findings.append((kind, desc, rc, problem, se.decode("utf-8", "replace")[-400:], keep))
            print(f"FINDING {kind} [{desc}]: {problem}: rc={rc} {se.decode('utf-8', 'replace')[-300:]!r}", flush=True)
        shutil.rmtree(case, ignore_errors=True)

    @staticmethod
    def tree(root):
        out = set()
        for d, dirs, fs in os.walk(root):
            for x in dirs + fs: out.add(os.path.relpath(os.path.join(d, x), root))
        return out

    def classify(self, rc, err, case, before, names, out, allow_out):
        new = self.tree(case) - before
        allowed = tuple(x for x in (out, "ompisim-out") + tuple(allow_out) if x is not None)
        # Inside an output folder, or one of the folders created on the way to it (--out o/a/b).
        stray = sorted(x for x in new if not any(a == "" or x == a or x.startswith(a + "/") or
                                                 (a.startswith(x + "/") and os.path.isdir(os.path.join(case, x)))
                                                 for a in allowed))
        if stray: return f"wrote outside the output folder: {stray[:5]}"
        tmp = sorted(x for x in new if ".tmp." in os.path.basename(x))
        if tmp: return f"left a temporary: {tmp[:3]}"
        if rc == "timeout": return "timeout"
        if rc not in (0, 1, 2): return f"exit status {rc}"
        if rc != 2: return None
        # A sweep's status line ("ompisim sweep: N points, ...") may come before the error.
        lines = [x for x in err.rstrip("\n").split("\n") if not x.startswith("ompisim sweep: ")]
        if not err.strip(): return "exit 2 with no error line"
        if len(lines) != 1: return f"exit 2 with {len(lines)} lines"
        if not lines[0].startswith("ompisim: error: "): return "exit 2 without 'ompisim: error: '"
        if names and not any(n in lines[0] for n in names + ["--max-events"]):
            return f"exit 2 naming none of {names}"
        written = sorted(x for x in new if x.endswith((".json", ".csv", ".svg", ".paje")) and not x.endswith("fz_in.json"))
        if written: return f"exit 2 but wrote {written[:3]}"
        return None


def limit_memory():
    os.nice(0)
    resource.setrlimit(resource.RLIMIT_AS, (6 << 30, 6 << 30))


# ---------------------------------------------------------------------------------------------------- kinds
def load(src, rel):
    with open(os.path.join(src, rel), encoding="utf-8") as f: return json.load(f)


def fuzz_scenario(r, rng, src, n):
    seeds = [(s, load(src, s)) for s in SCENARIOS] + [("loggp", LOGGP)]
    for name, doc in seeds:  # a few rank counts, so that mutants stay small runs
        if isinstance(doc.get("ranks"), list): doc["ranks"] = doc["ranks"][:3]
    for i in range(n):
        name, doc = rng.choice(seeds)
        data, ops = mutant_bytes(rng, doc, SCENARIO_HINTS)
        extra = rng.choice([[], [], ["--json"], ["--plot", "p.svg"]])
        r.run("scenario", f"{name} {ops}", ["run", "fz_in.json", "--out", "out"] + extra, {"fz_in.json": data},
              ["fz_in.json"], out="out")


def fuzz_grid(r, rng, src, n):
    doc = {"base": "scenarios/gemini/fig5_latency_2p_inter_openmpi.json",
           "axes": {"mca.btl_ugni_smsg_limit": [256, 4096], "nic.bte_bandwidth": ["4 GB/s", "6 GB/s"],
                    "benchmark.sizes": [[1, 1024]]}}
    base = dict(load(src, "scenarios/qsnet/table1_basic.json"))
    base["id"] = "fzbase"
    for i in range(n):
        files, names = {}, ["fz_in.json"]
        if rng.random() < 0.3:  # a base of its own, mutated (the error names it, reached through the grid)
            g = dict(doc, base="fzbase.json", axes={"benchmark.sizes": [[4], [4096]]})
            data, ops = mutant_bytes(rng, base, SCENARIO_HINTS)
            files = {"fz_in.json": dump(g).encode(), "fzbase.json": data}
            names = ["fzbase.json", "fz_in.json"]
        else:
            data, ops = mutant_bytes(rng, doc, GRID_HINTS)
            files = {"fz_in.json": data}
        r.run("grid", f"{ops}", ["sweep", "fz_in.json", "--out", "out", "-j", "1", "--quiet"], files, names, out="out")


def fuzz_machine(r, rng, src, n):
    seeds = [("models/loggp/machines/loggp.json", LOGGP), ("models/qsnet/machines/osu-elan4.json",
                                                          load(src, "scenarios/qsnet/table1_basic.json"))]
    for i in range(n):
        mpath, scen = rng.choice(seeds)
        doc = load(src, mpath)
        data, ops = mutant_bytes(rng, doc, MACHINE_HINTS)
        mname = os.path.basename(mpath)
        r.run("machine", f"{mname} {ops}", ["run", "scen.json", "--machine-file", mname, "--out", "out"],
              {"scen.json": json.dumps(scen).encode(), mname: data}, [mname], out="out")


def fuzz_reference(r, rng, src, n):
    doc = reference_seed(src)
    links = {f"data/{d}": os.path.join(src, d) for d in ("models", "scenarios", "benchmarks", "collectives")}
    for i in range(n):
        data, ops = mutant_bytes(rng, doc, REFERENCE_HINTS)
        r.run("reference", f"{ops}", ["validate", "--paper", "fz", "--samples", "0"],
              {"data/validation/reference/fz.json": data}, ["fz.json"], env={"OMPISIM_DATA": "@CASE@/data"},
              links=links)


TRACE_RANK = ["0 init\n0 compute 1000000\n0 isend 1 7 1024 0\n0 irecv 1 8 512 1\n0 waitall 2\n0 allreduce 8 0 0\n"
              "0 barrier\n0 send 1 3 100000 6\n0 bcast 16 0\n0 finalize\n",
              "1 init\n1 irecv 0 7 1024 0\n1 compute 2000000\n1 isend 0 8 512 1\n1 wait 0 1 7\n1 wait 1 0 8\n"
              "1 allreduce 8 0 0\n1 barrier\n1 recv 0 3 100000 6\n1 bcast 16 0\n1 finalize\n"]
TRACE_FIELDS = ["-1", "0", "2", "99", "2147483648", "9223372036854775808", "1e308", "NaN", "-0", "x", "", "1.5",
                "18446744073709551616", "-333", "-444", "0x10"]
ACTIONS = ["init", "finalize", "send", "recv", "isend", "irecv", "wait", "waitall", "barrier", "bcast", "reduce",
           "allreduce", "alltoall", "alltoallv", "gather", "allgather", "allgatherv", "scatter", "reducescatter",
           "compute", "sleep", "comm_size", "comm_split", "test", "waitany", "ssend", "location", "cpu"]


def mutate_trace_text(rng, text):
    lines = text.split("\n")
    op = rng.choice(["field", "field", "field", "action", "drop", "dup", "swap", "extra", "many", "bytes", "bytes"])
    i = rng.randrange(len(lines))
    if op == "field" and lines[i].strip():
        f = lines[i].split(" ")
        j = rng.randrange(len(f))
        f[j] = rng.choice(TRACE_FIELDS)
        lines[i] = " ".join(f)
    elif op == "action" and lines[i].strip():
        f = lines[i].split(" ")
        if len(f) > 1: f[1] = rng.choice(ACTIONS)
        lines[i] = " ".join(f)
    elif op == "drop": del lines[i]
    elif op == "dup": lines.insert(i, lines[i])
    elif op == "swap":
        j = rng.randrange(len(lines))
        lines[i], lines[j] = lines[j], lines[i]
    elif op == "extra":
        f = [lines[0].split(" ")[0], rng.choice(ACTIONS)] + [rng.choice(TRACE_FIELDS) for _ in range(rng.randrange(6))]
        lines.insert(i, " ".join(f))
    elif op == "many":
        lines.insert(i, (lines[i] + "\n") * rng.choice([1000, 100000]))
    data = "\n".join(lines).encode()
    if op == "bytes": data, op2 = mutate_bytes(rng, data)
    return data, op


def fuzz_replay(r, rng, src, n):
    scen = {"id": "fz_replay", "machine": "loggp", "stack": "loggp", "ranks": 2,
            "benchmark": {"name": "replay", "trace": "t/index.txt", "flop_rate": "10 Gf/s"}}
    hints = {"trace": ["t/index.txt", "t", "/dev/zero", "../x", "t/rank-0.txt", ""],
             "flop_rate": ["0 f/s", "-1 Gf/s", "1 parsec", "1e308 Gf/s", "10 GB/s"], "ranks": [1, 2, 3]}
    for i in range(n):
        ranks = [TRACE_RANK[0].encode(), TRACE_RANK[1].encode()]
        index = b"rank-0.txt\nrank-1.txt\n"
        scen_b = json.dumps(scen).encode()
        target = rng.choice(["rank", "rank", "rank", "index", "scenario"])
        if target == "rank":
            k = rng.randrange(2)
            ranks[k], op = mutate_trace_text(rng, ranks[k].decode())
            names = ["rank-0.txt", "rank-1.txt", "index.txt"]
        elif target == "index":
            op = rng.choice(["path", "bytes", "drop", "dup", "empty"])
            if op == "path":
                index = rng.choice([b"../rank-0.txt\nrank-1.txt\n", b"/etc/passwd\nrank-1.txt\n", b"rank-0.txt\n\n",
                                    b"rank-0.txt\nnope.txt\n", b"t\nrank-1.txt\n", b"/dev/zero\nrank-1.txt\n",
                                    b"rank-0.txt\nrank-0.txt\n", b"rank-0.txt\x00\nrank-1.txt\n", b" rank-0.txt \nrank-1.txt\n"])
            elif op == "bytes": index, op = mutate_bytes(rng, index)
            elif op == "drop": index = b"rank-0.txt\n"
            elif op == "dup": index = b"rank-0.txt\nrank-1.txt\nrank-1.txt\n"
            else: index = b""
            names = ["index.txt", "fz_in.json", "rank-0.txt", "rank-1.txt"]  # a file listed twice: its line is wrong
        else:
            scen_b, op = mutant_bytes(rng, scen, hints)
            names = ["fz_in.json", "index.txt"]
        files = {"fz_in.json": scen_b, "t/index.txt": index, "t/rank-0.txt": ranks[0], "t/rank-1.txt": ranks[1]}
        r.run("replay", f"{target} {op}", ["run", "fz_in.json", "--out", "out"], files, names, out="out")


CLI_VALUES = ["", " ", "-", "--", "=", "x", "1", "0", "-1", "2147483648", "9223372036854775808", "1e308", "NaN", "inf",
              "1 parsec", "5 us", "4 kB", "../x", "/", "/etc", "a\nb", "x" * 5000, "\u00e9", "\xff"]


def cli_cases(rng):
    S = "scenarios/gemini/fig5_latency_2p_inter_openmpi.json"
    Q = "scenarios/qsnet/table1_basic.json"
    G = "scenarios/examples/grid_ugni_smsg_bte.json"
    v = lambda extra=(): rng.choice(CLI_VALUES + list(extra))
    sets = ["btl_ugni_smsg_limit=" + v(["1024", "1 KiB", "1e400"]), "nic.bte_bandwidth=" + v(["5 GB/s", "1 Gb/s"]),
            v(["k=v", "=1", "nic.=1", ".=1", "ranks=4", "benchmark.iterations=1", "machine=loggp", "a=b=c",
               "mca.btl_ugni_smsg_limit=1", "node.memory.cache_copy_bandwidth=1 GB/s"])]
    window = v(["10us:5us", ":", "1e400s:2s", "NaN:1us", "-1us:2us", "0s:0s", "1us:", ":1us", "1us:2us:3us", "1 parsec:2 us"])
    trace_ranks = v(["0-", "-1", "5-2", "0-99999999999", ",", "0,,1", "a", "0-1,1-0", "1-1", "18446744073709551616"])
    out = v(["o", "o/..", "../escape", "o/a/b/c", ".o", "@CASE@/abs/o"])
    return [
        (["run", S, "--out", "out", "--set", rng.choice(sets)], "--set", "out"),
        (["run", Q, "--out", "out", "--trace", "t.json", "--trace-window", window], "--trace-window", "out"),
        (["run", Q, "--out", "out", "--trace", "t.paje", "--trace-ranks", trace_ranks], "--trace-ranks", "out"),
        (["run", Q, "--out", "out", "--trace", v(["t.json", "t.paje", "t.txt", "../t.json", "a/b.json", ".t.json",
                                                    "@CASE@/abs/t.json"])], "--trace", "out"),
        (["run", Q, "--out", "out", "--plot", v(["p.svg", "../p.svg", "p", "a/p.svg", "@CASE@/abs/p.svg"])], "--plot", "out"),
        (["run", Q, "--out", out], "--out", None),
        (["run", Q, "--out", "out", "--engine", v(["fluid", "lmm", "simgrid", "des", "FLUID"])], "--engine", "out"),
        (["--max-input-size", v(["16 MiB", "1 B", "0", "1e400 B", "-1 B", "1 TiB"]), "run", Q, "--out", "out"], "--max-input-size", "out"),
        (["--max-events", v(["1", "0", "1e400", "-5", "1e7"]), "run", Q, "--out", "out"], "--max-events", "out"),
        (["sweep", G, "--out", "out", "-j", v(["1", "0", "-1", "1000000"]), "--quiet"], "-j", "out"),
        (["sweep", G, "--out", "out", "--shard", v(["0/1", "1/1", "0/0", "2/1", "-1/2", "a/b", "1/", "/"]), "--quiet"], "--shard", "out"),
        (["sweep", G, "--out", out, "--quiet", "--set", rng.choice(sets)], "--set", None),
        (["sensitivity", Q, "--step", v(["0.01", "0", "1e-7", "1e308", "-0.01"])], "--step", None),
        (["sensitivity", Q, "--mca", v(["ptl_elan4_rdma", "btl_ugni_smsg_limit", "x"])], "--mca", None),
        (["compare", "--against", "results", "--only", "qsnet/table1_basic", "--tolerance", v(["1%", "0.02", "-1", "1e400", "%", "1 parsec"])], "--tolerance", None),
        (["validate", "--paper", v(["qsnet", "gemini-xe-xk/..", "../x"]), "--samples", "0"], "--paper", None),
        (["validate", "--paper", "qsnet-elan4", "--samples", v(["1001", "-1", "1e400", "x"])], "--samples", None),
        (["describe", v(["cielo", "btl/ugni", "../../etc/passwd", "/dev/zero", S])], "", None),
        (["list", v(["machines", "stacks", "papers"])], "", None),
        (["schema", v(["scenario", "grid", "machine"])], "", None),
        (["machine", "template", v(["my", "cielo", "../x", "a/b", ".x"]), "--out", "out"], "", "out"),
        (["machine", "template", "my", "--like", v(["cielo", "loggp", "x"]), "--file", v(["m.json", "../m.json", "a/m.json", "@CASE@/abs/m.json"])], "", None),
        (["calibrate", "--paper", v(["qsnet-elan4", "x"]), "--machine", v(["osu-elan4", "cielo", "x", "../x"]), "--free", v(["x", "software.x", ""])], "", None),
        (["run", Q, v(["--bogus", "-x", "--out="]), "--out", "out"], "", "out"),
    ]


def fuzz_cli(r, rng, src, n):
    for i in range(n):
        args, option, out = rng.choice(cli_cases(rng))
        allow = ["abs"]  # the absolute paths the cases give are under @CASE@/abs
        for j, x in enumerate(args[:-1]):  # the --out (or --file) folder given, wherever it is
            if x in ("--out", "--file") and not args[j + 1].startswith("@CASE@"):
                if args[j + 1]: allow.append(os.path.normpath(args[j + 1]))
        if "." in allow: allow = ["abs", ""]  # --out o/..: the current folder is the one named
        r.run("cli", " ".join(a[:40] for a in args), args, {}, [], out=out, allow_out=tuple(allow))


def fuzz_result(r, rng, src, n):
    """A result file as `compare A B` reads it (the committed result on the other side)."""
    rel = "results/qsnet/table1_basic.json"
    doc, orig = load(src, rel), os.path.join(src, rel)
    for i in range(n):
        data, ops = mutant_bytes(rng, doc, {"points": [[], [{}], [{"bytes": "4"}]], "provenance": [{}, None]})
        args = ["compare", "fz_in.json", orig] if rng.random() < 0.5 else ["compare", orig, "fz_in.json", "--all", "--json"]
        r.run("result", f"{ops}", args, {"fz_in.json": data}, ["fz_in.json"])


def fuzz_points(r, rng, src, n):
    """A sweep's own point files (points/<hash>.json), read when a sweep resumes and merges."""
    grid = {"base": "scenarios/qsnet/table1_basic.json", "axes": {"benchmark.sizes": [[4], [4096]]}}
    gb = json.dumps(grid).encode()
    made = tempfile.mkdtemp(dir=r.work)
    with open(os.path.join(made, "g.json"), "wb") as f: f.write(gb)
    subprocess.run([r.bin, "sweep", "g.json", "--out", "out", "--quiet"], cwd=made, check=True, env=dict(
        os.environ, OMPISIM_DATA=r.a.src), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    pts = {f: open(os.path.join(made, "out/points", f), "rb").read() for f in sorted(os.listdir(os.path.join(made, "out/points")))}
    for i in range(n):
        victim = rng.choice(sorted(pts))
        data, ops = mutant_bytes(rng, json.loads(pts[victim]), {"hash": ["0", "../x", ""], "result": [{}, None]})
        files = {"g.json": gb}
        files.update({f"out/points/{f}": (data if f == victim else b) for f, b in pts.items()})
        args = ["sweep", "g.json", "--out", "out", "--quiet"] + (["--merge"] if rng.random() < 0.5 else [])
        r.run("points", f"{ops}", args, files, [victim], out="out")


KINDS = {"scenario": fuzz_scenario, "grid": fuzz_grid, "machine": fuzz_machine, "reference": fuzz_reference,
         "replay": fuzz_replay, "cli": fuzz_cli, "result": fuzz_result, "points": fuzz_points}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bin", required=True)
    ap.add_argument("--src", required=True, help="source tree (seeds; the data folder of the reference mutants)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--per-kind", type=int, default=100)
    ap.add_argument("--kinds", default=",".join(KINDS))
    ap.add_argument("--timeout", type=float, default=20)
    ap.add_argument("--expect-finding", action="store_true",
                    help="exit 0 only when there is a finding (the check that a planted crash is reported)")
    ap.add_argument("--verbose", action="store_true", help="a line per mutant")
    ap.add_argument("--keep", default="", help="folder to copy each finding's inputs and command into")
    a = ap.parse_args()
    src = a.src = os.path.abspath(a.src)
    if a.keep: os.makedirs(a.keep, exist_ok=True)
    work = tempfile.mkdtemp(prefix="ompisim-fuzz-")
    r = Runner(a, work)
    os.chdir(src)  # the committed scenarios are read by their repository paths
    try:
        for k in a.kinds.split(","):
            KINDS[k](r, random.Random(f"{a.seed}:{k}"), src, a.per_kind)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    for k, c in r.counts.items():
        print(f"{k}: {c['mutants']} mutants, exit {dict(sorted(c['exit'].items()))}, {c['findings']} findings, "
              f"{c['seconds']:.0f} s")
    print(f"{len(r.findings)} findings")
    if a.expect_finding: return 0 if r.findings else 1
    return 1 if r.findings else 0


if __name__ == "__main__":
    sys.exit(main())
