"""Graph level: relax.BlockBuilder, emit_te, call_tir, TVMScript's
@R.function printed and parsed, relax.build and the VirtualMachine, and the
seed's PyTorch import written by a user (torch.fx), against PyTorch."""
import numpy as np
import pytest

import tensorir as tvm
from tensorir import relax, te, topi
from tensorir.script import from_source
from tensorir.script import ir as I
from tensorir.script import relax as R
from tensorir.script import tir as T


def te_matmul(A, B):
    k = te.reduce_axis((0, A.shape[1]), name="k")
    return te.compute((A.shape[0], B.shape[1]),
                      lambda i, j: te.sum(A[i, k] * B[k, j], axis=k), name="matmul")


def te_relu(A):
    return te.compute(A.shape, lambda *i: te.max(A(*i), 0), name="relu")


def matmul_relu_module(params_at_function):
    A = relax.Var("A", relax.TensorStructInfo((16, 8), "float32"))
    B = relax.Var("B", relax.TensorStructInfo((8, 12), "float32"))
    bb = relax.BlockBuilder()
    with bb.function("main", [A, B] if params_at_function else None):
        with bb.dataflow():
            C = bb.emit_te(te_matmul, A, B)
            D = bb.emit_te(te_relu, C)
            out = bb.emit_output(D)
        if params_at_function:
            bb.emit_func_output(out)
        else:
            bb.emit_func_output(out, params=[A, B])
    return bb.get()


def run(mod, *args):
    return relax.VirtualMachine(relax.build(mod, target="llvm"), tvm.cpu())["main"](*args)


@pytest.mark.parametrize("params_at_function", [True, False])
def test_block_builder_matmul_relu(params_at_function):
    mod = matmul_relu_module(params_at_function)
    assert list(mod.functions) == ["te_matmul", "te_relu", "main"]
    assert isinstance(mod["main"], relax.Function)
    text = mod.script()
    assert '@T.prim_func(private=True)\n    def te_matmul(A: T.Buffer((16, 8), "float32"), ' \
           'B: T.Buffer((8, 12), "float32"), matmul: T.Buffer((16, 12), "float32")):' in text
    assert ('lv = R.call_tir(cls.te_matmul, (A, B), '
            'out_sinfo=R.Tensor((16, 12), dtype="float32"))') in text
    assert "lv1 = R.call_tir(cls.te_relu, (lv,), " in text
    assert 'gv: R.Tensor((16, 12), dtype="float32") = lv1\n            R.output(gv)\n' \
           '        return gv' in text
    a = np.random.rand(16, 8).astype("float32") - 0.5
    b = np.random.rand(8, 12).astype("float32")
    out = run(mod, tvm.nd.array(a), b)
    assert isinstance(out, tvm.nd.NDArray)
    np.testing.assert_allclose(out.numpy(), np.maximum(a @ b, 0), rtol=1e-5, atol=1e-5)


def test_schedule_a_module_with_a_graph_work_on():
    mod = matmul_relu_module(True)
    sch = tvm.tir.Schedule(mod)
    sch.work_on("te_matmul")
    i, j, k = sch.get_loops(sch.get_block("matmul"))
    sch.split(i, factors=[None, 4])
    assert list(sch.mod.functions) == ["te_matmul", "te_relu", "main"]
    assert "for i_0, i_1, j, k in T.grid(4, 4, 12, 8):" in sch.mod.script()
    a = np.random.rand(16, 8).astype("float32") - 0.5
    b = np.random.rand(8, 12).astype("float32")
    np.testing.assert_allclose(run(sch.mod, a, b).numpy(), np.maximum(a @ b, 0), rtol=1e-5,
                               atol=1e-5)
    with pytest.raises(ValueError, match="'main' is a graph function; schedules work on "
                                         "prim_funcs"):
        sch.work_on("main")


