"""reorder_block_iter_var: the block's variables in a new order compute
the same (built and run), the trace replays, orders that are not
permutations are refused, and handles to blocks inside a rebuilt block are
emptied rather than left dangling."""
import numpy as np
import pytest

import tensorir as tvm
from tensorir.script import tir as T
from tensorir.tir.schedule.testing import verify_trace_roundtrip


@T.prim_func
def matmul(A: T.Buffer((16, 8), "float32"), B: T.Buffer((8, 12), "float32"),
           C: T.Buffer((16, 12), "float32")):
    for i, j, k in T.grid(16, 12, 8):
        with T.block("C"):
            vi, vj, vk = T.axis.remap("SSR", [i, j, k])
            with T.init():
                C[vi, vj] = T.float32(0)
            C[vi, vj] = C[vi, vj] + A[vi, vk] * B[vk, vj]


def run(mod):
    rng = np.random.default_rng(0)
    a = rng.uniform(-1, 1, (16, 8)).astype("float32")
    b = rng.uniform(-1, 1, (8, 12)).astype("float32")
    c = np.zeros((16, 12), "float32")
    tvm.build(mod)(a, b, c)
    return a @ b, c


@pytest.mark.parametrize("order", [[2, 1, 0], [1, 2, 0], [0, 1, 2]])
def test_reordered_block_computes_the_same(order):
    sch = tvm.tir.Schedule(matmul)
    sch.reorder_block_iter_var(sch.get_block("C"), order)
    names = [v.var.name for v in sch.get(sch.get_block("C")).iter_vars]
    assert names == [["vi", "vj", "vk"][k] for k in order]
    expected, got = run(sch.mod)
    np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-5)
    verify_trace_roundtrip(sch, mod=matmul)


@pytest.mark.parametrize("order, message", [
    ([2, 1], "needs an order of all its 3 iteration variables, got 2"),
    ([0, 1, 3], r"needs positions in \[0, 3\), got 3"),
    ([0, -1, 2], r"needs positions in \[0, 3\), got -1"),
    ([1, 1, 0], "needs each position once, but 1 is given twice"),
])
def test_orders_that_are_not_permutations_are_refused(order, message):
    sch = tvm.tir.Schedule(matmul)
    before = sch.mod.mlir()
    with pytest.raises(tvm.tir.ScheduleError, match=message):
        sch.reorder_block_iter_var(sch.get_block("C"), order)
    assert sch.mod.mlir() == before


def test_handles_inside_a_reordered_block_are_emptied():
    sch = tvm.tir.Schedule(matmul)
    inner = sch.get_block("C")
    outer = sch.blockize(sch.get_loops(inner)[1])
    sch.reorder_block_iter_var(outer, [1, 0, 2])
    with pytest.raises(tvm.tir.ScheduleError, match="no longer exists"):
        sch.get(inner)
    assert sch.get(sch.get_block("C")).name_hint == "C"
    expected, got = run(sch.mod)
    np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-5)
