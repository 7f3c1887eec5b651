"""topi.nn: dense and relu as TVM's topi writes them."""
from .. import te


def dense(data, weight, bias=None, out_dtype=None):
    """data @ weight.T (+ bias): one reduction block `T_matmul_NT`, then
    `T_add` for the bias."""
    if len(data.shape) != 2 or len(weight.shape) != 2:
        raise ValueError("topi.nn.dense takes 2-D data and weight")
    batch, in_dim = (int(d) for d in data.shape)
    out_dim, red_dim = (int(d) for d in weight.shape)
    if in_dim != red_dim:
        raise ValueError(f"topi.nn.dense: data has {in_dim} features, weight {red_dim}")
    if out_dtype not in (None, data.dtype):
        raise NotImplementedError("topi.nn.dense: out_dtype other than the data's")
    k = te.reduce_axis((0, in_dim), name="k")
    mat = te.compute((batch, out_dim),
                     lambda i0, i1: te.sum(data[i0, k] * weight[i1, k], axis=k),
                     name="T_matmul_NT")
    if bias is None:
        return mat
    return te.compute((batch, out_dim), lambda i, j: mat[i, j] + bias[j], name="T_add")


def relu(x):
    """max(x, 0) element-wise (block `compute`)."""
    return te.compute(x.shape, lambda *i: te.max(x(*i), te.const(0, x.dtype)), name="compute")
