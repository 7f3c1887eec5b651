"""Hexagon HVX dot products: 32 lanes of int32 += 4 uint8 x 4 uint8
(vrmpy) and += 2 int16 x 2 int16 (vdmpy)."""
from .dot_product import register_dot_product

VRMPY_u8u8i32_INTRIN = register_dot_product(
    "dot_32x4_u8u8i32_vrmpy", "llvm.hexagon.V6.vrmpyubv.acc.128B", 32, 4,
    "uint8", "uint8", "int32")
VDMPY_i16i16i32_INTRIN = register_dot_product(
    "dot_32x2_i16i16i32_vdmpy", "llvm.hexagon.V6.vdmpyhvsat.acc.128B", 32, 2,
    "int16", "int16", "int32")

__all__ = ["VRMPY_u8u8i32_INTRIN", "VDMPY_i16i16i32_INTRIN"]
