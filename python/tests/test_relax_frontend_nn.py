"""relax.frontend.nn: PyTorch-like modules exported to graph functions
(the parameters inputs after the arguments, named by their dotted paths),
compiled with tvm.compile and run by the VirtualMachine, against numpy;
relax.get_pipeline ("zero", "static_shape_tuning" with a few trials); and
the errors of a spec, a parameter's data or an operator used outside an
export."""
import math
import tempfile

import numpy as np
import pytest

import tensorir as tvm
from tensorir import relax
from tensorir.relax.frontend import nn

RNG = np.random.default_rng(5)


def _run(mod, method, *args):
    vm = relax.VirtualMachine(tvm.compile(mod, "llvm"), tvm.cpu())
    out = vm[method](*[tvm.runtime.tensor(a) for a in args])
    return out.numpy()


def _weights(params):
    return [RNG.standard_normal(p.shape).astype(p.dtype) * 0.1 for _, p in params]


class MLP(nn.Module):
    def __init__(self):
        self.fc1 = nn.Linear(64, 32)
        self.act = nn.ReLU()
        self.fc2 = nn.Linear(32, 8, bias=False)

    def forward(self, x):
        return self.fc2(self.act(self.fc1(x)))


def test_an_mlp_exports_compiles_and_runs():
    mod, params = MLP().export_tvm({"forward": {"x": nn.spec.Tensor((4, 64), "float32")}})
    assert [name for name, _ in params] == ["fc1.weight", "fc1.bias", "fc2.weight"]
    assert [p.shape for _, p in params] == [[32, 64], [32], [8, 32]]
    text = mod.script()
    assert "def forward(x: R.Tensor((4, 64)" in text and "R.matmul" in text
    x = RNG.standard_normal((4, 64)).astype("float32")
    w1, b1, w2 = _weights(params)
    want = np.maximum(x @ w1.T + b1, 0) @ w2.T
    np.testing.assert_allclose(_run(mod, "forward", x, w1, b1, w2), want, rtol=1e-4,
                               atol=1e-5)


class Block(nn.Module):
    """Conv2D, then per-pixel layer norm over channels, GELU and SiLU."""

    def __init__(self):
        self.conv = nn.Conv2D(3, 8, 3, padding=1)
        self.norm = nn.LayerNorm(8)
        self.gelu, self.silu = nn.GELU(), nn.SiLU()

    def forward(self, x):
        y = self.conv(x)                                  # 1, 8, 6, 6
        y = nn.op.permute_dims(y, [0, 2, 3, 1])           # 1, 6, 6, 8
        return self.silu(self.gelu(self.norm(y))) * 2.0


def test_conv_layer_norm_and_activations_compute_what_numpy_does():
    mod, params = Block().export_tvm({"forward": {"x": nn.spec.Tensor((1, 3, 6, 6),
                                                                      "float32")}})
    assert [n for n, _ in params] == ["conv.weight", "conv.bias", "norm.weight", "norm.bias"]
    x = RNG.standard_normal((1, 3, 6, 6)).astype("float32")
    w, b, gamma, beta = _weights(params)
    padded = np.pad(x, ((0, 0), (0, 0), (1, 1), (1, 1)))
    conv = np.zeros((1, 8, 6, 6), "float32")
    for i in range(6):
        for j in range(6):
            conv[0, :, i, j] = np.tensordot(w, padded[0, :, i:i + 3, j:j + 3], 3)
    y = (conv + b[None, :, None, None]).transpose(0, 2, 3, 1)
    mean, var = y.mean(-1, keepdims=True), y.var(-1, keepdims=True)
    y = (y - mean) / np.sqrt(var + 1e-5) * gamma + beta
    erf = np.vectorize(math.erf)
    y = 0.5 * y * (1 + erf(y / math.sqrt(2)))
    want = y / (1 + np.exp(-y)) * 2.0
    got = _run(mod, "forward", x, w, b, gamma, beta)
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-5)


class Embed(nn.Module):
    def __init__(self):
        self.layers = nn.ModuleList([nn.Embedding(10, 4)])

    def forward(self, ids):
        return self.layers[0](ids)


