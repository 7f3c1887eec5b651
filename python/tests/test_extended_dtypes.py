"""Arrays of the element types numpy lacks (bfloat16, float8_e4m3fn,
float8_e5m2) as the ml_dtypes package makes them, as TVM takes them: passed
to built functions on the CPU and the GPU, allocated (tvm.nd.empty, a graph
function's results), checked against the signature; and the message when
ml_dtypes is not installed."""
import os
import sys

import numpy as np
import pytest

import tensorir as tvm
import tir_runtime
from tensorir.script import tir as T

ml_dtypes = pytest.importorskip("ml_dtypes")

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "bench", "gpu"))
import programs  # noqa: E402

HAVE_GPU = tvm.cuda(0).exist


@T.prim_func
def bf16_update(A: T.Buffer((8,), "bfloat16"), B: T.Buffer((8,), "float32"),
                C: T.Buffer((8,), "bfloat16")):
    T.func_attr({"global_symbol": "bf16_update", "tir.noalias": True})
    for i in range(8):
        with T.block("B"):
            vi = T.axis.spatial(8, i)
            B[vi] = T.Cast("float32", A[vi]) * T.float32(2)
            C[vi] = T.Cast("bfloat16", T.Cast("float32", A[vi]) + T.float32(1))


@T.prim_func
def f8_copy(A: T.Buffer((8,), "float8_e4m3fn"), B: T.Buffer((8,), "float8_e4m3fn")):
    T.func_attr({"global_symbol": "f8_copy", "tir.noalias": True})
    for i in range(8):
        with T.block("B"):
            vi = T.axis.spatial(8, i)
            B[vi] = A[vi]


def test_bfloat16_arrays_on_the_cpu():
    lib = tvm.build(bf16_update, target="llvm")
    a = (np.arange(8) / 4).astype(ml_dtypes.bfloat16)
    b = np.zeros(8, "float32")
    c = np.zeros(8, ml_dtypes.bfloat16)
    lib["bf16_update"](a, b, c)
    np.testing.assert_array_equal(b, np.arange(8) / 2)
    np.testing.assert_array_equal(c.astype("float32"), np.arange(8) / 4 + 1)
    # tvm.nd arrays of them, allocated by name.
    out = tvm.nd.empty((8,), "bfloat16")
    assert out.dtype == "bfloat16"
    lib["bf16_update"](tvm.nd.array(a), tvm.nd.array(b), out)
    np.testing.assert_array_equal(out.numpy().astype("float32"), np.arange(8) / 4 + 1)


def test_float8_arrays_pass_through():
    lib = tvm.build(f8_copy, target="llvm")
    a = np.array([0, 0.5, 1, 1.5, -2, 448, -448, 0.001953125], ml_dtypes.float8_e4m3fn)
    b = np.zeros(8, ml_dtypes.float8_e4m3fn)
    lib["f8_copy"](a, b)
    assert b.tobytes() == a.tobytes()


def test_wrong_extended_type_refused():
    lib = tvm.build(bf16_update, target="llvm")
    b, c = np.zeros(8, "float32"), np.zeros(8, ml_dtypes.bfloat16)
    with pytest.raises(ValueError, match=r"argument 0 \('A'\) of 'bf16_update': expected "
                                         "element type bfloat16, got float32"):
        lib["bf16_update"](np.zeros(8, "float32"), b, c)
    with pytest.raises(ValueError, match="expected element type bfloat16, got float8_e5m2"):
        lib["bf16_update"](np.zeros(8, ml_dtypes.float8_e5m2), b, c)


def test_without_ml_dtypes(monkeypatch):
    monkeypatch.setitem(sys.modules, "ml_dtypes", None)
    with pytest.raises(TypeError, match="arrays of bfloat16 need the ml_dtypes package "
                                        r"\(numpy has no bfloat16\): pip install ml_dtypes"):
        tvm.nd.empty((4,), "bfloat16")


@pytest.mark.skipif(not HAVE_GPU, reason="no CUDA GPU here (tvm.cuda(0).exist is False)")
def test_bfloat16_arrays_on_the_gpu():
    dev = tvm.cuda(0)
    a = (np.arange(8) / 4).astype(ml_dtypes.bfloat16)
    d = tir_runtime.array(a, dev)
    assert d.dtype == "bfloat16"
    assert d.numpy().tobytes() == a.tobytes()


@pytest.mark.skipif(not HAVE_GPU, reason="no CUDA GPU here (tvm.cuda(0).exist is False)")
@pytest.mark.parametrize("b_transposed", [False, True])
def test_bfloat16_mma_gemm_on_gpu(b_transposed):
    n = 256
    func = programs.matmul_mixed(n, "bfloat16", "float32", b_transposed)
    lib = tvm.build(programs.schedule_matmul_mma(func, "bfloat16", "float32",
                                                 b_transposed).mod, target="cuda")
    rng = np.random.default_rng(7)
    a, b = (rng.standard_normal((n, n)).astype(ml_dtypes.bfloat16) for _ in range(2))
    dev = tvm.cuda(0)
    c = tvm.nd.array(np.zeros((n, n), "float32"), dev)
    lib["gemm"](tvm.nd.array(a, dev), tvm.nd.array(b, dev), c)
    bt = b.astype("float64")
    expected = a.astype("float64") @ (bt.T if b_transposed else bt)
    np.testing.assert_allclose(c.numpy(), expected, rtol=1e-3, atol=1e-3)


@pytest.mark.skipif(not HAVE_GPU or float(tvm.cuda(0).compute_version) < 8.9,
                    reason="no CUDA GPU of sm_89 or newer here (float8 tensor cores)")
@pytest.mark.parametrize("dtype", ["float8_e4m3fn", "float8_e5m2"])
def test_float8_mma_gemm_on_gpu(dtype):
    n = 256
    func = programs.matmul_mixed(n, dtype, "float32", b_transposed=True)
    lib = tvm.build(programs.schedule_matmul_mma(func, dtype, "float32", True).mod,
                    target="cuda")
    rng = np.random.default_rng(8)
    a, b = (rng.standard_normal((n, n)).astype(getattr(ml_dtypes, dtype)) for _ in range(2))
    dev = tvm.cuda(0)
    c = tvm.nd.array(np.zeros((n, n), "float32"), dev)
    lib["gemm"](tvm.nd.array(a, dev), tvm.nd.array(b, dev), c)
    expected = a.astype("float64") @ b.astype("float64").T
    np.testing.assert_allclose(c.numpy(), expected, rtol=1e-3, atol=1e-3)
