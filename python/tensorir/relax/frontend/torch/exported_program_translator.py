"""The torch.export importer: an ExportedProgram's graph of ATen operators
as a graph function "main" (its user inputs first, then, with
keep_params_as_input, its parameters and buffers)."""
import math
import operator

import numpy as np

from ... import op as R
from ...block_builder import BlockBuilder
from ...expr import Expr, Tuple, Var, const
from ...struct_info import TensorStructInfo
from .base_translator import BaseImporter

_DTYPES = {"float32": "float32", "float16": "float16", "float64": "float64",
           "int64": "int64", "int32": "int32", "int8": "int8", "uint8": "uint8",
           "bool": "bool"}


# ATen's element-wise operators and the relax operator each becomes.
_UNARY = {
    "abs": R.abs, "acos": R.acos, "acosh": R.acosh, "asin": R.asin, "asinh": R.asinh,
    "atan": R.atan, "atanh": R.atanh, "bitwise_not": R.bitwise_not, "ceil": R.ceil,
    "cos": R.cos, "cosh": R.cosh, "erf": R.erf, "exp": R.exp, "floor": R.floor,
    "isinf": R.isinf, "isnan": R.isnan, "log": R.log, "logical_not": R.logical_not,
    "neg": R.negative, "round": R.round, "rsqrt": R.rsqrt, "sigmoid": R.sigmoid,
    "sign": R.sign, "sin": R.sin, "sinh": R.sinh, "sqrt": R.sqrt, "square": R.square,
    "tan": R.tan, "tanh": R.tanh, "trunc": R.trunc, "silu": R.nn.silu,
}
_FLOAT_UNARY = {R.acos, R.acosh, R.asin, R.asinh, R.atan, R.atanh, R.cos, R.cosh, R.erf,
                R.exp, R.log, R.rsqrt, R.sigmoid, R.sin, R.sinh, R.sqrt, R.tan, R.tanh,
                R.nn.silu}
_BINARY = {
    "add": (R.add, operator.add), "sub": (R.subtract, operator.sub),
    "mul": (R.multiply, operator.mul), "div": (R.divide, operator.truediv),
    "floor_divide": (R.floor_divide, operator.floordiv), "pow": (R.power, operator.pow),
    "remainder": (R.floor_mod, operator.mod), "fmod": (R.mod, math.fmod),
    "maximum": (R.maximum, max), "minimum": (R.minimum, min),
    "bitwise_and": (R.bitwise_and, operator.and_), "bitwise_or": (R.bitwise_or, operator.or_),
    "bitwise_xor": (R.bitwise_xor, operator.xor),
    "logical_and": (R.logical_and, lambda a, b: a and b),
    "logical_or": (R.logical_or, lambda a, b: a or b),
    "eq": (R.equal, operator.eq), "ne": (R.not_equal, operator.ne), "lt": (R.less, operator.lt),
    "le": (R.less_equal, operator.le), "gt": (R.greater, operator.gt),
    "ge": (R.greater_equal, operator.ge),
}