def test_embedding_and_module_lists():
    mod, params = Embed().export_tvm({"forward": {"ids": nn.spec.Tensor((2, 3), "int32")}})
    assert [n for n, _ in params] == ["layers.0.weight"]
    table = RNG.standard_normal((10, 4)).astype("float32")
    ids = np.array([[0, 9, 3], [3, 1, 2]], "int32")
    np.testing.assert_array_equal(_run(mod, "forward", ids, table), table[ids])


def test_parameters_take_data_of_their_shape():
    model = MLP()
    model.fc1.bias.data = np.zeros(32, "float32")
    assert model.fc1.bias.data.shape == (32,)
    with pytest.raises(ValueError, match=r"shape \[32\] and dtype float32 given data of "
                                         r"shape \[31\]"):
        model.fc1.bias.data = np.zeros(31, "float32")
    missing, _ = model.load_state_dict({"fc1.bias": np.ones(32, "float32")}, strict=False)
    assert missing == ["fc1.weight", "fc2.weight"]
    with pytest.raises(KeyError, match="missing"):
        model.load_state_dict({"fc1.bias": np.ones(32, "float32")})


def test_bad_specs_and_operators_outside_an_export_are_refused():
    with pytest.raises(ValueError, match="the shape variable 'n m' is neither an identifier nor an affine form"):
        nn.spec.Tensor(("n m", 64), "float32")
    with pytest.raises(ValueError, match="dimension -1 is not a size"):
        nn.spec.Tensor((-1, 64), "float32")
    with pytest.raises(ValueError, match="MLP has no method 'backward'"):
        MLP().export_tvm({"backward": {"x": nn.spec.Tensor((1, 64), "float32")}})
    with pytest.raises(NotImplementedError, match="param_mode 'none'"):
        MLP().export_tvm({"forward": {"x": nn.spec.Tensor((1, 64), "float32"),
                                      "$": {"param_mode": "none"}}})
    with pytest.raises(TypeError, match="nn.spec.Tensor, int \\(or a tuple / list of them\\)"):
        MLP().export_tvm({"forward": {"x": (nn.spec.Tensor((1, 64), "float32"), 3)}})
    with pytest.raises(ValueError, match="relax.op.matmul"):
        MLP().export_tvm({"forward": {"x": nn.spec.Tensor((1, 63), "float32")}})
    with pytest.raises(RuntimeError, match="only while its module is exported"):
        nn.op.relu(MLP().fc1.weight)
    with pytest.raises(TypeError, match="nn.op.take: indices are integers"):
        Embed().export_tvm({"forward": {"ids": nn.spec.Tensor((2,), "float32")}})


def test_pipelines():
    mod, params = MLP().export_tvm({"forward": {"x": nn.spec.Tensor((4, 64), "float32")}})
    fused = relax.get_pipeline("zero")(mod)
    names = fused.function_names()
    assert "fused_matmul_add_relu" in names and "forward" in names
    with pytest.raises(ValueError, match="no pipeline named 'fast'; there are default, "
                                         "static_shape_tuning, zero"):
        relax.get_pipeline("fast")
    with pytest.raises(ValueError, match="a pipeline named 'zero' exists"):
        relax.register_pipeline("zero")(lambda: None)
    x = RNG.standard_normal((4, 64)).astype("float32")
    weights = _weights(params)
    want = _run(mod, "forward", x, *weights)
    with tempfile.TemporaryDirectory() as work:
        with pytest.raises(ValueError, match="no target"):
            relax.get_pipeline("static_shape_tuning", total_trials=4, work_dir=work)(mod)
        tuned = relax.get_pipeline("static_shape_tuning", target="llvm -num-cores 1",
                                   total_trials=12, work_dir=work)(mod)
        # Applying the records again gives a new module; the one given is
        # as it was.
        before = fused.script()
        applied = relax.transform.MetaScheduleApplyDatabase(
            work_dir=work, target="llvm -num-cores 1")(fused.with_attr("kept", 1))
        assert fused.script() == before and applied.script() == tuned.script()
        assert applied.attrs == {"kept": 1}  # the module's attributes stay
    # The tuned schedules replaced the prim_funcs they were found for.
    assert "T.vectorized" in tuned.script() or "T.parallel" in tuned.script()
    np.testing.assert_allclose(_run(tuned, "forward", x, *weights), want, rtol=1e-4,
                               atol=1e-5)
    # MetaScheduleTuneTIR: every prim_func a task of its own, then applied.
    with tempfile.TemporaryDirectory() as work, tvm.target.Target("llvm -num-cores 1"):
        tuned = tvm.transform.Sequential([
            relax.get_pipeline("zero"),
            relax.transform.MetaScheduleTuneTIR(work_dir=work, max_trials_global=8),
            relax.transform.MetaScheduleApplyDatabase(work_dir=work)])(mod)
    assert tuned.script() != fused.script()
    np.testing.assert_allclose(_run(tuned, "forward", x, *weights), want, rtol=1e-4,
                               atol=1e-5)


