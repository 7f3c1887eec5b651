"""The postprocessors of the MetaSchedule library, as TVM's classes."""
from ..._ext import ext
from ..utils import _bind, _named_native
from .postproc import Postproc

__all__ = ["DisallowDynamicLoop", "RewriteLayout", "RewriteParallelVectorizeUnroll",
           "RewriteReductionBlock"]


@_named_native("DisallowDynamicLoop")
class DisallowDynamicLoop(Postproc):
    """TVM's DisallowDynamicLoop: rejects a schedule with a loop of runtime
    extent."""

    def __init__(self):
        _bind(self, ext.postproc_disallow_dynamic_loop())


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


@_named_native("RewriteLayout")
class RewriteLayout(Postproc):
    """TVM's RewriteLayout: lays constant weights out in the order the
    schedule reads them."""

    def __init__(self):
        _bind(self, ext.postproc_rewrite_layout())
