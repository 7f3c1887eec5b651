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
from ..op.nn import bias_fits

__all__ = ["DispatchAttention", "attention_kernel", "schedule_attention"]

_OPERATORS = ("nn.attention", "nn.attention_bias")
_DTYPES = {"f16": "float16", "f32": "float32"}
_WARP = 32


def attention_kernel(batch, queries, keys, heads, features, value_features, dtype,
                     scale=None, causal_mask=None, bias_shape=None, bias_dtype=None,
                     heads_first=(False, False, False, False)):
    """The TensorIR function of nn.attention: Q (batch, queries, heads,
    features), K (batch, keys, heads, features), V (batch, keys, heads,
    value_features), [a bias of `bias_shape`: (batch, heads, queries, keys)
    or broadcasting to (batch * heads, queries, keys)], O (batch, queries,
    heads, value_features); with heads_first[n] true, Q, K, V or O (n = 0
    to 3) is (batch, heads, sequence, features) instead (the layout the
    graph transposes it from or to). Six stages, the scores and their
    statistics in float32: "S" (Q K^T), "max" (of the scaled, biased,
    masked scores per row), "P" (their exponentials less the maximum),
    "sum", "PV" (P V) and "O" (PV / sum, in `dtype`); schedule_attention
    makes them one kernel."""
    scale = 1.0 / math.sqrt(features) if scale is None else float(scale)

    def tensor(n, length, size, name):
        shape = (batch, heads, length, size) if heads_first[n] else (batch, length, heads, size)
        return te.placeholder(shape, dtype, name)

    def at(n, t, b, h, i, c):
        """Element (head h, position i, feature c) of tensor n."""
        return t[b, h, i, c] if heads_first[n] else t[b, i, h, c]

    q = tensor(0, queries, features, "Q")
    k = tensor(1, keys, features, "K")
    v = tensor(2, keys, value_features, "V")
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
                   lambda b, h, i, j: te.sum(at(0, q, b, h, i, r).astype(f32)
                                             * at(1, k, b, h, j, r).astype(f32), axis=r),
                   name="S")
    offset = None if causal_mask is None else (0 if causal_mask == "TopLeft"
                                               else keys - queries)

    def score(b, h, i, j):
        x = s[b, h, i, j] * te.const(scale, f32)
        if bias is not None:
            x = x + bias_at(b, h, i, j).astype(f32)
        if offset is not None:
            # -inf, as the legalized parts mask: a row that sees no key
            # gives NaN either way.
            x = _op.if_then_else(j <= i + offset, x, te.const(float("-inf"), f32))
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
                     lambda b, h, i, c: te.sum(p[b, h, i, j3] * at(2, v, b, h, j3, c).astype(f32),
                                               axis=j3), name="PV")
    if heads_first[3]:
        out = te.compute((batch, heads, queries, value_features),
                         lambda b, h, i, c: (acc[b, h, i, c] / den[b, h, i]).astype(dtype),
                         name="O")
    else:
        out = te.compute((batch, queries, heads, value_features),
                         lambda b, i, h, c: (acc[b, h, i, c] / den[b, h, i]).astype(dtype),
                         name="O")
    args = [q, k, v] + ([bias] if bias is not None else []) + [out]
    return te.create_prim_func(args)


