"""Caches of buffers of runtime shape: cache_read and cache_write directly
in the function's scope allocate the copy with the buffer's runtime sizes
(the shape variable naming a dimension, else the size read at the entry),
as TVM does, so that a dynamic-M matmul can be tiled through shared memory
(dlight's and MetaSchedule's GPU schedules for a prefill of any length).
Checked by the values on the CPU (thread loops run one after another) and
a CUDA build."""
import os

import numpy as np
import pytest

import tensorir as tvm
from tensorir.script import tir as T

from test_cuda import check_matmul_serially


@T.prim_func
def relu(a: T.handle, b: T.handle):
    n = T.int32()
    A = T.match_buffer(a, (n, 8), "float32")
    B = T.match_buffer(b, (n, 8), "float32")
    for i, j in T.grid(n, 8):
        with T.block("relu"):
            vi, vj = T.axis.remap("SS", [i, j])
            B[vi, vj] = T.max(A[vi, vj], T.float32(0))


def check_relu(mod):
    lib = tvm.build(mod, target="llvm")
    for n in (1, 5, 64):
        a = np.random.default_rng(n).standard_normal((n, 8)).astype("float32")
        b = np.full_like(a, np.nan)
        lib["relu"](a, b)
        np.testing.assert_array_equal(b, np.maximum(a, 0))


@pytest.mark.parametrize("primitive", ["cache_read", "cache_write"])
def test_a_cache_takes_the_runtime_shape(primitive):
    sch = tvm.tir.Schedule(relu)
    getattr(sch, primitive)(sch.get_block("relu"), 0, "global")
    text = sch.mod.script()
    name = "A_global" if primitive == "cache_read" else "B_global"
    assert f'{name} = T.alloc_buffer((n, 8), "float32")' in text, text
    assert "for ax0, ax1 in T.grid(n, 8):" in text
    check_relu(sch.mod)


@T.prim_func
def copy_rows(x: T.handle, y: T.handle, n: T.int32):
    X = T.match_buffer(x, (8, n * 32), "float32")
    Y = T.match_buffer(y, (8, n * 32), "float32")
    for i, k in T.grid(8, n * 32):
        with T.block("Y"):
            vi, vk = T.axis.remap("SS", [i, k])
            Y[vi, vk] = X[vi, vk]


def test_a_dimension_sized_by_an_expression_keeps_it():
    """X's second dimension is `n * 32` (tir.dim_vars "32 * n"): the copy
    has that size, which the loops over n tiles of 32 are known to stay
    within (no predicate); split by 32, the inferred factor is n. The
    function prints and parses back, and a call with another size is
    refused."""
    assert '{tir.dim_vars = ["", "32 * n"]' in tvm.IRModule({"main": copy_rows}).mlir()
    sch = tvm.tir.Schedule(copy_rows)
    block = sch.get_block("Y")
    _, k = sch.get_loops(block)
    ko, _ = sch.split(k, [None, 32])
    cache = sch.cache_read(block, 0, "global")
    sch.compute_at(cache, ko)
    text = sch.mod.script()
    assert "for i, k_0 in T.grid(8, n):" in text, text
    assert 'X = T.match_buffer(x, (8, n * 32), "float32")' in text
    assert 'X_global = T.alloc_buffer((8, (n * 32)), "float32")' in text
    assert "v1 = T.axis.spatial((n * 32), k_0 * 32 + ax0)" in text
    assert "T.where" not in text
    again = tvm.script.from_source(text)
    for mod in (sch.mod, again):
        lib = tvm.build(mod, target="llvm")
        for n in (1, 3):
            x = np.random.default_rng(n).standard_normal((8, n * 32)).astype("float32")
            y = np.full_like(x, np.nan)
            lib[lib.functions[0]](x, y, n)
            np.testing.assert_array_equal(y, x)
        wrong = np.zeros((8, 40), "float32")
        with pytest.raises(Exception, match=r"dimension 1 has 40 elements, but it is "
                                            r"'32 \* n', which is 32"):
            lib[lib.functions[0]](wrong, wrong, 1)


