"""tvm.meta_schedule.postproc: what completes a sampled schedule."""
from .postproc import Postproc, PyPostproc

__all__ = ["Postproc", "PyPostproc"]
