"""relax.build and relax.VirtualMachine: a module with graph functions is
compiled into one library (prim_funcs, and each graph function as
allocations, calls and frees); calling a graph function allocates its
results and returns them."""
from .. import runtime
from ..ir import IRModule


class Executable(runtime.Module):
    """A built module (TVM's relax.Executable)."""

    def __init__(self, module):
        super().__init__(module._native)
        self._source, self._target_cpu = module._source, module._target_cpu


def build(mod, target="llvm", params=None, exec_mode=None, **kwargs):
    """relax.build: compiles an IRModule (graph functions and prim_funcs)
    for the CPU."""
    if not isinstance(mod, IRModule):
        raise TypeError(f"relax.build takes an IRModule, got {type(mod).__name__}")
    if params:
        raise NotImplementedError("relax.build: params (binding weights at build) are not "
                                  "supported; put weights in the module as relax.const")
    return Executable(runtime.build(mod, "llvm" if target is None else target))


class VirtualMachine:
    """Runs the graph functions of a built module (TVM's
    relax.VirtualMachine): vm["main"](x) takes numpy or tvm.nd arrays and
    returns the results as tvm.nd arrays (a tuple for several)."""

    def __init__(self, rt_mod, device=None, memory_cfg=None, profile=False):
        from ..nd import _on_gpu
        if not isinstance(rt_mod, runtime.Module):
            raise TypeError("VirtualMachine takes what relax.build or tvm.compile returns, "
                            f"got {type(rt_mod).__name__}")
        devices = device if isinstance(device, (list, tuple)) else [device]
        for d in devices:
            if _on_gpu(d):
                raise ValueError(f"device {d!r}: the VirtualMachine runs graph functions "
                                 "on the CPU only (tvm.cpu(0))")
        self.module = rt_mod

    def __getitem__(self, name):
        return self.module[name]

    def invoke(self, name, *args):
        return self.module[name](*args)

    def time_evaluator(self, name, dev=None, number=10, repeat=1, min_repeat_ms=0):
        return self.module.time_evaluator(name, dev, number, repeat, min_repeat_ms)