@T.prim_func
def halves(x: T.handle, y: T.handle, n: T.int32):
    X = T.match_buffer(x, (n // 2,), "float32")
    Y = T.match_buffer(y, (n // 2,), "float32")
    for i in range(n // 2):
        with T.block("Y"):
            vi = T.axis.remap("S", [i])
            Y[vi] = X[vi] * T.float32(2)


def test_an_unnamed_dimension_is_read_at_the_entry_and_printed_by_its_variable():
    """`n // 2` is no affine form: the dimension has no name, the copy reads
    X's size, which the printer names by the shape variable it gives that
    dimension."""
    sch = tvm.tir.Schedule(halves)
    sch.cache_read(sch.get_block("Y"), 0, "global")
    text = sch.mod.script()
    assert 'X = T.match_buffer(x, (v,), "float32")' in text, text
    assert 'X_global = T.alloc_buffer((v,), "float32")' in text
    lib = tvm.build(sch.mod, target="llvm")
    x = np.arange(3, dtype="float32")
    y = np.full_like(x, np.nan)
    lib[lib.functions[0]](x, y, 7)
    np.testing.assert_array_equal(y, x * 2)


@T.prim_func
def matmul(a: T.handle, b: T.handle, c: T.handle):
    m = T.int32()
    A = T.match_buffer(a, (m, 64))
    B = T.match_buffer(b, (64, 64))
    C = T.match_buffer(c, (m, 64))
    for i, j, k in T.grid(m, 64, 64):
        with T.block("C"):
            vi, vj, vk = T.axis.remap("SSR", [i, j, k])
            with T.init():
                C[vi, vj] = T.float32(0)
            C[vi, vj] = C[vi, vj] + A[vi, vk] * B[vk, vj]


def tiled_through_shared_memory():
    """16 x 16 tiles of C per block of 16 x 16 threads, the tiles of A and
    B staged in shared memory by all the block's threads, C's element in a
    register: m rows in ceil(m / 16) blocks."""
    sch = tvm.tir.Schedule(matmul)
    block = sch.get_block("C")
    local = sch.cache_write(block, 0, "local")
    i, j, k = sch.get_loops(block)
    i_o, i_i = sch.split(i, [None, 16])
    j_o, j_i = sch.split(j, [None, 16])
    k_o, _ = sch.split(k, [None, 16])
    sch.reorder(i_o, j_o, i_i, j_i, k_o)
    for loop, thread in ((i_o, "blockIdx.x"), (j_o, "blockIdx.y"),
                         (i_i, "threadIdx.y"), (j_i, "threadIdx.x")):
        sch.bind(loop, thread)
    for index in (0, 1):
        shared = sch.cache_read(block, index, "shared")
        sch.compute_at(shared, k_o)
        fused = sch.fuse(*sch.get_loops(shared)[-2:])
        _, ty, tx = sch.split(fused, [None, 16, 16])
        sch.bind(ty, "threadIdx.y")
        sch.bind(tx, "threadIdx.x")
    sch.reverse_compute_at(local, j_i)
    return sch


def test_a_matmul_of_runtime_rows_tiles_through_shared_memory():
    sch = tiled_through_shared_memory()
    text = sch.mod.script()
    assert 'A_shared = T.alloc_buffer((m, 64), "float32", scope="shared")' in text
    assert 'T.thread_binding((T.ceildiv(m, 16)), thread="blockIdx.x")' in text
    assert tvm.build(sch.mod, target="cuda").target == "cuda"
    check_matmul_serially(sch.mod, [(m, 64, 64) for m in (1, 16, 37)])


@pytest.mark.skipif(not os.path.exists("/usr/local/cuda/bin/ptxas"),
                    reason="no CUDA toolkit (ptxas)")
def test_the_tiled_kernel_assembles_with_ptxas():
    sch = tiled_through_shared_memory()
    for arch in ("sm_80", "sm_90"):
        tvm.build(sch.mod, target=f"cuda -arch={arch} -format=bin")
