"""CUDA tensor-core intrinsics: WMMA's matrix multiply-accumulate of
16 x 16 x 16 fragments (`wmma.mma_sync`), as TVM names them.

Each description computes C[i, j] += A[i, k] * B[k, j] (B[j, k] for the
`_trans` forms) over fragments in the wmma scopes ("wmma.matrix_a",
"wmma.matrix_b", "wmma.accumulator"), products in the accumulator's type.
The implementations call `tvm_mma_sync` on the fragments; they are for
matching (tensorize, get_tensorize_loop_mapping,
get_auto_tensorize_mapping_info) so far: a program tensorized with them
is refused when it is built, naming the call.
"""
from ...script import from_source
from ...script import tir as T
from ...script.values import DeferredScriptError, ScriptError
from ..function import TensorIntrin


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


def _wmma_sync_functions(m, n, k, in_dtype, out_dtype, b_transposed):
    b0, b1 = (n, k) if b_transposed else (k, n)
    desc = from_source(_WMMA_SYNC_DESC.format(
        m=m, n=n, k=k, b0=b0, b1=b1, in_dtype=in_dtype, out_dtype=out_dtype,
        b_index="vj, vk" if b_transposed else "vk, vj"), "<wmma_sync desc>")

    @T.prim_func
    def impl(a: T.handle, b: T.handle, c: T.handle):
        A = T.match_buffer(a, (m, k), in_dtype, offset_factor=16, scope="wmma.matrix_a")
        B = T.match_buffer(b, (b0, b1), in_dtype, offset_factor=16, scope="wmma.matrix_b")
        C = T.match_buffer(c, (m, n), out_dtype, offset_factor=16, scope="wmma.accumulator")
        with T.block("root"):
            T.reads(C[0:m, 0:n], A[0:m, 0:k], B[0:b0, 0:b1])
            T.writes(C[0:m, 0:n])
            T.evaluate(T.call_extern("", "tvm_mma_sync", C.data, C.elem_offset, A.data,
                                     A.elem_offset, B.data, B.elem_offset))

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

__all__ = ["WMMA_SYNC_16x16x16_f16f16f16_INTRIN", "WMMA_SYNC_16x16x16_f16f16f16_TRANS_INTRIN",
           "WMMA_SYNC_16x16x16_f16f16f32_INTRIN", "WMMA_SYNC_16x16x16_f16f16f32_TRANS_INTRIN",
           "WMMA_SYNC_16x16x16_s8s8s32_INTRIN", "WMMA_SYNC_16x16x16_s8s8s32_TRANS_INTRIN"]
