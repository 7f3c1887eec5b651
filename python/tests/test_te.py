"""te: placeholder / compute / reduce_axis / sum / max / min and
create_prim_func, giving TVM's blocks."""
import numpy as np
import pytest

import tensorir as tvm
from tensorir import te


def test_matmul():
    A = te.placeholder((128, 128), "float32", name="A")
    B = te.placeholder((128, 128), "float32", name="B")
    k = te.reduce_axis((0, 128), name="k")
    C = te.compute((128, 128), lambda i, j: te.sum(A[i, k] * B[k, j], axis=k), name="C")
    func = te.create_prim_func([A, B, C])
    text = func.mod.mlir()
    # One block, spatial i, j and reduce k, with an init.
    assert 'tir.block "C"(%v_i = spatial(128, %i), %v_j = spatial(128, %j), %v_k = reduce(128, %k))' in text
    assert "tir.init" in text
    lib = tvm.build(func)
    a = np.random.default_rng(0).uniform(-1, 1, (128, 128)).astype("float32")
    b = np.random.default_rng(1).uniform(-1, 1, (128, 128)).astype("float32")
    c = np.zeros((128, 128), "float32")
    lib["main"](a, b, c)
    np.testing.assert_allclose(c, a @ b, rtol=1e-4, atol=1e-4)


def test_matmul_relu_intermediate_is_allocated():
    # TVM's TensorIR tutorial: Y is an intermediate, not a parameter.
    A = te.placeholder((128, 128), "float32", name="A")
    B = te.placeholder((128, 128), "float32", name="B")
    k = te.reduce_axis((0, 128), "k")
    Y = te.compute((128, 128), lambda i, j: te.sum(A[i, k] * B[k, j], axis=k), name="Y")
    C = te.compute((128, 128), lambda i, j: te.max(Y[i, j], 0), name="C")
    func = te.create_prim_func([A, B, C])
    text = func.mod.mlir()
    assert "tir.alloc_buffer : memref<128x128xf32>" in text
    assert text.index('tir.block "Y"') < text.index('tir.block "C"')
    sch = tvm.tir.Schedule(func)
    assert [b for b in sch.get_consumers("Y")] == [sch.get_block("C")]
    lib = tvm.build(func)
    a = np.random.default_rng(2).uniform(-1, 1, (128, 128)).astype("float32")
    b = np.random.default_rng(3).uniform(-1, 1, (128, 128)).astype("float32")
    c = np.zeros((128, 128), "float32")
    lib["main"](a, b, c)
    np.testing.assert_allclose(c, np.maximum(a @ b, 0), rtol=1e-4, atol=1e-4)


def test_lambda_star_and_max_reduction():
    A = te.placeholder((4, 16), "float32", name="A")
    r = te.reduce_axis((0, 16), name="r")
    M = te.compute((4,), lambda *i: te.max(A[i[0], r], axis=r), name="M")
    S = te.compute((4, 16), lambda i, j: A[i, j] - M[i], name="S")
    func = te.create_prim_func([A, S])
    lib = tvm.build(func)
    a = np.random.default_rng(4).uniform(-1, 1, (4, 16)).astype("float32")
    s = np.zeros((4, 16), "float32")
    lib["main"](a, s)
    np.testing.assert_allclose(s, a - a.max(axis=1, keepdims=True), rtol=1e-6)


def test_layout_free_placeholders_become_the_functions_layout_free_buffers():
    # topi's dense marks its weight so: the function's attribute lists its
    # position among the arguments, the block keeps no annotation of it.
    A = te.placeholder((16, 8), "float32", name="A")
    W = te.placeholder((8, 4), "float32", name="W")
    k = te.reduce_axis((0, 8), name="k")
    C = te.compute((16, 4), lambda i, j: te.sum(A[i, k] * W[k, j], axis=k), name="C",
                   attrs={"layout_free_placeholders": [W]})
    func = te.create_prim_func([A, W, C])
    assert func.attrs["layout_free_buffers"] == [1]
    assert "attributes {layout_free_buffers = [1]}" in func.text
    assert "layout_free_placeholders" not in func.text
    # Without it, the attribute is gone from the IR too.
    assert "layout_free_buffers = []" in func.without_attr("layout_free_buffers").text
    # with_attr writes it into the IR as T.func_attr does.
    plain = te.create_prim_func([A, W, te.compute((16, 4), lambda i, j: A[i, j] + W[0, j],
                                                  name="D")])
    assert "layout_free_buffers" not in plain.text
    assert "layout_free_buffers = [0, 1]" in plain.with_attr("layout_free_buffers", [0, 1]).text
    with pytest.raises(ValueError, match=r"lists position\(s\) \[3\], but the function has 3"):
        plain.with_attr("layout_free_buffers", [3])
    with pytest.raises(TypeError, match="list of parameter positions"):
        plain.with_attr("layout_free_buffers", ["W"])
    # A placeholder that is not an argument cannot be layout-free.
    V = te.placeholder((8, 4), "float32", name="V")
    D = te.compute((16, 4), lambda i, j: te.sum(A[i, k] * W[k, j], axis=k), name="D",
                   attrs={"layout_free_placeholders": [V]})
    with pytest.raises(ValueError, match="layout_free_placeholders lists 'V', which is not a "
                                         "placeholder among the arguments"):
        te.create_prim_func([A, W, D])
