"""The VirtualMachine's stateful calls (set_input, invoke_stateful,
get_outputs), saved closures (save_function, time_evaluator on them),
relax.testing's helpers and tvm.contrib's temporary directory and
compiler driver."""
import os

import numpy as np
import pytest

import tensorir as tvm
from tensorir import relax
from tensorir.contrib import cc, utils
from tensorir.relax.testing import nn
from tensorir.relax.testing.vm import check_saved_func
from tensorir.script import ir as I
from tensorir.script import relax as R
from tensorir.script import tir as T


@I.ir_module
class Mul:
    @T.prim_func
    def mul(x: T.handle, y: T.handle, z: T.handle):
        m, n = T.int32(), T.int32()
        A = T.match_buffer(x, (m, n))
        B = T.match_buffer(y, (m, n))
        C = T.match_buffer(z, (m, n))
        for i, j in T.grid(m, n):
            with T.block("mul"):
                vi, vj = T.axis.remap("SS", [i, j])
                C[vi, vj] = A[vi, vj] * B[vi, vj]

    @R.function
    def main(x: R.Tensor((4, 4), "float32"), w: R.Tensor((4, 4), "float32")) -> R.Tensor:
        cls = Mul
        gv = R.call_tir(cls.mul, (x, w), R.Tensor((4, 4), dtype="float32"))
        return gv


def _vm(tmp_path=None):
    ex = relax.build(Mul, "llvm", exec_mode="compiled")
    if tmp_path is not None:
        path = os.path.join(tmp_path, "exec.so")
        ex.export_library(path)
        ex = tvm.runtime.load_module(path)
    return relax.VirtualMachine(ex, tvm.cpu())


def _inputs():
    rng = np.random.default_rng(2)
    return (tvm.runtime.tensor(rng.random((4, 4), dtype="float32")),
            tvm.runtime.tensor(rng.random((4, 4), dtype="float32")))


def test_set_input_by_position_and_name(tmp_path):
    vm = _vm(tmp_path)
    a, b = _inputs()
    vm.set_input("main", a, b)
    vm.invoke_stateful("main")
    np.testing.assert_allclose(vm.get_outputs("main").numpy(), a.numpy() * b.numpy())
    vm.set_input("main", w=b, x=a)
    vm.invoke_stateful("main")
    np.testing.assert_allclose(vm.get_outputs("main").numpy(), a.numpy() * b.numpy())
    with pytest.raises(ValueError, match="no parameter named 'y'"):
        vm.set_input("main", a, y=b)
    # Once inputs are set, the function is called statefully only.
    with pytest.raises(RuntimeError, match="invoke_stateful"):
        vm["main"](a, b)


def test_stateful_calls_in_the_wrong_order_are_refused():
    vm = _vm()
    with pytest.raises(ValueError, match="set_input"):
        vm.invoke_stateful("main")
    a, b = _inputs()
    vm.set_input("main", a, b)
    with pytest.raises(ValueError, match="invoke_stateful"):
        vm.get_outputs("main")


def test_saved_functions_and_their_timing():
    vm = _vm()
    a, b = _inputs()
    res = check_saved_func(vm, "main", a, b)
    np.testing.assert_allclose(res.numpy(), a.numpy() * b.numpy())
    vm.save_function("main", "saved", x=a, w=b)
    np.testing.assert_allclose(vm["saved"]().numpy(), a.numpy() * b.numpy())
    timing = vm.time_evaluator("saved", tvm.cpu(), number=2)()
    assert timing.mean > 0
    vm.set_input("main", a, b)
    assert vm.time_evaluator("invoke_stateful", tvm.cpu(), number=1)("main").mean > 0


def test_testing_placeholders_are_graph_variables():
    x = nn.Placeholder((3, 4), "float32", name="x")
    assert isinstance(x, relax.Var) and x.name_hint == "x"
    assert tuple(int(d) for d in x.struct_info.shape) == (3, 4)


def test_contrib_tempdir_and_cc(tmp_path):
    with utils.tempdir() as temp:
        source = temp.relpath("f.c")
        with open(source, "w") as f:
            f.write("int f(void) { return 3; }\n")
        obj = temp.relpath("f.o")
        cc._run([cc._compiler(None), "-c", "-fPIC", "-x", "c", source, "-o", obj], None)
        cc.create_shared(temp.relpath("libf.so"), [obj])
        cc.create_staticlib(temp.relpath("libf.a"), [obj])
        assert {"libf.so", "libf.a"} <= set(temp.listdir())
        path = temp.temp_dir
    assert not os.path.exists(path)
    with pytest.raises(RuntimeError, match="failed"):
        cc.create_shared(str(tmp_path / "x.so"), [str(tmp_path / "missing.o")])


@I.ir_module
class Nested:
    @R.function
    def main(x: R.Tensor((), "int32")) -> R.Tuple(
            R.Tuple(R.Tensor((), "int32"), R.Tuple(R.Tensor((), "int32"))), R.Tensor((), "int32")):
        return ((x, (x,)), x)


def test_tuples_of_tuples_come_back_nested_after_export(tmp_path):
    path = os.path.join(tmp_path, "nested.so")
    relax.build(Nested, "llvm").export_library(path)
    vm = relax.VirtualMachine(tvm.runtime.load_module(path), tvm.cpu())
    out = vm["main"](np.array(3, "int32"))
    assert len(out) == 2 and len(out[0]) == 2 and len(out[0][1]) == 1
    assert (int(out[0][0].numpy()), int(out[0][1][0].numpy()), int(out[1].numpy())) == (3, 3, 3)
