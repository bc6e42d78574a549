#!/usr/bin/env python3
"""Writes a synthetic SMPI time-independent trace (the format smpirun -trace-ti writes; benchmarks/replay/ti_trace.hpp)
for the replay speed benchmark (bench/replay_bench.sh): P ranks on a periodic 2-D grid, each iteration a compute,
4 irecv + 4 isend of a halo (1 KiB and 16 KiB alternating), a waitall, and every 10th iteration an allreduce of 8
doubles; about `actions` actions in all. Usage: replay_gen.py DIR [ranks=1024] [actions=10000000]
Writes DIR/trace.txt (the index) and DIR/trace.txt_files/bench_rank-N.txt."""
import os, sys

out = sys.argv[1]
P = int(sys.argv[2]) if len(sys.argv) > 2 else 1024
total = int(sys.argv[3]) if len(sys.argv) > 3 else 10_000_000
px = 1
while px * px < P: px *= 2
if px * px != P: px //= 2
py = P // px
per_iter = 10.1  # compute, 4 irecv, 4 isend, waitall, + an allreduce every 10 iterations
iters = max(1, round(total / P / per_iter))
os.makedirs(os.path.join(out, "trace.txt_files"), exist_ok=True)
with open(os.path.join(out, "trace.txt"), "w") as idx:
    for r in range(P):
        idx.write(f"trace.txt_files/bench_rank-{r + 1}.txt\n")
n = 0
for r in range(P):
    x, y = r % px, r // px
    nb = [y * px + (x + 1) % px, y * px + (x - 1) % px, ((y + 1) % py) * px + x, ((y - 1) % py) * px + x]
    lines = [f"{r} init"]
    for it in range(iters):
        cnt = 128 if it % 2 == 0 else 2048
        lines.append(f"{r} compute {20000 + 1000 * (r % 7)}")
        for d in range(4):
            lines.append(f"{r} irecv {nb[d ^ 1]} {d} {cnt} 0")
        for d in range(4):
            lines.append(f"{r} isend {nb[d]} {d} {cnt} 0")
        lines.append(f"{r} waitall 8")
        if it % 10 == 9:
            lines.append(f"{r} allreduce 8 0 0 ")
    lines.append(f"{r} finalize")
    n += len(lines)
    with open(os.path.join(out, "trace.txt_files", f"bench_rank-{r + 1}.txt"), "w") as f:
        f.write("\n".join(lines) + "\n")
print(f"{P} ranks, {iters} iterations, {n} actions in {out}")
