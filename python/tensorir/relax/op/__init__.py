"""relax.op: graph operators. call_tir calls a prim_func; the others are
high-level operators whose graph form is upstream MLIR (linalg on tensors,
tensor reshapes), turned into prim_funcs by --tir-legalize-ops when built.

Shapes are checked here, where the operator is made, with errors naming
the operator."""
import numpy as np

from ..._shapes import reshape_target
from ..block_builder import call_dps_packed, call_pure_packed, call_tir, call_tir_inplace
from ..expr import Call
from ..struct_info import ObjectStructInfo, TensorStructInfo, is_symbolic
from . import (binary, create, datatype, image, index, manipulate, nn, search, sorting,
               statistical, unary)
from ._common import tensor_of
from .binary import *  # noqa: F401,F403 - relax.op.add, ...
from .create import *  # noqa: F401,F403 - relax.op.full, ...
from .datatype import astype
from .index import gather_elements, slice_scatter, take
from .manipulate import *  # noqa: F401,F403 - relax.op.strided_slice, ...
from .search import where
from .sorting import *  # noqa: F401,F403 - relax.op.argsort, ...
from .statistical import *  # noqa: F401,F403 - relax.op.sum, ...
from .unary import *  # noqa: F401,F403 - relax.op.exp, ...

__all__ = (["astype", "call_dps_packed", "call_pure_packed", "call_tir",
            "call_tir_inplace", "einsum", "flatten", "gather_elements", "image", "linear",
            "matmul", "nn", "null_value", "permute_dims", "reshape", "slice_scatter", "take",
            "where"]
           + binary.__all__ + create.__all__ + manipulate.__all__ + sorting.__all__
           + statistical.__all__ + unary.__all__)


def null_value():
    """An R.Object holding nothing (what a module's _initialize_effect gives
    its effect handles)."""
    return Call("relax.null_value", [], ObjectStructInfo())


def permute_dims(x, axes=None):
    """The dimensions of x in the order `axes` (None: reversed)."""
    info = tensor_of(x, "permute_dims", "x")
    rank = len(info.shape)
    axes = list(range(rank))[::-1] if axes is None else [int(a) % rank for a in axes]
    if sorted(axes) != list(range(rank)):
        raise ValueError(f"relax.op.permute_dims: axes {axes} are not a permutation of "
                         f"{rank} dimensions")
    shape = tuple(info.shape[a] for a in axes)
    return Call("relax.permute_dims", [x], TensorStructInfo(shape, info.dtype),
                {"axes": axes})


def matmul(x1, x2, out_dtype=None):
    """numpy.matmul: the matrix product over the last two axes, the batch
    axes before them broadcast; a 1-D operand is a row (x1) or a column
    (x2) whose axis the result drops. 2-D by 2-D and 3-D by 3-D of one
    batch are linalg's matmul and batch_matmul, N-D rows by a matrix one
    block over the result's axes; the others are made of them (batches
    broadcast and flattened)."""
    a, b = tensor_of(x1, "matmul", "x1"), tensor_of(x2, "matmul", "x2")
    if out_dtype not in (None, "void", "", a.dtype):
        raise NotImplementedError("relax.op.matmul: out_dtype other than the inputs'")
    if a.dtype != b.dtype:
        raise ValueError(f"relax.op.matmul: the operands' dtypes differ ({a.dtype} and "
                         f"{b.dtype})")
    sa, sb = tuple(a.shape), tuple(b.shape)
    if not sa or not sb:
        raise ValueError("relax.op.matmul: the operands have at least one dimension")
    if len(sa) == len(sb) == 2 and sa[1] == sb[0]:
        return Call("relax.matmul", [x1, x2], TensorStructInfo((sa[0], sb[1]), a.dtype))
    if len(sa) == len(sb) == 3 and sa[0] == sb[0] and sa[2] == sb[1]:
        return Call("relax.matmul", [x1, x2],
                    TensorStructInfo((sa[0], sa[1], sb[2]), a.dtype))
    if len(sa) > 2 and len(sb) == 2 and sa[-1] == sb[0] and not is_symbolic(sa + sb):
        return Call("relax.matmul", [x1, x2], TensorStructInfo(sa[:-1] + (sb[1],), a.dtype))
    return _matmul_composed(x1, x2, sa, sb)


