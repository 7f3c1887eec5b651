"""tvm.contrib: utilities TVM's programs import (temporary directories,
the C compiler driver, a pool of worker processes)."""
from . import cc, popen_pool, utils

__all__ = ["cc", "popen_pool", "utils"]
