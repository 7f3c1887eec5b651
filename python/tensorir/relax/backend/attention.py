"""nn.attention as one GPU kernel: the graph's attention operators (kept
whole as tir.composite until legalized) replaced by calls of a fused
TensorIR kernel, as TVM's GPU pipelines hand attention to a fused library
kernel. Operators the kernel does not take (shapes of shape variables,
dtypes other than float16 / float32, sequences not a multiple of a warp,
rows whose scores do not fit the block's shared memory) are left to
legalization, which computes them in parts (matmuls and a softmax)."""
import math

from ... import te
from ...ir import IRModule
from ...ir.transform import Pass, PassInfo
from ...tir import op as _op

__all__ = ["DispatchAttention", "attention_kernel", "schedule_attention"]

_OPERATORS = ("nn.attention", "nn.attention_bias")
_DTYPES = {"f16": "float16", "f32": "float32"}
_WARP = 32


def attention_kernel(batch, queries, keys, heads, features, value_features, dtype,
                     scale=None, causal_mask=None, bias_shape=None, bias_dtype=None):
    """The TensorIR function of nn.attention: Q (batch, queries, heads,
    features), K (batch, keys, heads, features), V (batch, keys, heads,
    value_features), [a bias of `bias_shape`: (batch, heads, queries, keys)
    or broadcasting to (batch * heads, queries, keys)], O (batch, queries,
    heads, value_features). Six stages, the scores and their statistics in
    float32: "S" (Q K^T), "max" (of the scaled, biased, masked scores per
    row), "P" (their exponentials less the maximum), "sum", "PV" (P V)
    and "O" (PV / sum, in `dtype`); schedule_attention makes them one
    kernel."""
    scale = 1.0 / math.sqrt(features) if scale is None else float(scale)
    q = te.placeholder((batch, queries, heads, features), dtype, "Q")
    k = te.placeholder((batch, keys, heads, features), dtype, "K")
    v = te.placeholder((batch, keys, heads, value_features), dtype, "V")
    bias = None if bias_shape is None else te.placeholder(tuple(bias_shape),
                                                          bias_dtype or dtype, "bias")
    f32 = "float32"

    def bias_at(b, h, i, j):
        if tuple(bias_shape) == (batch, heads, queries, keys):
            return bias[b, h, i, j]
        # Right-aligned to (batch * heads, queries, keys), a size-1 axis
        # broadcast.
        full = ((b * heads + h, batch * heads), (i, queries), (j, keys))
        index = [0 if size == 1 else full[len(full) - len(bias_shape) + axis][0]
                 for axis, size in enumerate(bias_shape)]
        return bias[tuple(index)]

    r = te.reduce_axis((0, features), "r")
    s = te.compute((batch, heads, queries, keys),
                   lambda b, h, i, j: te.sum(q[b, i, h, r].astype(f32) * k[b, j, h, r].astype(f32),
                                             axis=r), name="S")
    offset = None if causal_mask is None else (0 if causal_mask == "TopLeft"
                                               else keys - queries)

    def score(b, h, i, j):
        x = s[b, h, i, j] * te.const(scale, f32)
        if bias is not None:
            x = x + bias_at(b, h, i, j).astype(f32)
        if offset is not None:
            x = _op.if_then_else(j <= i + offset, x, te.min_value(f32))
        return x

    j = te.reduce_axis((0, keys), "j")
    mx = te.compute((batch, heads, queries), lambda b, h, i: te.max(score(b, h, i, j), axis=j),
                    name="max")
    p = te.compute((batch, heads, queries, keys),
                   lambda b, h, i, jj: te.exp(score(b, h, i, jj) - mx[b, h, i]), name="P")
    j2 = te.reduce_axis((0, keys), "j")
    den = te.compute((batch, heads, queries), lambda b, h, i: te.sum(p[b, h, i, j2], axis=j2),
                     name="sum")
    j3 = te.reduce_axis((0, keys), "j")
    acc = te.compute((batch, heads, queries, value_features),
                     lambda b, h, i, c: te.sum(p[b, h, i, j3] * v[b, j3, h, c].astype(f32),
                                               axis=j3), name="PV")
    out = te.compute((batch, queries, heads, value_features),
                     lambda b, i, h, c: (acc[b, h, i, c] / den[b, h, i]).astype(dtype), name="O")
    args = [q, k, v] + ([bias] if bias is not None else []) + [out]
    return te.create_prim_func(args)


