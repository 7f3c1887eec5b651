//===- TVMScriptPrinter.h - tir functions printed as TVMScript --*- C++ -*-===//

#ifndef TENSORIR_PYTHON_TVMSCRIPTPRINTER_H
#define TENSORIR_PYTHON_TVMSCRIPTPRINTER_H

#include "mlir/IR/BuiltinOps.h"

#include <string>

namespace mlir::tir {

/// The module's functions as TVMScript (an @I.ir_module class when there
/// are several), which tensorir.script parses back to the same IR. Returns
/// "" with `error` set for IR that TVMScript cannot express.
std::string printTVMScript(ModuleOp module, std::string &error);

} // namespace mlir::tir

#endif // TENSORIR_PYTHON_TVMSCRIPTPRINTER_H
