"""Graph functions calling graph functions (Relax's cls.f(x)): parsed in
any order within an @I.ir_module, emitted with relax.Call on a
BlockBuilder, printed, compared, and inlined by the compiler; a recursive
call and an unknown callee are refused by name."""
import numpy as np
import pytest

import tensorir as tvm
from tensorir import relax
from tensorir.script import ScriptError
from tensorir.script import ir as I
from tensorir.script import relax as R

RNG = np.random.default_rng(11)


@I.ir_module
class Layered:
    @R.function
    def main(x: R.Tensor((2, 3), "float32"), w: R.Tensor((3, 4), "float32")
             ) -> R.Tensor((2, 4), "float32"):
        cls = Layered
        with R.dataflow():
            pair = cls.layer(x, w)          # defined below: parsed once it is known
            out = R.add(pair[0], cls.bias(pair[1]))
            R.output(out)
        return out

    @R.function(private=True)
    def layer(x: R.Tensor((2, 3), "float32"), w: R.Tensor((3, 4), "float32")
              ) -> R.Tuple(R.Tensor((2, 4), "float32"), R.Tensor((2, 4), "float32")):
        with R.dataflow():
            y = R.matmul(x, w)
            gv = (R.nn.relu(y), y)
            R.output(gv)
        return gv

    @R.function
    def bias(y: R.Tensor((2, 4), "float32")) -> R.Tensor((2, 4), "float32"):
        with R.dataflow():
            z = R.multiply(y, R.const(0.5, "float32"))
            R.output(z)
        return z


def test_calls_parse_print_and_compile_inlined():
    text = Layered.script()
    assert "lv: R.Tuple(R.Tensor((2, 4), dtype=\"float32\"), R.Tensor((2, 4), " \
           "dtype=\"float32\")) = cls.layer(x, w)" in text
    assert "cls.bias(lv[1])" in text
    tvm.ir.assert_structural_equal(Layered, tvm.script.from_source(text))
    x = RNG.standard_normal((2, 3)).astype("float32")
    w = RNG.standard_normal((3, 4)).astype("float32")
    vm = relax.VirtualMachine(tvm.compile(Layered, "llvm"), tvm.cpu())
    y = x @ w
    np.testing.assert_allclose(vm["main"](x, w).numpy(), np.maximum(y, 0) + 0.5 * y,
                               rtol=1e-5, atol=1e-6)
    # A public callee is a function of the library too; the private one was
    # inlined away.
    np.testing.assert_allclose(vm["bias"](y).numpy(), 0.5 * y, rtol=1e-6)
    assert "layer" not in vm.module.functions


def test_block_builder_emits_calls_of_the_functions_it_has():
    bb = relax.BlockBuilder()
    a = relax.Var("a", relax.TensorStructInfo((4,), "float32"))
    with bb.function("double", [a]):
        with bb.dataflow():
            out = bb.emit_output(relax.op.add(a, a))
        bb.emit_func_output(out)
    double = bb.get().get_global_var("double")
    b = relax.Var("b", relax.TensorStructInfo((4,), "float32"))
    with bb.function("main", [b]):
        with bb.dataflow():
            twice = bb.emit(relax.Call(double, [b]))
            out = bb.emit_output(relax.Call(double, [twice]))
        bb.emit_func_output(out)
    mod = bb.get()
    assert "cls.double(lv)" in mod.script()
    # TVM's module API: a GlobalVar per function, which indexes the module.
    gvs = mod.get_global_vars()
    assert gvs == [double, relax.GlobalVar("main")] and mod.function_names() == ["double", "main"]
    assert [gv.name_hint for gv in gvs] == ["double", "main"] and mod[gvs[0]] is mod["double"]
    vm = relax.VirtualMachine(tvm.compile(mod, "llvm"), tvm.cpu())
    np.testing.assert_array_equal(vm["main"](np.arange(4, dtype="float32")).numpy(),
                                  4 * np.arange(4))
    c = relax.Var("c", relax.TensorStructInfo((4,), "float32"))
    with pytest.raises(ValueError, match="'missing' is not a function of the module"):
        with bb.function("bad", [c]):
            bb.emit(relax.Call(relax.GlobalVar("missing"), [c]))


def test_recursive_calls_and_unknown_callees_are_refused():
    @I.ir_module
    class Loop:
        @R.function
        def main(x: R.Tensor((2,), "float32")) -> R.Tensor((2,), "float32"):
            cls = Loop
            with R.dataflow():
                y: R.Tensor((2,), "float32") = cls.main(x)
                R.output(y)
            return y

    with pytest.raises(Exception, match="calls graph function 'main', which calls itself"):
        tvm.compile(Loop, "llvm")
    with pytest.raises(ScriptError, match="no graph function 'helper' is defined before"):
        @I.ir_module
        class Missing:  # noqa: F841
            @R.function
            def main(x: R.Tensor((2,), "float32")) -> R.Tensor((2,), "float32"):
                cls = Missing
                with R.dataflow():
                    y = cls.helper(x)
                    R.output(y)
                return y


def test_visitors_and_mutators_see_calls():
    from tensorir.relax.expr_functor import PyExprMutator, PyExprVisitor, mutator, visitor

    @visitor
    class Callees(PyExprVisitor):
        def __init__(self):
            self.names = []

        def visit_call_(self, call):
            if isinstance(call.op, relax.GlobalVar):
                self.names.append(call.op.name_hint)
            super().visit_call_(call)

    seen = Callees()
    seen.visit_expr(Layered["main"])
    assert seen.names == ["layer", "bias"]

    @mutator
    class Same(PyExprMutator):
        pass

    rebuilt = Same().visit_expr(Layered["main"])
    assert "= layer(x, w)" in rebuilt.script()  # a function printed alone


def test_a_tuple_argument_passes_its_tensors():
    @I.ir_module
    class Pairs:
        @R.function
        def total(t: R.Tuple(R.Tensor((3,), "float32"), R.Tensor((3,), "float32"))
                  ) -> R.Tensor((3,), "float32"):
            with R.dataflow():
                y = R.add(t[0], t[1])
                R.output(y)
            return y

        @R.function
        def main(x: R.Tensor((3,), "float32")) -> R.Tensor((3,), "float32"):
            cls = Pairs
            with R.dataflow():
                pair = (x, R.multiply(x, x))
                y = cls.total(pair)
                R.output(y)
            return y

    x = np.arange(3, dtype="float32")
    vm = relax.VirtualMachine(tvm.compile(Pairs, "llvm"), tvm.cpu())
    np.testing.assert_array_equal(vm["main"](x).numpy(), x + x * x)
