"""tvm.meta_schedule.postproc: what completes a sampled schedule."""
from .builtin import (DisallowDynamicLoop, RewriteLayout, RewriteParallelVectorizeUnroll,
                      RewriteReductionBlock)
from .postproc import Postproc, PyPostproc

__all__ = ["DisallowDynamicLoop", "Postproc", "PyPostproc", "RewriteLayout",
           "RewriteParallelVectorizeUnroll", "RewriteReductionBlock"]