def test_graph_in_mlir_is_call_tir_on_tensors():
    text = matmul_relu_module(True).mlir()
    assert "func.func private @te_matmul(" in text
    assert ("tir.call_tir @te_matmul(%arg0, %arg1) : (tensor<16x8xf32>, tensor<8x12xf32>) "
            "-> tensor<16x12xf32>") in text


def test_emit_te_reuses_equal_prim_funcs_and_names_others_apart():
    x = relax.Var("x", relax.TensorStructInfo((4, 8), "float32"))
    bb = relax.BlockBuilder()
    with bb.function("main", [x]):
        with bb.dataflow():
            a = bb.emit_te(topi.nn.relu, x)
            b = bb.emit_te(topi.nn.relu, a)              # same shapes: reused
            c = bb.emit_te(topi.reshape, b, (8, 4))
            d = bb.emit_te(topi.nn.relu, c)              # other shape: relu1
            out = bb.emit_output(d)
        bb.emit_func_output(out)
    mod = bb.get()
    assert list(mod.functions) == ["relu", "reshape", "relu1", "main"]
    data = np.random.rand(4, 8).astype("float32") - 0.5
    np.testing.assert_allclose(run(mod, data).numpy(), np.maximum(data, 0).reshape(8, 4))


def test_constants_broadcast_and_roundtrip_with_metadata():
    w = np.random.rand(6, 5).astype("float32")
    bias = np.random.rand(6).astype("float32")
    x = relax.Var("x", relax.TensorStructInfo((3, 5), "float32"))
    bb = relax.BlockBuilder()
    with bb.function("main", [x]):
        with bb.dataflow():
            y = bb.emit_te(topi.nn.dense, x, relax.const(w))
            z = bb.emit_te(topi.add, y, relax.const(bias, relax.DynTensorType(1, "float32")))
            out = bb.emit_output(z)
        bb.emit_func_output(out)
    mod = bb.get()
    text = mod.script()
    assert 'R.call_tir(cls.dense, (x, metadata["relax.expr.Constant"][0]), ' in text
    assert "# Metadata omitted. Use show_meta=True" in text
    with pytest.raises(tvm.script.ScriptError, match="show_meta=True"):
        from_source(text)
    parsed = from_source(mod.script(show_meta=True))
    assert tvm.ir.structural_equal(parsed, mod)
    assert parsed.mlir() == mod.mlir()
    data = np.random.rand(3, 5).astype("float32")
    for m in (mod, parsed):
        np.testing.assert_allclose(run(m, data).numpy(), data @ w.T + bias, rtol=1e-5)


@I.ir_module
class Handwritten:
    @T.prim_func(private=True)
    def scale(A: T.Buffer((8,), "float32"), B: T.Buffer((8,), "float32"),
              C: T.Buffer((8,), "float32")):
        for i in range(8):
            with T.block("C"):
                vi = T.axis.spatial(8, i)
                C[vi] = A[vi] * B[vi]

    @T.prim_func(private=True)
    def split(A: T.Buffer((8,), "float32"), lo: T.Buffer((4,), "float32"),
              hi: T.Buffer((4,), "float32")):
        for i in range(4):
            with T.block("split"):
                vi = T.axis.spatial(4, i)
                lo[vi] = A[vi]
                hi[vi] = A[vi + 4]

    @R.function
    def main(x: R.Tensor((8,), dtype="float32")) -> R.Tuple(R.Tensor((4,), dtype="float32"),
                                                            R.Tensor((4,), dtype="float32")):
        cls = Handwritten
        with R.dataflow():
            lv = R.call_tir(cls.scale, (x, x), out_sinfo=R.Tensor((8,), dtype="float32"))
            lv1 = R.call_tir(cls.split, (lv,), out_sinfo=[R.Tensor((4,), dtype="float32"),
                                                          R.Tensor((4,), dtype="float32")])
            gv: R.Tuple(R.Tensor((4,), dtype="float32"),
                        R.Tensor((4,), dtype="float32")) = (lv1[1], lv1[0])
            R.output(gv)
        return gv


