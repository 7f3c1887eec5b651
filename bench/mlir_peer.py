"""The same fp32 GEMM through upstream MLIR: linalg.matmul on memrefs, a
transform-dialect schedule, MLIR 22's own passes down to the LLVM dialect
(Debian's mlir-opt / mlir-translate), clang -O3 for the host CPU, loaded
with ctypes. No tir code is involved; bench/cpu_peers.py runs it as a peer.

The schedule is the usual one for upstream MLIR on CPUs, in its own ops:
  - C zeroed by a linalg.fill tiled to rows of `nr` (vectorized);
  - tile_using_for the matmul to (mc, nc, kc) blocks in the order
    j (nc), k (kc), i (mc); with threads > 1 the i blocks are a
    tile_using_forall turned into scf.parallel, then OpenMP;
  - tile again to mr x nr register tiles with a k loop of 1;
  - vectorize_children_and_apply_patterns (vector.contract), lower the
    contraction to outer products and those to vector.fma;
  - fold the subviews into the transfers, CSE, and
    hoist_redundant_vector_transfers: the mr x nr tile of C stays in
    registers across the k loop.
It does not pack A or B (linalg's pack / unpack work on tensors, and this
schedule is on memrefs). Tiles must divide the problem (the register tile
is a static vector); `schedule_tiles` picks them and returns None for a
size none of its candidates divides.

    /usr/bin/python3 bench/mlir_peer.py [--size 1024] [--threads 1] [--search]
"""
import argparse
import ctypes
import os
import subprocess
import sys
import tempfile
import time

LLVM_BIN = "/usr/lib/llvm-22/bin"

# Register tiles (mr, nr) and cache blocks (mc, nc, kc), best first; measured
# on the hosts this project runs on (see docs/performance.md) by --search.
CANDIDATES = [
    (128, 256, 256, 8, 32),
    (256, 256, 256, 8, 32),
    (128, 128, 256, 8, 32),
    (128, 256, 512, 8, 32),
    (128, 256, 128, 8, 32),
    (64, 256, 256, 8, 32),
    (128, 256, 256, 16, 16),
    (64, 512, 256, 8, 32),
    (64, 256, 128, 8, 16),
    (16, 64, 64, 4, 16),
    (8, 32, 32, 4, 8),
]


def fits(tiles, m, n, k, threads=1):
    """Whether `tiles` (mc, nc, kc, mr, nr) divide (m, n, k) and leave at
    least one mc block per thread."""
    mc, nc, kc, mr, nr = tiles
    return not (m % mc or n % nc or k % kc or mc % mr or nc % nr) and m // mc >= threads


def schedule_tiles(m, n, k, threads=1):
    """The first candidate that fits (m, n, k) on `threads` threads."""
    return next((t for t in CANDIDATES if fits(t, m, n, k, threads)), None)


def source(m, n, k, tiles, threads=1):
    """linalg.matmul with its transform schedule, one module."""
    mc, nc, kc, mr, nr = tiles
    op = "!transform.any_op"
    a, b, c = f"memref<{m}x{k}xf32>", f"memref<{k}x{n}xf32>", f"memref<{m}x{n}xf32>"
    if threads > 1:
        # j and k blocks sequential, the i blocks shared among threads.
        outer = f"""
    %t0, %jk:2 = transform.structured.tile_using_for %mm tile_sizes [0, {nc}, {kc}]
        : ({op}) -> ({op}, {op}, {op})
    %t1, %par = transform.structured.tile_using_forall %t0 tile_sizes [{mc}, 0, 0]
        : ({op}) -> ({op}, {op})"""
    else:
        outer = f"""
    %t1, %blocks:3 = transform.structured.tile_using_for %mm tile_sizes [{mc}, {nc}, {kc}]
        interchange = [1, 2, 0] : ({op}) -> ({op}, {op}, {op}, {op})"""
    # scf.forall to scf.parallel once the tiles inside it are made (the
    # conversion consumes the loop and everything in it).
    to_parallel = (f"\n    %parallel = transform.loop.forall_to_parallel %par : ({op}) -> {op}"
                   if threads > 1 else "")
    return f"""module attributes {{transform.with_named_sequence}} {{
  func.func @gemm(%A: {a}, %B: {b}, %C: {c}) {{
    %zero = arith.constant 0.0 : f32
    linalg.fill ins(%zero : f32) outs(%C : {c})
    linalg.matmul ins(%A, %B : {a}, {b}) outs(%C : {c})
    return
  }}
  transform.named_sequence @__transform_main(%root: {op} {{transform.readonly}}) {{
    %fill = transform.structured.match ops{{["linalg.fill"]}} in %root : ({op}) -> {op}
    %rows, %fill_loops:2 = transform.structured.tile_using_for %fill tile_sizes [1, {nr}]
        : ({op}) -> ({op}, {op}, {op})
    %mm = transform.structured.match ops{{["linalg.matmul"]}} in %root : ({op}) -> {op}{outer}
    %t2, %micro:3 = transform.structured.tile_using_for %t1 tile_sizes [{mr}, {nr}, 1]
        : ({op}) -> ({op}, {op}, {op}, {op}){to_parallel}
    %func = transform.structured.match ops{{["func.func"]}} in %root : ({op}) -> {op}
    %vec = transform.structured.vectorize_children_and_apply_patterns %func : ({op}) -> {op}
    transform.apply_patterns to %vec {{
      transform.apply_patterns.vector.lower_contraction lowering_strategy = "outerproduct"
      transform.apply_patterns.vector.transfer_permutation_patterns
      transform.apply_patterns.vector.lower_outerproduct
      transform.apply_patterns.memref.fold_memref_alias_ops
      transform.apply_patterns.canonicalization
    }} : {op}
    transform.apply_cse to %vec : {op}
    %hoisted = transform.structured.hoist_redundant_vector_transfers %vec : ({op}) -> {op}
    transform.apply_patterns to %hoisted {{
      transform.apply_patterns.vector.lower_transfer max_transfer_rank = 1
      transform.apply_patterns.vector.lower_broadcast
      transform.apply_patterns.canonicalization
    }} : {op}
    transform.yield
  }}
}}
"""


