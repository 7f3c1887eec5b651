"""relax.frontend.torch.from_fx: PyTorch models imported through torch.fx,
built and run against PyTorch; what it does not support is refused by
name."""
import numpy as np
import pytest

import tensorir as tvm
from tensorir import relax
from tensorir.script import from_source

torch = pytest.importorskip("torch", reason="PyTorch (Debian's python3-torch) is not installed")
fx = pytest.importorskip("torch.fx")
nn = torch.nn
from tensorir.relax.frontend.torch import from_fx  # noqa: E402


def run(mod, *args):
    return relax.VirtualMachine(relax.build(mod, target="llvm"), tvm.cpu())["main"](*args)


class CNN(nn.Module):
    """conv, batch norm, ReLU, pooling, linear: the issue's small CNN."""

    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 8, 3, padding=1)
        self.bn1 = nn.BatchNorm2d(8)
        self.relu = nn.ReLU()
        self.pool = nn.MaxPool2d(2)
        self.conv2 = nn.Conv2d(8, 16, 3, stride=2, padding=1, bias=False)
        self.bn2 = nn.BatchNorm2d(16)
        self.gap = nn.AdaptiveAvgPool2d((1, 1))
        self.flatten = nn.Flatten()
        self.fc = nn.Linear(16, 10)

    def forward(self, x):
        x = self.pool(self.relu(self.bn1(self.conv1(x))))
        x = self.relu(self.bn2(self.conv2(x)))
        x = self.flatten(self.gap(x))
        return torch.softmax(self.fc(x), dim=-1)


def eval_model(model):
    torch.manual_seed(0)
    model = model.eval()
    with torch.no_grad():
        for m in model.modules():
            if isinstance(m, nn.BatchNorm2d):
                m.running_mean.uniform_(-0.5, 0.5)
                m.running_var.uniform_(0.5, 1.5)
                m.weight.uniform_(0.5, 1.5)
                m.bias.uniform_(-0.5, 0.5)
    return model


def test_cnn_matches_pytorch_and_prints_back():
    model = eval_model(CNN())
    mod = from_fx(fx.symbolic_trace(model), [((2, 3, 16, 16), "float32")])
    text = mod.script()
    for piece in ("R.nn.conv2d(", "R.nn.batch_norm(", "R.nn.max_pool2d(", "R.nn.relu(",
                  "R.nn.adaptive_avg_pool2d(", "R.reshape(", "R.matmul(", "R.nn.softmax("):
        assert piece in text, piece
    x = np.random.rand(2, 3, 16, 16).astype("float32")
    expected = model(torch.from_numpy(x)).detach().numpy()
    np.testing.assert_allclose(run(mod, x).numpy(), expected, rtol=1e-5, atol=1e-6)
    again = from_source(mod.script(show_meta=True))
    assert again.mlir() == mod.mlir()


class Functions(nn.Module):
    def __init__(self):
        super().__init__()
        self.w = nn.Parameter(torch.randn(12, 5))

    def forward(self, x, y):
        h = torch.matmul(x.view(x.size(0), -1), self.w)
        h = torch.relu(h + y) * 2.0
        return torch.flatten(h, 1).softmax(dim=1) - y


def test_functions_methods_and_two_inputs():
    torch.manual_seed(0)
    model = Functions()
    mod = from_fx(fx.symbolic_trace(model), [((4, 3, 4), "float32"), ((4, 5), "float32")])
    x = np.random.rand(4, 3, 4).astype("float32")
    y = np.random.rand(4, 5).astype("float32")
    expected = model(torch.from_numpy(x), torch.from_numpy(y)).detach().numpy()
    np.testing.assert_allclose(run(mod, x, y).numpy(), expected, rtol=1e-5, atol=1e-6)


def test_unsupported_module_is_refused_by_name():
    model = nn.Sequential(nn.Linear(4, 4), nn.GELU())
    with pytest.raises(NotImplementedError, match=r"module '1' is a torch.nn.modules.activation."
                                                  r"GELU, which is not supported"):
        from_fx(fx.symbolic_trace(model), [((1, 4), "float32")])


def test_unsupported_function_is_refused_by_name():
    class Tanh(nn.Module):
        def forward(self, x):
            return torch.tanh(x)
    with pytest.raises(NotImplementedError, match=r"function tanh \(node 'tanh'\) is not "
                                                  "supported"):
        from_fx(fx.symbolic_trace(Tanh()), [((1, 4), "float32")])


def test_training_batch_norm_is_refused():
    model = nn.Sequential(nn.BatchNorm2d(3))
    with pytest.raises(NotImplementedError, match="training mode; import the model after "
                                                  r"model.eval\(\)"):
        from_fx(fx.symbolic_trace(model), [((1, 3, 4, 4), "float32")])


def test_shape_mismatch_names_the_operator():
    model = nn.Sequential(nn.Linear(8, 4))
    with pytest.raises(ValueError, match=r"relax.op.matmul: shapes \(1, 6\) and \(8, 4\) do "
                                         "not multiply"):
        from_fx(fx.symbolic_trace(model), [((1, 6), "float32")])


def test_input_count_mismatch():
    with pytest.raises(ValueError, match=r"the model takes 1 input\(s\) \(input\); input_info "
                                         "describes 2"):
        from_fx(fx.symbolic_trace(nn.Sequential(nn.ReLU())),
                [((1, 4), "float32"), ((1, 4), "float32")])


def test_fuse_ops_then_schedule_the_fused_function():
    model = eval_model(CNN())
    mod = from_fx(fx.symbolic_trace(model), [((1, 3, 16, 16), "float32")])
    fused = relax.get_pipeline("zero")(mod)  # Legalized, grouped, each group one prim_func.
    name = "fused_conv_2d_nchw_fchw_add_batch_norm_relu"
    assert name in fused
    # (Named after the functions fused: the first "add" is the conv's.)
    assert "fused_matmul_add1" in fused
    x = np.random.rand(1, 3, 16, 16).astype("float32")
    expected = model(torch.from_numpy(x)).detach().numpy()
    np.testing.assert_allclose(run(fused, x).numpy(), expected, rtol=1e-5, atol=1e-6)
    # The fused function's element-wise blocks inline into one.
    sch = tvm.tir.Schedule(fused[name])
    sch.compute_inline(sch.get_block("add"))
    sch.compute_inline(sch.get_block("batch_norm"))
    assert "T.alloc_buffer((1, 8, 16, 16)" in sch.mod.script()
    fused[name] = sch.mod["main"].with_name(name).as_private()
    np.testing.assert_allclose(run(fused, x).numpy(), expected, rtol=1e-5, atol=1e-6)