def test_tir_build_builds_tensor_ir_and_refuses_graph_functions():
    from tensorir import te
    a = te.placeholder((8,), name="A")
    b = te.compute((8,), lambda i: a[i] + 1.0, name="B")
    lib = tvm.tir.build(tvm.IRModule({"main": te.create_prim_func([a, b])}), target="llvm")
    x, y = np.arange(8, dtype="float32"), np.zeros(8, "float32")
    lib["main"](x, y)
    np.testing.assert_array_equal(y, x + 1)
    mod, _ = MLP().export_tvm({"forward": {"x": nn.spec.Tensor((1, 64), "float32")}})
    with pytest.raises(TypeError, match="forward are graph functions"):
        tvm.tir.build(mod)


class TwoResults(nn.Module):
    def __init__(self):
        self.fc = nn.Linear(4, 3)

    def forward(self, x):
        y = self.fc(x)
        return y, nn.op.add(y, y)


def test_debug_export_threads_an_effect_handle_through_nested_results():
    mod, _ = TwoResults().export_tvm({"forward": {"x": nn.spec.Tensor((2, 4), "float32")}},
                                     debug=True)
    text = mod.script()
    assert "x: R.Tensor((2, 4), dtype=\"float32\"), _io: R.Object, fc_weight" in text
    assert 'R.func_attr({"num_input": 2})' in text
    assert ("-> R.Tuple(R.Tuple(R.Tensor((2, 3), dtype=\"float32\"), R.Tensor((2, 3), "
            "dtype=\"float32\")), R.Tuple(R.Object))") in text
    # The printed module reads back as itself.
    tvm.ir.assert_structural_equal(mod, tvm.script.from_source(mod.script(show_meta=True)))
    with pytest.raises(Exception, match="takes or returns an R.Object"):
        tvm.compile(mod, "llvm")


def test_r_object_parameters_and_tuples_of_tuples_parse():
    source = '''
@R.function
def f(x: R.Tensor((3,), dtype="float32"), io: R.Object) -> R.Tuple(R.Tensor((3,), dtype="float32"), R.Tuple(R.Object, R.Tensor((3,), dtype="float32"))):
    with R.dataflow():
        y: R.Tensor((3,), dtype="float32") = R.add(x, x)
        gv: R.Tuple(R.Tensor((3,), dtype="float32"), R.Tuple(R.Object, R.Tensor((3,), dtype="float32"))) = y, (io, x)
        R.output(gv)
    return gv
'''
    func = tvm.script.from_source(source)
    text = func.script()
    assert "io: R.Object" in text and ", (io, x))" in text
    assert text == tvm.script.from_source(text).script()


class Sequence(nn.Module):
    """Conv1D, GroupNorm, a 2-D embedding lookup and Identity."""

    def __init__(self):
        self.conv = nn.Conv1D(4, 6, 3, padding=1)
        self.norm = nn.GroupNorm(3, 6)
        self.embed = nn.Embedding(10, 5)
        self.same = nn.Identity()

    def forward(self, x, ids):
        y = self.norm(self.conv(x))
        return self.same(y), self.embed(ids), nn.op.greater(y, nn.op.sum(y) / 100.0)


