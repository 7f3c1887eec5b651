"""Warpgroup tensor-core intrinsics (sm_90a's `wgmma.mma_async`), tir's own:
TVM registers none. A warpgroup (the 128 threads of four consecutive warps)
multiplies a 64 x 16 tile of A by a 16 x N tile of B into a 64 x N
accumulator, both operands read from shared memory by the tensor cores
(no ldmatrix), the accumulator in the threads' registers.

- The operands are K-major (A m x k, B given transposed, n x k: the
  product C = A B^T, as a linear layer's x W^T) in shared memory laid out
  `(k // 8, row, k % 8)`: rows of 8 elements (16 bytes) packed, so every
  8 x 8 block (a core matrix) is 128 contiguous bytes, the 8-row groups
  128 bytes apart and the two halves of a k step the first dimension's
  stride apart (`transform_layout` of the shared caches with
  `core_matrix_layout`; storage_align may pad that stride). The lowering
  describes each to the instruction by a descriptor (no swizzling).
- The accumulator is a "warpgroup" buffer (128, N / 2): row t is what
  thread t of the warpgroup holds, laid out as `warpgroup_layout` says
  (each warp 16 rows, as mma.sync's m16n8 accumulators, N / 8 of them).

`wgmma_m64n{N}k16_f16f16f32` (and `_bf16bf16f32`, `_dyn` for operands in
"shared.dyn"), `wgmma_fill_m64n{N}_f32` and `wgmma_store_m64n{N}_f32_global`
for N in 64, 128, 256. The product calls `tir.ptx_wgmma`, which the GPU
lowering makes NVVM's wgmma.mma_async (waited for at once); it needs
sm_90a.
"""
from .mma import _register

WARPGROUP_SIZE = 128
SIZES = (64, 128, 256)


