"""Arm dot products: 4 lanes of int32 += 4 int8 x 4 int8 (NEON's
smull/sadalp sequence, the dot-product extension's sdot), and the
4-element dot products the DP4A names (signed and unsigned operands)."""
from .dot_product import register_dot_product

ARM_DOT_4x4_i8_NEON_INTRIN = register_dot_product(
    "dot_4x4_i8i8s32_neon", "tir.arm_neon_dot_4x4_i8", 4, 4, "int8", "int8", "int32")
ARM_DOT_4x4_i8_SDOT_INTRIN = register_dot_product(
    "dot_4x4_i8i8s32_sdot", "llvm.aarch64.neon.sdot", 4, 4, "int8", "int8", "int32")

_SCOPES = {"a_scope": "shared", "b_scope": "shared", "c_scope": "local"}
DP4A_S8S8S32_INTRIN = register_dot_product(
    "dp4a_s8s8s32", "__dp4a", 0, 4, "int8", "int8", "int32", **_SCOPES)
DP4A_U8S8S32_INTRIN = register_dot_product(
    "dp4a_u8s8s32", "__dp4a", 0, 4, "uint8", "int8", "int32", **_SCOPES)
DP4A_S8U8S32_INTRIN = register_dot_product(
    "dp4a_s8u8s32", "__dp4a", 0, 4, "int8", "uint8", "int32", **_SCOPES)
DP4A_U8U8U32_INTRIN = register_dot_product(
    "dp4a_u8u8u32", "__dp4a", 0, 4, "uint8", "uint8", "uint32", **_SCOPES)

__all__ = ["ARM_DOT_4x4_i8_NEON_INTRIN", "ARM_DOT_4x4_i8_SDOT_INTRIN",
           "DP4A_S8S8S32_INTRIN", "DP4A_U8S8S32_INTRIN", "DP4A_S8U8S32_INTRIN",
           "DP4A_U8U8U32_INTRIN"]
