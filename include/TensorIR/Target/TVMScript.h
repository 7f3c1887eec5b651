//===- TVMScript.h - tir functions printed as TVMScript ---------*- C++ -*-===//
//
// The TVMScript printer: the inverse of python/tensorir/script/parser.py.
// Used by the Python package (IRModule.script()) and by
// `tir-translate --tir-to-tvmscript`.
//
//===----------------------------------------------------------------------===//

#ifndef TENSORIR_TARGET_TVMSCRIPT_H
#define TENSORIR_TARGET_TVMSCRIPT_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/BuiltinTypes.h"

#include <string>

namespace mlir::tir {

/// The module's functions as TVMScript, which tensorir.script parses back to
/// the same IR: an @I.ir_module class when there are several or `asModule`
/// is set (TVM's IRModule.script()), else the one function alone (TVM's
/// PrimFunc.script()). Graph functions (func.func on tensors calling
/// prim_funcs) print as @R.function; their tensor constants as
/// `metadata["relax.expr.Constant"][k]`, whose data follows the module when
/// `showMeta` is set (TVM's show_meta). Returns "" with `error` set for IR
/// that TVMScript cannot express.
std::string printTVMScript(ModuleOp module, std::string &error,
                           bool asModule = false, bool showMeta = false);

/// The body of `func` alone, as TVMScript statements at no indentation, its
/// arguments named by `tir.name` (free variables and buffers): how a
/// tvm.tir node prints on its own (TVM's script() of a statement). A
/// function that returns a value prints the value's expression last.
/// Returns "" with `error` set for IR that TVMScript cannot express.
std::string printTVMScriptFragment(func::FuncOp func, std::string &error);

/// How tir's values map onto TVM's expressions: what the printer writes
/// and what the Python extension builds tvm.tir nodes from
/// (python/extension/Nodes.cpp), decided once here.
namespace tvmscript {

/// TVM's dtype for a scalar type ("float32", "bool", "int8"; an index is
/// "int32"); "" for a type with none.
std::string dtypeName(Type type);

/// Whether a parameter's buffer is row-major with an offset known only at
/// run time: what T.match_buffer of a parameter with an offset_factor
/// gives (`strided<[row-major], offset: ?>`), printed with
/// `offset_factor=1` and read as a Buffer with an elem_offset variable.
bool hasDynamicOffsetLayout(MemRefType type);

/// Whether a value with one use is written into that use (inline in
/// TVMScript, a subtree of a node) rather than bound to a name where it is
/// defined (an alias in TVMScript, a LetStmt among nodes): constants and
/// pure ops can move to their use unless that would carry a load past a
/// write; a load moves only when nothing between may write.
bool isWrittenInline(Value value);

/// Python's operator for a binary arithmetic op ("+", "-", "*", "/",
/// "//", "%"); "" for other ops.
StringRef infixOperator(Operation *op);

/// TVM's intrinsic an op computes, as T.<name> calls it ("max", "exp",
/// "truncdiv", "shift_left", ...); "" for other ops.
StringRef intrinsicName(Operation *op);

/// TVM's comparison an arith.cmpi / cmpf computes ("<", "<=", ">", ">=",
/// "==", "!="); "" for other ops and predicates TVM has no form for.
StringRef comparisonOperator(Operation *op);

} // namespace tvmscript

} // namespace mlir::tir

#endif // TENSORIR_TARGET_TVMSCRIPT_H
