"""What the torch importers share: a graph value per node, the
arguments of a node, and the conversions of the operations torch.fx and
torch.export graphs both have (element-wise arithmetic, matmul, relu,
softmax, flatten, reshape, tuple items)."""
import operator

import numpy as np

from ... import op as R
from ...expr import Expr, const


def _torch():
    try:
        import torch
        return torch
    except ImportError:
        raise ImportError("relax.frontend.torch needs PyTorch (Debian: python3-torch; "
                          "torch.export needs torch >= 2)") from None


# torch dtypes (without "torch.") and the relax dtype each becomes.
DTYPES = {"float32": "float32", "float16": "float16", "bfloat16": "bfloat16",
          "float64": "float64",
          "int64": "int64", "int32": "int32", "int8": "int8", "uint8": "uint8",
          "bool": "bool"}


class BaseImporter:
    """Walks a torch graph in order, emitting one binding per node; `name`
    is the importer's, in its errors."""

    name = "relax.frontend.torch"

    def __init__(self):
        self.torch = _torch()
        self.env, self.bb = {}, None

    # ------------------------------------------------------------ helpers
    def value(self, a):
        """A node argument: its value (graph values, ints, tuples)."""
        fx = self.torch.fx
        if isinstance(a, fx.Node):
            return self.env[a]
        if isinstance(a, (list, tuple)):
            return type(a)(self.value(x) for x in a)
        return a

    def arg(self, node, k, default=None, name=None):
        if k < len(node.args):
            return self.value(node.args[k])
        if name is not None and name in node.kwargs:
            return self.value(node.kwargs[name])
        return default

    def emit(self, expr):
        return self.bb.emit(expr)

    def param(self, tensor):
        return const(tensor.detach().cpu().numpy())

    def tensor(self, x, node):
        if not isinstance(x, Expr):
            raise NotImplementedError(f"{self.name}: node '{node.name}' takes {x!r} where a tensor "
                                      "is expected (operations on Python scalars are not "
                                      "imported)")
        return x

    def scalar_or_tensor(self, x, like):
        if isinstance(x, Expr):
            return x
        return const(np.array(x, dtype=like.struct_info.dtype))

    # ---------------------------------------------------------- functions
    def _binary(self, node, relax_op, python_op):
        """relax_op on tensors (a number as a constant of the tensor's
        dtype); python_op on two plain numbers (sizes, say)."""
        a, b = self.arg(node, 0), self.arg(node, 1, name="other")
        if not isinstance(a, Expr) and not isinstance(b, Expr):
            return python_op(a, b)
        if isinstance(a, Expr) and isinstance(b, Expr):
            a, b = self._promoted(a, b)
        like = a if isinstance(a, Expr) else b
        return self.emit(relax_op(self.scalar_or_tensor(a, like),
                                  self.scalar_or_tensor(b, like)))

    def _promoted(self, a, b):
        """a and b converted to the dtype PyTorch computes them in (an
        integer tensor with a float one: the float's)."""
        ta, tb = a.struct_info.dtype, b.struct_info.dtype
        if ta == tb:
            return a, b
        torch = self.torch
        common = str(torch.promote_types(getattr(torch, ta), getattr(torch, tb)))
        common = common.replace("torch.", "")
        if ta != common:
            a = self.emit(R.astype(a, common))
        if tb != common:
            b = self.emit(R.astype(b, common))
        return a, b

    def _add(self, node):
        if node.kwargs.get("alpha", 1) != 1:
            raise NotImplementedError(f"{self.name}: '{node.name}' adds with alpha")
        return self._binary(node, R.add, operator.add)

    def _sub(self, node):
        return self._binary(node, R.subtract, operator.sub)

    def _mul(self, node):
        return self._binary(node, R.multiply, operator.mul)

    def _matmul(self, node):
        return self.emit(R.matmul(self.tensor(self.arg(node, 0), node),
                                  self.tensor(self.arg(node, 1, name="other"), node)))

    def _relu(self, node):
        return self.emit(R.nn.relu(self.tensor(self.arg(node, 0), node)))

    def _softmax(self, node):
        dim = self.arg(node, 1, name="dim")
        if dim is None:
            raise NotImplementedError(f"{self.name}: '{node.name}' is a softmax without dim")
        return self.emit(R.nn.softmax(self.tensor(self.arg(node, 0), node), axis=dim))

    def _flatten(self, node):
        return self._flatten_dims(node, self.arg(node, 0), self.arg(node, 1, 0, "start_dim"),
                                  self.arg(node, 2, -1, "end_dim"))

    def _flatten_dims(self, node, x, start, end):
        x = self.tensor(x, node)
        shape = list(x.shape)
        start, end = start % len(shape), end % len(shape)
        merged = 1
        for d in shape[start:end + 1]:
            merged *= d
        return self.emit(R.reshape(x, shape[:start] + [merged] + shape[end + 1:]))

    def _reshape(self, node):
        x = self.tensor(self.arg(node, 0), node)
        shape = [self.value(a) for a in node.args[1:]]
        if "shape" in node.kwargs:
            shape = [self.value(node.kwargs["shape"])]
        if len(shape) == 1 and isinstance(shape[0], (list, tuple)):
            shape = list(shape[0])
        return self.emit(R.reshape(x, shape))

    def _size(self, node):
        x = self.tensor(self.arg(node, 0), node)
        dim = self.arg(node, 1, name="dim")
        return tuple(x.shape) if dim is None else x.shape[dim]

    def _getitem(self, node):
        base, index = self.arg(node, 0), self.arg(node, 1)
        if isinstance(base, (tuple, list)):
            return base[index]
        raise NotImplementedError(f"{self.name}: '{node.name}' indexes a tensor; slicing is not "
                                  "imported")