def test_handwritten_module_with_two_results():
    data = np.arange(8, dtype="float32")
    hi, lo = run(Handwritten, data)
    np.testing.assert_array_equal(hi.numpy(), (data * data)[4:])
    np.testing.assert_array_equal(lo.numpy(), (data * data)[:4])
    assert "out_sinfo=[R.Tensor((4,), dtype=\"float32\"), R.Tensor((4,), dtype=\"float32\")]" \
        in Handwritten.script()
    again = from_source(Handwritten.script())
    assert again.mlir() == Handwritten.mlir()
    # The built main takes its results as out-parameters too.
    lib = tvm.build(Handwritten)
    assert lib["main"].signature == ("main(x: float32[8], output: float32[4] (result), "
                                     "output1: float32[4] (result))")


def test_annotation_mismatch_is_an_error():
    with pytest.raises(tvm.script.ScriptError, match="annotated R.Tensor"):
        @R.function
        def main(x: R.Tensor((8,), dtype="float32")) -> R.Tensor((8,), dtype="float32"):
            with R.dataflow():
                gv: R.Tensor((4,), dtype="float32") = x
                R.output(gv)
            return gv


# ------------------------------------------------------------------ PyTorch
torch = pytest.importorskip("torch", reason="PyTorch (Debian's python3-torch) is not installed")
fx = pytest.importorskip("torch.fx")
nn = torch.nn
from seed_fx import MLP, from_fx, map_param  # noqa: E402


def map_matmul(bb, node_map, node):
    return bb.emit_te(te_matmul, node_map[node.args[0]], node_map[node.args[1]])


def map_relu(bb, node_map, node):
    return bb.emit_te(te_relu, node_map[node.args[0]])


def map_nn_linear(bb, node_map, node, nn_mod):
    x = node_map[node.args[0]]
    w = map_param(nn_mod.weight)
    if nn_mod.bias is not None:
        b = map_param(nn_mod.bias)
    y = bb.emit_te(topi.nn.dense, x, w)
    return bb.emit_te(topi.add, y, b)


def map_nn_relu(bb, node_map, node, nn_mod):
    return map_relu(bb, node_map, node)


class MyModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(128, 128))

    def forward(self, x):
        x = torch.matmul(x, self.weight)
        x = torch.relu(x)
        return x


def test_seed_from_fx_matmul_relu():
    torch.manual_seed(0)
    model = MyModel()
    mod = from_fx(fx.symbolic_trace(model), input_shapes=[(1, 128)],
                  call_function_map={torch.matmul: map_matmul, torch.relu: map_relu},
                  call_module_map={})
    text = mod.script()
    assert ('def te_matmul(x: T.Buffer((1, 128), "float32"), B: T.Buffer((128, 128), '
            '"float32"), matmul: T.Buffer((1, 128), "float32")):') in text
    assert ('lv = R.call_tir(cls.te_matmul, (x, metadata["relax.expr.Constant"][0]), '
            'out_sinfo=R.Tensor((1, 128), dtype="float32"))') in text
    x = np.random.rand(1, 128).astype("float32")
    expected = model(torch.from_numpy(x)).detach().numpy()
    np.testing.assert_allclose(run(mod, x).numpy(), expected, rtol=1e-4, atol=1e-4)


def topi_mlp():
    """The seed's MLP and its module through te / topi (call_tir)."""
    torch.manual_seed(0)
    mlp = MLP()
    mod = from_fx(fx.symbolic_trace(mlp), input_shapes=[(1, 784)], call_function_map={},
                  call_module_map={torch.nn.Linear: map_nn_linear, torch.nn.ReLU: map_nn_relu})
    return mlp, mod


