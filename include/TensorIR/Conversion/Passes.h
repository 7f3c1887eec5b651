//===- Passes.h - conversions out of tir ------------------------*- C++ -*-===//
//
// Every conversion's header, and the registration of their passes.
//
//===----------------------------------------------------------------------===//

#ifndef TENSORIR_CONVERSION_PASSES_H
#define TENSORIR_CONVERSION_PASSES_H

#include "TensorIR/Conversion/TIRToSCF/TIRToSCF.h"

// getHostCPUFeatures moved to the LLVM target's passes; lib/Compiler still
// reaches it through this header. Drop this include once it includes
// TensorIR/Target/LLVMIR/Transforms/Passes.h itself.
#include "TensorIR/Target/LLVMIR/Transforms/Passes.h"

namespace mlir::tir {

#define GEN_PASS_REGISTRATION
#include "TensorIR/Conversion/Passes.h.inc"

} // namespace mlir::tir

#endif // TENSORIR_CONVERSION_PASSES_H
