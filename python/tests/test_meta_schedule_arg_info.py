"""meta_schedule.arg_info: the arguments of a function to tune, read from
its signature by the MetaSchedule library (dtype names as TVM writes them,
uint buffers included), their JSON form and its round trip, and the
functions MetaSchedule cannot tune refused by argument."""
import pytest

import tensorir as tvm
from tensorir import meta_schedule as ms
from tensorir.meta_schedule.arg_info import ArgInfo, TensorInfo
from tensorir.script import tir as T


@T.prim_func
def mixed(a: T.handle, b: T.handle, c: T.handle):
    A = T.match_buffer(a, (4, 6), "float16")
    B = T.match_buffer(b, (6,), "uint8")
    C = T.match_buffer(c, (4,), "int64")
    for i, j in T.grid(4, 6):
        with T.block("C"):
            vi, vj = T.axis.remap("SR", [i, j])
            with T.init():
                C[vi] = T.int64(0)
            C[vi] = C[vi] + T.Cast("int64", A[vi, vj]) * T.Cast("int64", B[vj])


def test_the_arguments_of_a_function():
    infos = ArgInfo.from_prim_func(mixed)
    assert [(i.dtype, i.shape) for i in infos] == [("float16", [4, 6]), ("uint8", [6]),
                                                  ("int64", [4])]
    assert [str(i) for i in infos] == ['TensorInfo("float16", [4, 6])',
                                       'TensorInfo("uint8", [6])', 'TensorInfo("int64", [4])']
    # The entry function of a module (its only one) gives the same.
    assert ArgInfo.from_entry_func(tvm.IRModule({"main": mixed})) == infos


def test_json_round_trip():
    info = TensorInfo("bfloat16", [2, 0, 3])
    assert info.as_json() == ["TENSOR", "bfloat16", [2, 0, 3]]
    again = ArgInfo.from_json(info.as_json())
    assert again == info and isinstance(again, TensorInfo)


@pytest.mark.parametrize("json_obj, message", [
    (["TENSOR", "float32"], r'\["TENSOR", dtype, shape\]'),
    (["SCALAR", "int32", []], r'\["TENSOR", dtype, shape\]'),
    (["TENSOR", 32, [1]], "dtype is a string and its shape a list"),
    (["TENSOR", "float32", [-1]], "integers >= 0"),
])
def test_malformed_json_is_refused(json_obj, message):
    with pytest.raises(ValueError, match=message):
        TensorInfo.from_json(json_obj)


def test_what_cannot_be_tuned_is_refused_by_argument():
    @T.prim_func
    def scaled(a: T.handle, n: T.int32):
        A = T.match_buffer(a, (8,), "float32")
        for i in range(8):
            with T.block("A"):
                vi = T.axis.remap("S", [i])
                A[vi] = A[vi] * T.Cast("float32", n)

    @T.prim_func
    def rows(a: T.handle, m: T.int32):
        A = T.match_buffer(a, (m, 8), "float32")
        for i, j in T.grid(m, 8):
            with T.block("A"):
                vi, vj = T.axis.remap("SS", [i, j])
                A[vi, vj] = T.float32(0)

    with pytest.raises(ValueError, match="argument 'n' of function 'scaled' is a scalar"):
        ArgInfo.from_prim_func(scaled)
    with pytest.raises(ValueError, match="buffer argument 'A' of function 'rows' has a "
                                         "runtime dimension"):
        ArgInfo.from_prim_func(rows)
    assert ms.arg_info.ArgInfo is ArgInfo
