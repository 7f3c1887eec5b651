"""Loop partitioning (--tir-partition-loops, TVM's LoopPartition, run by
the CPU build): a GEMM tiled by sizes that do not divide it computes what
numpy does, and its main parts lose the predicate the tiling put on them
(only the tails keep it), so that the micro-kernel keeps its accumulators in
registers at odd sizes as at square ones."""
import os
import re
import subprocess
import sys

import numpy as np
import pytest

import tensorir as tvm

from conftest import ROOT, built_tool

sys.path.insert(0, os.path.join(ROOT, "bench"))
sys.path.insert(0, os.path.join(ROOT, "bench", "gpu"))
import gemm_schedule  # noqa: E402
import programs  # noqa: E402

# (M, N, K) and the tiles (mr, nr, mc, nc, kc, lanes): none divides.
CASES = [
    ((127, 255, 63), (8, 32, 64, 128, 32, 16)),
    ((100, 100, 100), (8, 32, 48, 64, 48, 16)),
    ((33, 17, 70), (6, 16, 12, 32, 32, 8)),
    ((64, 64, 64), (8, 32, 64, 64, 32, 16)),  # divides: nothing to cut
]


def packed(shape, tiles):
    m, n, k = shape
    return gemm_schedule.schedule_packed(tvm, programs.matmul(m, n, k), "get_block", shape,
                                         tiles=tiles)


@pytest.mark.parametrize("shape,tiles", CASES, ids=lambda c: "x".join(map(str, c)))
def test_packed_gemm_matches_numpy(shape, tiles):
    m, n, k = shape
    rng = np.random.default_rng(1)
    a = rng.standard_normal((m, k)).astype("float32")
    b = rng.standard_normal((k, n)).astype("float32")
    c = tvm.nd.array(np.full((m, n), np.nan, "float32"))
    tvm.build(packed(shape, tiles))["gemm"](tvm.nd.array(a), tvm.nd.array(b), c)
    np.testing.assert_allclose(c.numpy(), a.astype("float64") @ b, rtol=1e-4, atol=1e-4)


def partitioned(mod):
    tir_opt = built_tool("tir-opt")
    if tir_opt is None:
        pytest.skip("tir-opt is not built")
    out = subprocess.run([tir_opt, "--tir-partition-loops", "-"], input=mod.mlir(),
                         capture_output=True, text=True, check=True)
    return out.stdout


def updates(text):
    """The predicate of each copy of block C in `text` (None if it has
    none)."""
    found = []
    for line in text.splitlines():
        if 'tir.block "C"' in line:
            match = re.search(r"where\((.*?)\)( reads.*)? \{$", line)
            found.append(match.group(1) if match else None)
    return found


def inits(text):
    """For each copy of block C in `text`, whether it holds an init."""
    copies = text.split('tir.block "C"')[1:]
    return ["tir.init" in copy.split("tir.block")[0] for copy in copies]


def test_main_parts_lose_the_predicate():
    before = updates(packed((1000, 1000, 1000), (8, 32, 128, 256, 256, 16)).mlir())
    assert len(before) == 1 and "and" in before[0]
    text = partitioned(packed((1000, 1000, 1000), (8, 32, 128, 256, 256, 16)))
    after = updates(text)
    # Every copy that holds the init is in the first iteration of k.
    assert any(inits(text)) and not all(inits(text))
    # 1000 = 7 * 128 + 104 rows (13 whole micro-tiles), 3 * 256 + 232
    # columns (7 whole panels of 32 and one of 8), 3 * 256 + 232 of k:
    # only the copies for the last panel keep a predicate, and only on the
    # vector lanes of its columns (the rows' and k's are gone).
    assert len(after) > 1 and None in after
    for predicate in after:
        if predicate is not None:
            assert " and " not in predicate and "j_2_1" in predicate, predicate


def test_divisible_gemm_is_cut_only_where_its_init_runs():
    # No predicate to drop; the init (C = 0 when k = 0) runs only in the
    # first iteration of the k-block loop (k0) and, in it, of the k loop
    # (k1): three copies of the nest, one of them with the init.
    mod = packed((64, 64, 64), (8, 32, 64, 64, 32, 16))
    assert inits(mod.mlir()) == [True]
    text = partitioned(mod)
    assert updates(text) == [None, None, None]
    assert inits(text) == [True, False, False]
    assert re.search(r"tir\.for %r_0 = 0 to 1 \{", text)
    assert re.search(r"tir\.for %r_1 = 0 to 1 \{", text)
    assert re.search(r"tir\.for %r_1 = 1 to 32 \{", text)
    assert re.search(r"tir\.for %r_0 = 1 to 2 \{", text)


def test_dead_block_in_an_init_that_is_dropped():
    # A reduction blockized over its spatial loop, its init's loop split past
    # the extent (6 by 2 x 4): the init's tail block never runs and the
    # outer block's init never runs after the first iteration; both go,
    # in an order that leaves nothing half erased.
    from tensorir.script import tir as T

    @T.prim_func
    def max_middle(A: T.Buffer((5, 9, 6), "int32"), B: T.Buffer((5, 6), "int32")):
        for i, k, j in T.grid(5, 9, 6):
            with T.block("max"):
                vi, vk, vj = T.axis.remap("SRS", [i, k, j])
                with T.init():
                    B[vi, vj] = T.min_value("int32")
                B[vi, vj] = T.max(B[vi, vj], A[vi, vk, vj])

    sch = tvm.tir.Schedule(max_middle)
    sch.blockize(sch.get_loops(sch.get_block("max"))[2])
    sch.split(sch.get_loops(sch.get_block("max_init"))[0], factors=[2, 4])
    a = np.random.default_rng(0).integers(-50, 50, (5, 9, 6)).astype("int32")
    b = np.zeros((5, 6), "int32")
    tvm.build(sch.mod)(a, b)
    np.testing.assert_array_equal(b, a.max(axis=1))
