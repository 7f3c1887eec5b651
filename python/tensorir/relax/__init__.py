"""tvm.relax: graph-level IRModules (TVM's Relax) over tir.

A graph function is a func.func on tensors whose steps call prim_funcs
(tir.call_tir); BlockBuilder builds it (emit_te turns te into prim_funcs),
build compiles the whole module, VirtualMachine runs it:

    bb = relax.BlockBuilder()
    x = relax.Var("x", relax.TensorStructInfo((1, 784), "float32"))
    with bb.function("main", [x]):
        with bb.dataflow():
            y = bb.emit_te(topi.nn.relu, x)
            out = bb.emit_output(y)
        bb.emit_func_output(out)
    ex = relax.build(bb.get(), target="llvm")
    vm = relax.VirtualMachine(ex, tvm.cpu())
    vm["main"](np_array)
"""
from . import expr_functor, frontend, op, transform
from .block_builder import (BlockBuilder, call_dps_packed, call_pure_packed, call_tir,
                            call_tir_inplace)
from .expr import (BindingBlock, Call, Constant, DataflowBlock, DataflowVar, Expr, ExternFunc,
                   GlobalVar, PrimValue, SeqExpr, Tuple, TupleGetItem, Var, VarBinding, const, extern)
from .function import Function
from .pipeline import get_pipeline, register_pipeline
from .struct_info import (DynTensorType, ObjectStructInfo, PrimStructInfo, ShapeExpr,
                          ShapeStructInfo, StructInfo, TensorStructInfo, TupleStructInfo)
from .vm import Executable, VirtualMachine, build

__all__ = ["BindingBlock", "BlockBuilder", "Call", "Constant", "DataflowBlock", "DataflowVar",
           "DynTensorType", "Executable", "Expr", "ExternFunc", "Function", "GlobalVar",
           "ObjectStructInfo", "PrimStructInfo", "PrimValue", "SeqExpr", "ShapeExpr",
           "ShapeStructInfo", "StructInfo",
           "TensorStructInfo", "Tuple", "TupleGetItem", "TupleStructInfo", "Var", "VarBinding",
           "VirtualMachine", "build", "call_dps_packed", "call_pure_packed", "call_tir",
           "call_tir_inplace", "const", "extern", "frontend", "get_pipeline", "op",
           "register_pipeline", "transform"]
