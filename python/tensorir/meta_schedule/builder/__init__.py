"""tvm.meta_schedule.builder: building candidates."""
from .builder import Builder, BuilderInput, BuilderResult, PyBuilder
from .local_builder import LocalBuilder
from .ray_builder import RayBuilder

__all__ = ["Builder", "BuilderInput", "BuilderResult", "LocalBuilder", "PyBuilder", "RayBuilder"]
