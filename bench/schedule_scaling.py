#!/usr/bin/python3
"""How parse + verify and a schedule scale with the size of a function.

Generates functions of N blocks (each `B<k>` in an i, j loop nest, reading
the buffer the block before it writes: a chain of producers and consumers)
and times, with build/bin/tir-opt:

  (a) parse + verify (+ print to /dev/null): `tir-opt --verify-each f.mlir`,
      and, for the verifier's share, parse alone
      (`--mlir-very-unsafe-disable-verifier-on-parsing`);
  (b) the same plus a 20-step transform script (get_block, get_loops,
      split, reorder, fuse, parallel on four blocks spread over the
      function) run by `--transform-interpreter`.

Each figure is the least of --repeat runs (the machine is shared). Prints a
Markdown table: seconds, microseconds per block, and the ratio of the time
per block to that of the smallest size (1.0 is linear).

  /usr/bin/python3 bench/schedule_scaling.py [--sizes 1000,2000,5000,10000]
      [--repeat 3] [--tir-opt build/bin/tir-opt]
"""

import argparse
import os
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SHAPE = "memref<16x16xf32>"


def make_function(n: int) -> str:
    """`@main` with n blocks: B<k> reads T<k> and writes T<k+1>."""
    lines = [
        f"func.func @main(%In: {SHAPE} {{tir.name = \"In\"}}, "
        f"%Out: {SHAPE} {{tir.name = \"Out\"}}) {{"
    ]
    # Intermediate buffers: T1..T(n-1); T0 is the input, Tn the output.
    for k in range(1, n):
        lines.append(f"  %T{k} = tir.alloc_buffer : {SHAPE}")

    def buf(k):
        return "%In" if k == 0 else "%Out" if k == n else f"%T{k}"

    for k in range(n):
        lines.append(
            f"""  tir.for %i = 0 to 16 {{
    tir.for %j = 0 to 16 {{
      tir.block "B{k}"(%vi = spatial(16, %i), %vj = spatial(16, %j)) {{
        %a = tir.load {buf(k)}[%vi, %vj] : {SHAPE}
        tir.store %a, {buf(k + 1)}[%vi, %vj] : {SHAPE}
      }}
    }}
  }}""")
    lines.append("  return")
    lines.append("}")
    return "\n".join(lines) + "\n"


def make_script(n: int) -> str:
    """20 steps on four blocks: two get split + reorder + parallel, two get
    split + fuse + parallel (each after get_block and get_loops)."""
    h = "!transform.any_op"
    steps = []
    targets = [0, n // 3, (2 * n) // 3, n - 1]
    for t, k in enumerate(targets):
        p = f"b{t}"
        steps.append(f'%{p} = transform.tir.get_block "B{k}" in %root : ({h}) -> {h}')
        steps.append(f"%{p}i, %{p}j = transform.tir.get_loops %{p} : ({h}) -> ({h}, {h})")
        if t % 2 == 0:
            steps.append(f"%{p}j0, %{p}j1 = transform.tir.split %{p}j [?, 4] : ({h}) -> ({h}, {h})")
            steps.append(f"transform.tir.reorder %{p}j0, %{p}i : {h}, {h}")
            steps.append(f"transform.tir.parallel %{p}j0 : {h}")
        else:
            steps.append(f"%{p}i0, %{p}i1 = transform.tir.split %{p}i [?, 4] : ({h}) -> ({h}, {h})")
            steps.append(f"%{p}f = transform.tir.fuse %{p}i1, %{p}j : ({h}, {h}) -> {h}")
            steps.append(f"transform.tir.parallel %{p}i0 : {h}")
    assert len(steps) == 20, len(steps)
    body = "\n".join("    " + s for s in steps)
    return f"""module attributes {{transform.with_named_sequence}} {{
  transform.named_sequence @__transform_main(%root: {h} {{transform.readonly}}) {{
{body}
    transform.yield
  }}
}}
"""


def best_time(cmd, repeat):
    best = None
    for _ in range(repeat):
        start = time.perf_counter()
        proc = subprocess.run(cmd, stdout=subprocess.DEVNULL,
                              stderr=subprocess.PIPE, text=True)
        elapsed = time.perf_counter() - start
        if proc.returncode != 0:
            sys.exit(f"failed: {' '.join(cmd)}\n{proc.stderr}")
        best = elapsed if best is None else min(best, elapsed)
    return best


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", default="1000,2000,5000,10000")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--tir-opt",
                        default=os.path.join(ROOT, "build", "bin", "tir-opt"))
    parser.add_argument("--keep", help="write the generated files here")
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]

    workdir = args.keep or tempfile.mkdtemp(prefix="tir-scaling-")
    os.makedirs(workdir, exist_ok=True)
    rows = []
    for n in sizes:
        func = os.path.join(workdir, f"blocks{n}.mlir")
        script = os.path.join(workdir, f"script{n}.mlir")
        with open(func, "w") as f:
            f.write(make_function(n))
        with open(script, "w") as f:
            f.write(make_script(n))
        parse = best_time([args.tir_opt,
                           "--mlir-very-unsafe-disable-verifier-on-parsing",
                           func, "-o", os.devnull], args.repeat)
        verify = best_time([args.tir_opt, "--verify-each", func,
                            "-o", os.devnull], args.repeat)
        schedule = best_time([
            args.tir_opt, func,
            f"--transform-preload-library=transform-library-paths={script}",
            "--transform-interpreter", "-o", os.devnull], args.repeat)
        rows.append((n, parse, verify, schedule))

    n0, _, v0, s0 = rows[0]
    print(f"tir-opt: {args.tir_opt}; least of {args.repeat} runs\n")
    print("| blocks | parse only s | parse+verify s | us/block | ratio | "
          "+ 20-step schedule s | us/block | ratio |")
    print("|---|---|---|---|---|---|---|---|")
    for n, p, v, s in rows:
        print(f"| {n} | {p:.3f} | {v:.3f} | {v / n * 1e6:.1f} | "
              f"{(v / n) / (v0 / n0):.2f} | {s:.3f} | {s / n * 1e6:.1f} | "
              f"{(s / n) / (s0 / n0):.2f} |")
    print("\nratio: time per block over that of the smallest size "
          "(1.00 is linear).")


if __name__ == "__main__":
    main()
