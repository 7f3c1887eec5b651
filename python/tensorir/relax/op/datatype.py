"""relax.op.astype: a tensor's elements converted to another dtype (floats
to integers truncate; anything to bool is "not zero")."""
from ..expr import Call
from ..struct_info import TENSOR_DTYPES, TensorStructInfo
from ._common import tensor_of

__all__ = ["astype"]


def astype(x, dtype):
    info = tensor_of(x, "astype", "x")
    dtype = str(dtype)
    if dtype not in TENSOR_DTYPES:
        raise ValueError(f"relax.op.astype: unsupported dtype {dtype!r}; tensors hold "
                         f"{', '.join(TENSOR_DTYPES)}")
    return Call("relax.astype", [x], TensorStructInfo(info.shape, dtype), {"dtype": dtype})
