"""tvm.relax.frontend.nn: models written as PyTorch-like modules and
exported to graph functions (Module.export_tvm), then compiled and run as
any IRModule:

    class MLP(nn.Module):
        def __init__(self):
            self.fc1, self.relu, self.fc2 = nn.Linear(784, 256), nn.ReLU(), nn.Linear(256, 10)

        def forward(self, x):
            return self.fc2(self.relu(self.fc1(x)))

    mod, params = MLP().export_tvm({"forward": {"x": nn.spec.Tensor((1, 784), "float32")}})
    vm = relax.VirtualMachine(tvm.compile(mod, "llvm"), tvm.cpu())
    vm["forward"](x, *weights)          # the parameters after the arguments
"""
from . import modules, op, spec
from .core import (Effect, Module, ModuleDict, ModuleList, Parameter, Tensor,
                   get_default_dtype, set_default_dtype)
from .modules import (GELU, Attention, Conv1D, Conv2D, Conv3D, ConvTranspose1D, Embedding,
                      GroupNorm, Identity, LayerNorm, Linear, ReLU, RMSNorm, SiLU,
                      TimestepEmbedding, Timesteps)
from .op import *  # noqa: F401,F403 - TVM's nn exports its operators too
from .visitor import Mutator

__all__ = ["Attention", "Conv1D", "Conv2D", "Conv3D", "ConvTranspose1D", "Effect", "Embedding", "GELU",
           "GroupNorm", "Identity", "LayerNorm", "Linear", "Module", "ModuleDict", "ModuleList",
           "Mutator", "Parameter", "ReLU", "RMSNorm", "SiLU", "Tensor", "TimestepEmbedding",
           "Timesteps", "get_default_dtype", "modules", "op", "set_default_dtype",
           "spec"] + list(op.__all__)
