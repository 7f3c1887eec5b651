"""Relax's passes in TVM's order: LegalizeOps, AnnotateTIROpPattern,
FuseOps and FuseTIR on a legalized module (chains of prim_func calls fused
by their operator patterns, run against numpy), and Python rewrites with
PyExprVisitor / PyExprMutator inside a tvm.transform.module_pass."""
import numpy as np
import pytest

import tensorir as tvm
from tensorir import relax, topi
from tensorir.relax.expr_functor import PyExprMutator, PyExprVisitor, mutator, visitor
from tensorir.script import ir as I
from tensorir.script import relax as R
from tensorir.script import tir as T

RNG = np.random.default_rng(3)


@I.ir_module
class Net:
    @R.function
    def main(x: R.Tensor(("n", 6), dtype="float32"), w: R.Tensor((4, 6), dtype="float32"),
             b: R.Tensor((4,), dtype="float32")) -> R.Tensor(("n", 4), dtype="float32"):
        with R.dataflow():
            lv0 = R.matmul(x, R.permute_dims(w)) + b
            lv1 = R.nn.relu(lv0)
            lv2 = R.exp(lv1)
            lv3 = R.sum(R.exp(w), axis=1)
            lv4 = R.multiply(lv2, R.exp(b))
            R.output(lv4, lv3)
        return lv4


def _inputs(n=3):
    return (RNG.standard_normal((n, 6)).astype("float32"),
            RNG.standard_normal((4, 6)).astype("float32"),
            RNG.standard_normal(4).astype("float32"))


def _reference(x, w, b):
    return np.exp(np.maximum(x @ w.T + b, 0)) * np.exp(b)


def _run(mod, *args):
    return relax.VirtualMachine(tvm.compile(mod, "llvm"), tvm.cpu())["main"](*args).numpy()


def test_annotate_tir_op_pattern_marks_each_prim_func():
    mod = relax.transform.AnnotateTIROpPattern()(relax.transform.LegalizeOps()(Net))
    text = mod.mlir()
    # (A bias add reads the matmul at its own indices: element-wise, as TVM
    # has it.)
    for name, pattern in [("transpose", 2), ("matmul", 4), ("add", 0), ("relu", 0)]:
        line = next(ln for ln in text.splitlines() if f"func.func private @{name}(" in ln)
        assert f"tir.op_pattern = {pattern} : i64" in line, line


def test_fuse_ops_groups_calls_and_fuse_tir_makes_each_group_one_prim_func():
    legalized = relax.transform.LegalizeOps()(Net)
    grouped = tvm.ir.transform.Sequential([relax.transform.AnnotateTIROpPattern(),
                                           relax.transform.FuseOps()])(legalized)
    # matmul, the bias, ReLU, exp and the product by exp(b) are one group,
    # exp(b) (element-wise work before it) too; the transposed weight
    # (injective work before a matmul) stays apart. exp(w) and its sum are
    # read by nothing: left as they are.
    name = "fused_matmul_add_relu_exp_exp2_multiply"
    text = grouped.script()
    assert f"def {name}(x: R.Tensor((\"n\", 6), dtype=\"float32\"), lv: " in text
    assert 'R.func_attr({"Primitive": True})' in text
    assert f"lv3: R.Tensor((n, 4), dtype=\"float32\") = cls.{name}(x, lv, b)" in text
    fused = relax.transform.FuseTIR()(grouped)
    assert fused.function_names() == ["transpose", "exp1", "sum", name, "main"]
    assert f"R.call_tir(cls.{name}, (x, lv, b), out_sinfo=R.Tensor((n, 4)" in fused.script()
    x, w, b = _inputs()
    for mod in (fused, grouped, legalized):
        np.testing.assert_allclose(_run(mod, x, w, b), _reference(x, w, b), rtol=1e-5)