def test_conv1d_group_norm_and_embedding_compute_what_numpy_does():
    mod, params = Sequence().export_tvm({"forward": {
        "x": nn.spec.Tensor((2, 4, 7), "float32"), "ids": nn.spec.Tensor((2, 3), "int32")}})
    x = RNG.standard_normal((2, 4, 7)).astype("float32")
    ids = RNG.integers(0, 10, (2, 3)).astype("int32")
    weights = _weights(params)
    vm = relax.VirtualMachine(tvm.compile(mod, "llvm"), tvm.cpu())
    y, rows, above = (o.numpy() for o in vm["forward"](x, ids, *weights))
    w, b, gamma, beta, table = weights
    padded = np.pad(x, ((0, 0), (0, 0), (1, 1)))
    conv = np.stack([np.einsum("nck,ock->no", padded[:, :, t:t + 3], w) for t in range(7)],
                    axis=-1) + b[None, :, None]
    groups = conv.reshape(2, 3, 2, 7)
    normed = (groups - groups.mean(axis=(2, 3), keepdims=True)) / np.sqrt(
        groups.var(axis=(2, 3), keepdims=True) + 1e-5)
    want = normed.reshape(2, 6, 7) * gamma[None, :, None] + beta[None, :, None]
    np.testing.assert_allclose(y, want, rtol=1e-4, atol=1e-5)
    np.testing.assert_array_equal(rows, table[ids])
    np.testing.assert_array_equal(above, y > y.sum() / 100.0)


class Layouts(nn.Module):
    def __init__(self):
        self.norm = nn.RMSNorm(4, [-1], bias=False)

    def forward(self, x):
        wide = nn.op.broadcast_to(x, [3, 2, 4])
        return (nn.op.concat([wide, wide], dim=0), nn.op.squeeze(nn.op.unsqueeze(x, 0), 0),
                x.repeat(2, axis=1), nn.op.triu(x, 1), self.norm(x), nn.op.relu6(x * 10.0))


def test_layout_operators_and_rms_norm_compute_what_numpy_does():
    mod, params = Layouts().export_tvm({"forward": {"x": nn.spec.Tensor((2, 4), "float32")}})
    x = RNG.standard_normal((2, 4)).astype("float32")
    (weight,) = _weights(params)
    vm = relax.VirtualMachine(tvm.compile(mod, "llvm"), tvm.cpu())
    got = [o.numpy() for o in vm["forward"](x, weight)]
    wide = np.broadcast_to(x, (3, 2, 4))
    want = [np.concatenate([wide, wide]), x, np.repeat(x, 2, 1), np.triu(x, 1),
            x / np.sqrt((x * x).mean(-1, keepdims=True) + 1e-5) * weight,
            np.clip(x * 10, 0, 6)]
    for g, w in zip(got, want):
        np.testing.assert_allclose(g, w, rtol=1e-5, atol=1e-6)


class TensorMethods(nn.Module):
    def forward(self, x):
        two = nn.Tensor.from_scalar(2, "float32")
        table = nn.Tensor.from_const(np.arange(4.0).reshape(1, 4))
        return (x.maximum(0.5), x.minimum(table), (x * two).astype("int32"), 3.0 + x)


def test_tensor_methods_and_constants():
    assert nn.Tensor.from_const(np.zeros((2, 3))).dtype == "float32"  # float64 -> float32
    assert repr(nn.Tensor.from_scalar(1.5, "float16")) == 'Tensor([], "float16")'
    mod, _ = TensorMethods().export_tvm({"forward": {"x": nn.spec.Tensor((2, 4), "float32")}})
    x = RNG.standard_normal((2, 4)).astype("float32") * 3
    vm = relax.VirtualMachine(tvm.compile(mod, "llvm"), tvm.cpu())
    got = [o.numpy() for o in vm["forward"](x)]
    want = [np.maximum(x, 0.5), np.minimum(x, np.arange(4.0)[None]), (x * 2).astype("int32"),
            x + 3]
    for g, w in zip(got, want):
        np.testing.assert_allclose(g, w, rtol=1e-6)


class Volumes(nn.Module):
    def __init__(self):
        self.conv = nn.Conv3D(2, 3, 2, padding=1)
        self.up = nn.ConvTranspose1D(2, 4, 3, stride=2, padding=1, output_padding=1)

    def forward(self, v, s):
        return self.conv(v), self.up(s)


def test_conv3d_and_transposed_conv1d_compute_what_pytorch_does():
    torch = pytest.importorskip("torch")
    mod, params = Volumes().export_tvm({"forward": {
        "v": nn.spec.Tensor((1, 2, 3, 4, 3), "float32"),
        "s": nn.spec.Tensor((1, 2, 5), "float32")}})
    v = RNG.standard_normal((1, 2, 3, 4, 3)).astype("float32")
    s = RNG.standard_normal((1, 2, 5)).astype("float32")
    w3, b3, wt, bt = _weights(params)
    vm = relax.VirtualMachine(tvm.compile(mod, "llvm"), tvm.cpu())
    got = [o.numpy() for o in vm["forward"](v, s, w3, b3, wt, bt)]
    t = torch.from_numpy
    want = [torch.nn.functional.conv3d(t(v), t(w3), t(b3), padding=1).numpy(),
            torch.nn.functional.conv_transpose1d(t(s), t(wt), t(bt), stride=2, padding=1,
                                                 output_padding=1).numpy()]
    for g, w in zip(got, want):
        np.testing.assert_allclose(g, w, rtol=1e-4, atol=1e-5)


