"""tvm.transform (tvm.ir.transform): passes over IRModules, in Python or
C++, and the context they run in.

- `module_pass` makes a pass of a function `(mod, ctx) -> mod` or of a class
  with `transform_module(self, mod, ctx)`; tir.transform.prim_func_pass
  does the same per PrimFunc.
- `Sequential([...])` runs passes in order; `mlir_pass("tir-lower-init")`
  is any MLIR pass pipeline (tir's own passes, upstream's, a plugin's) as
  a Pass.
- `PassContext(opt_level, required_pass, disabled_pass, instruments,
  config)`, entered with `with`: a pass whose opt_level is above the
  context's is skipped unless required, a disabled one always is; each
  instrument sees every pass (tvm.instrument); `config` holds the options
  registered in CONFIG_OPTIONS (an unknown key is an error).
"""
import inspect

__all__ = ["PassInfo", "Pass", "ModulePass", "Sequential", "PassContext", "module_pass",
           "mlir_pass", "CONFIG_OPTIONS", "ApplyPassToFunction", "PrintIR"]

# The PassContext options this package reads: name -> (type, meaning).
CONFIG_OPTIONS = {
    "tir.add_lower_pass": (list, "[(phase, pass), ...]: passes tvm.lower / tvm.build run "
                                 "after phase 0, 1, 2 or 3 of tir's lowering "
                                 "(docs/passes.md)"),
    "tir.disable_vectorize": (bool, "vectorized loops run as serial ones"),
    "relax.default_cpu_schedule": (bool, "build() gives the unscheduled prim_funcs a model's "
                                         "graph functions call the default CPU schedule "
                                         "(True unless set False)"),
}


class PassInfo:
    """A pass's name, opt_level and the passes it requires."""

    def __init__(self, opt_level, name, required=None, traceable=False):
        self.opt_level, self.name = int(opt_level), str(name)
        self.required = list(required or [])
        self.traceable = traceable

    def __repr__(self):
        return f"PassInfo(name={self.name!r}, opt_level={self.opt_level})"


class Pass:
    """A transformation of an IRModule; call it on a module."""

    info = None

    def __call__(self, mod):
        return PassContext.current()._run(self, mod)

    def transform(self, mod, ctx):  # pragma: no cover - every pass defines it
        raise NotImplementedError


class ModulePass(Pass):
    """A pass of a function `(mod, ctx) -> IRModule`."""

    def __init__(self, func, info):
        self.func, self.info = func, info

    def transform(self, mod, ctx):
        from .module import IRModule
        result = self.func(mod, ctx)
        if not isinstance(result, IRModule):
            raise TypeError(f"pass '{self.info.name}' returned a {type(result).__name__}; a "
                            "module pass returns an IRModule")
        return result


class Sequential(Pass):
    """Passes run in order, each under the context's rules."""

    def __init__(self, passes=None, opt_level=0, name="sequential", required=None,
                 traceable=False):
        self.passes = list(passes or [])
        for p in self.passes:
            if not isinstance(p, Pass):
                raise TypeError(f"Sequential takes passes, got a {type(p).__name__}")
        self.info = PassInfo(opt_level, name, required, traceable)

    def transform(self, mod, ctx):
        for p in self.passes:
            mod = ctx._run(p, mod)
        return mod


class _MLIRPass(Pass):
    """MLIR passes (a textual pipeline, as tir-opt's --pass-pipeline takes
    it inside builtin.module(...))."""

    def __init__(self, pipeline, info):
        self.pipeline, self.info = pipeline, info

    def transform(self, mod, ctx):
        from .module import IRModule
        result = IRModule(mod._native.run_passes(self.pipeline),
                          mod.attrs)
        result._symbols = dict(mod._symbols)
        return result


def mlir_pass(pipeline, name=None, opt_level=0, required=None):
    """A Pass running the MLIR pass pipeline `pipeline` ("tir-lower-init",
    "func.func(canonicalize),cse", a plugin's pass once
    tvm.transform.load_pass_plugin has loaded it). A pipeline that does not
    parse raises ValueError when the pass runs, naming it."""
    if not isinstance(pipeline, str) or not pipeline.strip():
        raise TypeError("mlir_pass takes a pass pipeline (str)")
    return _MLIRPass(pipeline, PassInfo(opt_level, name or pipeline, required))


def load_pass_plugin(path):
    """Loads an MLIR pass plugin (a shared library, tir-opt's
    --load-pass-plugin): its passes can then run through mlir_pass."""
    from .._ext import ext
    ext.load_pass_plugin(str(path))


def _pass_info(pass_func, opt_level, name, required, traceable):
    if opt_level is None:
        raise TypeError("a pass needs its opt_level (opt_level=0 runs it always)")
    return PassInfo(opt_level, name or getattr(pass_func, "__name__", "pass"), required,
                    traceable)