def _matmul_composed(x1, x2, sa, sb):
    """matmul of the shapes no one call takes."""
    from ..._shapes import broadcast_shape
    if is_symbolic(sa + sb):
        raise ValueError(f"relax.op.matmul: shapes {sa} and {sb} with shape variables "
                         "multiply only as 2-D by 2-D or 3-D by 3-D of one batch")
    a_row, b_col = len(sa) == 1, len(sb) == 1
    ma = (1,) + sa if a_row else sa
    mb = sb + (1,) if b_col else sb
    if ma[-1] != mb[-2]:
        raise ValueError(f"relax.op.matmul: shapes {sa} and {sb} do not multiply (x1's "
                         f"last dimension {ma[-1]} is not x2's rows {mb[-2]})")
    batch = broadcast_shape(ma[:-2], mb[:-2], "relax.op.matmul")
    m, k, n = ma[-2], ma[-1], mb[-1]
    count = int(np.prod(batch, dtype=np.int64))
    if len(mb) == 2:  # x1's rows flattened times x2
        out = matmul(reshape(x1, [count * m, k]), reshape(x2, [k, n]))
    else:
        def batched(x, shape, rows, cols):
            full = tuple(batch) + (rows, cols)
            if tuple(shape) != full:
                x = broadcast_to(reshape(x, list(shape)), list(full))
            return reshape(x, [count, rows, cols])
        out = matmul(batched(x1, ma, m, k), batched(x2, mb, k, n))
    shape = list(batch) + ([] if a_row else [m]) + ([] if b_col else [n])
    return reshape(out, shape)


def einsum(operands, *more, subscripts=None):
    """numpy's einsum of the tensors `operands` (a tuple, as R.einsum((x,
    y), "ij,jk->ik") writes them; R.einsum(x, y, subscripts=...) too) by
    `subscripts` (letters, without "..."): the product of the operands
    summed over the letters the output does not keep."""
    operands = list(operands) if isinstance(operands, (list, tuple)) else [operands]
    for item in more:
        if isinstance(item, str) and subscripts is None:
            subscripts = item
        else:
            operands.append(item)
    if not isinstance(subscripts, str):
        raise TypeError("relax.op.einsum: subscripts is a string such as 'ij,jk->ik'")
    infos = [tensor_of(x, "einsum", f"operand {k}") for k, x in enumerate(operands)]
    if "..." in subscripts:
        raise NotImplementedError("relax.op.einsum: subscripts with '...' are not supported")
    lhs, _, rhs = subscripts.partition("->")
    terms = lhs.split(",")
    if len(terms) != len(operands):
        raise ValueError(f"relax.op.einsum: subscripts '{subscripts}' name {len(terms)} "
                         f"operand(s), given {len(operands)}")
    sizes = {}
    for k, (term, info) in enumerate(zip(terms, infos)):
        if len(term) != len(info.shape) or not term.isalpha():
            raise ValueError(f"relax.op.einsum: operand {k} of shape "
                             f"{tuple(info.shape)} has subscripts '{term}'")
        for c, d in zip(term, info.shape):
            if sizes.setdefault(c, d) != d:
                raise ValueError(f"relax.op.einsum: letter '{c}' has sizes {sizes[c]} and {d}")
    if any(i.dtype != infos[0].dtype for i in infos):
        raise ValueError("relax.op.einsum: the operands' dtypes differ")
    out = rhs if "->" in subscripts else "".join(sorted(c for c in sizes if lhs.count(c) == 1))
    if any(c not in sizes or out.count(c) != 1 for c in out):
        raise ValueError(f"relax.op.einsum: output subscripts '{out}' are not letters of the "
                         "operands, each once")
    return Call("relax.einsum", operands,
                TensorStructInfo(tuple(sizes[c] for c in out), infos[0].dtype),
                {"subscripts": subscripts})


def linear(data, weight, bias=None, out_dtype=None):
    """data @ weight.T + bias, as Relax writes it: permute_dims, matmul,
    add."""
    out = matmul(data, permute_dims(weight), out_dtype)
    return add(out, bias) if bias is not None else out


def reshape(x, shape):
    """The elements of x in row-major order in `shape` (one -1 takes the
    rest)."""
    info = tensor_of(x, "reshape", "x")
    shape = reshape_target(tuple(info.shape), shape, "relax.op.reshape")
    return Call("relax.reshape", [x], TensorStructInfo(tuple(shape), info.dtype))


def flatten(x):
    """All dimensions after the first as one (torch.flatten(x, 1))."""
    info = tensor_of(x, "flatten", "x")
    rest = 1
    for d in info.shape[1:]:
        rest *= d
    return reshape(x, (info.shape[0], rest))
