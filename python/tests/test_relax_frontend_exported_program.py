"""relax.frontend.torch.from_exported_program: models exported with
torch.export (a ResNet-style block: convolutions, batch norm, pooling, a
residual add, linear, layer norm, GELU, softmax; a transformer encoder
layer over an embedding) imported, compiled and run, against PyTorch; a
dynamic batch (torch.export's dynamic_shapes) as a shape variable;
weights as constants or as inputs (detach_params); what is refused: an
operator without a conversion, an input dimension that is an expression
of torch's symbols, a batch norm in
training mode, a wrong input shape at run time. Needs torch >= 2 (the
project's virtual environment has it)."""
import numpy as np
import pytest

torch = pytest.importorskip("torch")
if not hasattr(torch, "export"):
    pytest.skip(f"torch.export needs torch >= 2 (this is {torch.__version__})",
                allow_module_level=True)

import tensorir as tvm  # noqa: E402
from tensorir import relax  # noqa: E402
from tensorir.relax.frontend import detach_params  # noqa: E402
from tensorir.relax.frontend.torch import from_exported_program  # noqa: E402


class ResBlock(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = torch.nn.Conv2d(3, 8, 3, padding=1, bias=False)
        self.bn = torch.nn.BatchNorm2d(8)
        self.pool = torch.nn.MaxPool2d(3, 2, 1)
        self.conv2 = torch.nn.Conv2d(8, 8, 3, padding=1)
        self.fc = torch.nn.Linear(8, 10)
        self.ln = torch.nn.LayerNorm(10)

    def forward(self, x):
        y = self.pool(torch.relu(self.bn(self.conv(x))))
        y = torch.nn.functional.relu(self.conv2(y) + y)
        y = torch.flatten(torch.nn.functional.adaptive_avg_pool2d(y, (1, 1)), 1)
        return torch.nn.functional.gelu(self.ln(self.fc(y))).softmax(-1)


def _resblock():
    torch.manual_seed(0)
    model = ResBlock().eval()
    with torch.no_grad():
        model.bn.running_mean.uniform_(-0.5, 0.5)
        model.bn.running_var.uniform_(0.5, 1.5)
    return model


def _run(mod, *args):
    vm = relax.VirtualMachine(tvm.compile(mod, "llvm"), tvm.cpu())
    out = vm["main"](*[tvm.runtime.tensor(a) for a in args])
    return out[0] if isinstance(out, tuple) else out


def test_a_resnet_block_computes_what_pytorch_does():
    model = _resblock()
    x = torch.randn(2, 3, 16, 16)
    program = torch.export.export(model, (x,))
    want = model(x).detach().numpy()
    mod = from_exported_program(program, unwrap_unit_return_tuple=True)
    text = mod.script()
    assert "R.nn.conv2d" in text and "R.nn.batch_norm" in text and "R.nn.max_pool2d" in text
    np.testing.assert_allclose(_run(mod, x.numpy()).numpy(), want, rtol=1e-4, atol=1e-5)
    # The weights as inputs after the user's, detached with their data.
    mod, params = detach_params(from_exported_program(program, keep_params_as_input=True))
    # 9 parameters and 3 buffers (running mean, variance, num_batches_tracked).
    assert "params" not in mod.attrs and len(params["main"]) == 12
    got = _run(mod, x.numpy(), *params["main"])
    np.testing.assert_allclose(got.numpy(), want, rtol=1e-4, atol=1e-5)


class Encoder(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = torch.nn.Embedding(100, 64)
        self.layer = torch.nn.TransformerEncoderLayer(64, 4, 128, batch_first=True)

    def forward(self, ids):
        return self.layer(self.emb(ids))


def test_a_transformer_encoder_layer_computes_what_pytorch_does():
    torch.manual_seed(1)
    model = Encoder().eval()
    ids = torch.randint(0, 100, (2, 16))
    mod = from_exported_program(torch.export.export(model, (ids,)),
                                unwrap_unit_return_tuple=True)
    np.testing.assert_allclose(_run(mod, ids.numpy()).numpy(), model(ids).detach().numpy(),
                               rtol=1e-4, atol=1e-5)


def test_what_cannot_be_imported_is_named():
    class LogCumSumExp(torch.nn.Module):
        def forward(self, x):
            return torch.logcumsumexp(x, 0)

    x = torch.randn(4, 4)
    with pytest.raises(NotImplementedError, match=r"operator logcumsumexp.default \(node "
                                                  r"'logcumsumexp'\) is not supported"):
        from_exported_program(torch.export.export(LogCumSumExp(), (x,)))

    class Double(torch.nn.Module):
        def forward(self, x):
            return x * 2.0

    batch = torch.export.Dim("batch", min=2, max=32)
    derived = torch.export.export(Double(), (x,), dynamic_shapes={"x": {0: 2 * batch}})
    with pytest.raises(NotImplementedError, match="input 'x' has the dimension .*an "
                                                  "expression of torch's symbols"):
        from_exported_program(derived)
    training = torch.export.export(_resblock().train(), (torch.randn(2, 3, 16, 16),))
    with pytest.raises(NotImplementedError, match="batch norm in training mode"):
        from_exported_program(training)
    with pytest.raises(TypeError, match="takes a torch.export.ExportedProgram"):
        from_exported_program(Double())


def test_a_wrong_input_shape_at_run_time_names_the_argument():
    model = _resblock()
    mod = from_exported_program(torch.export.export(model, (torch.randn(2, 3, 16, 16),)))
    vm = relax.VirtualMachine(tvm.compile(mod, "llvm"), tvm.cpu())
    with pytest.raises(ValueError, match=r"argument 0 \('x'\) of 'main'"):
        vm["main"](tvm.runtime.tensor(np.zeros((1, 3, 16, 16), "float32")))


class ManyOperators(torch.nn.Module):
    """The element-wise, reduction, layout, gather and network operators
    the importer maps, in one program."""

    def __init__(self):
        super().__init__()
        self.dw = torch.nn.Conv2d(4, 4, 3, padding=1, groups=4)
        self.grouped = torch.nn.Conv2d(4, 6, 3, stride=2, groups=2)
        self.conv1d = torch.nn.Conv1d(6, 4, 3, padding=2, dilation=2)
        self.gn = torch.nn.GroupNorm(2, 4)
        self.emb = torch.nn.Embedding(10, 5)

    def forward(self, x, ids):
        y = torch.nn.functional.leaky_relu(self.gn(self.dw(x)), 0.1)
        y = self.conv1d(self.grouped(y).flatten(2))                     # (1, 4, 8)
        z = torch.cat([y.sigmoid(), torch.sin(y)], dim=1)                # (1, 8, 8)
        parts = torch.split(z, [3, 5], dim=1)
        w = parts[1][:, :3, 1:7:2] * torch.arange(3) + parts[0].mean(-1, keepdim=True)
        w = torch.where(w > 0, w, torch.zeros_like(w)).clamp(max=0.8)
        s = torch.nn.functional.softplus(z, 2.0).sum(dim=(0, 2)) + z.amax(dim=(0, 2))
        e = self.emb(ids).flip(1).tile((1, 2))                          # (3, 10)
        return (w.squeeze(0).unsqueeze(-1), s.var(0, keepdim=True),
                torch.nn.functional.log_softmax(e, -1), e.index_select(0, ids[:2] % 3),
                torch.stack([s, s.floor_divide(0.3), torch.remainder(s, 0.7)], 1))


def test_many_operators_compute_what_pytorch_does():
    torch.manual_seed(2)
    model = ManyOperators().eval()
    args = (torch.randn(1, 4, 9, 9), torch.tensor([3, 0, 9]))
    program = torch.export.export(model, args)
    mod = from_exported_program(program)
    text = mod.script()
    for op in ["R.nn.conv2d", "groups=4", "R.nn.leakyrelu", "R.concat", "R.strided_slice",
               "R.take", "R.tile", "R.sum", "R.max", "R.floor_divide", "R.floor_mod"]:
        assert op in text, op
    tvm.ir.assert_structural_equal(mod, tvm.script.from_source(mod.script(show_meta=True)))
    vm = relax.VirtualMachine(tvm.compile(mod, "llvm"), tvm.cpu())
    got = vm["main"](*[a.numpy() for a in args])
    want = model(*args)
    for g, w in zip(got, want):
        np.testing.assert_allclose(g.numpy(), w.detach().numpy(), rtol=1e-4, atol=1e-5)


def test_attention_with_a_mask_a_scale_and_causal_masking():
    class Attention(torch.nn.Module):
        def forward(self, q, k, v, mask):
            sdpa = torch.nn.functional.scaled_dot_product_attention
            return sdpa(q, k, v), sdpa(q, k, v, mask, scale=0.3), sdpa(q, k, v, is_causal=True)

    torch.manual_seed(3)
    args = (torch.randn(2, 3, 5, 4), torch.randn(2, 3, 5, 4), torch.randn(2, 3, 5, 6),
            torch.randn(2, 3, 5, 5))
    mod = from_exported_program(torch.export.export(Attention(), args))
    # Kept whole (legalized into matmuls and a softmax when built).
    text = mod.script()
    assert text.count("R.nn.attention(") == 2 and text.count("R.nn.attention_bias(") == 1
    tvm.ir.assert_structural_equal(mod, tvm.script.from_source(text))
    vm = relax.VirtualMachine(tvm.compile(mod, "llvm"), tvm.cpu())
    for got, want in zip(vm["main"](*[a.numpy() for a in args]), Attention()(*args)):
        np.testing.assert_allclose(got.numpy(), want.numpy(), rtol=1e-5, atol=1e-6)


def test_average_pooling_counts_as_pytorch_does():
    pool = torch.nn.functional.avg_pool2d

    class Pools(torch.nn.Module):
        def forward(self, x):
            return (pool(x, 3), pool(x, [4, 4], 2, 2, ceil_mode=True),
                    pool(x, [4, 3], [2, 3], [2, 1], ceil_mode=True, count_include_pad=False),
                    pool(x, 2, 1, 1, count_include_pad=False))

    x = torch.randn(2, 3, 11, 10)
    mod = from_exported_program(torch.export.export(Pools(), (x,)))
    assert mod.script().count("R.nn.avg_pool2d") == 4
    tvm.ir.assert_structural_equal(mod, tvm.script.from_source(mod.script(show_meta=True)))
    vm = relax.VirtualMachine(tvm.compile(mod, "llvm"), tvm.cpu())
    for got, want in zip(vm["main"](x.numpy()), Pools()(x)):
        np.testing.assert_allclose(got.numpy(), want.numpy(), rtol=1e-5, atol=1e-6)


def test_gather_and_slice_scatter():
    class Indexing(torch.nn.Module):
        def forward(self, x, i, s):
            return (torch.gather(x, 1, i), torch.gather(x, 0, i[:2] % 3),
                    torch.slice_scatter(x, s, dim=1, start=1, end=7, step=2),
                    x[i[0] % 3], torch.any(x > 1.0, dim=1))

    torch.manual_seed(4)
    args = (torch.randn(3, 8), torch.randint(0, 8, (3, 5)), torch.randn(3, 3))
    mod = from_exported_program(torch.export.export(Indexing(), args))
    text = mod.script()
    assert "R.gather_elements" in text and "R.slice_scatter" in text
    tvm.ir.assert_structural_equal(mod, tvm.script.from_source(mod.script(show_meta=True)))
    vm = relax.VirtualMachine(tvm.compile(mod, "llvm"), tvm.cpu())
    for got, want in zip(vm["main"](*[a.numpy() for a in args]), Indexing()(*args)):
        np.testing.assert_array_equal(got.numpy(), want.numpy())


def test_resizing_reads_as_pytorch_does():
    interpolate = torch.nn.functional.interpolate

    class Resize(torch.nn.Module):
        def forward(self, x):
            return (interpolate(x, size=(13, 7), mode="bilinear"),
                    interpolate(x, scale_factor=2, mode="bilinear", align_corners=True),
                    interpolate(x, size=(13, 5), mode="nearest"),
                    interpolate(x, scale_factor=3, mode="nearest"),
                    interpolate(x, size=(4, 3), mode="bilinear"))

    x = torch.randn(1, 2, 6, 8)
    mod = from_exported_program(torch.export.export(Resize(), (x,)))
    assert mod.script().count("R.image.resize2d") == 5
    tvm.ir.assert_structural_equal(mod, tvm.script.from_source(mod.script(show_meta=True)))
    vm = relax.VirtualMachine(tvm.compile(mod, "llvm"), tvm.cpu())
    for got, want in zip(vm["main"](x.numpy()), Resize()(x)):
        np.testing.assert_allclose(got.numpy(), want.numpy(), rtol=1e-5, atol=1e-6)


def test_argmax_and_argmin_pick_the_first_extreme_and_nans():
    class Extremes(torch.nn.Module):
        def forward(self, x, i):
            return (torch.argmax(x, -1), torch.argmin(x, 0, keepdim=True), torch.argmax(x),
                    torch.argmax(i, 1), torch.argmin(x.relu(), 1))

    torch.manual_seed(5)
    x = torch.randn(4, 6)
    x[1, 2] = float("nan")
    x[2, 3] = x[2, 1] = 5.0
    i = torch.randint(-3, 3, (4, 6))
    mod = from_exported_program(torch.export.export(Extremes(), (x, i)))
    tvm.ir.assert_structural_equal(mod, tvm.script.from_source(mod.script(show_meta=True)))
    vm = relax.VirtualMachine(tvm.compile(mod, "llvm"), tvm.cpu())
    for got, want in zip(vm["main"](x.numpy(), i.numpy()), Extremes()(x, i)):
        np.testing.assert_array_equal(got.numpy(), want.numpy())


@pytest.mark.parametrize("name", ["resnet18", "mobilenet_v2"])
def test_torchvision_models_compute_what_pytorch_does(name):
    torchvision = pytest.importorskip("torchvision")
    torch.manual_seed(6)
    model = getattr(torchvision.models, name)(weights=None).eval()
    x = torch.randn(1, 3, 224, 224)
    mod = from_exported_program(torch.export.export(model, (x,)))
    want = model(x).detach().numpy()
    got = _run(mod, x.numpy()).numpy()
    # Relative to the largest output (MobileNetV2's are small with random
    # weights).
    np.testing.assert_allclose(got, want, rtol=0, atol=1e-5 * np.abs(want).max())


class ScansAndRoundings(torch.nn.Module):
    """Running sums and products, exp(x) - 1 and log(1 + x), division that
    truncates, clamping to tensor bounds, a copy to the same device,
    einsum."""

    def forward(self, x, lo):
        a = torch.cumsum(x, dim=1, dtype=torch.int32)
        b = torch.cumprod(x, 0)
        c = torch.expm1(x) + torch.log1p(x.abs())
        d = torch.div(x * 7, lo + 3, rounding_mode="trunc")
        e = torch.clamp(x, min=lo, max=lo + 0.5).to("cpu")
        f = torch.einsum("ij,kj->ik", x, lo) + torch.einsum("ii", x[:, :3])
        return a, b, c, d, e, f


def test_scans_roundings_and_tensor_bounds_compute_what_pytorch_does():
    model = ScansAndRoundings().eval()
    args = (torch.randn(3, 4), torch.randn(3, 4) * 0.5)
    mod = from_exported_program(torch.export.export(model, args))
    text = mod.script()
    for op in ['R.cumsum(x, axis=1, dtype="int32", exclusive=False)', "R.cumprod(",
               "R.trunc(", "R.maximum(", "R.minimum(", 'subscripts="ij,kj->ik"']:
        assert op in text, op
    vm = relax.VirtualMachine(tvm.compile(mod, "llvm"), tvm.cpu())
    got = vm["main"](*[a.numpy() for a in args])
    for g, w in zip(got, model(*args)):
        np.testing.assert_allclose(g.numpy(), w.numpy(), rtol=1e-5, atol=1e-6)


class Volumes(torch.nn.Module):
    """3-D convolutions (one group and grouped) and poolings of NCDHW
    volumes."""

    def __init__(self):
        super().__init__()
        self.conv = torch.nn.Conv3d(4, 6, (3, 2, 3), stride=(1, 2, 1), padding=(1, 0, 1))
        self.grouped = torch.nn.Conv3d(6, 4, 3, groups=2, dilation=(1, 1, 2), bias=False)

    def forward(self, x):
        y = self.conv(x)
        z = self.grouped(y)
        return (y, z, torch.nn.functional.max_pool3d(x, 2, stride=(1, 2, 2), padding=1),
                torch.nn.functional.avg_pool3d(x, (2, 3, 3), stride=2, padding=1,
                                               count_include_pad=False, ceil_mode=True),
                torch.nn.functional.adaptive_avg_pool3d(x, (3, 2, 4)))


def test_volumes_compute_what_pytorch_does():
    model = Volumes().eval()
    x = torch.randn(2, 4, 6, 8, 8)
    mod = from_exported_program(torch.export.export(model, (x,)))
    text = mod.script()
    for op in ["R.nn.conv3d(", "R.nn.max_pool3d(", "R.nn.avg_pool3d(",
               "R.nn.adaptive_avg_pool3d("]:
        assert op in text, op
    tvm.ir.assert_structural_equal(mod, tvm.script.from_source(mod.script(show_meta=True)))
    vm = relax.VirtualMachine(tvm.compile(mod, "llvm"), tvm.cpu())
    with torch.no_grad():
        want = model(x)
    for got, w in zip(vm["main"](x.numpy()), want):
        np.testing.assert_allclose(got.numpy(), w.numpy(), rtol=1e-4, atol=1e-5)


class Miscellany(torch.nn.Module):
    """Norms, eye, padding, item, bool arithmetic, average pooling with a
    divisor, one_hot."""

    def forward(self, x, flags, labels):
        norms = (torch.norm(x, p=float("inf")), torch.norm(x, p=2, dim=1, keepdim=True),
                 torch.linalg.vector_norm(x, ord=0.5, dim=(0, 1)))
        padded = [torch.nn.functional.pad(x, (1, 2, 0, 1), value=0.25)] + [
            torch.nn.functional.pad(x[None], (2, 1, 3, 0), mode=mode)
            for mode in ("reflect", "replicate", "circular")]
        pooled = torch.nn.functional.avg_pool2d(x[None, None], 2, divisor_override=3)
        both = (flags + flags[0], flags * flags[1], torch.maximum(flags, flags[2]))
        return (*norms, torch.eye(3, 5) + x[0, 0].reshape(1) * 0, *padded, pooled,
                *both, x[0, 0].item() + x[1], torch.nn.functional.one_hot(labels, 5))


def test_norms_eye_padding_and_bool_arithmetic_compute_what_pytorch_does():
    model = Miscellany().eval()
    args = (torch.randn(4, 6), torch.rand(3, 4) > 0.5, torch.tensor([0, 3, 4, 1]))
    mod = from_exported_program(torch.export.export(model, args))
    text = mod.script()
    for op in ["R.nn.pad(", "R.take(", "R.where(", "R.power("]:
        assert op in text, op
    # The checks torch.export leaves (one_hot's bounds) are not computed.
    assert "R.any(" not in text
    vm = relax.VirtualMachine(tvm.compile(mod, "llvm"), tvm.cpu())
    with torch.no_grad():
        want = model(*args)
    for got, w in zip(vm["main"](*[a.numpy() for a in args]), want):
        w = w.numpy()
        np.testing.assert_allclose(got.numpy(), w, rtol=1e-5, atol=1e-6)


class PlainAttention(torch.nn.Module):
    def forward(self, q, k, v):
        return torch.nn.functional.scaled_dot_product_attention(q, k, v)


@pytest.mark.parametrize("shape", [(6, 8), (3, 6, 8)])
def test_attention_of_sequences_without_heads_or_batches(shape):
    """(sequence, features) and (batch, sequence, features) operands: one
    head of a batch of one, each position attending to every other."""
    args = [torch.randn(*shape) for _ in range(3)]
    mod = from_exported_program(torch.export.export(PlainAttention(), tuple(args)))
    vm = relax.VirtualMachine(tvm.compile(mod, "llvm"), tvm.cpu())
    got = vm["main"](*[a.numpy() for a in args])[0]
    np.testing.assert_allclose(got.numpy(), PlainAttention()(*args).numpy(), rtol=1e-5,
                               atol=1e-6)


def test_bool_arithmetic_is_or_and_and():
    x = relax.Var("x", relax.TensorStructInfo((4,), "bool"))
    bb = relax.BlockBuilder()
    with bb.function("main", [x]):
        out = bb.emit(relax.op.add(x, x))
        both = bb.emit(relax.op.multiply(out, relax.const(np.array([1, 0, 1, 0], bool))))
        bb.emit_func_output(relax.Tuple([out, both]))
    vm = relax.VirtualMachine(tvm.compile(bb.get(), "llvm"), tvm.cpu())
    got = vm["main"](np.array([True, True, False, False]))
    np.testing.assert_array_equal(got[0].numpy(), [True, True, False, False])
    np.testing.assert_array_equal(got[1].numpy(), [True, False, False, False])
    with pytest.raises(TypeError, match="relax.op.subtract: takes floating-point or integer"):
        relax.op.subtract(x, x)


class Transposed(torch.nn.Module):
    """Transposed convolutions: strided, padded, dilated, grouped, with
    output padding, 1-, 2- and 3-D."""

    def __init__(self):
        super().__init__()
        self.one = torch.nn.ConvTranspose1d(4, 6, 3, stride=2, padding=1, output_padding=1)
        self.two = torch.nn.ConvTranspose2d(4, 6, (3, 2), stride=(2, 3), padding=(2, 0),
                                            dilation=(2, 1), groups=2, bias=False)
        self.three = torch.nn.ConvTranspose3d(4, 2, 2, stride=2)

    def forward(self, x, volume):
        return self.one(x[:, :, 0]), self.two(x), self.three(volume)


def test_transposed_convolutions_compute_what_pytorch_does():
    model = Transposed().eval()
    args = (torch.randn(2, 4, 5, 7), torch.randn(1, 4, 3, 2, 3))
    mod = from_exported_program(torch.export.export(model, args))
    vm = relax.VirtualMachine(tvm.compile(mod, "llvm"), tvm.cpu())
    with torch.no_grad():
        want = model(*args)
    for got, w in zip(vm["main"](*[a.numpy() for a in args]), want):
        assert got.shape == tuple(w.shape)
        np.testing.assert_allclose(got.numpy(), w.numpy(), rtol=1e-4, atol=1e-5)


class Orders(torch.nn.Module):
    """Sorting, top-k, max / min along an axis, medians, buckets, instance
    norms and a window."""

    def __init__(self):
        super().__init__()
        self.norm = torch.nn.InstanceNorm2d(3, affine=True)
        self.plain = torch.nn.InstanceNorm1d(3)

    def forward(self, x, edges):
        values, indices = torch.sort(x, dim=1, descending=True, stable=True)
        top, where = torch.topk(x, 2, dim=0, largest=False)
        middle, at = torch.median(x, 1, keepdim=True)
        return (values, indices, torch.argsort(x, dim=0, stable=True), top, where, middle, at,
                *torch.max(x, 1), *torch.min(x, 0, keepdim=True), *torch.max(x, -1),
                torch.median(x), torch.bucketize(x, edges, right=True),
                self.norm(x.reshape(1, 3, 2, 2)), self.plain(x.reshape(2, 3, 2)),
                torch.hamming_window(7, periodic=False) + x[0, 0])


def test_orders_norms_and_windows_compute_what_pytorch_does():
    model = Orders().eval()
    with torch.no_grad():
        model.norm.weight.uniform_(0.5, 1.5)
        model.norm.bias.uniform_(-0.5, 0.5)
    x = torch.randn(4, 3) * 2
    x[1, 1] = x[1, 0]  # a tie
    x[3, 2] = x[3, 0] = 9.0  # the maximum along axis 1 ties (the first index)
    args = (x, torch.tensor([-1.0, 0.0, 1.0]))
    mod = from_exported_program(torch.export.export(model, args))
    vm = relax.VirtualMachine(tvm.compile(mod, "llvm"), tvm.cpu())
    with torch.no_grad():
        want = model(*args)
    for got, w in zip(vm["main"](*[a.numpy() for a in args]), want):
        np.testing.assert_allclose(got.numpy(), w.numpy(), rtol=1e-5, atol=1e-5)


class MLP(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1, self.fc2 = torch.nn.Linear(16, 32), torch.nn.Linear(32, 4)

    def forward(self, x):
        return torch.softmax(self.fc2(torch.relu(self.fc1(x))), dim=-1)


def test_a_dynamic_batch_is_a_shape_variable():
    torch.manual_seed(0)
    model = MLP().eval()
    batch = torch.export.Dim("batch", min=1, max=64)
    program = torch.export.export(model, (torch.randn(3, 16),), dynamic_shapes={"x": {0: batch}})
    mod = from_exported_program(program)
    (name,) = {d.name for d in mod["main"].params[0].struct_info.shape
               if not isinstance(d, int) and hasattr(d, "name")}
    assert mod["main"].attrs["tir_var_lower_bound"] == {name: 1}
    assert mod["main"].attrs["tir_var_upper_bound"] == {name: 64}
    vm = relax.VirtualMachine(tvm.compile(relax.get_pipeline("zero")(mod), "llvm"), tvm.cpu())
    for n in (1, 5, 17):
        x = torch.randn(n, 16)
        got = vm["main"](x.numpy())[0].numpy()
        np.testing.assert_allclose(got, model(x).detach().numpy(), rtol=1e-5, atol=1e-6)


def test_a_transformer_layer_of_a_dynamic_sequence_length():
    torch.manual_seed(0)
    layer = torch.nn.TransformerEncoderLayer(d_model=64, nhead=4, dim_feedforward=128,
                                             dropout=0.0, batch_first=True).eval()
    seq = torch.export.Dim("seq", min=2, max=128)
    with torch.no_grad():
        program = torch.export.export(layer, (torch.randn(1, 16, 64),),
                                      dynamic_shapes={"src": {1: seq}})
    mod = from_exported_program(program)
    built = tvm.compile(relax.get_pipeline("zero")(mod), "llvm")
    vm = relax.VirtualMachine(built, tvm.cpu())
    for n in (3, 40):  # one build, any length
        x = torch.randn(1, n, 64)
        with torch.no_grad():
            want = layer(x).numpy()
        np.testing.assert_allclose(vm["main"](x.numpy())[0].numpy(), want, rtol=1e-4,
                                   atol=1e-5)
