"""tensorir.tir: functions, the IR as Python objects, and the schedule."""
from . import expr, schedule, stmt
from .expr import (Add, And, Broadcast, BufferLoad, Call, Cast, Div, EQ, FloatImm, FloorDiv,
                   FloorMod, GE, GT, IntImm, LE, LT, Let, Max, Min, Mod, Mul, NE, Not, Or,
                   PrimExpr, Ramp, Select, SizeVar, StringImm, Sub, Var, const, floordiv,
                   floormod)
from .stmt import (AllocateConst, Block, BlockRealize, BufferStore, Evaluate, For, ForKind, IfThenElse,
                   DeclBuffer, IterVar, LetStmt, SeqStmt, Stmt, stmt_seq)
from .buffer import Buffer, BufferRegion, MatchBufferRegion, decl_buffer
from .function import PrimFunc, TensorIntrin
from .index_map import IndexMap
from .schedule import (BlockRV, BlockScope, DepKind, Dependency, LoopRV, Schedule, ScheduleError,
                       ScheduleState, StmtSRef)
from . import analysis, functor, op, stmt_functor, transform  # noqa: E402 - they use the above
from .op import (abs, all, any, ceil, cos, erf, exp, exp2, floor, if_then_else,  # noqa: A004
                 indexdiv, indexmod, log, log2, round, rsqrt, sin, sqrt, tanh)
from .functor import PyStmtExprMutator, PyStmtExprVisitor


def build(mod, target="llvm", pipeline="default"):
    """tvm.tir.build: a TensorIR module (or a PrimFunc) compiled for the
    target and loaded, as tvm.build does; a module with graph functions is
    relax's to build (tvm.compile). `pipeline` is TVM's name for its tir
    lowering; tir's is its own ("default" only)."""
    from .. import runtime
    from ..ir import IRModule
    if pipeline not in ("default", None):
        raise NotImplementedError(f"tvm.tir.build: pipeline {pipeline!r} (tir lowers with "
                                  "its own; 'default')")
    if isinstance(mod, IRModule):
        graphs = [g for g in mod.function_names() if mod._native.is_graph_function(g)]
        if graphs:
            raise TypeError(f"tvm.tir.build builds TensorIR; {', '.join(graphs)} are graph "
                            "functions (build the module with tvm.compile)")
    return runtime.build(mod, target)

__all__ = ["Add", "AllocateConst", "And", "Block", "BlockRV", "BlockRealize", "Broadcast", "Buffer", "BufferLoad",
           "BufferRegion", "BufferStore", "Call", "Cast", "DeclBuffer", "Div", "EQ", "Evaluate", "FloatImm",
           "FloorDiv", "FloorMod", "For", "ForKind", "GE", "GT", "IfThenElse", "IndexMap",
           "IntImm", "IterVar", "LE", "LT", "Let", "LetStmt", "LoopRV", "MatchBufferRegion",
           "Max", "Min", "Mod", "Mul", "NE", "Not", "Or", "PrimExpr", "PrimFunc",
           "PyStmtExprMutator", "PyStmtExprVisitor", "Ramp", "Schedule", "ScheduleError",
           "ScheduleState", "StmtSRef", "BlockScope", "DepKind", "Dependency",
           "Select", "SeqStmt", "SizeVar", "Stmt", "StringImm", "Sub", "TensorIntrin", "Var",
           "abs", "all", "any", "analysis", "build", "ceil", "const", "cos", "erf", "exp", "exp2",
           "floor", "if_then_else", "indexdiv", "indexmod", "log", "log2", "op", "round",
           "rsqrt", "sin", "sqrt", "tanh", "decl_buffer", "expr", "floordiv", "floormod", "functor", "schedule", "stmt",
           "stmt_functor", "stmt_seq", "transform"]