def test_seed_from_fx_mlp_with_topi():
    mlp, mod = topi_mlp()
    assert list(mod.functions) == ["dense", "add", "te_relu", "dense1", "add1", "main"]
    text = mod.script()
    for line in ('lv = R.call_tir(cls.dense, (x, metadata["relax.expr.Constant"][0]), ',
                 'lv1 = R.call_tir(cls.add, (lv, metadata["relax.expr.Constant"][1]), ',
                 'lv2 = R.call_tir(cls.te_relu, (lv1,), ',
                 'lv3 = R.call_tir(cls.dense1, (lv2, metadata["relax.expr.Constant"][2]), ',
                 'lv4 = R.call_tir(cls.add1, (lv3, metadata["relax.expr.Constant"][3]), '):
        assert line in text
    x = np.random.rand(1, 784).astype("float32")
    expected = mlp(torch.from_numpy(x)).detach().numpy()
    np.testing.assert_allclose(run(mod, x).numpy(), expected, rtol=1e-4, atol=1e-4)


def test_schedule_the_heaviest_prim_func_of_a_model():
    mlp, mod = topi_mlp()
    sch = tvm.tir.Schedule(mod["dense"])
    i, j, k = sch.get_loops(sch.get_block("T_matmul_NT"))
    ko, ki = sch.split(k, factors=[None, 16])
    sch.reorder(i, ko, j, ki)
    mod["dense"] = sch.mod["main"].with_name("dense").as_private()
    x = np.random.rand(1, 784).astype("float32")
    expected = mlp(torch.from_numpy(x)).detach().numpy()
    np.testing.assert_allclose(run(mod, x).numpy(), expected, rtol=1e-4, atol=1e-4)


RESOURCE_GRAPH = """
func.func @main(%x: tensor<4xf32> {tir.name = "x"}) -> tensor<4xf32> {
  %w = arith.constant dense_resource<weights> : tensor<4xf32>
  %e = tensor.empty() : tensor<4xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>,
      affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x, %w : tensor<4xf32>,
      tensor<4xf32>) outs(%e : tensor<4xf32>) attrs = {tir.name = "multiply"} {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %m = arith.mulf %a, %b : f32
    linalg.yield %m : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}
{-#
  dialect_resources: {
    builtin: {
      weights: "0x040000000000803F000000400000404000008040"
    }
  }
#-}
"""


def test_resource_weights_from_mlir_build_print_and_parse_back():
    # A weight in a resource blob (as MLIR frontends write large ones).
    mod = tvm.IRModule.from_mlir(RESOURCE_GRAPH)
    x = np.array([1, 1, 2, 2], "float32")
    np.testing.assert_array_equal(run(mod, x).numpy(), [1, 2, 6, 8])
    main = mod["main"]
    again = tvm.IRModule({"main": main})  # the function copied: its weight goes with it
    assert "dense_resource<weights>" in again.mlir()
    np.testing.assert_array_equal(run(again, x).numpy(), [1, 2, 6, 8])
    text = mod.script(show_meta=True)
    assert 'R.multiply(x, metadata["relax.expr.Constant"][0])' in text
    assert '("float32", (4,), "0x0000803F000000400000404000008040")' in text
    np.testing.assert_array_equal(run(from_source(text), x).numpy(), [1, 2, 6, 8])


def test_a_value_returned_twice_and_a_parameter_returned():
    x = relax.Var("x", relax.TensorStructInfo((4,), "float32"))
    bb = relax.BlockBuilder()
    with bb.function("main", [x]):
        y = bb.emit(relax.op.nn.relu(x))
        bb.emit_func_output([y, y, x])
    a, b, c = run(bb.get(), np.arange(4, dtype="float32") - 2)
    np.testing.assert_array_equal(a.numpy(), [0, 0, 0, 1])
    np.testing.assert_array_equal(b.numpy(), [0, 0, 0, 1])
    np.testing.assert_array_equal(c.numpy(), [-2, -1, 0, 1])


