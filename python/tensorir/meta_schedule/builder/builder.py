"""Builder: the candidates' modules compiled for the target (the
MetaSchedule library's builders), and PyBuilder, one written in Python."""
from ..._ext import ext
from ...ir import IRModule
from ...target import Target
from ..utils import _bind, _object_of, _wraps_native

__all__ = ["Builder", "BuilderInput", "BuilderResult", "PyBuilder"]


@_wraps_native(ext.BuilderInput)
class BuilderInput:
    """TVM's BuilderInput(mod, target, params=None)."""

    def __init__(self, mod, target, params=None):
        if not isinstance(target, Target):
            target = Target(target)
        if params:
            raise NotImplementedError("BuilderInput: params (bound constants) are not "
                                      "supported yet")
        _bind(self, ext.BuilderInput(mod._native, target.export()))

    @property
    def mod(self):
        return IRModule(self._native.mod)

    @property
    def target(self):
        return Target(self._native.target)

    @property
    def params(self):
        return None


@_wraps_native(ext.BuilderResult)
class BuilderResult:
    """TVM's BuilderResult(artifact_path, error_msg)."""

    def __init__(self, artifact_path, error_msg):
        _bind(self, ext.BuilderResult(artifact_path, error_msg))

    @property
    def artifact_path(self):
        return self._native.artifact_path

    @property
    def error_msg(self):
        return self._native.error_msg


@_wraps_native(ext.Builder)
class Builder:
    """TVM's Builder: build(inputs) gives one BuilderResult per input."""

    def build(self, build_inputs):
        return [_object_of(r) for r in self._native.build([i._native for i in build_inputs])]

    @staticmethod
    def create(kind="local", *args, **kwargs):
        """TVM's Builder.create: "local", or "ray" (RayBuilder)."""
        if kind == "local":
            from .local_builder import LocalBuilder
            return LocalBuilder(*args, **kwargs)
        if kind == "ray":
            from .ray_builder import RayBuilder
            return RayBuilder(*args, **kwargs)
        raise ValueError(f"Unknown Builder: {kind}")


@_wraps_native(ext.FunctionBuilder)
class _PyBuilder(Builder):
    def __init__(self, f_build=None):
        def build(natives):
            results = f_build([_object_of(n) for n in natives])
            return [r._native for r in results]

        _bind(self, ext.FunctionBuilder(None if f_build is None else build))


class PyBuilder:
    """TVM's PyBuilder: subclass it and decorate with derived_object."""

    _tvm_metadata = {"cls": _PyBuilder, "methods": ["build"]}

    def build(self, build_inputs):
        raise NotImplementedError
