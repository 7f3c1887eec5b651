"""fuse_reduction_epilogue folds a bias epilogue into the reduction and the
fused program computes what the original did (built and run, integer and
float); the trace replays; epilogues that would change the result (a ReLU
or a clip of each partial sum, as TVM fuses them) and an output other
blocks still read are refused, leaving the program as it was."""
import numpy as np
import pytest

import tensorir as tvm
from tensorir.script import tir as T
from tensorir.tir.schedule.testing import verify_trace_roundtrip


@T.prim_func
def matmul_bias(A: T.Buffer((16, 8), "int8"), B: T.Buffer((12, 8), "int8"),
                C: T.Buffer((16, 12), "int32"), D: T.Buffer((16, 12), "int32")):
    temp = T.alloc_buffer((16, 12), "int32")
    for i, j, k in T.grid(16, 12, 8):
        with T.block("multiply"):
            vi, vj, vk = T.axis.remap("SSR", [i, j, k])
            with T.init():
                temp[vi, vj] = T.int32(0)
            temp[vi, vj] = temp[vi, vj] + T.Cast("int32", A[vi, vk]) * T.Cast("int32", B[vj, vk])
    for i, j in T.grid(16, 12):
        with T.block("add"):
            vi, vj = T.axis.remap("SS", [i, j])
            D[vi, vj] = C[vi, vj] + temp[vi, vj]


@T.prim_func
def sum_bias_transposed(A: T.Buffer((6, 4, 5), "float32"), C: T.Buffer((4,), "float32"),
                        D: T.Buffer((4, 6), "float32")):
    temp = T.alloc_buffer((6, 4), "float32")
    for i, j, k in T.grid(6, 4, 5):
        with T.block("sum"):
            vi, vj, vk = T.axis.remap("SSR", [i, j, k])
            with T.init():
                temp[vi, vj] = T.float32(0.5)
            temp[vi, vj] = temp[vi, vj] + A[vi, vj, vk]
    for j, i in T.grid(4, 6):
        with T.block("bias"):
            vj, vi = T.axis.remap("SS", [j, i])
            D[vj, vi] = temp[vi, vj] + C[vj]


@T.prim_func
def matmul_bias_relu(A: T.Buffer((8, 8), "float32"), B: T.Buffer((8, 8), "float32"),
                     C: T.Buffer((8, 8), "float32"), D: T.Buffer((8, 8), "float32")):
    temp = T.alloc_buffer((8, 8), "float32")
    for i, j, k in T.grid(8, 8, 8):
        with T.block("matmul"):
            vi, vj, vk = T.axis.remap("SSR", [i, j, k])
            with T.init():
                temp[vi, vj] = T.float32(0)
            temp[vi, vj] = temp[vi, vj] + A[vi, vk] * B[vj, vk]
    for i, j in T.grid(8, 8):
        with T.block("bias_relu"):
            vi, vj = T.axis.remap("SS", [i, j])
            D[vi, vj] = T.max(temp[vi, vj] + C[vi, vj], T.float32(0))


@T.prim_func
def matmul_two_readers(A: T.Buffer((8, 8), "float32"), B: T.Buffer((8, 8), "float32"),
                       C: T.Buffer((8, 8), "float32"), D: T.Buffer((8, 8), "float32"),
                       E: T.Buffer((8, 8), "float32")):
    temp = T.alloc_buffer((8, 8), "float32")
    for i, j, k in T.grid(8, 8, 8):
        with T.block("matmul"):
            vi, vj, vk = T.axis.remap("SSR", [i, j, k])
            with T.init():
                temp[vi, vj] = T.float32(0)
            temp[vi, vj] = temp[vi, vj] + A[vi, vk] * B[vj, vk]
    for i, j in T.grid(8, 8):
        with T.block("bias"):
            vi, vj = T.axis.remap("SS", [i, j])
            D[vi, vj] = temp[vi, vj] + C[vi, vj]
    for i, j in T.grid(8, 8):
        with T.block("copy"):
            vi, vj = T.axis.remap("SS", [i, j])
            E[vi, vj] = temp[vi, vj]


@T.prim_func
def row_max_bias(A: T.Buffer((8, 8), "float32"), C: T.Buffer((8,), "float32"),
                 D: T.Buffer((8,), "float32")):
    temp = T.alloc_buffer((8,), "float32")
    for i, k in T.grid(8, 8):
        with T.block("max"):
            vi, vk = T.axis.remap("SR", [i, k])
            with T.init():
                temp[vi] = T.float32(-3.0e38)
            temp[vi] = T.max(temp[vi], A[vi, vk])
    for i in range(8):
        with T.block("bias"):
            vi = T.axis.remap("S", [i])
            D[vi] = temp[vi] + C[vi]


def run(func, *arrays):
    out = [np.array(a) for a in arrays]
    tvm.build(tvm.IRModule({"main": func}))(*out)
    return out


def test_integer_bias_fuses_and_computes_the_same():
    rng = np.random.default_rng(0)
    a = rng.integers(-128, 127, (16, 8)).astype("int8")
    b = rng.integers(-128, 127, (12, 8)).astype("int8")
    c = rng.integers(-1000, 1000, (16, 12)).astype("int32")
    sch = tvm.tir.Schedule(matmul_bias, debug_mask="all")
    sch.fuse_reduction_epilogue("multiply", "add")
    names = []
    tvm.tir.stmt_functor.post_order_visit(
        sch.mod["main"].body,
        lambda n: names.append(n.name_hint) if isinstance(n, tvm.tir.Block) else None)
    assert "add" not in names and "multiply" in names
    expected = a.astype("int32") @ b.astype("int32").T + c
    *_, got = run(sch.mod["main"], a, b, c, np.zeros((16, 12), "int32"))
    np.testing.assert_array_equal(got, expected)
    verify_trace_roundtrip(sch, mod=matmul_bias)
    assert "sch.fuse_reduction_epilogue(reduction_block=b0, epilogue_block=b1)" in str(sch.trace)


def test_nonzero_init_and_transposed_epilogue_compute_the_same():
    rng = np.random.default_rng(1)
    a = rng.uniform(-1, 1, (6, 4, 5)).astype("float32")
    c = rng.uniform(-1, 1, (4,)).astype("float32")
    sch = tvm.tir.Schedule(sum_bias_transposed, debug_mask="all")
    sch.fuse_reduction_epilogue(sch.get_block("sum"), sch.get_block("bias"))
    *_, got = run(sch.mod["main"], a, c, np.zeros((4, 6), "float32"))
    np.testing.assert_allclose(got, (a.sum(axis=2) + 0.5).T + c[:, None], rtol=1e-5)
    verify_trace_roundtrip(sch, mod=sum_bias_transposed)


@pytest.mark.parametrize("func, epilogue, message", [
    (matmul_bias_relu, "bias_relu", "clips or rectifies the reduction's result"),
    (matmul_two_readers, "bias", "to be the only reader of what reduction 'matmul' writes"),
    (row_max_bias, "bias", "to be a sum"),
])
def test_fusions_that_change_the_result_are_refused(func, epilogue, message):
    sch = tvm.tir.Schedule(func)
    before = sch.mod.mlir()
    reduction = "max" if func is row_max_bias else "matmul"
    with pytest.raises(tvm.tir.ScheduleError, match=message):
        sch.fuse_reduction_epilogue(reduction, epilogue)
    assert sch.mod.mlir() == before

