"""The torch.export importer's tensor operators: tensors made from
sizes (zeros, full, arange, ...), layouts (slices, cat, split, permute,
squeeze, ...), indexing (select, take, gather, slice_scatter), reductions,
where / clamp / conversions. ExportedProgramImporter takes them from this
mixin."""
import math
import operator

import numpy as np

from ... import op as R
from ...expr import Expr, const
from .base_translator import DTYPES


class TensorOps:
    """Converters of ATen's tensor operators (each `convert(node)` gives
    the node's value, emitting through the importer's block builder)."""

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
        name = DTYPES.get(str(dtype).replace("torch.", ""))
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
        # Tensor bounds (clamp.Tensor) broadcast to x: maximum and minimum;
        # the numbers left, a clip (of the whole range without them).
        shape = list(x.struct_info.shape)
        if isinstance(low, Expr):
            x = self.emit(R.maximum(x, self.emit(R.broadcast_to(low, shape))))
            low = None
        if isinstance(high, Expr):
            x = self.emit(R.minimum(x, self.emit(R.broadcast_to(high, shape))))
            high = None
        return self.emit(R.clip(x, -math.inf if low is None else low,
                                math.inf if high is None else high))

    def _hardtanh(self, node):
        x = self.tensor(self.arg(node, 0), node)
        return self.emit(R.clip(x, self.arg(node, 1, -1.0, "min_val"),
                                self.arg(node, 2, 1.0, "max_val")))

    def _to_copy(self, node):
        x = self.tensor(self.arg(node, 0), node)
        dtype = node.kwargs.get("dtype", self.arg(node, 1) if node.target.__name__ == "to.dtype"
                                else None)
        if dtype is None:  # a copy to a device: the same dtype
            return self.emit(R.astype(x, x.struct_info.dtype))
        name = DTYPES.get(str(dtype).replace("torch.", ""))
        if name is None:
            raise NotImplementedError(f"{self.name}: '{node.name}' converts to {dtype}")
        return self.emit(R.astype(x, name))  # a copy, as PyTorch's

    def _div(self, node):
        mode = node.kwargs.get("rounding_mode")
        if mode == "floor":
            return self._binary(node, R.floor_divide, operator.floordiv)
        if mode == "trunc":
            quotient = self._binary(node, R.divide, operator.truediv)
            if not isinstance(quotient, Expr):
                return math.trunc(quotient)
            return self.emit(R.trunc(quotient))
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
        dims = list(x.shape)
        axis = self.arg(node, 1) % len(dims)
        sizes = list(self.arg(node, 2))
        # (A -1 is the reshape's to resolve: of a shape variable too.)
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

    def _padding_of(self, node, x, pads):
        """PyTorch's pad list (from the last axis backwards, (before,
        after) each) as (axis, before, after) of the padded axes."""
        pads = [int(p) for p in pads]
        rank = len(x.shape)
        if len(pads) % 2 or len(pads) > 2 * rank:
            raise NotImplementedError(f"{self.name}: '{node.name}' pads {len(pads)} sizes of a "
                                      f"{rank}-D tensor")
        if any(p < 0 for p in pads):
            raise NotImplementedError(f"{self.name}: '{node.name}' pads by a negative size "
                                      "(a crop)")
        return [(rank - 1 - k, pads[2 * k], pads[2 * k + 1]) for k in range(len(pads) // 2)]

    def _padded_with(self, node, x, pads, value):
        """x padded with `value` by PyTorch's pad list (R.nn.pad)."""
        width = [0] * (2 * len(x.shape))
        for axis, before, after in self._padding_of(node, x, pads):
            width[2 * axis], width[2 * axis + 1] = before, after
        return self.emit(R.nn.pad(x, width, pad_value=value))

    def _constant_pad(self, node):
        """constant_pad_nd(x, pad, value)."""
        return self._padded_with(node, self.tensor(self.arg(node, 0), node), self.arg(node, 1),
                                 self.arg(node, 2, 0.0, "value"))

    def _pad(self, node):
        """pad(x, pad, mode, value): constant padding, or each padded axis
        gathered at the indices reflect / replicate / circular read."""
        mode = self.arg(node, 2, "constant", "mode")
        x = self.tensor(self.arg(node, 0), node)
        if mode == "constant":
            value = self.arg(node, 3, None, "value")
            return self._padded_with(node, x, self.arg(node, 1), 0.0 if value is None else value)
        for axis, before, after in self._padding_of(node, x, self.arg(node, 1)):
            size = int(x.shape[axis])
            at = np.arange(-before, size + after)
            if mode == "reflect":
                if before >= size or after >= size:
                    raise NotImplementedError(f"{self.name}: '{node.name}' reflects by more "
                                              f"than the axis of size {size} minus 1")
                at = (size - 1) - np.abs((size - 1) - np.abs(at))
            elif mode == "replicate":
                at = np.clip(at, 0, size - 1)
            elif mode == "circular":
                if before > size or after > size:
                    raise NotImplementedError(f"{self.name}: '{node.name}' wraps around by "
                                              f"more than the axis of size {size}")
                at = at % size
            else:
                raise NotImplementedError(f"{self.name}: '{node.name}' pads in mode {mode!r}")
            x = self.emit(R.take(x, const(at.astype("int64")), axis=axis))
        return x

    def _vector_norm(self, node):
        """linalg_vector_norm: max / min of |x| for ord +-inf, the number of
        non-zeros for ord 0, else (sum |x|^ord)^(1/ord)."""
        x = self.tensor(self.arg(node, 0), node)
        order = self.arg(node, 1, 2.0, "ord")
        axis = self.arg(node, 2, None, "dim")
        keepdims = bool(self.arg(node, 3, False, "keepdim"))
        if self.arg(node, 4, None, "dtype") is not None:
            raise NotImplementedError(f"{self.name}: '{node.name}' is a norm computed in "
                                      "another dtype")
        dtype = x.struct_info.dtype
        if not dtype.startswith(("float", "bfloat")):
            raise NotImplementedError(f"{self.name}: '{node.name}' is a norm of a {dtype} "
                                      "tensor (floating-point tensors are supported)")
        if isinstance(axis, (list, tuple)) and len(axis) == 0:
            axis = None
        if order in (math.inf, -math.inf):
            reduce = R.max if order > 0 else R.min
            return self.emit(reduce(self.emit(R.abs(x)), axis, keepdims=keepdims))
        if order == 0:
            nonzero = self.emit(R.not_equal(x, const(np.array(0, dtype))))
            return self.emit(R.sum(self.emit(R.astype(nonzero, dtype)), axis,
                                   keepdims=keepdims))
        powered = self.emit(R.power(self.emit(R.abs(x)), const(np.array(order, dtype))))
        total = self.emit(R.sum(powered, axis, keepdims=keepdims))
        return self.emit(R.power(total, const(np.array(1.0 / order, dtype))))

    def _eye(self, node):
        """eye(n[, m]): where the row index equals the column index."""
        n = int(self.arg(node, 0))
        m = int(self.arg(node, 1)) if len(node.args) > 1 else n
        dtype = self._dtype_of(node, "float32")
        rows = self.emit(R.arange(0, n, 1, "int64"))
        columns = self.emit(R.arange(0, m, 1, "int64"))
        diagonal = self.emit(R.equal(self.emit(R.expand_dims(rows, [-1])), columns))
        one = self.emit(R.full([1], const(np.array(1, dtype)), dtype))
        return self.emit(R.where(diagonal, one, const(np.array(0, dtype))))

    def _item(self, node):
        """_local_scalar_dense (Tensor.item()): the one element, as a 0-D
        tensor."""
        x = self.tensor(self.arg(node, 0), node)
        if int(np.prod([int(d) for d in x.shape])) != 1:
            raise NotImplementedError(f"{self.name}: '{node.name}' takes the item of a "
                                      f"tensor of shape {tuple(int(d) for d in x.shape)}, "
                                      "not of one element")
        if len(x.shape) != 1:
            x = self.emit(R.reshape(x, [1]))
        return self.emit(R.take(x, const(np.array(0, "int64")), axis=0))

    def _one_hot(self, node):
        """one_hot(indices, num_classes): 1 where the class equals the index."""
        x = self.tensor(self.arg(node, 0), node)
        classes = int(self.arg(node, 1, -1, "num_classes"))
        if classes < 0:
            raise NotImplementedError(f"{self.name}: '{node.name}' is a one_hot without "
                                      "num_classes (a size read from the data)")
        hit = self.emit(R.equal(self.emit(R.expand_dims(x, [-1])),
                                self.emit(R.arange(0, classes, 1, x.struct_info.dtype))))
        return self.emit(R.astype(hit, "int64"))

    def _sort_order(self, node):
        """The tensor, axis and direction of sort / argsort (x, dim,
        descending) or of their .stable forms (x, stable=, dim=,
        descending=), and its stable order along the axis."""
        x = self.tensor(self.arg(node, 0), node)
        if node.target.__name__.endswith("stable"):
            axis, descending = node.kwargs.get("dim", -1), node.kwargs.get("descending", False)
        else:
            axis, descending = self.arg(node, 1, -1, "dim"), self.arg(node, 2, False, "descending")
        axis %= len(x.shape)
        return x, axis, self.emit(R.argsort(x, axis, bool(descending), "int64"))

    def _argsort(self, node):
        return self._sort_order(node)[2]

    def _sort(self, node):
        """(values, indices)."""
        x, axis, indices = self._sort_order(node)
        return (self.emit(R.gather_elements(x, indices, axis)), indices)

    def _topk(self, node):
        """topk(x, k, dim, largest, sorted): (values, indices), in order."""
        x = self.tensor(self.arg(node, 0), node)
        result = self.emit(R.topk(x, self.arg(node, 1), self.arg(node, 2, -1, "dim"), "both",
                                  bool(self.arg(node, 3, True, "largest")), "int64"))
        return (self.emit(result[0]), self.emit(result[1]))

    def _extreme_dim(self, largest):
        """max.dim / min.dim(x, dim, keepdim): (values, indices) of the
        largest (smallest) element along `dim`, as a topk of 1 (the first
        index where there are equal ones)."""
        def convert(node):
            x = self.tensor(self.arg(node, 0), node)
            axis = self.arg(node, 1, name="dim")
            result = self.emit(R.topk(x, 1, axis, "both", largest, "int64"))
            if self.arg(node, 2, False, "keepdim"):
                return (self.emit(result[0]), self.emit(result[1]))
            return tuple(self.emit(R.squeeze(self.emit(result[k]), [axis])) for k in range(2))
        return convert

    def _median(self, node):
        """median(x) (a value) and median.dim(x, dim, keepdim) (values,
        indices): the lower median, NaN where there is one."""
        x = self.tensor(self.arg(node, 0), node)
        if len(node.args) < 2 and "dim" not in node.kwargs:
            return self.emit(R.median(x))
        result = self.emit(R.median(x, [self.arg(node, 1, None, "dim")],
                                    bool(self.arg(node, 2, False, "keepdim"))))
        return (self.emit(result[0]), self.emit(result[1]))

    def _bucketize(self, node):
        x = self.tensor(self.arg(node, 0), node)
        boundaries = self.tensor(self.arg(node, 1), node)
        return self.emit(R.bucketize(x, boundaries, bool(node.kwargs.get("out_int32", False)),
                                     bool(node.kwargs.get("right", False))))

    def _hamming_window(self, node):
        """hamming_window(size[, periodic[, alpha[, beta]]])."""
        size = self.arg(node, 0)
        periodic = self.arg(node, 1, True, "periodic")
        alpha = self.arg(node, 2, 0.54, "alpha")
        beta = self.arg(node, 3, 0.46, "beta")
        return self.emit(R.hamming_window(size, int(bool(periodic)), alpha, beta,
                                          self._dtype_of(node, "float32")))
