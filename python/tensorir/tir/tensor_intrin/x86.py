"""x86 intrinsics.

Dot products: 16 lanes of int32 += 4 uint8 x 4 int8, as VNNI's vpdpbusd
(`llvm.x86.avx512.vpdpbusd.512`, for CPUs with avx512_vnni) and as the same
computation in portable vector code (`tir.avx512_dot_16x4`, any CPU).

FMA micro-kernel: 16 lanes of float32 += one float32 x 16 float32 (a row of
a matmul's output tile updated by one element of A and a row of B), as one
vector FMA (`llvm.fma.v16f32`: vfmadd on a CPU with AVX-512).

tir-lower-instructions lowers these three instructions; the others of
tvm.tir.tensor_intrin (Arm, AMD GPU, Hexagon) are for matching only.
"""
from ...script import tir as T
from ...script.values import DeferredScriptError, ScriptError
from ..function import TensorIntrin
from .dot_product import register_dot_product

VNNI_DOT_16x4_INTRIN = register_dot_product(
    "dot_16x4_vnni", "llvm.x86.avx512.vpdpbusd.512", 16, 4, "uint8", "int8", "int32")
AVX512_DOT_16x4_INTRIN = register_dot_product(
    "dot_16x4_avx512", "tir.avx512_dot_16x4", 16, 4, "uint8", "int8", "int32")

# The description both 16x4 dot products share (TVM's name for it).
dot_product_16x4_u8i8i32_desc = TensorIntrin.get(VNNI_DOT_16x4_INTRIN).desc


def _fma_functions():
    @T.prim_func
    def fma_desc(a: T.handle, b: T.handle, c: T.handle):
        A = T.match_buffer(a, (1,), "float32", offset_factor=1)
        B = T.match_buffer(b, (16,), "float32", offset_factor=1)
        C = T.match_buffer(c, (16,), "float32", offset_factor=1)
        with T.block("root"):
            T.reads(C[0:16], A[0:1], B[0:16])
            T.writes(C[0:16])
            for j in T.serial(16):
                with T.block("update"):
                    vj = T.axis.remap("S", [j])
                    C[vj] = C[vj] + A[0] * B[vj]

    @T.prim_func
    def fma_impl(a: T.handle, b: T.handle, c: T.handle):
        A = T.match_buffer(a, (1,), "float32", offset_factor=1)
        B = T.match_buffer(b, (16,), "float32", offset_factor=1)
        C = T.match_buffer(c, (16,), "float32", offset_factor=1)
        with T.block("root"):
            T.reads(C[0:16], A[0:1], B[0:16])
            T.writes(C[0:16])
            T.evaluate(T.call_extern("", "llvm.fma.v16f32", C.data, C.elem_offset, A.data,
                                     A.elem_offset, B.data, B.elem_offset))

    return fma_desc, fma_impl


def _register_fma(name):
    try:
        desc, impl = _fma_functions()
    except ScriptError as e:
        desc = impl = DeferredScriptError(f"tensor intrinsic '{name}'", e)
    TensorIntrin.register(name, desc, impl, override=True)
    return name


AVX512_FMA_F32_16_INTRIN = _register_fma("fma_f32_16_avx512")

__all__ = ["VNNI_DOT_16x4_INTRIN", "AVX512_DOT_16x4_INTRIN", "AVX512_FMA_F32_16_INTRIN",
           "dot_product_16x4_u8i8i32_desc"]
