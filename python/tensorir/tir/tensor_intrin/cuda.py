"""CUDA tensor-core intrinsics: WMMA's matrix multiply-accumulate of
16 x 16 x 16 fragments (`wmma.mma_sync`), the fragment loads, fills and
stores around it, and get_wmma_intrin_group, as TVM names them; mma.sync's
(ldmatrix, mma, fill, store, get_mma_intrin_group) come from `.mma`.

Each description computes C[i, j] += A[i, k] * B[k, j] (B[j, k] for the
`_trans` forms) over fragments in the wmma scopes ("wmma.matrix_a",
"wmma.matrix_b", "wmma.accumulator"), products in the accumulator's type.

A WMMA fragment's layout is the implementation's to choose (CUDA leaves
it opaque): tir keeps each 16 x 16 fragment in the lanes' registers as
mma.sync's m16n8k16 operands are laid out (8 elements per lane), so the
implementations are the mma.sync instructions on those registers, in the
32 lanes of a warp: ldmatrix for the loads from shared memory (8-bit B
stored k x n: each lane's own loads, `tir.ptx_fragment_load_b8`), two
m16n8k16 products for the multiply-accumulate, each lane's stores for the
store, and a fill (`tir.ptx_fragment_fill`, `tir.ptx_fragment_store`;
docs/gpu.md).
"""
from ...script import from_source
from ...script import tir as T
from ...script.values import DeferredScriptError, ScriptError
from ..function import TensorIntrin
from . import mma as _mma
from .mma import *  # noqa: F401,F403 - mma.sync's intrinsics (ldmatrix, mma, fill, store)
from .wgmma import (core_matrix_layout, get_wgmma_intrin_group,  # noqa: F401 - sm_90a's
                    warpgroup_layout)


_WMMA_SYNC_DESC = """
@T.prim_func
def desc(a: T.handle, b: T.handle, c: T.handle):
    A = T.match_buffer(a, ({m}, {k}), "{in_dtype}", offset_factor=16, scope="wmma.matrix_a")
    B = T.match_buffer(b, ({b0}, {b1}), "{in_dtype}", offset_factor=16, scope="wmma.matrix_b")
    C = T.match_buffer(c, ({m}, {n}), "{out_dtype}", offset_factor=16, scope="wmma.accumulator")
    with T.block("root"):
        T.reads(C[0:{m}, 0:{n}], A[0:{m}, 0:{k}], B[0:{b0}, 0:{b1}])
        T.writes(C[0:{m}, 0:{n}])
        for i, j, kk in T.grid({m}, {n}, {k}):
            with T.block("update"):
                vi, vj, vk = T.axis.remap("SSR", [i, j, kk])
                C[vi, vj] = C[vi, vj] + T.Cast("{out_dtype}", A[vi, vk]) * T.Cast(
                    "{out_dtype}", B[{b_index}])
"""


_SHORT_MMA = {"float16": "fp16", "float32": "fp32", "int8": "int8", "int32": "int32"}

_WMMA_SYNC_IMPL = """
@T.prim_func
def impl(a: T.handle, b: T.handle, c: T.handle):
    A = T.match_buffer(a, ({m}, {k}), "{in_dtype}", offset_factor=16, scope="wmma.matrix_a")
    B = T.match_buffer(b, ({b0}, {b1}), "{in_dtype}", offset_factor=16, scope="wmma.matrix_b")
    C = T.match_buffer(c, ({m}, {n}), "{out_dtype}", offset_factor=16, scope="wmma.accumulator")
    with T.block("root"):
        T.reads(C[0:{m}, 0:{n}], A[0:{m}, 0:{k}], B[0:{b0}, 0:{b1}])
        T.writes(C[0:{m}, 0:{n}])
        for tx in T.thread_binding(32, thread="threadIdx.x"):
            T.evaluate(T.call_extern("", "tir.ptx_mma", "m16n8k16", "{a}", "{a}", "{c}",
                                     A.data, 0, B.data, 0, C.data, 0))
            T.evaluate(T.call_extern("", "tir.ptx_mma", "m16n8k16", "{a}", "{a}", "{c}",
                                     A.data, 0, B.data, 4, C.data, 4))
"""


def _wmma_sync_functions(m, n, k, in_dtype, out_dtype, b_transposed):
    b0, b1 = (n, k) if b_transposed else (k, n)
    desc = from_source(_WMMA_SYNC_DESC.format(
        m=m, n=n, k=k, b0=b0, b1=b1, in_dtype=in_dtype, out_dtype=out_dtype,
        b_index="vj, vk" if b_transposed else "vk, vj"), "<wmma_sync desc>")

    # Two m16n8k16 products: A's registers with B's and C's halves.
    impl = from_source(_WMMA_SYNC_IMPL.format(
        m=m, n=n, k=k, b0=b0, b1=b1, in_dtype=in_dtype, out_dtype=out_dtype,
        a=_SHORT_MMA[in_dtype], c=_SHORT_MMA[out_dtype]), "<wmma_sync impl>")
    return desc, impl