def test_a_graph_step_is_located_at_its_binding():
    # The verifier's error on a call_tir (here its input is not what the
    # prim_func takes) names the Python line of the binding, not the
    # function's.
    import re
    with pytest.raises(ValueError, match=r"'tir.call_tir' op input 0 is a tensor<8xf32>") as info:
        @I.ir_module
        class Module:
            @T.prim_func(private=True)
            def relu(A: T.Buffer((4,), "float32"), B: T.Buffer((4,), "float32")):
                for i in range(4):
                    with T.block("B"):
                        vi = T.axis.spatial(4, i)
                        B[vi] = T.max(A[vi], T.float32(0))

            @R.function
            def main(x: R.Tensor((8,), dtype="float32")) -> R.Tensor((8,), dtype="float32"):
                cls = Module
                with R.dataflow():
                    lv = R.call_tir(cls.relu, (x,), out_sinfo=R.Tensor((8,), dtype="float32"))
                    R.output(lv)
                return lv
    where = re.match(rf"{re.escape(__file__)}:(\d+):(\d+): error", str(info.value))
    assert where, str(info.value)
    with open(__file__) as f:
        line = f.readlines()[int(where.group(1)) - 1]
    assert line.strip().startswith("lv = R.call_tir(cls.relu")


def test_a_tuple_of_one_stays_a_tuple(tmp_path):
    # Relax's R.Tuple of one tensor: printed as one, parsed back the same,
    # and the call's results given back as a tuple, after export and load
    # too; a function returning the tensor itself gives the tensor.
    bb = relax.BlockBuilder()
    x = relax.Var("x", relax.TensorStructInfo((2, 3), "float32"))
    with bb.function("pair", [x]):
        with bb.dataflow():
            out = bb.emit_output((bb.emit(relax.op.nn.relu(x)),))
        bb.emit_func_output(out)
    y = relax.Var("y", relax.TensorStructInfo((2, 3), "float32"))
    with bb.function("single", [y]):
        with bb.dataflow():
            out = bb.emit_output(bb.emit(relax.op.nn.relu(y)))
        bb.emit_func_output(out)
    mod = bb.get()
    text = mod.script()
    assert '-> R.Tuple(R.Tensor((2, 3), dtype="float32")):' in text
    assert "= (lv,)" in text
    assert tvm.ir.structural_equal(from_source(text), mod)
    data = np.array([[-1, 2, -3], [4, -5, 6]], "float32")
    built = tvm.compile(mod, "llvm")
    path = str(tmp_path / "pair.so")
    built.export_library(path)
    for lib in (built, tvm.runtime.load_module(path)):
        vm = relax.VirtualMachine(lib, tvm.cpu())
        results = vm["pair"](data)
        assert isinstance(results, tvm.ir.Array) and len(results) == 1  # TVM's type
        np.testing.assert_array_equal(results[0].numpy(), np.maximum(data, 0))
        np.testing.assert_array_equal(vm["single"](data).numpy(), np.maximum(data, 0))
        stats = lib["stats"]()  # TVM's executable statistics: the functions
        assert stats.startswith("tir library: 2 function(s)") and "pair(" in stats


def test_function_attributes_and_parameters():
    @I.ir_module
    class Module:
        @R.function
        def main(x: R.Tensor((1, 4), dtype="float32"),
                 w: R.Tensor((3, 4), dtype="float32")) -> R.Tensor((1, 3), dtype="float32"):
            R.func_attr({"num_input": 1, "note": "weights last", "bounds": {"n": 2.5}})
            with R.dataflow():
                gv = R.matmul(x, R.permute_dims(w, axes=None), out_dtype="void")
                R.output(gv)
            return gv

    text = Module.script()
    assert 'R.func_attr({"bounds": {"n": 2.5}, "note": "weights last", "num_input": 1})' in text
    tvm.ir.assert_structural_equal(Module, tvm.script.from_source(text))
    main = Module["main"]
    assert main.attrs == {"bounds": {"n": 2.5}, "note": "weights last", "num_input": 1}
    assert [p.name_hint for p in main.params] == ["x", "w"]
    assert [d.value for d in main.params[1].struct_info.shape.values] == [3, 4]
    assert main.params[1].struct_info.dtype == "float32"
