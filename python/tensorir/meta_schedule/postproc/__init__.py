"""tvm.meta_schedule.postproc: what completes a sampled schedule."""
from .builtin import (DisallowAsyncStridedMemCopy, DisallowDynamicLoop, RewriteCooperativeFetch, RewriteLayout,
                      RewriteParallelVectorizeUnroll, RewriteReductionBlock, RewriteTensorize,
                      RewriteUnboundBlock, VerifyGPUCode, VerifyVTCMLimit)
from .postproc import Postproc, PyPostproc

__all__ = ["DisallowAsyncStridedMemCopy", "DisallowDynamicLoop", "Postproc", "PyPostproc", "RewriteCooperativeFetch",
           "RewriteLayout", "RewriteParallelVectorizeUnroll", "RewriteReductionBlock",
           "RewriteTensorize", "RewriteUnboundBlock", "VerifyGPUCode",
           "VerifyVTCMLimit"]