class Residual(nn.Module):
    def __init__(self, dtype):
        self.weight = nn.Parameter((2, 2), dtype)


def test_mutator_visits_by_dotted_name_and_replaces_nodes():
    class Holder(nn.Effect):
        pass

    class Model(nn.Module):
        def __init__(self):
            self.blocks = nn.ModuleDict({"a": nn.ModuleList([Residual("float16")]),
                                         "b": Residual("float32")})
            self.state = Holder()
            self.scale = nn.Parameter((2,), "float16")

    seen = []

    class ToFloat32(nn.Mutator):
        def visit_param(self, name, node):
            seen.append(name)
            return nn.Parameter(node.shape, "float32") if node.dtype == "float16" else node

        def visit_effect(self, name, node):
            seen.append(name)
            return "replaced"

    model = ToFloat32().visit("model", Model())
    assert seen == ["model.blocks.a.0.weight", "model.blocks.b.weight", "model.state",
                    "model.scale"]
    assert [(n, p.dtype) for n, p in model.named_parameters()] == [
        ("blocks.a.0.weight", "float32"), ("blocks.b.weight", "float32"),
        ("scale", "float32")]
    assert model.state == "replaced" and list(model.blocks) == ["a", "b"]


class Diffusion(nn.Module):
    def __init__(self):
        self.steps = nn.Timesteps(7, flip_sin_to_cos=True)
        self.embed = nn.TimestepEmbedding(7, 6, cond_proj_dim=3)

    def forward(self, t, cond):
        return self.embed(self.steps(t), cond)


def test_timestep_embeddings_compute_what_numpy_does():
    mod, params = Diffusion().export_tvm({"forward": {
        "t": nn.spec.Tensor((4,), "float32"), "cond": nn.spec.Tensor((4, 3), "float32")}})
    assert [n for n, _ in params] == ["embed.linear_1.weight", "embed.linear_1.bias",
                                      "embed.cond_proj.weight", "embed.linear_2.weight",
                                      "embed.linear_2.bias"]
    t = np.array([0, 1, 10, 500], "float32")
    cond = RNG.standard_normal((4, 3)).astype("float32")
    weights = _weights(params)
    w1, b1, wc, w2, b2 = weights
    half = 3
    freqs = np.exp(-math.log(10000) * np.arange(half) / (half - 1))
    angles = t[:, None] * freqs[None]
    emb = np.concatenate([np.cos(angles), np.sin(angles), np.zeros((4, 1))], axis=-1)
    h = (emb + cond @ wc.T) @ w1.T + b1
    want = (h / (1 + np.exp(-h))) @ w2.T + b2
    vm = relax.VirtualMachine(tvm.compile(mod, "llvm"), tvm.cpu())
    got = vm["forward"](t, cond, *weights).numpy()
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-5)


class Pieces(nn.Module):
    def forward(self, x, q):
        first, second = nn.op.chunk(x, 2, dim=1)
        padded = nn.op.pad(first, [0, 0, 0, 0, 1, 0, 0, 2], value=1.5)
        big = nn.op.interpolate(x, scale_factor=2)
        attn = nn.op.scaled_dot_product_attention(q, q, q, is_causal=True)
        return second, padded, big, attn, nn.op.zeros([2], "int32") + nn.op.arange(0, 2, 1,
                                                                                "int32")


