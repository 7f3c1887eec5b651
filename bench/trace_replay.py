"""Replaying a schedule's trace with new decisions: what an auto-scheduler
does thousands of times (a mutator changes a sampled tiling, the trace is
applied again to a fresh schedule of the workload).

    PYTHONPATH=python:build/python /usr/bin/python3 bench/trace_replay.py \
        [--count 200] [--debug-mask all|none] [--peer-python build/peers-venv/bin/python]

The workload is a 2-block GEMM (matmul, then a bias + ReLU epilogue), the
trace 30 instructions: blocks and loops found, tilings sampled and split,
loops reordered, the epilogue moved under the tiles, loops fused,
parallelized, vectorized and annotated with a sampled unroll depth. Each
replay takes a fresh Schedule of the workload (each step verified, TVM's
debug_mask "all"), the trace with a new decision for one tiling
(with_decision) and applies it; nothing is built. Prints the median and
the 90th percentile per replay in milliseconds.

The peer is TVM's wheel (apache-tvm 0.27, `tvm.s_tir`) run by
--peer-python (a virtual environment with it; by default the one
bench/cpu_peers.py uses, skipped when it is not there) on the same workload
(from te) and the same 30 instructions; the ratio is TVM's median over
this one's, from the same run.
"""
import argparse
import os
import statistics
import subprocess
import sys
import time

import tensorir as tvm
from tensorir.script import tir as T


@T.prim_func
def gemm_relu(A: T.Buffer((256, 256), "float32"), B: T.Buffer((256, 256), "float32"),
              bias: T.Buffer((256,), "float32"), D: T.Buffer((256, 256), "float32")):
    C = T.alloc_buffer((256, 256), "float32")
    for i, j, k in T.grid(256, 256, 256):
        with T.block("C"):
            vi, vj, vk = T.axis.remap("SSR", [i, j, k])
            with T.init():
                C[vi, vj] = T.float32(0)
            C[vi, vj] = C[vi, vj] + A[vi, vk] * B[vk, vj]
    for i, j in T.grid(256, 256):
        with T.block("D"):
            vi, vj = T.axis.remap("SS", [i, j])
            D[vi, vj] = T.max(C[vi, vj] + bias[vj], T.float32(0))


def schedule(sch):
    """The 30 instructions."""
    c = sch.get_block("C")                                   # 1
    d = sch.get_block("D")                                   # 2
    i, j, k = sch.get_loops(c)                               # 3
    ti = sch.sample_perfect_tile(i, n=3, max_innermost_factor=16)   # 4
    i0, i1, i2 = sch.split(i, ti)                            # 5
    tj = sch.sample_perfect_tile(j, n=3, max_innermost_factor=16)   # 6
    j0, j1, j2 = sch.split(j, tj)                            # 7
    tk = sch.sample_perfect_tile(k, n=2, max_innermost_factor=16)   # 8
    k0, k1 = sch.split(k, tk)                                # 9
    sch.reorder(i0, j0, i1, j1, k0, k1, i2, j2)              # 10
    sch.reverse_compute_at(d, j1)                            # 11
    outer = sch.fuse(i0, j0)                                 # 12
    sch.parallel(outer)                                      # 13
    sch.vectorize(j2)                                        # 14
    unroll = sch.sample_categorical([0, 16, 64], [0.3, 0.4, 0.3])   # 15
    sch.annotate(c, "pragma_auto_unroll_max_step", 16)       # 16
    sch.annotate(c, "pragma_unroll_explicit", 1)             # 17
    di, dj = sch.get_loops(d)[-2:]                           # 18
    sch.unannotate(c, "pragma_unroll_explicit")              # 19
    sch.annotate(d, "note", "epilogue")                      # 20
    d_loops = sch.get_loops(d)                               # 21
    c_loops = sch.get_loops(c)                               # 22
    sch.get_block("D")                                       # 23
    sch.get_block("C")                                       # 24
    sch.get_consumers(c)                                     # 25
    sch.get_producers(d)                                     # 26
    sch.get_child_blocks(outer)                              # 27
    sch.annotate(outer, "note", "outer")                     # 28
    sch.annotate(c_loops[-1], "note", "inner")               # 29
    sch.enter_postproc()                                     # 30
    return unroll, d_loops