@I.ir_module
class Heads:
    # Attention's heads as torch.export gives them: split by a view, a
    # transpose there and back, then the keys transposed for the product.
    @R.function
    def main(q: R.Tensor((8, 2, 4), dtype="float32"), x: R.Tensor((1, 8, 3), dtype="float32")):
        with R.dataflow():
            h = R.permute_dims(q, axes=[1, 0, 2])
            h4 = R.reshape(h, R.shape([1, 2, 8, 4]))
            t = R.permute_dims(R.permute_dims(h4, axes=[0, 2, 1, 3]), axes=[0, 2, 1, 3])
            k = R.permute_dims(R.reshape(t, R.shape([2, 8, 4])), axes=[0, 2, 1])
            s = R.matmul(R.reshape(t, R.shape([2, 8, 4])), k)
            y = R.permute_dims(x, axes=[1, 0, 2])
            R.output(s, y)
        return (s, y)


def test_simplify_layouts_leaves_one_transpose_per_layout_change():
    simplified = relax.transform.SimplifyLayouts()(Heads)
    text = simplified.mlir()
    # The pair that cancels goes, the keys' transpose is composed with the
    # head split, and moving x's dimension of 1 is a view.
    assert text.count("linalg.transpose") == 2, text
    assert "permutation = [1, 2, 0]" in text
    fused = relax.get_pipeline("zero")(Heads)
    assert len([n for n in fused.function_names() if "transpose" in n]) == 2
    q = RNG.standard_normal((8, 2, 4)).astype("float32")
    x = RNG.standard_normal((1, 8, 3)).astype("float32")
    heads = q.transpose(1, 0, 2)
    vm = relax.VirtualMachine(tvm.compile(fused, "llvm"), tvm.cpu())
    s, y = vm["main"](q, x)
    np.testing.assert_allclose(s.numpy(), heads @ heads.transpose(0, 2, 1), rtol=1e-5)
    np.testing.assert_array_equal(y.numpy(), x.transpose(1, 0, 2))


def test_fuse_ops_on_emit_te_calls():
    x = relax.Var("x", relax.TensorStructInfo((4, 8), "float32"))
    bb = relax.BlockBuilder()
    with bb.function("main", [x]):
        with bb.dataflow():
            a = bb.emit_te(topi.exp, x)
            b = bb.emit_te(topi.nn.relu, a)
            c = bb.emit_te(topi.nn.relu, b)
            d = bb.emit_te(topi.add, c, x)
            out = bb.emit_output(d)
        bb.emit_func_output(out)
    fused = relax.get_pipeline("zero")(bb.get())
    assert fused.function_names() == ["fused_exp_relu_relu_add", "main"]
    # The callee's block, taken twice, has two names.
    text = fused.script()
    assert 'T.block("compute")' in text and 'T.block("compute_1")' in text
    xs = RNG.standard_normal((4, 8)).astype("float32")
    # (exp within an ulp of numpy's; x + exp(x) near 0 loses the digits.)
    np.testing.assert_allclose(_run(fused, xs), np.maximum(np.exp(xs), 0) + xs, rtol=1e-6,
                               atol=1e-6)


@mutator
class ReluToGelu(PyExprMutator):
    def visit_call_(self, call):
        if call.op.name == "relax.nn.relu":
            return relax.op.nn.gelu(call.args[0])
        return super().visit_call_(call)


@tvm.transform.module_pass(opt_level=0, name="ReluToGelu")
class ReluToGeluPass:
    def transform_module(self, mod, _ctx):
        rewriter = ReluToGelu(mod)
        for gvar, func in mod.functions_items():
            if isinstance(func, relax.Function):
                rewriter.builder_.update_func(gvar, rewriter.visit_expr(func))
        return rewriter.builder_.get()


def test_a_python_mutator_rewrites_operators():
    mod = ReluToGeluPass()(Net)
    text = mod.script()
    assert "R.nn.gelu(" in text and "R.nn.relu(" not in text
    x, w, b = _inputs(2)
    h = x @ w.T + b
    gelu = 0.5 * h * (1 + np.vectorize(__import__("math").erf)(h / np.sqrt(2)))
    np.testing.assert_allclose(_run(mod, x, w, b), np.exp(gelu) * np.exp(b), rtol=1e-4)


