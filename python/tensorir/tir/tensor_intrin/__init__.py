"""tvm.tir.tensor_intrin: tensor intrinsics registered by name with
tir.TensorIntrin, for sch.tensorize.

Each intrinsic is a pair of TVMScript functions: `desc`, the computation
the instruction performs (a small dot product over buffers), and `impl`,
the instruction applied to those buffers, an opaque call (tir.call) named
after the instruction and taking the buffers and their offsets. The CPU
pipeline lowers the x86 ones (VNNI's vpdpbusd, its portable form, the f32
FMA); a program tensorized with any other is refused when it is built,
naming the call.

Modules: x86 (VNNI, AVX-512), arm_cpu (NEON, SDOT, DP4A), cuda (WMMA's
16x16x16 mma_sync; mma.sync's ldmatrix, mma, fill and store from mma),
rocm (sdot4), hexagon (vrmpy, vdmpy).
"""
from . import arm_cpu, cuda, hexagon, rocm, x86  # noqa: F401 - registers the intrinsics

__all__ = ["arm_cpu", "cuda", "hexagon", "rocm", "x86"]
