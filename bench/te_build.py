"""te.create_prim_func + tvm.build for many small functions: the cost of
getting IR from Python into the compiler and out as code, per function.

    PYTHONPATH=python:build/python /usr/bin/python3 bench/te_build.py [--count 200]

Each function is a different elementwise or reduction computation over
small shapes (so nothing is cached between them); the script prints the
median of --repeat runs of the whole loop, split into create_prim_func and
build, in milliseconds per function (--no-build: create_prim_func only).
"""
import argparse
import statistics
import sys
import time

import tensorir as tvm
from tensorir import te


def make(k):
    """Function k: a shape and a body that differ with k."""
    n, m = 8 + k % 7, 4 + k % 5
    A = te.placeholder((n, m), "float32", name="A")
    B = te.placeholder((n, m), "float32", name="B")
    kind = k % 4
    if kind == 0:
        C = te.compute((n, m), lambda i, j: A[i, j] * B[i, j] + float(k), name="C")
    elif kind == 1:
        C = te.compute((n, m), lambda i, j: te.max(A[i, j], B[i, j] * 0.5), name="C")
    elif kind == 2:
        r = te.reduce_axis((0, m), name="r")
        C = te.compute((n,), lambda i: te.sum(A[i, r] * B[i, r], axis=r), name="C")
    else:
        C = te.compute((m, n), lambda i, j: A[j, i] - B[j, (i + k) % m], name="C")
    return [A, B, C]


def run(count, build=True):
    t_create = t_build = 0.0
    for k in range(count):
        args = make(k)
        t0 = time.perf_counter()
        func = te.create_prim_func(args)
        t1 = time.perf_counter()
        if build:
            tvm.build(func, target="llvm")
        t2 = time.perf_counter()
        t_create += t1 - t0
        t_build += t2 - t1
    return t_create, t_build


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=200)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--no-build", action="store_true",
                        help="time create_prim_func only")
    opts = parser.parse_args()
    runs = [run(opts.count, not opts.no_build) for _ in range(opts.repeat)]
    create = statistics.median(r[0] for r in runs) * 1e3 / opts.count
    build = statistics.median(r[1] for r in runs) * 1e3 / opts.count
    print(f"te_build: {opts.count} functions, median of {opts.repeat}: "
          f"create_prim_func {create:.2f} ms, build {build:.2f} ms per function")
    return 0


if __name__ == "__main__":
    sys.exit(main())
