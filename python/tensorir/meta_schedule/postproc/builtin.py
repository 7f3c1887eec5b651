"""The postprocessors of the MetaSchedule library, as TVM's classes."""
from ..._ext import ext
from ..utils import _bind, _named_native
from .postproc import Postproc

__all__ = ["DisallowAsyncStridedMemCopy", "DisallowDynamicLoop", "RewriteCooperativeFetch", "RewriteLayout",
           "RewriteParallelVectorizeUnroll", "RewriteReductionBlock", "RewriteTensorize",
           "RewriteUnboundBlock", "VerifyGPUCode", "VerifyVTCMLimit"]


@_named_native("DisallowDynamicLoop")
class DisallowDynamicLoop(Postproc):
    """TVM's DisallowDynamicLoop: rejects a schedule with a loop of runtime
    extent."""

    def __init__(self):
        _bind(self, ext.postproc_disallow_dynamic_loop())


@_named_native("DisallowAsyncStridedMemCopy")
class DisallowAsyncStridedMemCopy(Postproc):
    """TVM's DisallowAsyncStridedMemCopy: rejects a schedule whose
    asynchronous pipeline stages hold a strided copy."""

    def __init__(self):
        _bind(self, ext.postproc_disallow_async_strided_mem_copy())


@_named_native("RewriteParallelVectorizeUnroll")
class RewriteParallelVectorizeUnroll(Postproc):
    """TVM's RewriteParallelVectorizeUnroll: turns the root block's
    parallel / vectorize / unroll annotations into loop kinds."""

    def __init__(self):
        _bind(self, ext.postproc_rewrite_parallel_vectorize_unroll())


@_named_native("RewriteReductionBlock")
class RewriteReductionBlock(Postproc):
    """TVM's RewriteReductionBlock: decomposes reduction blocks into init
    and update."""

    def __init__(self):
        _bind(self, ext.postproc_rewrite_reduction_block())


@_named_native("RewriteTensorize")
class RewriteTensorize(Postproc):
    """TVM's RewriteTensorize: blocks annotated
    "meta_schedule.auto_tensorize" are tensorized with the intrinsic named
    there; with `vectorize_init_loop`, an init block annotated "" has its
    loop vectorized."""

    def __init__(self, vectorize_init_loop=False):
        _bind(self, ext.postproc_rewrite_tensorize(bool(vectorize_init_loop)))


@_named_native("RewriteLayout")
class RewriteLayout(Postproc):
    """TVM's RewriteLayout: lays constant weights out in the order the
    schedule reads them."""

    def __init__(self):
        _bind(self, ext.postproc_rewrite_layout())


@_named_native("RewriteCooperativeFetch")
class RewriteCooperativeFetch(Postproc):
    """TVM's RewriteCooperativeFetch: the loops of a block annotated
    "meta_schedule.cooperative_fetch" split and bound to the threads of its
    tile, and vectorized by the annotated length."""

    def __init__(self):
        _bind(self, ext.postproc_rewrite_cooperative_fetch())


@_named_native("RewriteUnboundBlock")
class RewriteUnboundBlock(Postproc):
    """TVM's RewriteUnboundBlock: blocks with no loop bound to threads get
    their loops bound to blockIdx.x / threadIdx.x."""

    def __init__(self, max_threadblocks=256):
        _bind(self, ext.postproc_rewrite_unbound_block(
            int(getattr(max_threadblocks, "value", max_threadblocks))))


@_named_native("VerifyGPUCode")
class VerifyGPUCode(Postproc):
    """TVM's VerifyGPUCode: rejects schedules whose kernels exceed the
    target's limits (threads per block, shared memory per block, vector
    width)."""

    def __init__(self):
        _bind(self, ext.postproc_verify_gpu_code())


@_named_native("VerifyVTCMLimit")
class VerifyVTCMLimit(Postproc):
    """TVM's VerifyVTCMLimit: rejects a schedule whose VTCM buffers
    ("global.vtcm", compacted, versioned by software pipelines) exceed the
    target's vtcm-capacity."""

    def __init__(self):
        _bind(self, ext.postproc_verify_vtcm_limit())