def _register_wmma_sync(in_dtype, out_dtype, b_transposed):
    short = {"float16": "f16", "float32": "f32", "int8": "s8", "int32": "s32"}
    name = (f"wmma_sync_16x16x16_{short[in_dtype]}{short[in_dtype]}{short[out_dtype]}"
            + ("_trans" if b_transposed else ""))
    try:
        desc, impl = _wmma_sync_functions(16, 16, 16, in_dtype, out_dtype, b_transposed)
    except ScriptError as e:
        desc = impl = DeferredScriptError(f"tensor intrinsic '{name}'", e)
    TensorIntrin.register(name, desc, impl, override=True)
    return name


WMMA_SYNC_16x16x16_f16f16f32_INTRIN = _register_wmma_sync("float16", "float32", False)
WMMA_SYNC_16x16x16_f16f16f32_TRANS_INTRIN = _register_wmma_sync("float16", "float32", True)
WMMA_SYNC_16x16x16_f16f16f16_INTRIN = _register_wmma_sync("float16", "float16", False)
WMMA_SYNC_16x16x16_f16f16f16_TRANS_INTRIN = _register_wmma_sync("float16", "float16", True)
WMMA_SYNC_16x16x16_s8s8s32_INTRIN = _register_wmma_sync("int8", "int32", False)
WMMA_SYNC_16x16x16_s8s8s32_TRANS_INTRIN = _register_wmma_sync("int8", "int32", True)



# The fragment moves: a 16 x 16 tile copied from memory into an operand
# fragment (load), zeros into an accumulator (fill), an accumulator out to
# memory (store). Each description is an element-wise copy (or fill) over
# the tile; the implementations are the wmma calls on the whole tile.

_WMMA_COPY_DESC = """
@T.prim_func
def desc(a: T.handle, c: T.handle):
    A = T.match_buffer(a, ({m}, {n}), "{dtype}", offset_factor={n}, scope="{src}")
    C = T.match_buffer(c, ({m}, {n}), "{dtype}", offset_factor={n}, scope="{dst}")
    with T.block("root"):
        T.reads(A[0:{m}, 0:{n}])
        T.writes(C[0:{m}, 0:{n}])
        for i, j in T.grid({m}, {n}):
            with T.block("{name}"):
                vi, vj = T.axis.remap("SS", [i, j])
                C[vi, vj] = A[vi, vj]
"""

_WMMA_FILL_DESC = """
@T.prim_func
def desc(c: T.handle):
    C = T.match_buffer(c, ({m}, {n}), "{dtype}", offset_factor={n}, scope="wmma.accumulator")
    with T.block("root"):
        T.reads()
        T.writes(C[0:{m}, 0:{n}])
        for i, j in T.grid({m}, {n}):
            with T.block("init"):
                vi, vj = T.axis.remap("SS", [i, j])
                C[vi, vj] = T.{dtype}(0)
"""

_SHORT = {"float16": "f16", "float32": "f32", "int8": "s8", "int32": "s32"}


def _register_from_text(intrin, desc_text, impl_text, **fields):
    try:
        desc = from_source(desc_text.format(**fields), f"<{intrin} desc>")
        impl = from_source(impl_text.format(**fields), f"<{intrin} impl>")
    except ScriptError as e:
        desc = impl = DeferredScriptError(f"tensor intrinsic '{intrin}'", e)
    TensorIntrin.register(intrin, desc, impl, override=True)
    return intrin


# The implementations on the lanes' registers (mma.sync's layout): each
# lane of the warp calls one instruction on its part of the tile
# (`{call}`: the instruction and its arguments). ldmatrix: each lane gives
# the address of one row of an 8 x 8 block, the blocks in the order of the
# fragment's registers; B untransposed is loaded transposed (its registers
# hold columns).
_WMMA_LANES_COPY_IMPL = """
@T.prim_func
def impl(a: T.handle, c: T.handle):
    A = T.match_buffer(a, (16, 16), "{dtype}", offset_factor=16, scope="{src}")
    C = T.match_buffer(c, (16, 16), "{dtype}", offset_factor=16, scope="{dst}")
    with T.block("root"):
        T.reads(A[0:16, 0:16])
        T.writes(C[0:16, 0:16])
        for tx in T.thread_binding(32, thread="threadIdx.x"):
            T.evaluate(T.call_extern("", {call}))
"""

