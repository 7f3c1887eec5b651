"""tvm.meta_schedule.arg_info: what a tuned function takes (TVM's ArgInfo),
as tuning records keep it and runners allocate it. A TensorInfo is a
buffer argument's dtype and static shape; the objects and their JSON are
the MetaSchedule library's (lib/MetaSchedule/ArgInfo.cpp)."""
from .._ext import ext

__all__ = ["ArgInfo", "TensorInfo"]


class ArgInfo:
    """An argument of a tuned function. TensorInfo is the one kind."""

    def as_json(self):
        raise NotImplementedError

    @staticmethod
    def from_json(json_obj):
        """The ArgInfo `json_obj` (["TENSOR", dtype, shape]) describes."""
        return TensorInfo.from_json(json_obj)

    @staticmethod
    def from_prim_func(func):
        """One ArgInfo per parameter of `func` (a PrimFunc); ValueError
        for a parameter that is not a buffer of static shape."""
        return [TensorInfo._wrap(info) for info in ext.arg_info(func.mod._native, func.name)]

    @staticmethod
    def from_entry_func(mod, remove_preproc=True):
        """ArgInfo.from_prim_func of the module's entry function (its only
        function, or "main"). `remove_preproc` is accepted for TVM's
        signature: a layout-rewrite preprocessing block is not made here."""
        from ..ir import IRModule
        from ..tir.function import PrimFunc
        if isinstance(mod, PrimFunc):
            return ArgInfo.from_prim_func(mod)
        if not isinstance(mod, IRModule):
            raise TypeError(f"from_entry_func takes an IRModule, got {type(mod).__name__}")
        names = mod.function_names()
        name = names[0] if len(names) == 1 else "main"
        if name not in names:
            raise ValueError(f"the module has {len(names)} functions and none is 'main'")
        return ArgInfo.from_prim_func(mod[name])


class TensorInfo(ArgInfo):
    """TVM's TensorInfo(dtype, shape): a buffer argument."""

    def __init__(self, dtype, shape):
        self._native = ext.TensorInfo(str(dtype), [int(s) for s in shape])

    @classmethod
    def _wrap(cls, native):
        info = cls.__new__(cls)
        info._native = native
        return info

    @property
    def dtype(self):
        return self._native.dtype

    @property
    def shape(self):
        return list(self._native.shape)

    def as_json(self):
        """["TENSOR", dtype, shape]."""
        return self._native.as_json()

    @staticmethod
    def from_json(json_obj):
        return TensorInfo._wrap(ext.TensorInfo.from_json(json_obj))

    def __eq__(self, other):
        return isinstance(other, TensorInfo) and self._native == other._native

    def __hash__(self):
        return hash((self.dtype, tuple(self.shape)))

    def __str__(self):
        return str(self._native)

    __repr__ = __str__
