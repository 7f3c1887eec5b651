"""Buffer dimensions sized by affine forms of named variables (TVMScript's
`T.match_buffer(x, (n * 32, m + 1))`): the parameter's tir.dim_vars names
each by its form ("32 * n"), the printer writes the expression back, the
Python nodes read it as the expression, a call checks the sizes, and
transform_layout names a new dimension by its form."""
import numpy as np
import pytest

import tensorir as tvm
from tensorir.script import tir as T


@T.prim_func
def pad_rows(x: T.handle, y: T.handle, n: T.int32, m: T.int32):
    X = T.match_buffer(x, (n * 32, m + 1), "float32")
    Y = T.match_buffer(y, (n * 32, m + 1), "float32")
    for i, j in T.grid(n * 32, m + 1):
        with T.block("Y"):
            vi, vj = T.axis.remap("SS", [i, j])
            Y[vi, vj] = X[vi, vj] * T.float32(2)


def test_forms_are_named_printed_and_parsed_back():
    mod = tvm.IRModule({"main": pad_rows})
    assert '{tir.dim_vars = ["32 * n", "m + 1"], tir.name = "X"}' in mod.mlir()
    assert '{tir.dim_vars = ["32 * n", "m + 1"], tir.name = "Y"}' in mod.mlir()
    text = pad_rows.script()
    assert 'X = T.match_buffer(x, (n * 32, m + 1), "float32")' in text, text
    assert 'Y = T.match_buffer(y, (n * 32, m + 1), "float32")' in text
    again = tvm.script.from_source(text)
    tvm.ir.assert_structural_equal(again, pad_rows)
    # The nodes hold the expression.
    shape = tvm.tir.Schedule(pad_rows).mod["main"].buffer_map
    assert [str(d) for d in list(shape.values())[1].shape] == ["n * 32", "m + 1"]


def test_a_call_checks_the_sizes_the_forms_give():
    lib = tvm.build(tvm.IRModule({"main": pad_rows}), target="llvm")
    x = np.random.default_rng(0).standard_normal((32, 4)).astype("float32")
    y = np.full((32, 4), np.nan, "float32")
    lib["pad_rows"](x, y, 1, 3)
    np.testing.assert_array_equal(y, x * 2)
    with pytest.raises(Exception, match=r"dimension 1 has 3 elements, but it is "
                                        r"'m \+ 1', which is 4"):
        lib["pad_rows"](x, np.zeros((32, 3), "float32"), 1, 3)


@T.prim_func
def flat(a: T.handle, b: T.handle):
    n = T.int32()
    A = T.match_buffer(a, (n, 32), "float32")
    B = T.match_buffer(b, (n, 32), "float32")
    for i, j in T.grid(n, 32):
        with T.block("B"):
            vi, vj = T.axis.remap("SS", [i, j])
            B[vi, vj] = A[vi, vj] + T.float32(1)


def test_transform_layout_names_a_new_dimension_by_its_form():
    sch = tvm.tir.Schedule(flat)
    sch.transform_layout(sch.get_block("B"), ("write", 0), lambda i, j: (i * 32 + j,),
                         assume_injective_transform=True)
    text = sch.mod.script()
    assert 'B = T.match_buffer(b, (n * 32,), "float32")' in text, text
    assert '["32 * n"]' in sch.mod.mlir()
    lib = tvm.build(sch.mod, target="llvm")
    a = np.arange(64, dtype="float32").reshape(2, 32)
    b = np.full(64, np.nan, "float32")
    lib[lib.functions[0]](a, b)
    np.testing.assert_array_equal(b, a.reshape(-1) + 1)
