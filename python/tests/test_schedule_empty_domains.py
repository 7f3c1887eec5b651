"""Blocks and loops of extent 0 (TVM's grids of extent 0): they parse,
build and run no instance; primitives that only restructure loops accept
them, and those that divide an iteration space by its extents (fuse,
blockize, tensorize) or would run an init the block never runs
(decompose_reduction, rfactor) refuse them, naming the empty loop, as do
the caches a write through an empty nest would copy back."""
import numpy as np
import pytest

import tensorir as tvm
from tensorir import tir
from tensorir.script import tir as T


@T.prim_func
def empty_stage(A: T.Buffer((0, 8), "float32"), C: T.Buffer((0, 8), "float32"),
                D: T.Buffer((4, 8), "float32")):
    B = T.alloc_buffer((0, 8), "float32")
    for i, j in T.grid(0, 8):
        with T.block("B"):
            vi, vj = T.axis.remap("SS", [i, j])
            B[vi, vj] = A[vi, vj] * T.float32(2)
    for i, j in T.grid(0, 8):
        with T.block("C"):
            vi, vj = T.axis.remap("SS", [i, j])
            C[vi, vj] = B[vi, vj] + T.float32(1)
    for i, j in T.grid(4, 8):
        with T.block("D"):
            vi, vj = T.axis.remap("SS", [i, j])
            D[vi, vj] = T.float32(3)


@T.prim_func
def empty_sum(A: T.Buffer((4, 0), "float32"), S: T.Buffer((4,), "float32")):
    for i, k in T.grid(4, 0):
        with T.block("S"):
            vi, vk = T.axis.remap("SR", [i, k])
            with T.init():
                S[vi] = T.float32(0)
            S[vi] = S[vi] + A[vi, vk]


def run(mod, *arrays):
    lib = tvm.build(mod, target="llvm")
    args = [tvm.nd.array(a) for a in arrays]
    lib(*args)
    return [a.numpy() for a in args]


def loops(sch, name):
    return sch.get_loops(sch.get_block(name))


def test_an_empty_grid_runs_no_instance():
    a, c, d = np.zeros((0, 8), "float32"), np.zeros((0, 8), "float32"), np.ones((4, 8), "float32")
    _, _, out = run(tir.Schedule(empty_stage).mod, a, c, d)
    np.testing.assert_array_equal(out, np.full((4, 8), 3, "float32"))
    # The reduction over nothing runs no instance either: its init does not
    # run (TVM's semantics of a block with an init).
    s = np.full((4,), 7, "float32")
    _, out = run(tir.Schedule(empty_sum).mod, np.zeros((4, 0), "float32"), s)
    np.testing.assert_array_equal(out, np.full((4,), 7, "float32"))


@pytest.mark.parametrize("steps", [
    lambda s: s.split(loops(s, "B")[0], [None, 4]),
    lambda s: s.split(loops(s, "B")[0], [4, None]),
    lambda s: s.reorder(*reversed(loops(s, "B"))),
    lambda s: s.compute_at(s.get_block("B"), loops(s, "C")[1]),
    lambda s: s.compute_inline(s.get_block("B")),
    lambda s: s.parallel(loops(s, "B")[0]),
    lambda s: s.vectorize(loops(s, "B")[1]),
], ids=["split", "split_inner", "reorder", "compute_at", "compute_inline", "parallel",
        "vectorize"])
def test_loop_restructuring_accepts_empty_nests(steps):
    sch = tir.Schedule(empty_stage, debug_mask="all")
    steps(sch)
    d = np.zeros((4, 8), "float32")
    _, _, out = run(sch.mod, np.zeros((0, 8), "float32"), np.zeros((0, 8), "float32"), d)
    np.testing.assert_array_equal(out, np.full((4, 8), 3, "float32"))


@pytest.mark.parametrize("func, steps, message", [
    (empty_stage, lambda s: s.fuse(*loops(s, "B")),
     r"fuse needs loops of non-zero extent, but loop 'i' has extent 0"),
    (empty_stage, lambda s: s.blockize(loops(s, "B")[0]),
     r"blockize needs iteration spaces that are not empty, but loop 'i' has extent 0"),
    (empty_sum, lambda s: s.decompose_reduction(s.get_block("S"), loops(s, "S")[1]),
     r"decompose_reduction needs iteration spaces that are not empty, but loop 'k' has "
     r"extent 0"),
    (empty_sum, lambda s: s.rfactor(loops(s, "S")[1], 0),
     r"rfactor needs iteration spaces that are not empty, but loop 'k' has extent 0"),
    (empty_sum, lambda s: s.reindex(s.get_block("S"), ("write", 0)),
     r"reindex needs iteration spaces that are not empty, but loop 'k' has extent 0"),
    (empty_sum, lambda s: s.reindex_cache_write(s.get_block("S"), 0, "global",
                                                lambda i, k: (i,)),
     r"reindex_cache_write needs iteration spaces that are not empty"),
    # The copy back would overwrite S with a cache nothing wrote.
    (empty_sum, lambda s: s.cache_write(s.get_block("S"), 0, "global"),
     r"cache_write needs block 'S' to write a dense box"),
], ids=["fuse", "blockize", "decompose_reduction", "rfactor", "reindex_write",
        "reindex_cache_write", "cache_write"])
def test_primitives_dividing_an_empty_space_refuse_it(func, steps, message):
    sch = tir.Schedule(func, debug_mask="all")
    before = sch.mod.script()
    with pytest.raises(tir.ScheduleError, match=message):
        steps(sch)
    assert sch.mod.script() == before
