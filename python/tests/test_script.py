"""TVMScript (TVM v0.23 syntax) parsed into tir, built and run."""
import numpy as np
import pytest

import tensorir as tvm
from tensorir.script import ir as I
from tensorir.script import tir as T


@I.ir_module
class Blitz:
    @T.prim_func
    def main(a: T.handle, b: T.handle):
        T.func_attr({"global_symbol": "main", "tir.noalias": True})
        A = T.match_buffer(a, (8,), dtype="float32")
        B = T.match_buffer(b, (8,), dtype="float32")
        for i in range(8):
            with T.block("B"):
                vi = T.axis.spatial(8, i)
                B[vi] = A[vi] + 1.0


@T.prim_func
def mm_relu(A: T.Buffer((128, 128), "float32"),
            B: T.Buffer((128, 128), "float32"),
            C: T.Buffer((128, 128), "float32")):
    T.func_attr({"global_symbol": "mm_relu", "tir.noalias": True})
    Y = T.alloc_buffer((128, 128), dtype="float32")
    for i, j, k in T.grid(128, 128, 128):
        with T.block("Y"):
            vi, vj, vk = T.axis.remap("SSR", [i, j, k])
            T.reads(A[vi, vk], B[vk, vj])
            T.writes(Y[vi, vj])
            with T.init():
                Y[vi, vj] = T.float32(0)
            Y[vi, vj] = Y[vi, vj] + A[vi, vk] * B[vk, vj]
    for i, j in T.grid(128, 128):
        with T.block("C"):
            vi = T.axis.S(128, i)
            vj = T.axis.S(128, j)
            C[vi, vj] = T.max(Y[vi, vj], T.float32(0))


def test_blitz_split_reorder_build():
    sch = tvm.tir.Schedule(Blitz)
    (i,) = sch.get_loops(sch.get_block("B"))
    i_0, i_1 = sch.split(i, factors=[2, 4])
    assert "spatial(8, %i_0 * 4 + %i_1)" in sch.mod.mlir()
    sch.reorder(i_0, i_1)
    lib = tvm.build(sch.mod, target="llvm")
    a = tvm.nd.array(np.arange(8).astype("float32"))
    b = tvm.nd.array(np.zeros((8,)).astype("float32"))
    lib["main"](a, b)
    assert b.numpy().tolist() == [1, 2, 3, 4, 5, 6, 7, 8]


def test_mm_relu_matches_numpy():
    text = mm_relu.mod.mlir()
    assert 'tir.block "Y"' in text and "tir.init" in text and "reduce(128" in text
    assert "tir.alloc_buffer" in text
    lib = tvm.build(mm_relu)
    rng = np.random.default_rng(0)
    a = rng.uniform(-1, 1, (128, 128)).astype("float32")
    b = rng.uniform(-1, 1, (128, 128)).astype("float32")
    c = np.zeros((128, 128), "float32")
    lib["mm_relu"](a, b, c)
    np.testing.assert_allclose(c, np.maximum(a @ b, 0), rtol=1e-4, atol=1e-4)


def test_loop_kinds_where_and_dynamic_shapes():
    @T.prim_func
    def f(a: T.handle, b: T.handle, n: T.int32):
        A = T.match_buffer(a, (n,), "float32")
        B = T.match_buffer(b, (n,))
        for io in T.parallel((n + 3) // 4):
            for ii in T.vectorized(4):
                with T.block("B"):
                    vi = T.axis.spatial(n, io * 4 + ii)
                    T.where(io * 4 + ii < n)
                    B[vi] = T.max(A[vi] * 2.0, T.float32(-1))

    text = f.mod.mlir()
    assert "parallel" in text and "vectorized" in text and "where(" in text
    lib = tvm.build(f)
    a = np.linspace(-2, 2, 10, dtype="float32")
    b = np.zeros(10, "float32")
    lib["f"](a, b, 10)
    np.testing.assert_array_equal(b, np.maximum(a * 2, -1))


def test_ir_module_dict_and_names():
    mod = tvm.IRModule({"relu_mm": mm_relu})
    assert list(mod.functions) == ["relu_mm"]


def test_errors_point_at_the_python_line():
    with pytest.raises(tvm.script.ScriptError) as info:
        @T.prim_func
        def bad(A: T.Buffer((8,), "float32")):
            for i in range(8):
                with T.block("B"):
                    vi = T.axis.spatial(8, i)
                    A[vi] = undefined_name + 1.0  # noqa: F821
    message = str(info.value)
    assert "test_script.py" in message
    assert "undefined name 'undefined_name'" in message


def test_verifier_errors_point_at_the_python_line():
    with pytest.raises(ValueError) as info:
        @T.prim_func
        def uses_loop_var(A: T.Buffer((8,), "float32")):
            for i in range(8):
                with T.block("B"):
                    vi = T.axis.spatial(8, i)
                    A[i] = 1.0
    message = str(info.value)
    assert "test_script.py" in message
    assert "induction variable of a tir.for from outside its enclosing block" in message