class ExportedProgramImporter(BaseImporter):
    """Walks an ExportedProgram's graph in order, one binding per ATen
    operator (the table in __init__; anything else is refused, naming the
    operator and the node)."""

    name = "from_exported_program"

    def __init__(self):
        super().__init__()
        same = self._identity
        self.aten = {
            "add.Tensor": self._add, "add_.Tensor": self._add, "sub.Tensor": self._sub,
            "mul.Tensor": self._mul, "div.Tensor": self._div, "matmul.default": self._matmul,
            "mm.default": self._matmul, "bmm.default": self._matmul,
            "linear.default": self._linear,
            "relu.default": self._relu, "relu_.default": self._relu,
            "softmax.int": self._softmax, "_softmax.default": self._softmax,
            "flatten.using_ints": self._flatten, "view.default": self._reshape,
            "reshape.default": self._reshape, "_unsafe_view.default": self._reshape,
            "permute.default": self._permute, "transpose.int": self._transpose,
            "t.default": self._t,
            "conv2d.default": self._conv2d, "conv1d.default": self._conv2d, "convolution.default": self._convolution,
            "batch_norm.default": self._batch_norm,
            "_native_batch_norm_legit_no_training.default": self._batch_norm_no_training,
            "max_pool2d.default": self._max_pool2d, "avg_pool2d.default": self._avg_pool2d,
            "max_pool2d_with_indices.default": self._max_pool2d_with_indices,
            "adaptive_avg_pool2d.default": self._adaptive_avg_pool2d,
            "layer_norm.default": self._layer_norm, "gelu.default": self._gelu,
            "embedding.default": self._embedding, "dropout.default": self._dropout,
            "clone.default": same, "contiguous.default": same, "alias.default": same,
            "detach.default": same, "getitem": self._getitem,
            "scaled_dot_product_attention.default": self._attention,
            "squeeze.dim": self._squeeze, "squeeze.dims": self._squeeze,
            "unsqueeze.default": self._unsqueeze, "unflatten.int": self._unflatten,
            "select.int": self._select,
        }
        # Element-wise operators: one relax operator each.
        for name, relax_op in _UNARY.items():
            for overload in ("default", "Tensor"):
                self.aten.setdefault(f"{name}.{overload}", self._unary(relax_op))
                self.aten.setdefault(f"{name}_.{overload}", self._unary(relax_op))
        for name, (relax_op, python_op) in _BINARY.items():
            for overload in ("Tensor", "Scalar", "default", "Tensor_Scalar", "Scalar_Tensor",
                             "Tensor_Tensor"):
                convert = self._binary_op(relax_op, python_op)
                self.aten.setdefault(f"{name}.{overload}", convert)
                self.aten.setdefault(f"{name}_.{overload}", convert)
        for name, relax_op in (("sum", R.sum), ("mean", R.mean), ("amax", R.max),
                               ("amin", R.min), ("prod", R.prod)):
            for overload in ("default", "dim", "dim_IntList", "dim_int", "int"):
                self.aten.setdefault(f"{name}.{overload}", self._reduction(relax_op))
        self.aten.update({
            "addmm.default": self._addmm, "unsqueeze.default": self._unsqueeze,
            "squeeze.dim": self._squeeze, "squeeze.dims": self._squeeze,
            "squeeze.default": self._squeeze, "slice.Tensor": self._slice,
            "expand.default": self._expand, "zeros.default": self._full_of(0),
            "ones.default": self._full_of(1), "full.default": self._full,
            "zeros_like.default": self._full_like_of(0), "ones_like.default":
                self._full_like_of(1), "full_like.default": self._full_like,
            "new_zeros.default": self._new_full_of(0), "new_ones.default": self._new_full_of(1),
            "new_full.default": self._new_full, "arange.default": self._arange,
            "arange.start": self._arange, "arange.start_step": self._arange,
            "scalar_tensor.default": self._scalar_tensor,
            "_log_softmax.default": self._log_softmax, "log_softmax.int": self._log_softmax,
            "var.correction": self._var, "var.dim": self._var,
            "_assert_tensor_metadata.default": self._nothing,
            "_assert_async.msg": self._nothing, "_assert_scalar.default": self._nothing,
            "_adaptive_avg_pool2d.default": self._adaptive_avg_pool2d,
            "softplus.default": self._softplus, "group_norm.default": self._group_norm,
            "native_group_norm.default": self._native_group_norm,
            "native_layer_norm.default": self._native_layer_norm,
            "leaky_relu.default": self._leaky_relu, "leaky_relu_.default": self._leaky_relu,
            "empty.memory_format": self._empty, "empty_like.default": self._empty_like,
            "empty_permuted.default": self._empty, "any.dim": self._any,
            "any.dims": self._any, "copy.default": self._copy, "index.Tensor": self._index,
            "gather.default": self._gather, "slice_scatter.default": self._slice_scatter,
            "upsample_nearest2d.vec": self._upsample("nearest_neighbor"),
            "upsample_nearest2d.default": self._upsample("nearest_neighbor"),
            "upsample_bilinear2d.vec": self._upsample("linear", False),
            "upsample_bilinear2d.default": self._upsample("linear", False),
            "_upsample_bilinear2d_aa.default": self._upsample("linear", False),
            "_upsample_bilinear2d_aa.vec": self._upsample("linear", False),
            "argmax.default": self._arg_extreme(R.argmax),
            "argmin.default": self._arg_extreme(R.argmin),
            "index_select.default": self._index_select, "take.default": self._take,
            "cat.default": self._cat, "concat.default": self._cat, "stack.default": self._stack,
            "tile.default": self._tile, "repeat.default": self._tile, "flip.default": self._flip,
            "split.Tensor": self._split, "split_with_sizes.default": self._split,
            "chunk.default": self._chunk, "unbind.int": self._unbind,
            "where.self": self._where, "clamp.default": self._clamp,
            "clip.default": self._clamp, "hardtanh.default": self._hardtanh,
            "div.Tensor_mode": self._div, "_to_copy.default": self._to_copy,
            "to.dtype": self._to_copy,
        })

    # ------------------------------------------------------------ helpers
    @property
    def block_builder(self):
        """The BlockBuilder the function is built with (TVM's name)."""
        return self.bb

    def _identity(self, node):
        return self.arg(node, 0)

    @staticmethod
    def _key(target):
        """"relu.default" for torch.ops.aten.relu.default; "getitem" for
        operator.getitem."""
        text = str(target)
        return text[len("aten."):] if text.startswith("aten.") else \
            getattr(target, "__name__", text)

    def _unary(self, relax_op):
        """relax_op on the tensor; an integer tensor is made float32 first
        for the operators of floating-point tensors (as PyTorch computes
        them)."""
        def convert(node):
            x = self.tensor(self.arg(node, 0), node)
            if relax_op in _FLOAT_UNARY and not x.struct_info.dtype.startswith(("float",
                                                                                "bfloat")):
                x = self.emit(R.astype(x, "float32"))
            return self.emit(relax_op(x))
        return convert

    def _binary_op(self, relax_op, python_op):
        def convert(node):
            return self._binary(node, relax_op, python_op)
        return convert

    # ---------------------------------------------------------- operators
    def _nothing(self, node):
        return None

    def _reduction(self, relax_op):
        def convert(node):
            x = self.tensor(self.arg(node, 0), node)
            axis = self.arg(node, 1, None, "dim")
            keepdim = self.arg(node, 2, False, "keepdim")
            if node.kwargs.get("dtype") is not None:
                raise NotImplementedError(f"{self.name}: '{node.name}' reduces into another "
                                          "dtype")
            if isinstance(axis, (list, tuple)) and len(axis) == 0:
                axis = None
            return self.emit(relax_op(x, axis, keepdims=bool(keepdim)))
        return convert

    def _var(self, node):
        x = self.tensor(self.arg(node, 0), node)
        axis = self.arg(node, 1, None, "dim")
        correction = node.kwargs.get("correction", 1 if "unbiased" not in node.kwargs
                                     else int(bool(node.kwargs["unbiased"])))
        keepdim = node.kwargs.get("keepdim", False)
        var = self.emit(R.variance(x, axis, keepdims=keepdim))
        if correction:
            rank = len(x.shape)
            axes = range(rank) if axis is None else [a % rank for a in axis]
            n = int(np.prod([int(x.shape[a]) for a in axes]))
            var = self.emit(R.multiply(var, const(np.array(n / (n - correction),
                                                            x.struct_info.dtype))))
        return var

    def _addmm(self, node):
        bias, a, b = (self.tensor(self.arg(node, i), node) for i in range(3))
        beta, alpha = node.kwargs.get("beta", 1), node.kwargs.get("alpha", 1)
        dtype = a.struct_info.dtype
        product = self.emit(R.matmul(a, b))
        if alpha != 1:
            product = self.emit(R.multiply(product, const(np.array(alpha, dtype))))
        if beta == 0:
            return product
        if beta != 1:
            bias = self.emit(R.multiply(bias, const(np.array(beta, dtype))))
        return self.emit(R.add(bias, product))

    def _slice(self, node):
        x = self.tensor(self.arg(node, 0), node)
        axis = self.arg(node, 1, 0, "dim")
        start, end = self.arg(node, 2, None, "start"), self.arg(node, 3, None, "end")
        step = self.arg(node, 4, 1, "step")
        size = int(x.shape[axis])
        start = 0 if start is None else start
        end = size if end is None else min(end, size)
        # A slice of the whole axis too (a copy), as TVM's importer writes it.
        return self.emit(R.strided_slice(x, [axis], [start], [end], [step]))

    def _expand(self, node):
        x = self.tensor(self.arg(node, 0), node)
        sizes = list(self.arg(node, 1))
        offset = len(sizes) - len(x.shape)
        shape = [int(x.shape[k - offset]) if d == -1 else int(d) for k, d in enumerate(sizes)]
        if shape == [int(d) for d in x.shape]:
            return x
        return self.emit(R.broadcast_to(x, shape))

    def _dtype_of(self, node, default):
        dtype = node.kwargs.get("dtype")
        if dtype is None:
            return default
        name = _DTYPES.get(str(dtype).replace("torch.", ""))
        if name is None:
            raise NotImplementedError(f"{self.name}: '{node.name}' makes a {dtype} tensor")
        return name

    def _full_of(self, value):
        def convert(node):
            shape = list(self.arg(node, 0))
            return self.emit(R.full(shape, value, self._dtype_of(node, "float32")))
        return convert

    def _full(self, node):
        value = self.arg(node, 1)
        default = "float32" if isinstance(value, float) else \
            "bool" if isinstance(value, bool) else "int64"
        return self.emit(R.full(list(self.arg(node, 0)), value, self._dtype_of(node, default)))

    def _full_like_of(self, value):
        def convert(node):
            x = self.tensor(self.arg(node, 0), node)
            return self.emit(R.full_like(x, value, self._dtype_of(node, None)))
        return convert

    def _full_like(self, node):
        x = self.tensor(self.arg(node, 0), node)
        return self.emit(R.full_like(x, self.arg(node, 1), self._dtype_of(node, None)))

    def _new_full_of(self, value):
        def convert(node):
            x = self.tensor(self.arg(node, 0), node)
            return self.emit(R.full(list(self.arg(node, 1)), value,
                                    self._dtype_of(node, x.struct_info.dtype)))
        return convert

    def _new_full(self, node):
        x = self.tensor(self.arg(node, 0), node)
        return self.emit(R.full(list(self.arg(node, 1)), self.arg(node, 2),
                                self._dtype_of(node, x.struct_info.dtype)))

    def _arange(self, node):
        args = [self.arg(node, i) for i in range(len(node.args))]
        start, end, step = (0, args[0], 1) if len(args) == 1 else \
            (args[0], args[1], args[2] if len(args) > 2 else 1)
        floats = any(isinstance(v, float) for v in (start, end, step))
        dtype = self._dtype_of(node, "float32" if floats else "int64")
        return self.emit(R.arange(start, end, step, dtype))

    def _scalar_tensor(self, node):
        value = self.arg(node, 0)
        default = "float32" if isinstance(value, float) else "int64"
        return const(np.array(value, self._dtype_of(node, default)))

    def _log_softmax(self, node):
        return self.emit(R.nn.log_softmax(self.tensor(self.arg(node, 0), node),
                                          self.arg(node, 1, -1, "dim")))

    def _leaky_relu(self, node):
        x = self.tensor(self.arg(node, 0), node)
        return self.emit(R.nn.leakyrelu(x, self.arg(node, 1, 0.01, "negative_slope")))

    def _softplus(self, node):
        """log(1 + exp(beta x)) / beta, x itself where beta x > threshold."""
        x = self.tensor(self.arg(node, 0), node)
        beta = self.arg(node, 1, 1.0, "beta")
        threshold = self.arg(node, 2, 20.0, "threshold")
        dtype = x.struct_info.dtype
        scaled = self.emit(R.multiply(x, const(np.array(beta, dtype))))
        soft = self.emit(R.divide(self.emit(R.log(self.emit(R.add(
            self.emit(R.exp(scaled)), const(np.array(1.0, dtype)))))),
            const(np.array(beta, dtype))))
        large = self.emit(R.greater(scaled, const(np.array(threshold, dtype))))
        return self.emit(R.where(large, x, soft))

    def _group_norm(self, node):
        x = self.tensor(self.arg(node, 0), node)
        groups = self.arg(node, 1, 1, "num_groups")
        weight, bias = self.arg(node, 2, None, "weight"), self.arg(node, 3, None, "bias")
        eps = self.arg(node, 4, 1e-5, "eps")
        channels, dtype = int(x.shape[1]), x.struct_info.dtype
        weight = weight if weight is not None else const(np.ones(channels, dtype))
        bias = bias if bias is not None else const(np.zeros(channels, dtype))
        return self.emit(R.nn.group_norm(x, weight, bias, groups, 1,
                                         list(range(2, len(x.shape))), eps))

    def _native_group_norm(self, node):
        x = self.tensor(self.arg(node, 0), node)
        weight, bias = self.arg(node, 1), self.arg(node, 2)
        groups, eps = self.arg(node, 6), self.arg(node, 7)
        channels, dtype = int(x.shape[1]), x.struct_info.dtype
        weight = weight if weight is not None else const(np.ones(channels, dtype))
        bias = bias if bias is not None else const(np.zeros(channels, dtype))
        out = self.emit(R.nn.group_norm(x, weight, bias, groups, 1,
                                        list(range(2, len(x.shape))), eps))
        return (out, None, None)

    def _native_layer_norm(self, node):
        return (self._layer_norm(node), None, None)

    def _cat(self, node):
        tensors = [self.tensor(t, node) for t in self.arg(node, 0)]
        return self.emit(R.concat(tensors, axis=self.arg(node, 1, 0, "dim")))

    def _stack(self, node):
        tensors = [self.tensor(t, node) for t in self.arg(node, 0)]
        return self.emit(R.stack(tensors, axis=self.arg(node, 1, 0, "dim")))

    def _tile(self, node):
        x = self.tensor(self.arg(node, 0), node)
        return self.emit(R.tile(x, list(self.arg(node, 1))))

    def _flip(self, node):
        x = self.tensor(self.arg(node, 0), node)
        for axis in self.arg(node, 1):
            x = self.emit(R.flip(x, axis))
        return x

    def _parts(self, node, x, sizes, axis):
        """The parts of x of `sizes` along `axis`, each bound."""
        bounds, total = [], 0
        for s in sizes[:-1]:
            total += s
            bounds.append(total)
        edges = [0] + bounds + [int(x.shape[axis])]
        return tuple(self.emit(R.strided_slice(x, [axis], [b], [e]))
                     for b, e in zip(edges, edges[1:]))

    def _split(self, node):
        x = self.tensor(self.arg(node, 0), node)
        axis = self.arg(node, 2, 0, "dim") % len(x.shape)
        size = int(x.shape[axis])
        sizes = self.arg(node, 1)
        if isinstance(sizes, int):
            sizes = [sizes] * (size // sizes) + ([size % sizes] if size % sizes else [])
        return self._parts(node, x, list(sizes), axis)

    def _chunk(self, node):
        x = self.tensor(self.arg(node, 0), node)
        axis = self.arg(node, 2, 0, "dim") % len(x.shape)
        size, chunks = int(x.shape[axis]), self.arg(node, 1)
        step = -(-size // chunks)
        sizes = [min(step, size - k) for k in range(0, size, step)]
        return self._parts(node, x, sizes, axis)

    def _unbind(self, node):
        x = self.tensor(self.arg(node, 0), node)
        axis = self.arg(node, 1, 0, "dim") % len(x.shape)
        parts = self._parts(node, x, [1] * int(x.shape[axis]), axis)
        return tuple(self.emit(R.squeeze(p, [axis])) for p in parts)

    def _empty(self, node):
        # Uninitialized in PyTorch: zeros here, so that results never depend
        # on memory left over.
        shape = list(self.arg(node, 0))
        return self.emit(R.zeros(shape, self._dtype_of(node, "float32")))

    def _empty_like(self, node):
        x = self.tensor(self.arg(node, 0), node)
        return self.emit(R.zeros(list(x.shape), self._dtype_of(node, x.struct_info.dtype)))

    def _any(self, node):
        x = self.tensor(self.arg(node, 0), node)
        axis = self.arg(node, 1, None, "dim")
        keepdim = self.arg(node, 2, False, "keepdim")
        as_int = self.emit(R.astype(x, "int8"))
        return self.emit(R.astype(self.emit(R.max(as_int, axis, keepdims=keepdim)), "bool"))

    def _copy(self, node):
        x = self.tensor(self.arg(node, 0), node)
        src = self.tensor(self.arg(node, 1), node)
        if src.struct_info.dtype != x.struct_info.dtype:
            src = self.emit(R.astype(src, x.struct_info.dtype))
        if tuple(src.shape) == tuple(x.shape):
            return src
        return self.emit(R.broadcast_to(src, list(x.shape)))

    def _index(self, node):
        """x[..., index, ...] with one index tensor (the other axes whole)."""
        x = self.tensor(self.arg(node, 0), node)
        indices = list(self.arg(node, 1))
        given = [k for k, i in enumerate(indices) if i is not None]
        if len(given) != 1:
            raise NotImplementedError(f"{self.name}: '{node.name}' indexes with "
                                      f"{len(given)} index tensors (one is supported)")
        index = self.tensor(indices[given[0]], node)
        if index.struct_info.dtype == "bool":
            raise NotImplementedError(f"{self.name}: '{node.name}' indexes with a bool mask "
                                      "(its result's shape depends on the data)")
        return self.emit(R.take(x, index, given[0], mode="fast"))

    def _gather(self, node):
        x = self.tensor(self.arg(node, 0), node)
        index = self.tensor(self.arg(node, 2, None, "index"), node)
        return self.emit(R.gather_elements(x, index, self.arg(node, 1)))

    def _slice_scatter(self, node):
        x = self.tensor(self.arg(node, 0), node)
        src = self.tensor(self.arg(node, 1), node)
        axis = self.arg(node, 2, 0, "dim") % len(x.shape)
        start = self.arg(node, 3, None, "start")
        end = self.arg(node, 4, None, "end")
        step = self.arg(node, 5, 1, "step")
        size = int(x.shape[axis])
        return self.emit(R.slice_scatter(x, src, 0 if start is None else start,
                                         size if end is None else min(end, size), step, axis))

    def _upsample(self, method, align_default=None):
        """upsample_nearest2d / upsample_bilinear2d (output size or scale
        factors) as image.resize2d with PyTorch's coordinates: nearest
        reads floor(o * in / out); bilinear half-pixel, or corners aligned."""
        def convert(node):
            x = self.tensor(self.arg(node, 0), node)
            size = self.arg(node, 1, None, "output_size")
            if method == "linear":
                align = self.arg(node, 2, align_default, "align_corners")
                scales = self.arg(node, 3, None, "scale_factors")
            else:
                align, scales = None, self.arg(node, 2, None, "scale_factors")
            if node.target.__name__.startswith("_upsample_bilinear2d_aa") and size is not None \
                    and (size[0] < int(x.shape[2]) or size[1] < int(x.shape[3])):
                raise NotImplementedError(f"{self.name}: '{node.name}' downsamples with "
                                          "antialiasing")
            if size is None:
                if scales is None:
                    raise NotImplementedError(f"{self.name}: '{node.name}' has neither an "
                                              "output size nor scale factors")
                size = [int(int(d) * s) for d, s in zip(x.shape[2:], scales)]
            if method == "nearest_neighbor":
                return self.emit(R.image.resize2d(x, list(size), method="nearest_neighbor",
                                                  coordinate_transformation_mode="asymmetric",
                                                  rounding_method="floor"))
            mode = "align_corners" if align else "half_pixel"
            return self.emit(R.image.resize2d(x, list(size), method="linear",
                                              coordinate_transformation_mode=mode))
        return convert

    def _arg_extreme(self, relax_op):
        def convert(node):
            x = self.tensor(self.arg(node, 0), node)
            return self.emit(relax_op(x, self.arg(node, 1, None, "dim"),
                                      bool(self.arg(node, 2, False, "keepdim"))))
        return convert

    def _where(self, node):
        cond = self.tensor(self.arg(node, 0), node)
        a, b = self.arg(node, 1), self.arg(node, 2)
        like = a if isinstance(a, Expr) else b
        if not isinstance(like, Expr):
            raise NotImplementedError(f"{self.name}: '{node.name}' selects between two numbers")
        return self.emit(R.where(cond, self.scalar_or_tensor(a, like),
                                 self.scalar_or_tensor(b, like)))

    def _clamp(self, node):
        x = self.tensor(self.arg(node, 0), node)
        low, high = self.arg(node, 1, None, "min"), self.arg(node, 2, None, "max")
        if isinstance(low, Expr) or isinstance(high, Expr):
            raise NotImplementedError(f"{self.name}: '{node.name}' clamps to tensor bounds")
        return self.emit(R.clip(x, -math.inf if low is None else low,
                                math.inf if high is None else high))

    def _hardtanh(self, node):
        x = self.tensor(self.arg(node, 0), node)
        return self.emit(R.clip(x, self.arg(node, 1, -1.0, "min_val"),
                                self.arg(node, 2, 1.0, "max_val")))

    def _to_copy(self, node):
        x = self.tensor(self.arg(node, 0), node)
        dtype = node.kwargs.get("dtype", self.arg(node, 1) if node.target.__name__.startswith(
            "to.") else None)
        if dtype is None:
            return x
        name = _DTYPES.get(str(dtype).replace("torch.", ""))
        if name is None:
            raise NotImplementedError(f"{self.name}: '{node.name}' converts to {dtype}")
        return self.emit(R.astype(x, name))  # a copy, as PyTorch's

    def _div(self, node):
        mode = node.kwargs.get("rounding_mode")
        if mode == "floor":
            return self._binary(node, R.floor_divide, operator.floordiv)
        if mode is not None:
            raise NotImplementedError(f"{self.name}: '{node.name}' divides with rounding mode "
                                      f"{mode!r}")
        return self._binary(node, R.divide, operator.truediv)

    def _permute(self, node):
        return self.emit(R.permute_dims(self.tensor(self.arg(node, 0), node),
                                        list(self.arg(node, 1))))

    def _transpose(self, node):
        x = self.tensor(self.arg(node, 0), node)
        rank = len(x.shape)
        a, b = self.arg(node, 1) % rank, self.arg(node, 2) % rank
        axes = list(range(rank))
        axes[a], axes[b] = axes[b], axes[a]
        return self.emit(R.permute_dims(x, axes))

    def _t(self, node):
        return self.emit(R.permute_dims(self.tensor(self.arg(node, 0), node)))

    def _as_rows(self, x):
        """x (N-D, N > 2) as a matrix of its last dimension's rows, and the
        leading dimensions to put back."""
        dims = [int(d) for d in x.shape]
        return self.emit(R.reshape(x, [int(np.prod(dims[:-1])), dims[-1]])), dims[:-1]

    def _linear(self, node):
        x = self.tensor(self.arg(node, 0), node)
        weight = self.tensor(self.arg(node, 1), node)
        bias = self.arg(node, 2, name="bias")
        if len(x.shape) <= 2:
            return self.emit(R.linear(x, weight, bias))
        rows, lead = self._as_rows(x)
        y = self.emit(R.linear(rows, weight, bias))
        return self.emit(R.reshape(y, lead + [int(weight.shape[0])]))

    def _matmul(self, node):
        a = self.tensor(self.arg(node, 0), node)
        b = self.tensor(self.arg(node, 1, name="other"), node)
        ra, rb = len(a.shape), len(b.shape)
        if (ra, rb) in ((2, 2), (3, 3)):
            return self.emit(R.matmul(a, b))
        if ra > 2 and rb == 2:  # rows of a times b
            rows, lead = self._as_rows(a)
            y = self.emit(R.matmul(rows, b))
            return self.emit(R.reshape(y, lead + [int(b.shape[1])]))
        sa, sb = [int(d) for d in a.shape], [int(d) for d in b.shape]
        if ra == rb > 3 and sa[:-2] == sb[:-2]:  # the leading dimensions as one batch
            batch = int(np.prod(sa[:-2]))
            y = self.emit(R.matmul(self.emit(R.reshape(a, [batch] + sa[-2:])),
                                   self.emit(R.reshape(b, [batch] + sb[-2:]))))
            return self.emit(R.reshape(y, sa[:-1] + [sb[-1]]))
        raise NotImplementedError(f"{self.name}: '{node.name}' multiplies shapes {sa} and "
                                  f"{sb} (broadcast batches are not supported)")

    def _squeeze(self, node):
        x = self.tensor(self.arg(node, 0), node)
        axes = self.arg(node, 1, None, "dim")
        if axes is not None:
            rank = len(x.shape)
            axes = [a % rank for a in (axes if isinstance(axes, (list, tuple)) else [axes])
                    if int(x.shape[a % rank]) == 1]  # PyTorch keeps the other axes
            if not axes:
                return x
        return self.emit(R.squeeze(x, axes))

    def _unsqueeze(self, node):
        x = self.tensor(self.arg(node, 0), node)
        return self.emit(R.expand_dims(x, self.arg(node, 1)))

    def _unflatten(self, node):
        x = self.tensor(self.arg(node, 0), node)
        dims = [int(d) for d in x.shape]
        axis = self.arg(node, 1) % len(dims)
        sizes = list(self.arg(node, 2))
        if -1 in sizes:
            known = int(np.prod([d for d in sizes if d != -1]))
            sizes[sizes.index(-1)] = dims[axis] // known
        return self.emit(R.reshape(x, dims[:axis] + sizes + dims[axis + 1:]))

    def _select(self, node):
        x = self.tensor(self.arg(node, 0), node)
        axis = self.arg(node, 1) % len(x.shape)
        return self.emit(R.take(x, const(np.array(self.arg(node, 2), "int64")), axis))

    def _index_select(self, node):
        x = self.tensor(self.arg(node, 0), node)
        index = self.tensor(self.arg(node, 2), node)
        return self.emit(R.take(x, index, self.arg(node, 1), mode="fast"))

    def _take(self, node):
        x = self.tensor(self.arg(node, 0), node)
        size = int(np.prod([int(d) for d in x.shape]))
        flat = self.emit(R.reshape(x, [size]))
        return self.emit(R.take(flat, self.tensor(self.arg(node, 1), node), 0, mode="fast"))

    def _conv(self, node, x, weight, bias, stride, padding, dilation, groups):
        if len(weight.shape) == 3 and not isinstance(padding, str):
            y = self.emit(R.nn.conv1d(x, weight, strides=stride, padding=padding,
                                      dilation=dilation, groups=groups))
            if bias is None:
                return y
            return self.emit(R.add(y, self.emit(R.reshape(bias, [1, int(bias.shape[0]), 1]))))
        if len(weight.shape) != 4:
            raise NotImplementedError(f"{self.name}: '{node.name}' is a {len(weight.shape) - 2}-D "
                                      "convolution (2-D is supported)")
        if isinstance(padding, str):
            raise NotImplementedError(f"{self.name}: '{node.name}' pads {padding!r}; explicit "
                                      "sizes are supported")
        y = self.emit(R.nn.conv2d(x, weight, strides=stride, padding=padding,
                                  dilation=dilation, groups=groups))
        if bias is None:
            return y
        return self.emit(R.add(y, self.emit(R.reshape(bias, [1, int(bias.shape[0]), 1, 1]))))

    def _conv2d(self, node):
        weight = self.tensor(self.arg(node, 1), node)
        dims = len(weight.shape) - 2
        return self._conv(node, self.tensor(self.arg(node, 0), node), weight,
                          self.arg(node, 2), self.arg(node, 3, [1] * dims),
                          self.arg(node, 4, [0] * dims), self.arg(node, 5, [1] * dims),
                          self.arg(node, 6, 1))

    def _convolution(self, node):
        if self.arg(node, 6):
            raise NotImplementedError(f"{self.name}: '{node.name}' is a transposed "
                                      "convolution")
        return self._conv(node, self.tensor(self.arg(node, 0), node),
                          self.tensor(self.arg(node, 1), node), self.arg(node, 2),
                          self.arg(node, 3), self.arg(node, 4), self.arg(node, 5),
                          self.arg(node, 8, 1))

    def _batch_norm_of(self, node, x, weight, bias, mean, var, eps):
        channels = int(x.shape[1])
        if weight is None:
            weight = const(np.ones(channels, x.struct_info.dtype))
        if bias is None:
            bias = const(np.zeros(channels, x.struct_info.dtype))
        if mean is None or var is None:
            raise NotImplementedError(f"{self.name}: '{node.name}' is a batch norm without "
                                      "running statistics")
        # (output, mean, variance) bound as a tuple, its output taken, as
        # Relax writes it.
        normalized = self.emit(R.nn.batch_norm(x, weight, bias, mean, var, axis=1, epsilon=eps))
        return self.emit(normalized[0])

    def _batch_norm(self, node):
        if self.arg(node, 5, name="training"):
            raise NotImplementedError(f"{self.name}: '{node.name}' is a batch norm in training "
                                      "mode; export the model after model.eval()")
        return self._batch_norm_of(node, self.tensor(self.arg(node, 0), node), self.arg(node, 1),
                                   self.arg(node, 2), self.arg(node, 3), self.arg(node, 4),
                                   self.arg(node, 7, 1e-5, "eps"))

    def _batch_norm_no_training(self, node):
        # (output, saved mean, saved inverse deviation): the last two are
        # empty in inference, and only the first is used.
        out = self._batch_norm_of(node, self.tensor(self.arg(node, 0), node),
                                  self.arg(node, 1), self.arg(node, 2), self.arg(node, 3),
                                  self.arg(node, 4), self.arg(node, 6, 1e-5, "eps"))
        return (out, None, None)

    def _max_pool2d(self, node):
        kernel = self.arg(node, 1)
        stride = self.arg(node, 2, None) or kernel
        if self.arg(node, 5, False, "ceil_mode"):
            raise NotImplementedError(f"{self.name}: '{node.name}' pools with ceil_mode")
        return self.emit(R.nn.max_pool2d(self.tensor(self.arg(node, 0), node), pool_size=kernel,
                                         strides=stride, padding=self.arg(node, 3, 0),
                                         dilation=self.arg(node, 4, 1)))

    def _avg_pool2d(self, node):
        x = self.tensor(self.arg(node, 0), node)
        kernel = self.arg(node, 1)
        stride = self.arg(node, 2, None, "stride") or kernel
        if self.arg(node, 6, None, "divisor_override") is not None:
            raise NotImplementedError(f"{self.name}: '{node.name}' pools with a "
                                      "divisor_override")
        return self.emit(R.nn.avg_pool2d(
            x, pool_size=kernel, strides=stride, padding=self.arg(node, 3, 0, "padding"),
            ceil_mode=self.arg(node, 4, False, "ceil_mode"),
            count_include_pad=self.arg(node, 5, True, "count_include_pad")))

    def _max_pool2d_with_indices(self, node):
        # (values, indices): the indices are not computed (zeros), as
        # inference never reads them.
        values = self._max_pool2d(node)
        return (values, self.emit(R.zeros_like(values)))

    def _adaptive_avg_pool2d(self, node):
        return self.emit(R.nn.adaptive_avg_pool2d(self.tensor(self.arg(node, 0), node),
                                                  output_size=tuple(self.arg(node, 1))))

    def _layer_norm(self, node):
        x = self.tensor(self.arg(node, 0), node)
        normalized = list(self.arg(node, 1))
        weight, bias = self.arg(node, 2), self.arg(node, 3)
        eps = self.arg(node, 4, 1e-5, "eps")
        rank = len(x.shape)
        axes = list(range(rank - len(normalized), rank))
        dtype = x.struct_info.dtype
        if weight is None:
            weight = const(np.ones(normalized, dtype))
        if bias is None:
            bias = const(np.zeros(normalized, dtype))
        return self.emit(R.nn.layer_norm(x, weight, bias, axes, eps))

    def _gelu(self, node):
        approximate = node.kwargs.get("approximate", self.arg(node, 1, "none"))
        relax_op = {"none": R.nn.gelu, "tanh": R.nn.gelu_tanh}.get(approximate)
        if relax_op is None:
            raise NotImplementedError(f"{self.name}: '{node.name}' is a GELU with "
                                      f"approximate={approximate!r}")
        return self.emit(relax_op(self.tensor(self.arg(node, 0), node)))

    def _embedding(self, node):
        weight, indices = self.tensor(self.arg(node, 0), node), self.tensor(self.arg(node, 1),
                                                                            node)
        if indices.struct_info.dtype != "int32":
            indices = self.emit(R.astype(indices, "int32"))
        return self.emit(R.take(weight, indices, axis=0))

    def _dropout(self, node):
        if self.arg(node, 2, False, "train"):
            raise NotImplementedError(f"{self.name}: '{node.name}' is a dropout in training "
                                      "mode; export the model after model.eval()")
        return self.arg(node, 0)

    def _attention(self, node):
        """torch's (batch, heads, sequence, features) attention as
        nn.attention's (batch, sequence, heads, features)."""
        q, k, v = (self.tensor(self.arg(node, i), node) for i in range(3))
        mask = self.arg(node, 3, None, "attn_mask")
        if self.arg(node, 4, 0.0, "dropout_p"):
            raise NotImplementedError(f"{self.name}: '{node.name}' is an attention with "
                                      "dropout")
        causal = "TopLeft" if self.arg(node, 5, False, "is_causal") else None
        scale = self.arg(node, 6, None, "scale")
        if len(q.shape) != 4:
            raise NotImplementedError(f"{self.name}: '{node.name}' is an attention of rank "
                                      f"{len(q.shape)} (4-D is supported)")
        q, k, v = (self.emit(R.permute_dims(t, [0, 2, 1, 3])) for t in (q, k, v))
        if mask is not None:
            mask = self.tensor(mask, node)
            if mask.struct_info.dtype == "bool":
                raise NotImplementedError(f"{self.name}: '{node.name}' masks with a bool "
                                          "tensor (an additive float mask is supported)")
            out = self.emit(R.nn.attention_bias(q, k, v, mask, scale, causal))
        else:
            out = self.emit(R.nn.attention(q, k, v, None, scale, causal))
        return self.emit(R.permute_dims(out, [0, 2, 1, 3]))

    # ------------------------------------------------------------- driver
    def _input_var(self, node, name):
        val = node.meta.get("val")
        if val is None or not hasattr(val, "shape"):
            raise NotImplementedError(f"{self.name}: input '{node.name}' is not a tensor")
        shape = []
        for d in val.shape:
            if not isinstance(d, int):
                raise NotImplementedError(
                    f"{self.name}: input '{node.name}' has the dynamic dimension {d}; graph "
                    "functions have static shapes (export without dynamic_shapes)")
            shape.append(d)
        dtype = _DTYPES.get(str(val.dtype).replace("torch.", ""))
        if dtype is None:
            raise NotImplementedError(f"{self.name}: input '{node.name}' is {val.dtype}")
        return Var(name, TensorStructInfo(tuple(shape), dtype))

    def translate(self, program, keep_params_as_input, unwrap_unit_return_tuple):
        torch = self.torch
        if not isinstance(program, torch.export.ExportedProgram):
            raise TypeError(f"from_exported_program takes a torch.export.ExportedProgram "
                            f"(torch.export.export(model, args)), got {type(program).__name__}")
        kinds = torch.export.graph_signature.InputKind
        specs = {s.arg.name: s for s in program.graph_signature.input_specs}
        self.bb = BlockBuilder()
        inputs, weights, weight_data = [], [], []
        for node in program.graph.nodes:
            if node.op != "placeholder":
                continue
            spec = specs[node.name]
            if spec.kind == kinds.USER_INPUT:
                self.env[node] = self._input_var(node, node.name)
                inputs.append(self.env[node])
                continue
            source = program.constants if spec.kind in (kinds.CONSTANT_TENSOR,) or \
                spec.target in program.constants else program.state_dict
            data = source[spec.target].detach().cpu().numpy()
            if keep_params_as_input:
                var = self._input_var(node, node.name)
                weights.append(var)
                weight_data.append(data)
                self.env[node] = var
            else:
                self.env[node] = const(data)
        # With the weights as inputs, the function says how many inputs are
        # the user's (Relax's num_input).
        attrs = {"num_input": len(inputs)} if keep_params_as_input else None
        with self.bb.function("main", inputs + weights, attrs=attrs):
            with self.bb.dataflow():
                for node in program.graph.nodes:
                    if node.op == "call_function":
                        key = self._key(node.target)
                        convert = self.aten.get(key)
                        if convert is None and "_." in key:
                            # An in-place operator (relu_, hardtanh_) whose
                            # result is used as its functional form's.
                            convert = self.aten.get(key.replace("_.", ".", 1))
                        if convert is None:
                            raise NotImplementedError(
                                f"{self.name}: operator {key} (node '{node.name}') is not "
                                "supported")
                        self.env[node] = convert(node)
                    elif node.op == "output":
                        results = self.value(node.args[0])
                        results = list(results) if isinstance(results, (list, tuple)) \
                            else [results]
                        for r in results:
                            if not isinstance(r, Expr):
                                raise NotImplementedError(f"{self.name}: the program returns "
                                                          f"{r!r}, not a tensor")
                        if unwrap_unit_return_tuple and len(results) == 1:
                            output = self.bb.emit_output(results[0])
                        else:
                            output = self.bb.emit_output(Tuple(results))
                    elif node.op != "placeholder":
                        raise NotImplementedError(f"{self.name}: node '{node.name}' is a "
                                                  f"{node.op}, which is not supported")
            self.bb.emit_func_output(output)
        mod = self.bb.get()
        if keep_params_as_input:
            mod = mod.with_attr("params", {"main": weight_data})
        return mod


def from_exported_program(exported_program, *, keep_params_as_input=False,
                          unwrap_unit_return_tuple=False, no_bind_return_tuple=False,
                          run_ep_decomposition=False, custom_convert_map=None):
    """An IRModule whose "main" computes `exported_program` (torch.export):
    the user inputs first; the parameters and buffers constants, or, with
    keep_params_as_input, inputs after them (their data in the module's
    "params" attribute, which relax.frontend.detach_params takes off). The
    result is a tuple, or its one tensor with unwrap_unit_return_tuple.

    `custom_convert_map` maps ATen operators ("add.Tensor") to functions
    `convert(node, importer)` returning the node's value, which they emit
    through `importer.block_builder` (its `env` maps the nodes before)."""
    if run_ep_decomposition:
        exported_program = exported_program.run_decompositions()
    importer = ExportedProgramImporter()
    for key, convert in (custom_convert_map or {}).items():
        if not callable(convert):
            raise TypeError(f"from_exported_program: custom_convert_map[{key!r}] is not a "
                            "function (node, importer) -> value")
        importer.aten[key] = lambda node, convert=convert: convert(node, importer)
    return importer.translate(exported_program, keep_params_as_input,
                              unwrap_unit_return_tuple)