def warpgroup_layout(i, j):
    """(thread, position) of element (i, j) of a 64 x N accumulator."""
    return (32 * (i // 16) + 4 * (i % 8) + j % 8 // 2,
            4 * (j // 8) + i % 16 // 8 * 2 + j % 2)


def core_matrix_layout(row, k):
    """Where element (row, k) of a K-major operand tile lies in shared
    memory: (k // 8, row, k % 8)."""
    return k // 8, row, k % 8


_THREAD = "32 * ({i} // 16) + 4 * ({i} % 8) + {j} % 8 // 2"
_POSITION = "4 * ({j} // 8) + {i} % 16 // 8 * 2 + {j} % 2"
# (row, column) of the element thread {t} holds at position {l}.
_ROW = "16 * ({t} // 32) + 8 * ({l} % 4 // 2) + {t} % 32 // 4"
_COL = "8 * ({l} // 4) + {t} % 4 * 2 + {l} % 2"

# Each description and implementation: the same buffers (`{kind}` is
# "desc" or "impl"), then its own body.
_MMA_HEAD = """
@T.prim_func
def {kind}(a: T.handle, b: T.handle, c: T.handle):
    A = T.match_buffer(a, (2, 64, 8), "{dtype}", align=16, offset_factor=8, scope="{scope}")
    B = T.match_buffer(b, (2, {n}, 8), "{dtype}", align=16, offset_factor=8, scope="{scope}")
    C = T.match_buffer(c, (128, {half}), "float32", align=16, offset_factor=1,
                       scope="warpgroup")
    with T.block("root"):
        T.reads(C[0:128, 0:{half}], A[0:2, 0:64, 0:8], B[0:2, 0:{n}, 0:8])
        T.writes(C[0:128, 0:{half}])
"""

_MMA_DESC = _MMA_HEAD + """\
        for i, j, k in T.grid(64, {n}, 16):
            with T.block("C"):
                vi, vj, vk = T.axis.remap("SSR", [i, j, k])
                T.reads(C[{thread}, {position}], A[vk // 8, vi, vk % 8], B[vk // 8, vj, vk % 8])
                T.writes(C[{thread}, {position}])
                C[{thread}, {position}] = C[{thread}, {position}] + T.Cast(
                    "float32", A[vk // 8, vi, vk % 8]) * T.Cast("float32", B[vk // 8, vj, vk % 8])
"""

_MMA_IMPL = _MMA_HEAD + """\
        for tx in T.thread_binding(128, thread="threadIdx.x"):
            T.evaluate(T.call_extern("", "tir.ptx_wgmma", "m64n{n}k16", "{abbrv}", "{abbrv}",
                                     "fp32", A.data, B.data, C.data, 0))
"""

_FILL_HEAD = """
@T.prim_func
def {kind}(c: T.handle):
    C = T.match_buffer(c, (128, {half}), "float32", align=16, offset_factor=1,
                       scope="warpgroup")
    with T.block("root"):
        T.reads()
        T.writes(C[0:128, 0:{half}])
"""

_FILL_DESC = _FILL_HEAD + """\
        for i0, j0 in T.grid(64, {n}):
            with T.block("C"):
                i, j = T.axis.remap("SS", [i0, j0])
                T.reads()
                T.writes(C[{thread}, {position}])
                C[{thread}, {position}] = T.float32(0)
"""

_FILL_IMPL = _FILL_HEAD + """\
        for tx in T.thread_binding(128, thread="threadIdx.x"):
            for l in T.unroll({half}):
                C[tx, l] = T.float32(0)
"""

_STORE_HEAD = """
@T.prim_func
def {kind}(c: T.handle, d: T.handle):
    C = T.match_buffer(c, (128, {half}), "float32", align=16, offset_factor=1,
                       scope="warpgroup")
    D = T.match_buffer(d, (64, {n}), "float32", offset_factor=1, scope="{scope}")
    with T.block("root"):
        T.reads(C[0:128, 0:{half}])
        T.writes(D[0:64, 0:{n}])
"""

_STORE_DESC = _STORE_HEAD + """\
        for i0, j0 in T.grid(64, {n}):
            with T.block("C"):
                i, j = T.axis.remap("SS", [i0, j0])
                T.reads(C[{thread}, {position}])
                T.writes(D[i, j])
                D[i, j] = C[{thread}, {position}]
"""

_STORE_IMPL = _STORE_HEAD + """\
        for tx in T.thread_binding(128, thread="threadIdx.x"):
            for l in T.unroll({half}):
                D[{row}, {col}] = C[tx, l]
"""


def _register_pair(name, desc, impl, fields):
    return _register(name, desc.format(kind="desc", **fields), impl.format(kind="impl", **fields))


def _fields(n, i="i", j="j", **more):
    """The template fields for N = `n`, the accumulator's element (i, j)
    named by the variables `i` and `j`."""
    return dict(n=n, half=n // 2, thread=_THREAD.format(i=i, j=j),
                position=_POSITION.format(i=i, j=j), **more)


def _register_mma(n, dtype, abbrv, short, scope):
    fields = _fields(n, "vi", "vj", dtype=dtype, abbrv=abbrv, scope=scope)
    suffix = "_dyn" if scope == "shared.dyn" else ""
    return _register_pair(f"wgmma_m64n{n}k16_{short}{short}f32{suffix}", _MMA_DESC, _MMA_IMPL,
                          fields)


for _n in SIZES:
    for _dtype, _abbrv, _short in (("float16", "fp16", "f16"), ("bfloat16", "bf16", "bf16")):
        for _scope in ("shared", "shared.dyn"):
            _register_mma(_n, _dtype, _abbrv, _short, _scope)
    _register_pair(f"wgmma_fill_m64n{_n}_f32", _FILL_DESC, _FILL_IMPL, _fields(_n))
    for _scope in ("global", "shared", "shared.dyn"):
        _store = _fields(_n, scope=_scope, row=_ROW.format(t="tx", l="l"),
                         col=_COL.format(t="tx", l="l"))
        _register_pair(f"wgmma_store_m64n{_n}_f32_{_scope.replace('.', '_')}", _STORE_DESC,
                       _STORE_IMPL, _store)


def get_wgmma_intrin_group(n, in_dtype="float16", load_scope="shared.dyn",
                           store_scope="global"):
    """The names of one wgmma configuration's intrinsics: {"init",
    "compute", "store"} (the operands need no loads: the instruction reads
    them from shared memory)."""
    if n not in SIZES:
        raise ValueError(f"get_wgmma_intrin_group: n is one of {SIZES}, got {n!r}")
    shorts = {"float16": "f16", "bfloat16": "bf16"}
    if in_dtype not in shorts:
        raise ValueError(f"get_wgmma_intrin_group: in_dtype is float16 or bfloat16, "
                         f"got {in_dtype!r}")
    if load_scope not in ("shared", "shared.dyn"):
        raise ValueError(f"get_wgmma_intrin_group: load_scope is shared or shared.dyn, "
                         f"got {load_scope!r}")
    if store_scope not in ("global", "shared", "shared.dyn"):
        raise ValueError(f"get_wgmma_intrin_group: store_scope is global, shared or "
                         f"shared.dyn, got {store_scope!r}")
    s = shorts[in_dtype]
    return {
        "init": f"wgmma_fill_m64n{n}_f32",
        "compute": f"wgmma_m64n{n}k16_{s}{s}f32" + ("_dyn" if load_scope == "shared.dyn" else ""),
        "store": f"wgmma_store_m64n{n}_f32_{store_scope.replace('.', '_')}",
    }


__all__ = ["WARPGROUP_SIZE", "core_matrix_layout", "get_wgmma_intrin_group",
           "warpgroup_layout"]
