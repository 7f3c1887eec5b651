"""tvm.meta_schedule.builder: building candidates."""
from .builder import Builder, BuilderInput, BuilderResult, PyBuilder

__all__ = ["Builder", "BuilderInput", "BuilderResult", "PyBuilder"]