def test_chunk_pad_interpolate_and_attention_compute_what_numpy_does():
    mod, _ = Pieces().export_tvm({"forward": {"x": nn.spec.Tensor((1, 4, 3, 3), "float32"),
                                              "q": nn.spec.Tensor((1, 3, 2, 4), "float32")}})
    x = RNG.standard_normal((1, 4, 3, 3)).astype("float32")
    q = RNG.standard_normal((1, 3, 2, 4)).astype("float32")
    vm = relax.VirtualMachine(tvm.compile(mod, "llvm"), tvm.cpu())
    second, padded, big, attn, count = (o.numpy() for o in vm["forward"](x, q))
    np.testing.assert_array_equal(second, x[:, 2:])
    np.testing.assert_array_equal(padded, np.pad(x[:, :2], ((0, 0), (0, 0), (1, 0), (0, 2)),
                                                 constant_values=1.5))
    # Nearest neighbour as PyTorch picks it: the source pixel below.
    np.testing.assert_array_equal(big, x.repeat(2, axis=2).repeat(2, axis=3))
    heads = q.transpose(0, 2, 1, 3)                       # 1, 2, 3, 4
    scores = heads @ heads.transpose(0, 1, 3, 2) / 2.0
    scores = np.where(np.tril(np.ones((3, 3), bool)), scores, -np.inf)
    probs = np.exp(scores - scores.max(-1, keepdims=True))
    probs /= probs.sum(-1, keepdims=True)
    np.testing.assert_allclose(attn, (probs @ heads).transpose(0, 2, 1, 3), rtol=1e-5,
                               atol=1e-6)
    np.testing.assert_array_equal(count, [0, 1])


class Pair(nn.Module):
    def __init__(self):
        self.fc = nn.Linear(3, 2, bias=False)

    def forward(self, xs):
        a, (b, c) = xs
        return self.fc(a) + b, c


def test_tuple_arguments_and_packed_parameters():
    spec = {"forward": {"xs": (nn.spec.Tensor((2, 3), "float32"),
                               [nn.spec.Tensor((2, 2), "float32"),
                                nn.spec.Tensor((1,), "int32")]),
                        "$": {"param_mode": "packed"}}}
    mod, params = Pair().export_tvm(spec)
    text = mod.script()
    assert ('def forward(xs: R.Tuple(R.Tensor((2, 3), dtype="float32"), R.Tuple('
            'R.Tensor((2, 2), dtype="float32"), R.Tensor((1,), dtype="int32"))), '
            'packed_params: R.Tuple(R.Tensor((2, 3), dtype="float32")))') in text
    assert "xs[1][0]" in text and "packed_params[0]" in text
    # The printed module reads back as itself; its tuples' names are free.
    tvm.ir.assert_structural_equal(mod, tvm.script.from_source(text))
    renamed = tvm.script.from_source(text.replace("xs", "inputs"))
    tvm.ir.assert_structural_equal(mod, renamed)
    a = RNG.standard_normal((2, 3)).astype("float32")
    b = RNG.standard_normal((2, 2)).astype("float32")
    c = np.array([7], "int32")
    (w,) = _weights(params)
    vm = relax.VirtualMachine(tvm.compile(mod, "llvm"), tvm.cpu())
    y, same = vm["forward"]((a, [b, c]), (w,))
    np.testing.assert_allclose(y.numpy(), a @ w.T + b, rtol=1e-5, atol=1e-6)
    np.testing.assert_array_equal(same.numpy(), c)


def test_jit_takes_and_gives_torch_tensors():
    torch = pytest.importorskip("torch")
    model = Pair()
    weight = RNG.standard_normal((2, 3)).astype("float32")
    model.fc.weight.data = weight
    jitted = model.jit({"forward": {"xs": (nn.spec.Tensor((2, 3), "float32"),
                                           (nn.spec.Tensor((2, 2), "float32"),
                                            nn.spec.Tensor((1,), "int32")))}})
    a, b = torch.randn(2, 3), torch.randn(2, 2)
    y, c = jitted["forward"]((a, (b, torch.tensor([4], dtype=torch.int32))))
    assert isinstance(y, torch.Tensor) and c.tolist() == [4]
    np.testing.assert_allclose(y.numpy(), a.numpy() @ weight.T + b.numpy(), rtol=1e-5,
                               atol=1e-6)
    with pytest.raises(ValueError, match="parameters without data: fc.weight"):
        Pair().jit({"forward": {"xs": (nn.spec.Tensor((2, 3), "float32"),
                                       (nn.spec.Tensor((2, 2), "float32"),
                                        nn.spec.Tensor((1,), "int32")))}})
    with pytest.raises(TypeError, match="forward takes 1 arguments"):
        jitted["forward"](a, b)


class Doubler(nn.Module):
    def forward(self, x, rows):
        return nn.op.add(x, x)