@visitor
class CallCounter(PyExprVisitor):
    def __init__(self):
        self.ops = []

    def visit_call_(self, call):
        self.ops.append(call.op.name)
        super().visit_call_(call)


def test_a_python_visitor_sees_every_binding():
    counter = CallCounter()
    counter.visit_expr(Net["main"])
    assert counter.ops == ["relax.permute_dims", "relax.matmul", "relax.add", "relax.nn.relu",
                           "relax.exp", "relax.exp", "relax.sum", "relax.exp",
                           "relax.multiply"]
    counter = CallCounter()
    counter.visit_expr(relax.transform.LegalizeOps()(Net)["main"])
    assert set(counter.ops) == {"relax.call_tir"}
    with pytest.raises(TypeError, match="visit_expr: int is not a relax expression"):
        counter.visit_expr(3)


@I.ir_module
class Weighted:
    @R.function
    def main(x: R.Tensor((3, 6), dtype="float32"), w: R.Tensor((4, 6), dtype="float32"),
             b: R.Tensor((4,), dtype="float32")) -> R.Tensor((3, 4), dtype="float32"):
        R.func_attr({"num_input": 1})
        with R.dataflow():
            wt = R.permute_dims(w)
            scaled = R.multiply(b, R.const(2.0, "float32"))
            y = R.add(R.matmul(x, wt), scaled)
            z = R.add(y, b)
            R.output(z)
        return z


def test_lift_transform_params_moves_the_weights_computations_ahead():
    lifted = relax.transform.LiftTransformParams()(Weighted)
    assert sorted(str(g) for g in lifted.function_names()) == ["main",
                                                                "main_transform_params"]
    text = lifted.script()
    assert ('def main_transform_params(w: R.Tensor((4, 6), dtype="float32"), b: R.Tensor('
            '(4,), dtype="float32")) -> R.Tuple(R.Tensor((6, 4), dtype="float32"), '
            'R.Tensor((4,), dtype="float32")):') in text
    # b is still read as it is (the last add), so main keeps it.
    assert ('def main(x: R.Tensor((3, 6), dtype="float32"), b: R.Tensor((4,), dtype='
            '"float32"), lifted: R.Tensor((6, 4), dtype="float32"), lifted1: R.Tensor((4,), '
            'dtype="float32"))') in text
    x, w, b = _inputs()
    vm = relax.VirtualMachine(tvm.compile(lifted, "llvm"), tvm.cpu())
    params = vm["main_transform_params"](w, b)
    got = vm["main"](x, b, *params).numpy()
    np.testing.assert_allclose(got, x @ w.T + 3 * b, rtol=1e-5, atol=1e-6)
    # A module without num_input is left as it is.
    assert relax.transform.LiftTransformParams()(Net).script() == Net.script()


def test_fold_constant_computes_the_constants_steps_at_compile_time():
    bb = relax.BlockBuilder()
    x = relax.Var("x", relax.TensorStructInfo((2, 3), "float32"))
    table = np.arange(6, dtype="float32").reshape(3, 2)
    with bb.function("main", [x]):
        with bb.dataflow():
            t = bb.emit(relax.op.permute_dims(relax.const(table)))      # constant: folded
            e = bb.emit(relax.op.exp(relax.op.multiply(t, relax.const(0.1, "float32"))))
            out = bb.emit_output(relax.op.add(x, e))                      # reads x: kept
        bb.emit_func_output(out)
    mod = bb.get()
    folded = relax.transform.FoldConstant()(mod)
    text = folded.script()
    assert "R.permute_dims" not in text and "R.exp" not in text and "R.add(x" in text
    assert [str(g) for g in folded.function_names()] == ["main"]
    data = RNG.standard_normal((2, 3)).astype("float32")
    np.testing.assert_allclose(_run(folded, data), data + np.exp(table.T * 0.1), rtol=1e-6)
    # Nothing to fold: the module itself.
    assert relax.transform.FoldConstant()(Net) is Net