# The same workload and instructions with TVM's wheel (its 0.27 names:
# tvm.s_tir, get_sblock, tvm.tirx).
PEER = r"""
import statistics, sys, time
import tvm
from tvm import te, s_tir

count, mask = int(sys.argv[1]), sys.argv[2]
A = te.placeholder((256, 256), name="A")
B = te.placeholder((256, 256), name="B")
bias = te.placeholder((256,), name="bias")
k = te.reduce_axis((0, 256), name="k")
C = te.compute((256, 256), lambda i, j: te.sum(A[i, k] * B[k, j], axis=k), name="C")
D = te.compute((256, 256), lambda i, j: te.max(C[i, j] + bias[j],
                                               tvm.tirx.const(0, "float32")), name="D")
mod = te.create_prim_func([A, B, bias, D])
sch = s_tir.Schedule(mod, seed=7)
c = sch.get_sblock("C"); d = sch.get_sblock("D")
i, j, k = sch.get_loops(c)
ti = sch.sample_perfect_tile(i, n=3, max_innermost_factor=16); i0, i1, i2 = sch.split(i, ti)
tj = sch.sample_perfect_tile(j, n=3, max_innermost_factor=16); j0, j1, j2 = sch.split(j, tj)
tk = sch.sample_perfect_tile(k, n=2, max_innermost_factor=16); k0, k1 = sch.split(k, tk)
sch.reorder(i0, j0, i1, j1, k0, k1, i2, j2)
sch.reverse_compute_at(d, j1)
outer = sch.fuse(i0, j0); sch.parallel(outer); sch.vectorize(j2)
sch.sample_categorical([0, 16, 64], [0.3, 0.4, 0.3])
sch.annotate(c, "pragma_auto_unroll_max_step", 16)
sch.annotate(c, "pragma_unroll_explicit", 1)
sch.get_loops(d)
sch.unannotate(c, "pragma_unroll_explicit")
sch.annotate(d, "note", "epilogue")
sch.get_loops(d); c_loops = sch.get_loops(c)
sch.get_sblock("D"); sch.get_sblock("C")
sch.get_consumers(c); sch.get_producers(d); sch.get_child_blocks(outer)
sch.annotate(outer, "note", "outer"); sch.annotate(c_loops[-1], "note", "inner")
sch.enter_postproc()
trace = sch.trace
assert len(trace.insts) == 30
tiles = [inst for inst in trace.insts if inst.kind.name == "SamplePerfectTile"]
candidates = [[4, 4, 16], [8, 2, 16], [2, 16, 8], [16, 4, 4], [1, 32, 8], [32, 1, 8]]
times = []
for n in range(count):
    start = time.perf_counter()
    s = s_tir.Schedule(mod, debug_mask=mask)
    trace.with_decision(tiles[n % 2], candidates[n % len(candidates)],
                        remove_postproc=False).apply_to_schedule(s, remove_postproc=False)
    times.append(time.perf_counter() - start)
print(statistics.median(times) * 1e3)
"""


def peer_median(python, count, mask):
    """TVM's median in ms, or None (with the reason printed) when the peer
    does not run."""
    if not python or not os.path.exists(python):
        print(f"peer: no TVM wheel's Python at {python!r}; skipped")
        return None
    run = subprocess.run([python, "-c", PEER, str(count), mask],
                         capture_output=True, text=True)
    if run.returncode != 0:
        print(f"peer: TVM's run failed:\n{run.stderr[-2000:]}")
        return None
    return float(run.stdout.split()[-1])


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--count", type=int, default=200)
    parser.add_argument("--debug-mask", default="all", choices=["all", "none"])
    parser.add_argument("--peer-python", default="build/peers-venv/bin/python")
    args = parser.parse_args()
    base = tvm.tir.Schedule(gemm_relu, seed=7)
    schedule(base)
    trace = base.trace
    assert len(trace.insts) == 30, len(trace.insts)
    tiles = [inst for inst in trace.insts if inst.kind.name == "SamplePerfectTile"]
    candidates = [[4, 4, 16], [8, 2, 16], [2, 16, 8], [16, 4, 4], [1, 32, 8], [32, 1, 8]]
    times = []
    for n in range(args.count):
        decision = candidates[n % len(candidates)]
        start = time.perf_counter()
        sch = tvm.tir.Schedule(gemm_relu, debug_mask=args.debug_mask)
        trace.with_decision(tiles[n % 2], decision, remove_postproc=False).apply_to_schedule(sch)
        times.append(time.perf_counter() - start)
    assert len(sch.trace.insts) == 30
    times.sort()
    median = statistics.median(times) * 1e3
    p90 = times[int(len(times) * 0.9)] * 1e3
    print(f"replay of a 30-instruction trace with a new decision, 2-block GEMM, "
          f"debug_mask={args.debug_mask}: median {median:.3f} ms, p90 {p90:.3f} ms "
          f"({args.count} replays)")
    tvm_median = peer_median(args.peer_python, args.count, args.debug_mask)
    if tvm_median is not None:
        print(f"TVM 0.27: median {tvm_median:.3f} ms; TVM / tir = {tvm_median / median:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