def schedule_attention(func, rows=8):
    """One kernel of the six stages: attention_kernel's, or any function of
    blocks "S", "max", "P", "sum", "PV", "O" over (heads, query, key or
    feature) (one head axis; the output (heads, query, feature) too). A
    block of `rows` warps per `rows` queries of a head (the leading axes
    and the row tile fused on blockIdx.x), a warp per query (threadIdx.y). The block's query
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
    # The output's loops in the order of the stages' (the order it reads
    # PV's result in: attention_kernel's output in (batch, query, head,
    # feature) reads it at (batch, head, query, feature)).
    node = sch.get(out)
    pv = sch.get(sch.get_block("PV")).writes[0].buffer
    read = next(r for r in node.reads if r.buffer.same_as(pv))
    order = [next(k for k, iv in enumerate(node.iter_vars) if iv.var.same_as(r.min))
             for r in read.region]
    if order != list(range(len(loops))):
        loops = [loops[k] for k in order]
        sch.reorder(*loops)
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

    def per_row(block):
        """`block` under block_x, its loops there the rows (none where a
        block takes one: threadIdx.y), then the keys or features (split
        over the lanes)."""
        sch.compute_at(block, block_x)
        loops = sch.get_loops(block)[1:]
        if rows > 1:
            sch.bind(loops.pop(0), "threadIdx.y")
        _, lane = sch.split(loops[0], [None, _WARP])
        sch.bind(lane, "threadIdx.x")

    for name in ("sum", "P", "max", "S"):
        block = sch.get_block(name)
        per_row(block)
        sch.set_scope(block, 0, "shared.dyn" if name in ("S", "P") else "shared")
    per_row(sch.cache_read(sch.get_block("S"), 0, "shared"))
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
    prim_func per operator, named "attention"), on CUDA targets: static
    shapes, float16 or float32, keys a multiple of 32, the feature sizes
    multiples of 32, and a block's rows fitting the target's shared memory
    per block. An input the graph transposes from (batch, heads, sequence,
    features), or a result it transposes back to that layout (PyTorch's),
    is read or written by the kernel in that layout, and the transpose
    goes. The others stay for LegalizeOps."""

    info = PassInfo(0, "DispatchAttention")

    def __init__(self, target):
        from ...target import Target
        self.target = target if isinstance(target, Target) else Target(target)

    def _kernel(self, attrs, inputs, results):
        """The scheduled kernel for one operator, with the inputs it reads
        before their transposes and whether it writes its result's
        transpose; None when the kernel does not take the operator."""
        if len(results) != 1 or len(inputs) not in (3, 4) or \
                any(None in shape for shape, _, _ in inputs + results):
            return None
        (q_shape, q_type, _), (k_shape, _, _), (v_shape, _, _) = inputs[:3]
        if q_type not in _DTYPES or any(t != q_type for _, t, _ in inputs[:3]):
            return None
        dtype = _DTYPES[q_type]
        if any(len(shape) != 4 for shape in (q_shape, k_shape, v_shape)):
            return None
        batch, queries, heads, features = q_shape
        keys, value_features = k_shape[1], v_shape[3]
        if tuple(k_shape) != (batch, keys, heads, features) or \
                tuple(v_shape[:3]) != (batch, keys, heads) or \
                tuple(results[0][0]) != (batch, queries, heads, value_features):
            return None  # (An operator not as relax.op.nn.attention makes it.)
        if keys % _WARP or features % _WARP or value_features % _WARP:
            return None
        shared = int(self.target.attrs.get("max_shared_memory_per_block", 48 * 1024))
        rows = _rows(queries, keys, features, dtype, shared)
        if rows is None:
            return None
        bias_shape = bias_dtype = None
        if len(inputs) == 4:
            bias_shape, bias_type, _ = inputs[3]
            bias_dtype = _DTYPES.get(bias_type)
            if bias_dtype is None or not bias_fits(bias_shape, batch, heads, queries, keys):
                return None
        # Q, K, V given by a transpose from (batch, heads, sequence,
        # features), or O transposed back to it (PyTorch's layout), are
        # read or written in that layout: the transposes go.
        swap = [0, 2, 1, 3]
        through = [n for n in range(3) if inputs[n][2] == swap]
        heads_first = [n in through for n in range(3)] + [results[0][2] == swap]
        func = attention_kernel(batch, queries, keys, heads, features, value_features, dtype,
                                attrs.get("scale"), attrs.get("causal_mask"), bias_shape,
                                bias_dtype, heads_first)
        return schedule_attention(func, rows).mod["main"], through, heads_first[3]

    def transform(self, mod, ctx=None):
        if self.target.kind.name not in ("cuda", "nvptx"):
            return mod  # (The kernel is written for NVIDIA's warps of 32.)
        native = mod._native
        result = IRModule(mod, mod.attrs)
        for name in native.functions():
            if not native.is_graph_function(name):
                continue
            callees = {}
            for index, (op, attrs, inputs, results) in enumerate(native.composites(name)):
                if op not in _OPERATORS:
                    continue
                made = self._kernel(attrs, [tuple(x) for x in inputs],
                                    [tuple(x) for x in results])
                if made is None:
                    continue
                kernel, through, result_through = made
                taken = set(result.function_names())
                callee = "attention"
                for k in range(1, len(taken) + 2):
                    if callee not in taken:
                        break
                    callee = f"attention{k}"
                result[callee] = kernel.with_name(callee).as_private()
                callees[index] = (callee, through, result_through)
            if callees:
                replaced = IRModule(result._native.replace_composites(name, callees),
                                    mod.attrs)
                replaced._symbols = dict(result._symbols)
                result = replaced
        return result
