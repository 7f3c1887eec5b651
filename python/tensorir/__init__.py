"""tensorir: TVM's TensorIR experience over the tir MLIR dialect.

    import tensorir as tvm
    mod = tvm.IRModule.from_mlir(open("examples/matmul.mlir").read())
    sch = tvm.tir.Schedule(mod)
    i, j, k = sch.get_loops(sch.get_block("C"))
    i0, i1 = sch.split(i, factors=[None, 8])
    sch.parallel(i0)
    lib = tvm.build(sch.mod, target="llvm")
    lib["matmul"](a, b, c)          # numpy arrays or tvm.nd.array

What is here so far: IRModule (from MLIR text), tir.Schedule with the loop
primitives, build / nd.array / time_evaluator, export and load of shared
libraries, TVMScript (tensorir.script, printed by mod.script()), te,
structural equality (tvm.ir) and the schedule's testing helpers
(tvm.tir.schedule.testing).
"""
from . import arith
from . import ir
from . import nd
from . import relax
from . import runtime
from . import script
from . import target
from . import te
from . import tir
from . import topi
from . import instrument
from . import base, error
from .registry import get_global_func, register_global_func
from .ir import IRModule, transform
from .driver import lower
from .runtime import (DataType, Device, Module, build, compile, cpu, cuda, device,
                      load_module)
from .tir import ScheduleError
from ._ext import ext as _native

TVMError = _native.TVMError
register_func = register_global_func

__all__ = ["DataType", "IRModule", "Module", "ScheduleError", "TVMError", "build", "compile", "cpu", "cuda", "device", "Device",
           "arith", "base", "error", "get_global_func", "register_func", "register_global_func",
           "instrument", "ir", "load_module", "lower", "nd", "relax", "runtime", "script",
           "target", "te", "tir", "topi", "transform"]
