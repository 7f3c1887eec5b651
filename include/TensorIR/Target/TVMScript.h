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

/// The module's functions as TVMScript (an @I.ir_module class when there
/// are several), which tensorir.script parses back to the same IR. Returns
/// "" with `error` set for IR that TVMScript cannot express.
std::string printTVMScript(ModuleOp module, std::string &error);

} // namespace mlir::tir

#endif // TENSORIR_TARGET_TVMSCRIPT_H
