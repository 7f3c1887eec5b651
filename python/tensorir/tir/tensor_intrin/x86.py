"""x86 dot products: 16 lanes of int32 += 4 uint8 x 4 int8 (VNNI's
vpdpbusd, and AVX-512's pmaddubsw / pmaddwd / paddd sequence)."""
from .dot_product import register_dot_product

VNNI_DOT_16x4_INTRIN = register_dot_product(
    "dot_16x4_vnni", "llvm.x86.avx512.vpdpbusd.512", 16, 4, "uint8", "int8", "int32")
AVX512_DOT_16x4_INTRIN = register_dot_product(
    "dot_16x4_avx512", "tir.avx512_dot_16x4", 16, 4, "uint8", "int8", "int32")

__all__ = ["VNNI_DOT_16x4_INTRIN", "AVX512_DOT_16x4_INTRIN"]