_WMMA_FILL_LANES_IMPL = """
@T.prim_func
def impl(c: T.handle):
    C = T.match_buffer(c, (16, 16), "{dtype}", offset_factor=16, scope="wmma.accumulator")
    with T.block("root"):
        T.reads()
        T.writes(C[0:16, 0:16])
        for tx in T.thread_binding(32, thread="threadIdx.x"):
            T.evaluate(T.call_extern("", "tir.ptx_fragment_fill", C.data, T.{dtype}(0)))
"""



def _register_wmma_load(dtype, scope, operand, transposed):
    name = (f"wmma_load_16x16x16_{_SHORT[dtype]}_{operand}" + ("_trans" if transposed else "")
            + "_" + scope.replace(".", "_"))
    fields = dict(m=16, n=16, dtype=dtype, src=scope, dst=f"wmma.matrix_{operand}",
                  name="load")
    if dtype == "int8" and operand == "b" and not transposed:
        # Bytes stored k x n: each lane reads its own (ldmatrix cannot
        # transpose bytes).
        return _register_from_text(name, _WMMA_COPY_DESC, _WMMA_LANES_COPY_IMPL,
                                   call='"tir.ptx_fragment_load_b8", C.data, A.data, tx',
                                   **fields)
    if dtype == "int8":
        # A, and B stored n x k: each lane gives the row of one of the two
        # 8 x 16-byte blocks (lanes 0-15; 16-31 repeat them).
        row, col, ldmatrix_transposed = "tx % 16", "0", False
    else:
        row, col, ldmatrix_transposed = _mma.ldmatrix_address(16, operand.upper(),
                                                              transposed)
    call = (f'"tir.ptx_ldmatrix", C.data, A.data, {row}, {col}, '
            f'{int(ldmatrix_transposed)}')
    return _register_from_text(name, _WMMA_COPY_DESC, _WMMA_LANES_COPY_IMPL, call=call,
                               **fields)


def _register_wmma_fill(dtype):
    name = f"wmma_fill_16x16x16_{_SHORT[dtype]}"
    return _register_from_text(name, _WMMA_FILL_DESC, _WMMA_FILL_LANES_IMPL, m=16, n=16,
                               dtype=dtype)


def _register_wmma_store(dtype, scope):
    name = f"wmma_store_16x16x16_{_SHORT[dtype]}_{scope.replace('.', '_')}"
    return _register_from_text(name, _WMMA_COPY_DESC, _WMMA_LANES_COPY_IMPL, m=16, n=16,
                               dtype=dtype, src="wmma.accumulator", dst=scope, name="store",
                               call='"tir.ptx_fragment_store", A.data, C.data, tx')


for _dtype in ("float16", "int8"):
    for _scope in ("shared", "shared.dyn"):
        _register_wmma_load(_dtype, _scope, "a", False)
        _register_wmma_load(_dtype, _scope, "b", False)
        _register_wmma_load(_dtype, _scope, "b", True)
for _dtype in ("float16", "float32", "int32"):
    _register_wmma_fill(_dtype)
    for _scope in ("global", "shared", "shared.dyn"):
        _register_wmma_store(_dtype, _scope)

WMMA_LOAD_16x16x16_F16_A_INTRIN = "wmma_load_16x16x16_f16_a_shared"
WMMA_LOAD_16x16x16_F16_B_INTRIN = "wmma_load_16x16x16_f16_b_shared"
WMMA_LOAD_16x16x16_F16_B_TRANS_INTRIN = "wmma_load_16x16x16_f16_b_trans_shared"
WMMA_LOAD_16x16x16_F16_A_DYN_INTRIN = "wmma_load_16x16x16_f16_a_shared_dyn"
WMMA_LOAD_16x16x16_F16_B_DYN_INTRIN = "wmma_load_16x16x16_f16_b_shared_dyn"
WMMA_LOAD_16x16x16_F16_B_TRANS_DYN_INTRIN = "wmma_load_16x16x16_f16_b_trans_shared_dyn"
WMMA_LOAD_16x16x16_S8_A_INTRIN = "wmma_load_16x16x16_s8_a_shared"
WMMA_LOAD_16x16x16_S8_B_INTRIN = "wmma_load_16x16x16_s8_b_shared"
WMMA_LOAD_16x16x16_S8_B_TRANS_INTRIN = "wmma_load_16x16x16_s8_b_trans_shared"
WMMA_FILL_16x16x16_F32_INTRIN = "wmma_fill_16x16x16_f32"
WMMA_FILL_16x16x16_F16_INTRIN = "wmma_fill_16x16x16_f16"
WMMA_FILL_16x16x16_S32_INTRIN = "wmma_fill_16x16x16_s32"
WMMA_STORE_16x16x16_F32_SHARED_INTRIN = "wmma_store_16x16x16_f32_shared"
WMMA_STORE_16x16x16_F32_SHARED_DYN_INTRIN = "wmma_store_16x16x16_f32_shared_dyn"
WMMA_STORE_16x16x16_F32_GLOBAL_INTRIN = "wmma_store_16x16x16_f32_global"
WMMA_STORE_16x16x16_F16_SHARED_INTRIN = "wmma_store_16x16x16_f16_shared"
WMMA_STORE_16x16x16_F16_GLOBAL_INTRIN = "wmma_store_16x16x16_f16_global"
WMMA_STORE_16x16x16_S32_SHARED_INTRIN = "wmma_store_16x16x16_s32_shared"
WMMA_STORE_16x16x16_S32_GLOBAL_INTRIN = "wmma_store_16x16x16_s32_global"


