"""TVM's tvm.target.codegen: what the code generator knows of LLVM."""
from .._ext import ext

__all__ = ["llvm_lookup_intrinsic_id", "llvm_version_major"]


def llvm_lookup_intrinsic_id(name):
    """LLVM's id of the intrinsic `name` ("llvm.x86.avx512.vpdpbusd.512"),
    as T.call_llvm_pure_intrin takes it; 0 for a name LLVM does not
    know (TVM's)."""
    return int(ext.llvm_lookup_intrinsic_id(str(name)))


def llvm_version_major():
    """The major version of the LLVM tir compiles with."""
    return int(ext.llvm_version_major())
