#!/usr/bin/python3
"""Visiting and rewriting a large function's IR nodes from Python.

Builds a function of --blocks blocks (each `for i in range(8)` over a block
computing B[k, vi] = A[k, vi] * 2 + 1), reads it as IR nodes
(PrimFunc.body), then times, each the median of --repeat runs:

- post_order_visit with a callback counting the nodes;
- a PyStmtExprVisitor subclass counting the loads;
- ir_transform turning every loop parallel (a new tree);
- with_body of the transformed tree (printing and parsing it back to tir).

  /usr/bin/python3 bench/visitor.py [--blocks 10000] [--repeat 5]
"""
import argparse
import statistics
import time

import tensorir as tvm
from tensorir import tir


def function_text(blocks):
    lines = ['func.func @big(%A: memref<{n}x8xf32> {{tir.name = "A"}}, '
             '%B: memref<{n}x8xf32> {{tir.name = "B"}}) {{'.format(n=blocks)]
    for k in range(blocks):
        lines.append(f"""  tir.for %i{k} = 0 to 8 {{
    tir.block "b{k}"(%v{k} = spatial(8, %i{k})) {{
      %a{k} = tir.load %A[{k}, %v{k}] : memref<{blocks}x8xf32>
      %c2_{k} = arith.constant 2.0 : f32
      %c1_{k} = arith.constant 1.0 : f32
      %m{k} = arith.mulf %a{k}, %c2_{k} : f32
      %s{k} = arith.addf %m{k}, %c1_{k} : f32
      tir.store %s{k}, %B[{k}, %v{k}] : memref<{blocks}x8xf32>
    }}
  }}""")
    lines.append("  return\n}")
    return "\n".join(lines)


def median_time(fn, repeat):
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


class CountLoads(tir.PyStmtExprVisitor):
    def __init__(self):
        self.loads = 0

    def visit_buffer_load_(self, op):
        self.loads += 1
        super().visit_buffer_load_(op)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--blocks", type=int, default=10000)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()

    mod = tvm.IRModule.from_mlir(function_text(args.blocks))
    func = mod["big"]
    start = time.perf_counter()
    body = func.body
    read = time.perf_counter() - start

    count = [0]

    def visit():
        count[0] = 0

        def fvisit(node):
            count[0] += 1
        tvm.tir.stmt_functor.post_order_visit(body, fvisit)

    def visitor():
        v = CountLoads()
        v.visit_stmt(body)
        assert v.loads == args.blocks

    def parallel(loop):
        return loop.with_fields(kind=tir.ForKind.PARALLEL)

    transformed = [None]

    def transform():
        transformed[0] = tvm.tir.stmt_functor.ir_transform(body, None, parallel, ["tir.For"])

    rows = [("read as nodes (PrimFunc.body, once)", read)]
    rows.append(("post_order_visit", median_time(visit, args.repeat)))
    rows.append(("PyStmtExprVisitor", median_time(visitor, args.repeat)))
    rows.append(("ir_transform (every loop parallel)", median_time(transform, args.repeat)))
    start = time.perf_counter()
    func.with_body(transformed[0])
    rows.append(("with_body (tir built in C++, verified)", time.perf_counter() - start))

    print(f"{args.blocks} blocks, {count[0]} nodes; medians of {args.repeat} runs\n")
    print("| step | seconds |")
    print("|---|---|")
    for name, seconds in rows:
        print(f"| {name} | {seconds:.3f} |")


if __name__ == "__main__":
    main()
