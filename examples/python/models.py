"""Models: graph modules whose main calls prim_funcs (TVM's Relax).

1. The BlockBuilder: matmul + ReLU written in te, each step a prim_func
   called from main (emit_te).
2. An MLP imported from PyTorch with torch.fx, two ways: through te / topi
   (call_tir of prim_funcs) and through high-level operators
   (R.permute_dims, R.matmul, R.add, R.nn.relu).
3. A small CNN (conv, batch norm, ReLU, pooling, linear) imported with the
   ready importer, legalized, and its heaviest prim_func scheduled.

Every model is built, run, and compared with numpy / PyTorch."""
import numpy as np
import torch
import torch.fx as fx
from torch import nn

import tensorir as tvm
from tensorir import relax, te, topi
from tensorir.relax.frontend.torch import from_fx as import_fx

torch.manual_seed(0)
np.random.seed(0)


def run(mod, *args):
    vm = relax.VirtualMachine(relax.build(mod, target="llvm"), tvm.cpu())
    return vm["main"](*args).numpy()


# --------------------------------------------------------------- 1. te
def te_matmul(A, B):
    k = te.reduce_axis((0, A.shape[1]), name="k")
    return te.compute((A.shape[0], B.shape[1]),
                      lambda i, j: te.sum(A[i, k] * B[k, j], axis=k), name="matmul")


def te_relu(A):
    return te.compute(A.shape, lambda *i: te.max(A(*i), 0), name="relu")


A = relax.Var("A", relax.TensorStructInfo((128, 128), "float32"))
B = relax.Var("B", relax.TensorStructInfo((128, 128), "float32"))
bb = relax.BlockBuilder()
with bb.function("main"):
    with bb.dataflow():
        C = bb.emit_te(te_matmul, A, B)
        D = bb.emit_te(te_relu, C)
        R = bb.emit_output(D)
    bb.emit_func_output(R, params=[A, B])
MyModule = bb.get()
MyModule.show()
a = np.random.rand(128, 128).astype("float32") - 0.5
b = np.random.rand(128, 128).astype("float32")
assert np.allclose(run(MyModule, a, b), np.maximum(a @ b, 0), atol=1e-4)
print("matmul + relu == numpy")


# --------------------------------------------------------------- 2. MLP
def map_param(param):
    return relax.const(param.data.cpu().numpy(),
                       relax.DynTensorType(len(param.data.shape), "float32"))


def from_fx(fx_mod, input_shapes, call_module_map):
    """The seed's importer, written by a user (modules only)."""
    input_index, node_map = 0, {}
    named_modules = dict(fx_mod.named_modules())
    bb = relax.BlockBuilder()
    fn_inputs = []
    with bb.function("main"):
        with bb.dataflow():
            for node in fx_mod.graph.nodes:
                if node.op == "placeholder":
                    var = relax.Var(node.target, relax.TensorStructInfo(
                        input_shapes[input_index], "float32"))
                    input_index += 1
                    fn_inputs.append(var)
                    node_map[node] = var
                elif node.op == "call_module":
                    module = named_modules[node.target]
                    node_map[node] = call_module_map[type(module)](bb, node_map, node, module)
                elif node.op == "output":
                    output = bb.emit_output(node_map[node.args[0]])
        bb.emit_func_output(output, fn_inputs)
    return bb.get()


def map_nn_linear(bb, node_map, node, nn_mod):
    y = bb.emit_te(topi.nn.dense, node_map[node.args[0]], map_param(nn_mod.weight))
    return bb.emit_te(topi.add, y, map_param(nn_mod.bias))


def map_nn_relu(bb, node_map, node, nn_mod):
    return bb.emit_te(te_relu, node_map[node.args[0]])


def map_nn_linear_op(bb, node_map, node, nn_mod):
    return bb.emit(relax.op.linear(node_map[node.args[0]], map_param(nn_mod.weight),
                                   map_param(nn_mod.bias)))


def map_nn_relu_op(bb, node_map, node, nn_mod):
    return bb.emit(relax.op.nn.relu(node_map[node.args[0]]))


mlp = nn.Sequential(nn.Linear(784, 128), nn.ReLU(), nn.Linear(128, 10))
x = np.random.rand(1, 784).astype("float32")
expected = mlp(torch.from_numpy(x)).detach().numpy()
for name, maps in (("call_tir", {nn.Linear: map_nn_linear, nn.ReLU: map_nn_relu}),
                   ("high-level", {nn.Linear: map_nn_linear_op, nn.ReLU: map_nn_relu_op})):
    mod = from_fx(fx.symbolic_trace(mlp), [(1, 784)], maps)
    mod.show()
    assert np.allclose(run(mod, x), expected, atol=1e-4)
    print(f"MLP ({name}) == PyTorch")


# --------------------------------------------------------------- 3. CNN
class CNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 16, 3, padding=1)
        self.bn = nn.BatchNorm2d(16)
        self.relu = nn.ReLU()
        self.pool = nn.MaxPool2d(2)
        self.gap = nn.AdaptiveAvgPool2d(1)
        self.flatten = nn.Flatten()
        self.fc = nn.Linear(16, 10)

    def forward(self, x):
        x = self.pool(self.relu(self.bn(self.conv(x))))
        return self.fc(self.flatten(self.gap(x)))


cnn = CNN().eval()
mod = import_fx(fx.symbolic_trace(cnn), [((1, 3, 32, 32), "float32")])
mod.show()
image = np.random.rand(1, 3, 32, 32).astype("float32")
expected = cnn(torch.from_numpy(image)).detach().numpy()
original = run(mod, image)
assert np.allclose(original, expected, atol=1e-4)

# Legalized, each operator is a prim_func; schedule the convolution.
legal = relax.transform.LegalizeOps()(mod)
print(list(legal.functions))
sch = tvm.tir.Schedule(legal["conv_2d_nchw_fchw"])
n, f, h, w, c, kh, kw = sch.get_loops(sch.get_block("conv_2d_nchw_fchw"))
ho, hi = sch.split(h, factors=[None, 8])
sch.reorder(n, f, ho, c, kh, kw, hi, w)
sch.parallel(f)
legal["conv_2d_nchw_fchw"] = sch.mod["main"].with_name("conv_2d_nchw_fchw").as_private()
scheduled = run(legal, image)
assert np.allclose(scheduled, original, atol=1e-5)
print("CNN: scheduled conv == original == PyTorch")
