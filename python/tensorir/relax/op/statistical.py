"""relax.op's reductions: sum, mean, max, min, prod over some axes (all
when axis is None), keeping them as size 1 with keepdims; variance and std
in terms of mean; argmax and argmin (the first extreme's int64 index along
one axis, of the flattened tensor when axis is None); cumsum and cumprod
along an axis (of the flattened tensor when None)."""
from ..expr import Call
from ..struct_info import TENSOR_DTYPES, SymDim, TensorStructInfo
from ._common import axes_of, tensor_of

__all__ = ["argmax", "argmin", "cumprod", "cumsum", "max", "mean", "min", "prod", "std", "sum",
           "variance"]


def _reduce(name):
    def op(x, axis=None, keepdims=False):
        info = tensor_of(x, name, "x")
        if info.dtype == "bool":
            raise TypeError(f"relax.op.{name}: takes numbers, not bool tensors "
                            "(R.astype first)")
        if name == "mean" and not info.dtype.startswith(("float", "bfloat")):
            raise TypeError(f"relax.op.mean: takes floating-point tensors, not {info.dtype} "
                            "(R.astype first)")
        axes = axes_of(axis, len(info.shape), name)
        if any(isinstance(info.shape[a], SymDim) for a in axes):
            raise ValueError(f"relax.op.{name}: reduces axes {axes} of "
                             f"({', '.join(map(str, info.shape))}); shape variables size the "
                             "kept axes only")
        shape = [1 if i in axes else d for i, d in enumerate(info.shape)
                 if keepdims or i not in axes]
        return Call(f"relax.{name}", [x], TensorStructInfo(tuple(shape), info.dtype),
                    {"axis": axes, "keepdims": bool(keepdims)})
    op.__name__ = name
    op.__doc__ = f"relax.op.{name} over `axis` (all axes when None)."
    return op


sum = _reduce("sum")  # noqa: A001 - relax's names
mean = _reduce("mean")
max = _reduce("max")  # noqa: A001
min = _reduce("min")  # noqa: A001
prod = _reduce("prod")


def variance(x, axis=None, keepdims=False):
    """mean((x - mean(x))^2) over `axis` (the population variance)."""
    from .binary import multiply, subtract
    centered = subtract(x, mean(x, axis, keepdims=True))
    return mean(multiply(centered, centered), axis, keepdims)


def std(x, axis=None, keepdims=False):
    """sqrt(variance(x))."""
    from .unary import sqrt
    return sqrt(variance(x, axis, keepdims))




def _arg_extreme(name):
    def op(x, axis=None, keepdims=False):
        from . import reshape
        info = tensor_of(x, name, "x")
        if info.dtype == "bool":
            raise TypeError(f"relax.op.{name}: takes numbers, not bool tensors "
                            "(R.astype first)")
        if axis is None:
            size = 1
            for d in info.shape:
                size *= d
            flat = reshape(x, [size])
            out = op(flat, 0, False)
            return reshape(out, [1] * len(info.shape)) if keepdims else out
        axis = axes_of(axis, len(info.shape), name)
        if len(axis) != 1:
            raise ValueError(f"relax.op.{name}: reduces one axis, got {axis}")
        axis = axis[0]
        shape = [1 if i == axis else d for i, d in enumerate(info.shape)
                 if keepdims or i != axis]
        return Call(f"relax.{name}", [x], TensorStructInfo(tuple(shape), "int64"),
                    {"axis": axis, "keepdims": bool(keepdims)})
    op.__name__ = name
    op.__doc__ = f"relax.op.{name}: the index of the first extreme element along `axis`."
    return op


argmax = _arg_extreme("argmax")
argmin = _arg_extreme("argmin")


def _scan(name):
    def op(data, axis=None, dtype=None, exclusive=False):
        from . import reshape
        info = tensor_of(data, name, "data")
        if axis is None:  # over the flattened tensor
            size = 1
            for d in info.shape:
                size *= int(d)
            data, info = reshape(data, (size,)), TensorStructInfo((size,), info.dtype)
            axis = 0
        axis = axes_of(axis, len(info.shape), name)
        if len(axis) != 1:
            raise ValueError(f"relax.op.{name}: scans along one axis")
        out = str(dtype) if dtype is not None else info.dtype
        if out not in TENSOR_DTYPES or out == "bool":
            raise ValueError(f"relax.op.{name}: unsupported result dtype {out!r}")
        attrs = {"axis": axis[0], "exclusive": bool(exclusive)}
        if dtype is not None:
            attrs["dtype"] = out
        return Call(f"relax.{name}", [data], TensorStructInfo(info.shape, out), attrs)
    op.__name__ = name
    op.__doc__ = (f"relax.op.{name}: the running {'sum' if name == 'cumsum' else 'product'} "
                  "along `axis` (without the element itself when `exclusive`), each "
                  "element converted to `dtype` first.")
    return op


cumsum = _scan("cumsum")
cumprod = _scan("cumprod")
