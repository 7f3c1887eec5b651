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
        # What export_library builds again from (a GPU build's options too).
        self._source, self._target_cpu = module._source, module._target_cpu
        self._device_options = module._device_options


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
    returns the results as tvm.nd arrays (a tuple for several). The
    stateful calls are TVM's too: set_input, invoke_stateful, get_outputs,
    and save_function (a closure of a function and its arguments)."""

    def __init__(self, rt_mod, device=None, memory_cfg=None, profile=False):
        from ..nd import _on_gpu
        if not isinstance(rt_mod, runtime.Module):
            raise TypeError("VirtualMachine takes what relax.build or tvm.compile returns, "
                            f"got {type(rt_mod).__name__}")
        devices = device if isinstance(device, (list, tuple)) else [device]
        gpus = [d for d in devices if _on_gpu(d)]
        # A GPU build's graph functions run on the host and keep their
        # tensors on the GPU of their arguments; a CPU build's on the CPU.
        if rt_mod.target == "cuda" and not gpus:
            raise ValueError(f"device {device!r}: the module was built for a GPU (cuda); run it "
                             "on one: relax.VirtualMachine(ex, tvm.cuda(0))")
        if rt_mod.target != "cuda" and gpus:
            raise ValueError(f"device {gpus[0]!r}: the module was built for the CPU; build it "
                             "for the GPU (target \"cuda\") to run it there, or run it on "
                             "tvm.cpu(0)")
        if len(gpus) > 1:
            raise ValueError(f"devices {gpus!r}: a graph function runs on one GPU (the one "
                             "its arguments are on)")
        self.device = gpus[0] if gpus else runtime.cpu(0)
        self.module = rt_mod
        self._saved = {}    # name -> (function name, arguments)
        self._inputs = {}   # function name -> its arguments (set_input)
        self._outputs = {}  # function name -> its results (invoke_stateful)

    def __getitem__(self, name):
        if self.device.device_type == "cuda" and name != "invoke_stateful" and \
                name not in self._saved and name not in self._inputs:
            return self._on_device(self.module[name])
        if name in self._saved:
            func, args = self._saved[name]
            return lambda: self.module[func](*args)
        if name == "invoke_stateful":
            return self.invoke_stateful
        func = self.module[name]
        if name in self._inputs:
            def refuse(*args):
                raise RuntimeError(f"'{name}' has inputs set (set_input): call it with "
                                   f"invoke_stateful({name!r}) and read get_outputs({name!r})")
            return refuse
        return func

    def _on_device(self, func):
        """`func`, its arrays checked to be on the VirtualMachine's GPU
        (where the call allocates its results)."""
        import tir_runtime

        from ..nd import NDArray
        where = (self.device.device_type, self.device.device_id)

        def call(*args):
            for i, a in enumerate(args):
                data = a._data if isinstance(a, NDArray) else a
                if isinstance(data, tir_runtime.DeviceArray) and \
                        (data.device.device_type, data.device.device_id) != where:
                    raise ValueError(f"argument {i} of '{func.name}' is on {data.device}; "
                                     f"the VirtualMachine runs on {self.device}")
            return func(*args)
        call.__wrapped__ = func  # the Function itself (time_evaluator times it)
        return call

    def invoke(self, name, *args):
        return self[name](*args)

    def _params(self, name):
        """The names of function `name`'s parameters."""
        return [p.name for p in self.module[name]._params if not p.result]

    def set_input(self, func_name, *args, **kwargs):
        """The arguments of the next invoke_stateful(func_name): positional,
        or by parameter name."""
        self.module[func_name]  # noqa: B018 - KeyError for a function it has not
        if kwargs:
            names = self._params(func_name)
            if not names:
                raise ValueError(f"set_input({func_name!r}): the function's parameter names "
                                 "are unknown; pass the arguments by position")
            given = dict(zip(names, args))
            for key, value in kwargs.items():
                if key not in names:
                    raise ValueError(f"set_input({func_name!r}): no parameter named {key!r} "
                                     f"(it has {', '.join(names)})")
                if key in given:
                    raise ValueError(f"set_input({func_name!r}): {key!r} given twice")
                given[key] = value
            missing = [n for n in names if n not in given]
            if missing:
                raise ValueError(f"set_input({func_name!r}): missing {', '.join(missing)}")
            args = tuple(given[n] for n in names)
        self._inputs[func_name] = args

    def invoke_stateful(self, func_name):
        """Calls func_name on what set_input gave; get_outputs reads the
        results."""
        if func_name not in self._inputs:
            raise ValueError(f"invoke_stateful({func_name!r}): set_input({func_name!r}, ...) "
                             "first")
        self._outputs[func_name] = self.module[func_name](*self._inputs[func_name])

    def get_outputs(self, func_name):
        """The results of the last invoke_stateful(func_name)."""
        if func_name not in self._outputs:
            raise ValueError(f"get_outputs({func_name!r}): invoke_stateful({func_name!r}) "
                             "first")
        return self._outputs[func_name]

    def save_function(self, func_name, saved_name, *args, include_return=True, **kwargs):
        """vm[saved_name]() calls func_name on `args` (and keyword arguments
        by parameter name)."""
        self.module[func_name]  # noqa: B018 - KeyError for a function it has not
        if kwargs:
            self.set_input(func_name, *args, **kwargs)
            args = self._inputs.pop(func_name)
        self._saved[saved_name] = (func_name, tuple(args))

    def time_evaluator(self, func_name, dev=None, number=10, repeat=1, min_repeat_ms=0,
                       f_preproc=""):
        vm = self

        class _Functions(runtime.Module):
            def __init__(self):
                self.__dict__.update(vm.module.__dict__)

            def _timed_function(self, name):
                func = vm[name]
                return getattr(func, "__wrapped__", func)

        return _Functions().time_evaluator(func_name, dev, number, repeat, min_repeat_ms,
                                           f_preproc)
