"""R.call_tir_inplace: a prim_func writing some of its inputs in place,
whose results are those inputs; a graph function's result that is its
argument comes back as that very array."""
import numpy as np
import pytest

import tensorir as tvm
from tensorir import relax
from tensorir.script import ScriptError
from tensorir.script import ir as I
from tensorir.script import relax as R
from tensorir.script import tir as T


@I.ir_module
class Accumulate:
    @T.prim_func(private=True)
    def add_into(A: T.Buffer((2, 3), "float32"), B: T.Buffer((2, 3), "float32"),
                 C: T.Buffer((2, 3), "float32")):
        # A += B; C = B * 2.
        for i, j in T.grid(2, 3):
            with T.block("acc"):
                vi, vj = T.axis.remap("SS", [i, j])
                A[vi, vj] = A[vi, vj] + B[vi, vj]
                C[vi, vj] = B[vi, vj] * T.float32(2)

    @R.function
    def main(x: R.Tensor((2, 3), "float32"), y: R.Tensor((2, 3), "float32")):
        cls = Accumulate
        r = R.call_tir_inplace(cls.add_into, (x, y), [0, -1],
                               [R.Tensor((2, 3), "float32"), R.Tensor((2, 3), "float32")])
        return r


def _vm(mod):
    return relax.VirtualMachine(tvm.compile(mod, "llvm"), tvm.cpu())


def test_inplace_results_are_their_inputs():
    text = Accumulate.script()
    assert "R.call_tir_inplace(cls.add_into, (x, y), out_sinfo=" in text
    assert "inplace_indices=[0, -1]" in text
    assert tvm.ir.structural_equal(tvm.script.from_source(text), Accumulate)
    x = tvm.nd.array(np.ones((2, 3), "float32"))
    y = tvm.nd.array(np.arange(6, dtype="float32").reshape(2, 3))
    first, second = _vm(Accumulate)["main"](x, y)
    assert first is x  # written in place, given back
    np.testing.assert_allclose(x.numpy(), 1 + np.arange(6).reshape(2, 3))
    np.testing.assert_allclose(second.numpy(), 2 * np.arange(6).reshape(2, 3))


@I.ir_module
class ReadAfter:
    @T.prim_func(private=True)
    def double(A: T.Buffer((4,), "float32")):
        for i in range(4):
            with T.block("d"):
                vi = T.axis.remap("S", [i])
                A[vi] = A[vi] * T.float32(2)

    @R.function
    def main(x: R.Tensor((4,), "float32")):
        cls = ReadAfter
        with R.dataflow():
            a = R.exp(x)
            d = R.call_tir_inplace(cls.double, (a,), [0], R.Tensor((4,), "float32"))
            s = R.add(a, d)  # a is read after the call: the call writes a copy
            R.output(s)
        return s


def test_an_input_read_after_the_call_is_copied_first():
    x = np.linspace(-1, 1, 4).astype("float32")
    np.testing.assert_allclose(_vm(ReadAfter)["main"](x).numpy(), 3 * np.exp(x), rtol=1e-6)


def test_bad_inplace_indices_are_refused():
    bb = relax.BlockBuilder()
    x = relax.Var("x", R.Tensor((4,), "float32"))
    y = relax.Var("y", R.Tensor((2,), "float32"))
    gv = relax.GlobalVar("f")
    with pytest.raises(ValueError, match="2 inplace_indices for 1 results"):
        relax.call_tir_inplace(gv, (x, y), [0, 1], R.Tensor((4,), "float32"))
    with pytest.raises(ValueError, match="inplace index 2 of result 0"):
        relax.call_tir_inplace(gv, (x, y), [2], R.Tensor((4,), "float32"))
    with pytest.raises(ValueError, match=r"result 0 .* is written into input 1 of another"):
        relax.call_tir_inplace(gv, (x, y), [1], R.Tensor((4,), "float32"))
    del bb


def test_a_callee_writing_an_input_not_in_place_is_refused():
    with pytest.raises((ScriptError, ValueError), match="writes its input 1"):
        @I.ir_module
        class Bad:
            @T.prim_func(private=True)
            def both(A: T.Buffer((4,), "float32"), B: T.Buffer((4,), "float32")):
                for i in range(4):
                    with T.block("w"):
                        vi = T.axis.remap("S", [i])
                        A[vi] = B[vi]
                        B[vi] = A[vi]

            @R.function
            def main(x: R.Tensor((4,), "float32"), y: R.Tensor((4,), "float32")):
                cls = Bad
                r = R.call_tir_inplace(cls.both, (x, y), [0], R.Tensor((4,), "float32"))
                return r

        _vm(Bad)


def test_a_parameter_returned_is_the_argument():
    @I.ir_module
    class Echo:
        @R.function
        def main(x: R.Tensor((3,), "float32"), y: R.Tensor((3,), "float32")):
            z = R.add(x, y)
            return (x, z)

    x = tvm.nd.array(np.ones(3, "float32"))
    same, total = _vm(Echo)["main"](x, np.ones(3, "float32"))
    assert same is x
    np.testing.assert_allclose(total.numpy(), 2)


def test_r_tuple_is_a_tuple():
    @I.ir_module
    class Pair:
        @R.function
        def main(x: R.Tensor((3,), "float32")):
            with R.dataflow():
                y = R.exp(x)
                R.output(y)
            return R.tuple(x, y)

    x = tvm.nd.array(np.zeros(3, "float32"))
    same, e = _vm(Pair)["main"](x)
    assert same is x
    np.testing.assert_allclose(e.numpy(), 1)