def test_int_arguments_are_shape_variables():
    torch = pytest.importorskip("torch")
    spec = {"forward": {"x": nn.spec.Tensor(("rows", 5), "float32"), "rows": int}}
    mod, _ = Doubler().export_tvm(spec)
    assert 'rows: R.Prim(value="rows")' in mod.script()
    jitted = Doubler().jit(spec)
    x = torch.randn(3, 5)
    assert torch.allclose(jitted["forward"](x, 3), x + x)
    with pytest.raises(ValueError, match="it is 'rows', which is 4"):
        jitted["forward"](x, 4)
    with pytest.raises(TypeError, match="specified by nn.spec.Tensor, int"):
        Doubler().export_tvm({"forward": {"x": nn.spec.Tensor((3, 5), "float32"),
                                          "rows": float}})


def test_debug_exports_initialize_their_effects():
    mod, _ = TwoResults().export_tvm({"forward": {"x": nn.spec.Tensor((2, 4), "float32")}},
                                     debug=True)
    text = mod["_initialize_effect"].script()
    assert "def _initialize_effect() -> R.Tuple(R.Object):" in text
    assert "R.Object = R.null_value()" in text
    tvm.ir.assert_structural_equal(mod, tvm.script.from_source(mod.script(show_meta=True)))


def test_parameters_sized_by_shape_variables():
    mod, params = nn.Linear(4, "n").export_tvm({"forward": {"x": nn.spec.Tensor((1, 4),
                                                                               "float32")}})
    assert [str(d) for d in params[0][1].shape] == ["n", "4"]
    text = mod.script()
    assert 'weight: R.Tensor(("n", 4), dtype="float32")' in text
    vm = relax.VirtualMachine(tvm.compile(mod, "llvm"), tvm.cpu())
    x = RNG.standard_normal((1, 4)).astype("float32")
    w = RNG.standard_normal((5, 4)).astype("float32")
    b = RNG.standard_normal((5,)).astype("float32")
    np.testing.assert_allclose(vm["forward"](x, w, b).numpy(), x @ w.T + b, rtol=1e-5)


def test_pipeline_stages_per_target():
    from tensorir.relax import pipeline
    mod, params = MLP().export_tvm({"forward": {"x": nn.spec.Tensor((4, 64), "float32")}})
    assert pipeline.library_dispatch_passes(tvm.target.Target("llvm")) == []
    assert len(pipeline.legalize_passes(tvm.target.Target("cuda"))) == 6  # + dlight
    lowered = pipeline.get_default_pipeline(tvm.target.Target("llvm"))(mod)
    assert "fused_matmul_add_relu" in lowered.function_names()
    x = RNG.standard_normal((4, 64)).astype("float32")
    weights = _weights(params)
    np.testing.assert_allclose(_run(lowered, "forward", x, *weights),
                               _run(mod, "forward", x, *weights), rtol=1e-5, atol=1e-6)
    for stage in (pipeline.library_dispatch_passes, pipeline.finalize_passes,
                  pipeline.get_default_pipeline):
        with pytest.raises(ValueError, match="Target hexagon is not yet supported"):
            stage(tvm.target.Target("hexagon"))


class Printing(nn.Module):
    def forward(self, x):
        nn.op.print_(x)
        return x * 2


def test_print_prints_the_tensor_when_the_function_runs(capfd):
    mod, _ = Printing().export_tvm({"forward": {"x": nn.spec.Tensor((2,), "float32")}})
    assert 'R.call_pure_packed("tensorir.nn.print", x, sinfo_args=R.Object)' in mod.script()
    vm = relax.VirtualMachine(tvm.compile(mod, "llvm"), tvm.cpu())
    out = vm["forward"](np.array([1.5, -2.0], "float32"))
    np.testing.assert_allclose(out.numpy(), [3.0, -4.0])
    assert "[ 1.5 -2. ]" in capfd.readouterr().out


def test_a_function_body_lists_its_bindings():
    mod, _ = Printing().export_tvm({"forward": {"x": nn.spec.Tensor((2,), "float32")}})
    body = mod["forward"].body
    bindings = [b for block in body.blocks for b in block.bindings]
    assert [b.var.name_hint for b in bindings] == ["lv", "lv1", "gv"]
    assert bindings[0].value.op == "relax.call_pure_packed"
    assert bindings[1].value.op == "relax.multiply"
    assert body.body is not None
