//===- TVMScript.h - tir functions printed as TVMScript ---------*- C++ -*-===//
//
// The TVMScript printer: the inverse of python/tensorir/script/parser.py.
// Used by the Python package (IRModule.script()) and by
// `tir-translate --tir-to-tvmscript`.
//
//===----------------------------------------------------------------------===//

#ifndef TENSORIR_TARGET_TVMSCRIPT_H
#define TENSORIR_TARGET_TVMSCRIPT_H

#include "mlir/IR/BuiltinOps.h"

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

} // namespace mlir::tir

#endif // TENSORIR_TARGET_TVMSCRIPT_H
