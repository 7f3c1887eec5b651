"""Dimensions that are affine forms of shape variables (relax's
R.Tensor(("n + m",)), a concatenation's length): built, printed, parsed,
allocated by the runtime from the arguments, checked on parameters."""
import numpy as np
import pytest

import tensorir as tvm
from tensorir import relax, te, tir
from tensorir.script import ir as I
from tensorir.script import relax as R
from tensorir.script import tir as T


def _vm(mod):
    return relax.VirtualMachine(tvm.compile(mod, "llvm"), tvm.cpu())


def _concat_module():
    bb = relax.BlockBuilder()
    n, m = tir.Var("n", "int64"), tir.Var("m", "int64")
    x = relax.Var("x", R.Tensor([n], "float32"))
    y = relax.Var("y", R.Tensor([m], "float32"))

    def join(a, b):
        return te.compute((n + m,), lambda i: tir.if_then_else(i < n, a[i], b[i - n]),
                          name="join")

    with bb.function("main", [x, y]):
        out = bb.emit_te(join, x, y)
        bb.emit_func_output(out)
    return bb.get()


def test_a_result_of_n_plus_m_is_allocated_from_the_arguments():
    mod = _concat_module()
    text = mod.script()
    assert '-> R.Tensor(("n + m",), dtype="float32")' in text
    assert "out_sinfo=R.Tensor((n + m,), dtype=\"float32\")" in text
    for built in (mod, tvm.script.from_source(text)):
        vm = _vm(built)
        for a, b in [(3, 4), (1, 0), (5, 2)]:
            x = np.arange(a, dtype="float32")
            y = np.arange(b, dtype="float32") + 10
            np.testing.assert_array_equal(vm["main"](x, y).numpy(), np.concatenate([x, y]))


@I.ir_module
class Shifted:
    @R.function
    def main(x: R.Tensor((2, "n"), "float32"), y: R.Tensor((2, "n + 1"), "float32")):
        n = T.int64()
        with R.dataflow():
            s = R.add(R.sum(x, axis=[0]), R.const(1, "float32"))
            t = R.exp(y)
            R.output(s, t)
        return (s, t)


def test_a_parameter_of_n_plus_1_is_checked_at_the_call():
    vm = _vm(Shifted)
    x = np.ones((2, 3), "float32")
    s, t = vm["main"](x, np.zeros((2, 4), "float32"))
    np.testing.assert_array_equal(s.numpy(), [3, 3, 3])
    np.testing.assert_array_equal(t.numpy(), np.ones((2, 4)))
    with pytest.raises(ValueError, match="n \\+ 1"):
        vm["main"](x, np.ones((2, 5), "float32"))


def test_affine_forms_are_read_and_written_canonically():
    info = relax.TensorStructInfo(("2*n - 1 + m", "h - 2"), "float32")
    assert [str(d) for d in info.shape] == ["2 * n + m - 1", "h - 2"]
    n = tir.Var("n", "int64")
    assert str(relax.TensorStructInfo((n * 2 + 3,), "float32").shape[0]) == "2 * n + 3"
    with pytest.raises(ValueError, match="not affine"):
        relax.TensorStructInfo((n // 2,), "float32")
    with pytest.raises(ValueError, match="neither an identifier nor an affine form"):
        relax.TensorStructInfo(("n * m",), "float32")
