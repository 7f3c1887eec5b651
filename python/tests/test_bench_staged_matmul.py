"""The staged matmul of bench/ (matmul_staged.mlir: pack B into panels,
accumulate in a local buffer, write back) scheduled as
bench/matmul_block_schedule.mlir does (split / reorder / compute_at /
reverse_compute_at / parallel / unroll / vectorize / decompose_reduction),
at 64^3: the same numbers as the unscheduled program and numpy. The build
compacts the local accumulator to one 8 x 32 tile per iteration of the
parallel loop and the packed buffer to one panel (convert-tir-to-scf
compact-buffers); buffers whose iterations share elements are left whole
and keep their numbers."""
import numpy as np

import tensorir as tvm
from tensorir.script import tir as T


@T.prim_func
def staged(A: T.Buffer((64, 64), "float32"), B: T.Buffer((64, 64), "float32"),
           C: T.Buffer((64, 64), "float32")):
    Bp = T.alloc_buffer((2, 64, 32), "float32")
    Cl = T.alloc_buffer((64, 64), "float32", scope="local")
    for jo, k, ji in T.grid(2, 64, 32):
        with T.block("pack"):
            vjo, vk, vji = T.axis.remap("SSS", [jo, k, ji])
            Bp[vjo, vk, vji] = B[vk, vjo * 32 + vji]
    for i, j, k in T.grid(64, 64, 64):
        with T.block("C"):
            vi, vj, vk = T.axis.remap("SSR", [i, j, k])
            with T.init():
                Cl[vi, vj] = T.float32(0)
            Cl[vi, vj] = Cl[vi, vj] + A[vi, vk] * Bp[vj // 32, vk, vj % 32]
    for i, j in T.grid(64, 64):
        with T.block("write_back"):
            vi, vj = T.axis.remap("SS", [i, j])
            C[vi, vj] = Cl[vi, vj]


def block_schedule(func):
    sch = tvm.tir.Schedule(func)
    return tile_matmul(sch, sch.get_block("pack"), sch.get_block("C"),
                       sch.get_block("write_back"))


def tile_matmul(sch, pack, c, wb):
    """The tiling of bench/matmul_block_schedule.mlir (also the end of
    bench/matmul_primitives_schedule.mlir) of the reduction `c`, its
    packing stage `pack` and its write-back `wb`."""
    i, j, k = sch.get_loops(c)
    i0, i1 = sch.split(i, factors=[None, 8])
    j0, j1 = sch.split(j, factors=[None, 32])
    sch.reorder(j0, i0, k, i1, j1)
    sch.compute_at(pack, j0)
    sch.reverse_compute_at(wb, i0)
    sch.parallel(i0)
    j1a, j1b = sch.split(j1, factors=[2, 16])
    sch.unroll(i1)
    sch.unroll(j1a)
    sch.vectorize(j1b)
    sch.decompose_reduction(c, k)
    pj = sch.get_loops(pack)[-1]
    pj1, pj2 = sch.split(pj, factors=[2, 16])
    sch.unroll(pj1)
    sch.vectorize(pj2)
    wi, wj = sch.get_loops(wb)[-2:]
    wj1, wj2 = sch.split(wj, factors=[2, 16])
    sch.unroll(wi)
    sch.unroll(wj1)
    sch.vectorize(wj2)
    return sch


def run(func, name, args, out_shape):
    lib = tvm.build(func, target="llvm")
    out = np.full(out_shape, 7.0, "float32")
    lib[name](*args, out)
    return out


def test_staged_block_scheduled_matches_unscheduled():
    rng = np.random.default_rng(3)
    a = rng.uniform(-1, 1, (64, 64)).astype("float32")
    b = rng.uniform(-1, 1, (64, 64)).astype("float32")
    expected = run(staged, "staged", [a, b], (64, 64))
    np.testing.assert_allclose(expected, a @ b, rtol=1e-4, atol=1e-4)
    sch = block_schedule(staged)
    text = sch.mod.script()
    assert "C_init" in text and "C_update" in text
    got = run(sch.mod, "staged", [a, b], (64, 64))
    np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-5)


@T.prim_func
def carried(A: T.Buffer((3, 4), "float32"), O: T.Buffer((4,), "float32")):
    T_ = T.alloc_buffer((4,), "float32")
    for m, l in T.grid(3, 4):
        with T.block("acc"):
            vm, vl = T.axis.remap("RS", [m, l])
            with T.init():
                T_[vl] = T.float32(0)
            T_[vl] = T_[vl] + A[vm, vl]
    for l in range(4):
        with T.block("out"):
            vl = T.axis.spatial(4, l)
            O[vl] = T_[vl]


@T.prim_func
def overlapping(A: T.Buffer((12,), "float32"), O: T.Buffer((2, 2, 4), "float32")):
    T_ = T.alloc_buffer((12,), "float32")
    for e in range(12):
        with T.block("init"):
            v = T.axis.spatial(12, e)
            T_[v] = A[v]
    for m, l, e in T.grid(2, 2, 4):
        with T.block("w"):
            vm, vl, ve = T.axis.remap("SSS", [m, l, e])
            T_[vm * 4 + vl * 4 + ve] = T_[vm * 4 + vl * 4 + ve] + T.float32(1)
            O[vm, vl, ve] = T_[vm * 4 + vl * 4 + ve]


def test_buffers_shared_across_iterations_keep_their_values():
    rng = np.random.default_rng(4)
    a = rng.uniform(-1, 1, (3, 4)).astype("float32")
    np.testing.assert_allclose(run(carried, "carried", [a], (4,)),
                               a.sum(axis=0), rtol=1e-6)
    x = rng.uniform(-1, 1, (12,)).astype("float32")
    expected = np.zeros((2, 2, 4), "float32")
    t = x.copy()
    for m in range(2):
        for l in range(2):
            for e in range(4):
                t[m * 4 + l * 4 + e] += 1
                expected[m, l, e] = t[m * 4 + l * 4 + e]
    np.testing.assert_allclose(run(overlapping, "overlapping", [x], (2, 2, 4)),
                               expected, rtol=1e-6)