LOWER = ("--transform-interpreter --test-transform-dialect-erase-schedule --canonicalize "
         # Transfers unrolled to 1-D ones (no stack buffers), then scf.parallel
         # to OpenMP, and memref (alloca_scope) lowered before the loops become
         # blocks: alloca_scope holds one block.
         "--convert-vector-to-scf=full-unroll=true --lower-affine --convert-scf-to-openmp "
         "--expand-strided-metadata --finalize-memref-to-llvm --convert-scf-to-cf "
         "--convert-vector-to-llvm --convert-ub-to-llvm --convert-arith-to-llvm "
         "--convert-cf-to-llvm --convert-func-to-llvm=use-bare-ptr-memref-call-conv=1 "
         "--convert-openmp-to-llvm --reconcile-unrealized-casts")


def build(text, out_dir, cpu="native"):
    """mlir-opt, mlir-translate and clang; the shared library's path and
    the seconds each step took."""
    mlir = os.path.join(out_dir, "gemm.mlir")
    with open(mlir, "w") as f:
        f.write(text)
    steps = [
        ("mlir-opt", [f"{LLVM_BIN}/mlir-opt", mlir, *LOWER.split(), "-o", mlir + ".llvm"]),
        ("mlir-translate", [f"{LLVM_BIN}/mlir-translate", "--mlir-to-llvmir", mlir + ".llvm",
                            "-o", mlir + ".ll"]),
        ("clang", [f"{LLVM_BIN}/clang", "-Wno-override-module", "-O3", f"-march={cpu}",
                   "-shared", "-fPIC", "-fopenmp=libomp", mlir + ".ll", "-o",
                   mlir + ".so"]),
    ]
    seconds = {}
    for name, cmd in steps:
        start = time.perf_counter()
        done = subprocess.run(cmd, capture_output=True, text=True)
        seconds[name] = time.perf_counter() - start
        if done.returncode != 0:
            raise RuntimeError(f"{name} failed:\n{done.stderr[-3000:]}")
    return mlir + ".so", seconds


class Gemm:
    """A built GEMM: call(a, b, c) on C-contiguous float32 numpy arrays."""

    def __init__(self, m, n, k, tiles, threads=1, cpu="native"):
        self.shape, self.tiles = (m, n, k), tiles
        self._dir = tempfile.TemporaryDirectory(prefix="tir-mlir-peer-")
        start = time.perf_counter()
        path, self.step_seconds = build(source(m, n, k, tiles, threads), self._dir.name, cpu)
        self.build_seconds = time.perf_counter() - start
        self._lib = ctypes.CDLL(path)
        self._fn = self._lib.gemm
        self._fn.restype = None
        self._fn.argtypes = [ctypes.c_void_p] * 3

    def __call__(self, a, b, c):
        m, n, k = self.shape
        for x, shape in ((a, (m, k)), (b, (k, n)), (c, (m, n))):
            if x.shape != shape or x.dtype.name != "float32" or not x.flags.c_contiguous:
                raise ValueError(f"expected a C-contiguous float32 array of shape {shape}")
        self._fn(a.ctypes.data, b.ctypes.data, c.ctypes.data)


def main():
    import numpy as np
    parser = argparse.ArgumentParser()
    parser.add_argument("--size", type=int, default=1024)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--search", action="store_true", help="time every candidate tiling")
    args = parser.parse_args()
    n = args.size
    rng = np.random.default_rng(0)
    a = rng.standard_normal((n, n)).astype("float32")
    b = rng.standard_normal((n, n)).astype("float32")
    c = np.zeros((n, n), "float32")
    tiles = CANDIDATES if args.search else [schedule_tiles(n, n, n, args.threads)]
    for t in tiles:
        if t is None or not fits(t, n, n, n):
            continue
        g = Gemm(n, n, n, t, args.threads)
        g(a, b, c)
        err = float(np.abs(c - a.astype("float64") @ b).max())
        best = min(_timed(g, a, b, c) for _ in range(5))
        print(f"tiles {t}: {2 * n ** 3 / best / 1e9:.1f} GFLOP/s, max error {err:.1e}, "
              f"build {g.build_seconds:.3f} s", flush=True)


def _timed(g, a, b, c):
    start = time.perf_counter()
    g(a, b, c)
    return time.perf_counter() - start


if __name__ == "__main__":
    sys.exit(main())