def make_pass_decorator(pass_cls, method, what):
    """The decorator of module_pass / prim_func_pass: a function becomes a
    `pass_cls`; a class becomes a subclass of `pass_cls` whose instances
    call the wrapped object's `method`."""
    def decorator(pass_arg=None, opt_level=None, name=None, required=None, traceable=False):
        def create(target):
            info = _pass_info(target, opt_level, name, required, traceable)
            if inspect.isclass(target):
                if not hasattr(target, method):
                    raise TypeError(f"@{what} on class {target.__name__}: it needs a "
                                    f"{method} method")

                def init(self, *args, **kwargs):
                    self.inst = target(*args, **kwargs)
                    pass_cls.__init__(self, getattr(self.inst, method), info)
                return type(target.__name__, (pass_cls,), {"__init__": init,
                                                           "__doc__": target.__doc__})
            if not callable(target):
                raise TypeError(f"@{what} decorates a function or a class, got "
                                f"{type(target).__name__}")
            return pass_cls(target, info)
        return create(pass_arg) if pass_arg is not None else create
    return decorator


module_pass = make_pass_decorator(ModulePass, "transform_module", "module_pass")
module_pass.__doc__ = """@tvm.transform.module_pass(opt_level=..., name=..., required=...):
a function (mod, ctx) -> IRModule, or a class with transform_module, as a
Pass."""


class PassContext:
    """The options passes run under (TVM's PassContext); `with
    PassContext(...)` makes it current."""

    _stack = []

    def __init__(self, opt_level=2, required_pass=None, disabled_pass=None, instruments=None,
                 config=None, trace=None, trace_stack=None, make_traceable=None,
                 num_evals=0, tuning_api_database=None):
        self.opt_level = int(opt_level)
        self.required_pass = list(required_pass or [])
        self.disabled_pass = list(disabled_pass or [])
        self.instruments = list(instruments or [])
        for inst in self.instruments:
            from ..instrument import PassInstrument
            if not isinstance(inst, PassInstrument):
                raise TypeError(f"PassContext's instruments are PassInstruments, got a "
                                f"{type(inst).__name__}")
        self.config = {}
        for key, value in dict(config or {}).items():
            if key not in CONFIG_OPTIONS:
                raise ValueError(f"PassContext: unknown config option '{key}'; the options "
                                 f"are {', '.join(sorted(CONFIG_OPTIONS))}")
            kind = CONFIG_OPTIONS[key][0]
            if kind is list and not isinstance(value, (list, tuple)):
                raise TypeError(f"PassContext: config '{key}' is a list, got "
                                f"{type(value).__name__}")
            if kind is bool and not (isinstance(value, bool) or value in (0, 1)):
                raise TypeError(f"PassContext: config '{key}' is True or False, got {value!r}")
            self.config[key] = list(value) if kind is list else kind(value)

    @staticmethod
    def current():
        return PassContext._stack[-1] if PassContext._stack else _DEFAULT

    def __enter__(self):
        PassContext._stack.append(self)
        for inst in self.instruments:
            inst.enter_pass_ctx()
        return self

    def __exit__(self, *exc):
        for inst in self.instruments:
            inst.exit_pass_ctx()
        PassContext._stack.pop()
        return False

    def override_instruments(self, instruments):
        for inst in self.instruments:
            inst.exit_pass_ctx()
        self.instruments = list(instruments)
        for inst in self.instruments:
            inst.enter_pass_ctx()

    def _should_run(self, info):
        if info.name in self.disabled_pass:
            return False
        return info.opt_level <= self.opt_level or info.name in self.required_pass

    def _run(self, p, mod):
        """Runs pass `p` on `mod` under this context (its rules and
        instruments)."""
        from .module import IRModule
        if not isinstance(mod, IRModule):
            raise TypeError(f"pass '{p.info.name}' runs on an IRModule, got a "
                            f"{type(mod).__name__}")
        if not self._should_run(p.info):
            return mod
        if not all(inst.should_run(mod, p.info) for inst in self.instruments):
            return mod
        for required in p.info.required:
            if isinstance(required, Pass):
                mod = self._run(required, mod)
        for inst in self.instruments:
            inst.run_before_pass(mod, p.info)
        try:
            result = p.transform(mod, self)
        except BaseException:
            # No run_after_pass (as in TVM), but instruments that keep a
            # stack of running passes close this one.
            for inst in self.instruments:
                inst.pass_raised(p.info)
            raise
        for inst in self.instruments:
            inst.run_after_pass(result, p.info)
        return result


_DEFAULT = PassContext()


def PrintIR(header="", show_meta_data=False):  # noqa: N802 - TVM's name
    """A pass that prints the module and leaves it as it is."""
    def print_ir(mod, ctx):
        print(header)
        print(mod.script())
        return mod
    return ModulePass(print_ir, PassInfo(0, "PrintIR"))


def ApplyPassToFunction(transform, func_name_regex, error_if_no_function_matches_regex=False):  # noqa: N802
    """`transform` applied to the functions whose names match the regex."""
    import re

    def apply(mod, ctx):
        from .module import IRModule
        names = [n for n in mod.function_names() if re.fullmatch(func_name_regex, n)]
        if not names:
            if error_if_no_function_matches_regex:
                raise ValueError(f"no function matches '{func_name_regex}'")
            return mod
        sub = ctx._run(transform, IRModule({n: mod[n] for n in names}))
        out = IRModule(mod)
        for n in names:
            out[n] = sub[n]
        return out
    return ModulePass(apply, PassInfo(0, "ApplyPassToFunction"))