def test_canonicalize_bindings_and_decompose_ops_keep_the_module():
    assert relax.transform.CanonicalizeBindings()(Net) is Net
    assert relax.transform.DecomposeOpsForInference()(Net) is Net


def test_tuning_measures_the_default_schedule_beside_the_searched_ones():
    import json
    import os
    import tempfile
    bb = relax.BlockBuilder()
    x = relax.Var("x", relax.TensorStructInfo((1, 16, 14, 14), "float32"))
    w = relax.Var("w", relax.TensorStructInfo((32, 16, 3, 3), "float32"))
    with bb.function("main", [x, w]):
        with bb.dataflow():
            out = bb.emit_output(relax.op.nn.relu(relax.op.nn.conv2d(x, w, padding=1)))
        bb.emit_func_output(out)
    mod = bb.get()
    with tempfile.TemporaryDirectory() as work:
        tuned = relax.get_pipeline("static_shape_tuning", target="llvm -num-cores 1",
                                   total_trials=4, work_dir=work)(mod)
        with open(os.path.join(work, "database_tuning_record.json")) as f:
            records = [json.loads(line) for line in f if line.strip()]
    # The convolution's register-tiled default schedule (a local tile) is a
    # record: the database applies whichever ran fastest.
    assert any("CacheWrite" in json.dumps(r) for r in records)
    a = RNG.standard_normal((1, 16, 14, 14)).astype("float32")
    b = RNG.standard_normal((32, 16, 3, 3)).astype("float32")
    got = relax.VirtualMachine(tvm.compile(tuned, "llvm"), tvm.cpu())["main"](a, b).numpy()
    want = relax.VirtualMachine(tvm.compile(mod, "llvm"), tvm.cpu())["main"](a, b).numpy()
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-4)


def test_lifting_and_folding_leave_called_functions_and_dead_steps():
    @I.ir_module
    class Called:
        @R.function
        def f(x: R.Tensor((4,), "float32"), w: R.Tensor((4,), "float32")
              ) -> R.Tensor((4,), "float32"):
            R.func_attr({"num_input": 1})
            with R.dataflow():
                y = R.add(x, R.add(w, w))
                R.output(y)
            return y

        @R.function
        def main(x: R.Tensor((4,), "float32"), w: R.Tensor((4,), "float32")
                 ) -> R.Tensor((4,), "float32"):
            cls = Called
            with R.dataflow():
                y = cls.f(x, w)
                R.output(y)
            return y

    # main's call passes w: f keeps the signature it has.
    assert relax.transform.LiftTransformParams()(Called).script() == Called.script()

    @I.ir_module
    class Dead:
        @R.function
        def main(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
            with R.dataflow():
                unused = R.add(R.const([1.0, 2.0, 3.0, 4.0], "float32"), R.const(1.0, "float32"))
                y = R.add(x, x)
                R.output(y)
            return y

    assert relax.transform.FoldConstant()(Dead).script() == Dead.script()

    @I.ir_module
    class Gathered:
        @R.function
        def main(x: R.Tensor((2, 4), "float32"), w: R.Tensor((3, 4), "float32")
                 ) -> R.Tensor((2, 4), "float32"):
            R.func_attr({"num_input": 1})
            with R.dataflow():
                rows = R.take(R.add(w, w), R.const([0, 2], "int64"), axis=0)
                y = R.add(x, rows)
                R.output(y)
            return y

    # The doubled weight is read only inside take's body: one value lifted.
    lifted = relax.transform.LiftTransformParams()(Gathered)
    assert "lifted: R.Tensor((2, 4)" in lifted.script() and "lifted1" not in lifted.script()
    w = RNG.standard_normal((3, 4)).astype("float32")
    x = RNG.standard_normal((2, 4)).astype("float32")
    vm = relax.VirtualMachine(tvm.compile(lifted, "llvm"), tvm.cpu())
    np.testing.assert_allclose(vm["main"](x, *vm["main_transform_params"](w)).numpy(),
                               x + 2 * w[[0, 2]], rtol=1e-6)