def get_wmma_intrin_group(load_scope, store_scope, in_dtype, out_dtype, trans_b):
    """TVM's get_wmma_intrin_group: the names of the five intrinsics of one
    WMMA configuration ({"init", "load_a", "load_b", "compute", "store"}),
    which MultiLevelTilingTensorCore takes."""
    if load_scope not in ("shared", "shared.dyn"):
        raise ValueError(f"get_wmma_intrin_group: load_scope is shared or shared.dyn, "
                         f"got {load_scope!r}")
    if store_scope not in ("global", "shared", "shared.dyn"):
        raise ValueError(f"get_wmma_intrin_group: store_scope is global, shared or "
                         f"shared.dyn, got {store_scope!r}")
    if in_dtype not in ("float16", "int8"):
        raise ValueError(f"get_wmma_intrin_group: in_dtype is float16 or int8, got {in_dtype!r}")
    if out_dtype not in ("float16", "float32", "int32"):
        raise ValueError(f"get_wmma_intrin_group: out_dtype is float16, float32 or int32, "
                         f"got {out_dtype!r}")
    i, o = _SHORT[in_dtype], _SHORT[out_dtype]
    load = load_scope.replace(".", "_")
    trans = "_trans" if trans_b else ""
    return {
        "init": f"wmma_fill_16x16x16_{o}",
        "load_a": f"wmma_load_16x16x16_{i}_a_{load}",
        "load_b": f"wmma_load_16x16x16_{i}_b{trans}_{load}",
        "compute": f"wmma_sync_16x16x16_{i}{i}{o}{trans}",
        "store": f"wmma_store_16x16x16_{o}_{store_scope.replace('.', '_')}",
    }

__all__ = ["WMMA_SYNC_16x16x16_f16f16f16_INTRIN", "WMMA_SYNC_16x16x16_f16f16f16_TRANS_INTRIN",
           "WMMA_SYNC_16x16x16_f16f16f32_INTRIN", "WMMA_SYNC_16x16x16_f16f16f32_TRANS_INTRIN",
           "WMMA_SYNC_16x16x16_s8s8s32_INTRIN", "WMMA_SYNC_16x16x16_s8s8s32_TRANS_INTRIN",
           "WMMA_LOAD_16x16x16_F16_A_INTRIN", "WMMA_LOAD_16x16x16_F16_B_INTRIN",
           "WMMA_LOAD_16x16x16_F16_B_TRANS_INTRIN", "WMMA_LOAD_16x16x16_F16_A_DYN_INTRIN",
           "WMMA_LOAD_16x16x16_F16_B_DYN_INTRIN", "WMMA_LOAD_16x16x16_F16_B_TRANS_DYN_INTRIN",
           "WMMA_LOAD_16x16x16_S8_A_INTRIN", "WMMA_LOAD_16x16x16_S8_B_INTRIN",
           "WMMA_LOAD_16x16x16_S8_B_TRANS_INTRIN", "WMMA_FILL_16x16x16_F32_INTRIN",
           "WMMA_FILL_16x16x16_F16_INTRIN", "WMMA_FILL_16x16x16_S32_INTRIN",
           "WMMA_STORE_16x16x16_F32_SHARED_INTRIN", "WMMA_STORE_16x16x16_F32_SHARED_DYN_INTRIN",
           "WMMA_STORE_16x16x16_F32_GLOBAL_INTRIN", "WMMA_STORE_16x16x16_F16_SHARED_INTRIN",
           "WMMA_STORE_16x16x16_F16_GLOBAL_INTRIN", "WMMA_STORE_16x16x16_S32_SHARED_INTRIN",
           "WMMA_STORE_16x16x16_S32_GLOBAL_INTRIN", "get_wmma_intrin_group"] + _mma.__all__
