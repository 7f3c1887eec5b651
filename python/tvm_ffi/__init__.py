"""tvm_ffi's registry of global functions, for code written against TVM
(`from tvm_ffi import register_global_func`): tensorir's registry under
TVM's module name. It sits beside the tensorir package in the source tree
and is not installed by the wheel, so that it never shadows a real
apache-tvm-ffi."""
from tensorir.registry import (get_global_func, list_global_func_names,  # noqa: F401
                               register_global_func, remove_global_func)

__all__ = ["get_global_func", "list_global_func_names", "register_global_func",
           "remove_global_func"]