def schedule_attention(func, rows=8):
    """One kernel of the six stages: attention_kernel's, or any function of
    blocks "S", "max", "P", "sum", "PV", "O" over (heads, query, key or
    feature) (one head axis; the output (heads, query, feature) too). A
    block of `rows`
    warps per `rows` queries of a head (the leading axes and the row tile
    fused on blockIdx.x), a warp per query (threadIdx.y). The block's query
    rows are staged in shared memory; a warp's 32 lanes (threadIdx.x)
    compute the row's scores (kept in dynamic shared memory, as are their
    exponentials: 2 x rows x keys floats, which bound keys and rows by the
    GPU's shared memory), reduce its maximum and sum by warp shuffles, and
    then each lane computes every 32nd output feature, its sum over the
    keys in a register."""
    from ...tir.schedule import Schedule
    sch = Schedule(func)
    out = sch.get_block("O")
    loops = sch.get_loops(out)
    if len(sch.get_loops(sch.get_block("S"))) == 5:
        # attention_kernel's: its stages run over (batch, head, query, ...),
        # its output over (batch, query, head, feature); the same order.
        b, i, h, c = loops
        sch.reorder(b, h, i, c)
        loops = [b, h, i, c]
    *outer, i, c = loops
    i_b, i_t = sch.split(i, [None, rows])
    block_x = sch.fuse(*outer, i_b)
    sch.bind(block_x, "blockIdx.x")
    sch.bind(i_t, "threadIdx.y")
    _, lane = sch.split(c, [None, _WARP])
    sch.bind(lane, "threadIdx.x")
    acc = sch.get_block("PV")
    sch.compute_at(acc, lane)
    sch.set_scope(acc, 0, "local")
    for name in ("sum", "P", "max", "S"):
        block = sch.get_block(name)
        sch.compute_at(block, block_x)
        loops = sch.get_loops(block)
        sch.bind(loops[1], "threadIdx.y")
        _, lane = sch.split(loops[2], [None, _WARP])
        sch.bind(lane, "threadIdx.x")
        sch.set_scope(block, 0, "shared.dyn" if name in ("S", "P") else "shared")
    q_rows = sch.cache_read(sch.get_block("S"), 0, "shared")
    sch.compute_at(q_rows, block_x)
    row, feature = sch.get_loops(q_rows)[-2:]
    sch.bind(row, "threadIdx.y")
    _, lane = sch.split(feature, [None, _WARP])
    sch.bind(lane, "threadIdx.x")
    return sch


def _rows(queries, keys, features, dtype, shared_bytes):
    """The most queries (8, 4, 2 or 1, dividing `queries`) a block takes
    whose scores, exponentials, statistics and query rows fit
    `shared_bytes`; None when not even one row does."""
    item = 2 if dtype == "float16" else 4
    for rows in (8, 4, 2, 1):
        need = 2 * rows * keys * 4 + 2 * rows * 4 + rows * features * item
        if queries % rows == 0 and need <= shared_bytes:
            return rows
    return None


class DispatchAttention(Pass):
    """On a GPU target, each nn.attention / nn.attention_bias operator of the
    graph functions that the fused kernel takes becomes a call of it
    (attention_kernel scheduled by schedule_attention, one private
    prim_func per operator, named "attention"): static shapes, float16 or
    float32, keys a multiple of 32, the feature sizes multiples of 32, and
    a block's rows fitting the target's shared memory per block. The others
    stay for LegalizeOps."""

    info = PassInfo(0, "DispatchAttention")

    def __init__(self, target):
        from ...target import Target
        self.target = target if isinstance(target, Target) else Target(target)

    def _kernel(self, attrs, inputs, results):
        """The scheduled kernel for one operator, or None."""
        if len(results) != 1 or any(None in shape for shape, _ in inputs + results):
            return None
        (q_shape, q_type), (k_shape, _), (v_shape, _) = inputs[:3]
        if q_type not in _DTYPES or any(t != q_type for _, t in inputs[:3]):
            return None
        dtype = _DTYPES[q_type]
        batch, queries, heads, features = q_shape
        keys, value_features = k_shape[1], v_shape[3]
        if keys % _WARP or features % _WARP or value_features % _WARP:
            return None
        shared = int(self.target.attrs.get("max_shared_memory_per_block", 48 * 1024))
        rows = _rows(queries, keys, features, dtype, shared)
        if rows is None:
            return None
        bias_shape = bias_dtype = None
        if len(inputs) == 4:
            bias_shape, bias_type = inputs[3]
            bias_dtype = _DTYPES.get(bias_type)
            if bias_dtype is None:
                return None
        func = attention_kernel(batch, queries, keys, heads, features, value_features, dtype,
                                attrs.get("scale"), attrs.get("causal_mask"), bias_shape,
                                bias_dtype)
        return schedule_attention(func, rows).mod["main"]

    def transform(self, mod, ctx=None):
        native = mod._native
        result = IRModule(mod, mod.attrs)
        for name in native.functions():
            if not native.is_graph_function(name):
                continue
            callees = {}
            for index, (op, attrs, inputs, results) in enumerate(native.composites(name)):
                if op not in _OPERATORS:
                    continue
                kernel = self._kernel(attrs, [tuple(x) for x in inputs],
                                      [tuple(x) for x in results])
                if kernel is None:
                    continue
                taken = set(result.function_names())
                callee = "attention"
                for k in range(1, len(taken) + 2):
                    if callee not in taken:
                        break
                    callee = f"attention{k}"
                result[callee] = kernel.with_name(callee).as_private()
                callees[index] = callee
            if callees:
                result = IRModule(result._native.replace_composites(name, callees), mod.attrs)
        return result
