"""The torch.fx importer."""
import operator

import numpy as np

from ... import op as R
from ...block_builder import BlockBuilder
from ...expr import Tuple, Var, const
from ...struct_info import TensorStructInfo
from .base_translator import BaseImporter


class TorchFXImporter(BaseImporter):
    """Walks a torch.fx graph in order, emitting one binding per node."""

    name = "from_fx"

    def __init__(self):
        super().__init__()
        torch = self.torch
        nn, F = torch.nn, torch.nn.functional
        self.modules = {
            nn.Linear: self._linear, nn.ReLU: self._relu_module, nn.Conv2d: self._conv2d,
            nn.MaxPool2d: self._max_pool2d, nn.AdaptiveAvgPool2d: self._adaptive_avg_pool2d,
            nn.Flatten: self._flatten_module, nn.BatchNorm2d: self._batch_norm,
            nn.Softmax: self._softmax_module, nn.Identity: lambda node, m: self.arg(node, 0),
        }
        self.functions = {
            operator.add: self._add, torch.add: self._add, operator.mul: self._mul,
            torch.mul: self._mul, operator.sub: self._sub, torch.sub: self._sub,
            operator.matmul: self._matmul, torch.matmul: self._matmul,
            torch.relu: self._relu, F.relu: self._relu, torch.softmax: self._softmax,
            F.softmax: self._softmax, torch.flatten: self._flatten, torch.reshape: self._reshape,
            operator.getitem: self._getitem,
        }
        self.methods = {
            "view": self._reshape, "reshape": self._reshape, "flatten": self._flatten,
            "relu": self._relu, "softmax": self._softmax, "add": self._add, "size": self._size,
            "contiguous": lambda node: self.arg(node, 0),
        }

    # ------------------------------------------------------------ modules
    def _linear(self, node, m):
        bias = self.param(m.bias) if m.bias is not None else None
        return self.emit(R.linear(self.tensor(self.arg(node, 0), node), self.param(m.weight),
                                  bias))

    def _relu_module(self, node, m):
        return self._relu(node)

    def _conv2d(self, node, m):
        if m.padding_mode != "zeros" or isinstance(m.padding, str):
            raise NotImplementedError(f"from_fx: Conv2d '{node.target}' pads in mode "
                                      f"{m.padding_mode!r} / {m.padding!r}; zeros with explicit "
                                      "sizes are supported")
        x = self.emit(R.nn.conv2d(self.tensor(self.arg(node, 0), node), self.param(m.weight),
                                  strides=m.stride, padding=m.padding, dilation=m.dilation,
                                  groups=m.groups))
        if m.bias is None:
            return x
        bias = m.bias.detach().cpu().numpy().reshape(1, -1, 1, 1)
        return self.emit(R.add(x, const(bias)))

    def _max_pool2d(self, node, m):
        if m.ceil_mode or m.return_indices:
            raise NotImplementedError(f"from_fx: MaxPool2d '{node.target}' with ceil_mode or "
                                      "return_indices is not supported")
        stride = m.stride if m.stride is not None else m.kernel_size
        return self.emit(R.nn.max_pool2d(self.tensor(self.arg(node, 0), node),
                                         pool_size=m.kernel_size, strides=stride,
                                         padding=m.padding, dilation=m.dilation))

    def _adaptive_avg_pool2d(self, node, m):
        x = self.tensor(self.arg(node, 0), node)
        size = m.output_size
        if isinstance(size, (list, tuple)):
            size = tuple(x.shape[2 + k] if s is None else s for k, s in enumerate(size))
        return self.emit(R.nn.adaptive_avg_pool2d(x, output_size=size))

    def _flatten_module(self, node, m):
        return self._flatten_dims(node, self.arg(node, 0), m.start_dim, m.end_dim)

    def _batch_norm(self, node, m):
        if m.training:
            raise NotImplementedError(f"from_fx: BatchNorm2d '{node.target}' is in training "
                                      "mode; import the model after model.eval()")
        if m.running_mean is None:
            raise NotImplementedError(f"from_fx: BatchNorm2d '{node.target}' keeps no running "
                                      "statistics")
        c = m.num_features
        gamma = self.param(m.weight) if m.affine else const(np.ones(c, "float32"))
        beta = self.param(m.bias) if m.affine else const(np.zeros(c, "float32"))
        normalized = R.nn.batch_norm(self.tensor(self.arg(node, 0), node), gamma, beta,
                                     self.param(m.running_mean), self.param(m.running_var),
                                     axis=1, epsilon=m.eps)
        return self.emit(normalized[0])

    def _softmax_module(self, node, m):
        return self.emit(R.nn.softmax(self.tensor(self.arg(node, 0), node), axis=m.dim))

    # ------------------------------------------------------------- driver
    def from_fx(self, model, input_info):
        fx = self.torch.fx
        if not isinstance(model, fx.GraphModule):
            raise TypeError("from_fx takes a torch.fx.GraphModule (torch.fx.symbolic_trace("
                            f"model)), got {type(model).__name__}")
        named_modules = dict(model.named_modules())
        self.env, self.bb = {}, BlockBuilder()
        placeholders = [n for n in model.graph.nodes if n.op == "placeholder"]
        if len(input_info) != len(placeholders):
            raise ValueError(f"from_fx: the model takes {len(placeholders)} input(s) "
                             f"({', '.join(n.target for n in placeholders)}); input_info "
                             f"describes {len(input_info)}")
        params = []
        for node, info in zip(placeholders, input_info):
            shape, dtype = info if isinstance(info, (list, tuple)) and len(info) == 2 \
                and isinstance(info[1], str) else (info, "float32")
            var = Var(node.target if node.target.isidentifier() else node.name,
                      TensorStructInfo(tuple(shape), dtype))
            params.append(var)
            self.env[node] = var
        with self.bb.function("main", params):
            output = None
            with self.bb.dataflow():
                for node in model.graph.nodes:
                    if node.op == "placeholder":
                        continue
                    if node.op == "get_attr":
                        target = model
                        for atom in node.target.split("."):
                            target = getattr(target, atom)
                        self.env[node] = self.param(target)
                    elif node.op == "call_module":
                        module = named_modules[node.target]
                        convert = self.modules.get(type(module))
                        if convert is None:
                            raise NotImplementedError(
                                f"from_fx: module '{node.target}' is a "
                                f"{type(module).__module__}.{type(module).__name__}, which is "
                                "not supported (supported: "
                                f"{', '.join(sorted(t.__name__ for t in self.modules))})")
                        self.env[node] = convert(node, module)
                    elif node.op == "call_function":
                        convert = self.functions.get(node.target)
                        if convert is None:
                            name = getattr(node.target, "__name__", str(node.target))
                            raise NotImplementedError(f"from_fx: function {name} (node "
                                                      f"'{node.name}') is not supported")
                        self.env[node] = convert(node)
                    elif node.op == "call_method":
                        convert = self.methods.get(node.target)
                        if convert is None:
                            raise NotImplementedError(f"from_fx: method Tensor.{node.target} "
                                                      f"(node '{node.name}') is not supported")
                        self.env[node] = convert(node)
                    elif node.op == "output":
                        result = self.value(node.args[0])
                        if isinstance(result, (list, tuple)):
                            result = Tuple(list(result))
                        output = self.bb.emit_output(result)
            self.bb.emit_func_output(output)
        return self.bb.get()


def from_fx(model, input_info, keep_params_as_input=False, unwrap_unit_return_tuple=False,
            no_bind_return_tuple=False):
    """An IRModule whose "main" computes the torch.fx GraphModule `model`
    on inputs described by `input_info` ([(shape, dtype), ...])."""
    if keep_params_as_input:
        raise NotImplementedError("from_fx: keep_params_as_input (weights are constants)")
    return TorchFXImporter().from_fx(model, input_info)
