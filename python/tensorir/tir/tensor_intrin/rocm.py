"""AMD GPU dot product: int32 += 4 int8 x 4 int8 (sdot4)."""
from .dot_product import register_dot_product

AMDGPU_SDOT4_INTRIN = register_dot_product(
    "sdot4", "llvm.amdgcn.sdot4", 0, 4, "int8", "int8", "int32",
    a_scope="shared", b_scope="shared", c_scope="local")

__all__ = ["AMDGPU_SDOT4_INTRIN"]
