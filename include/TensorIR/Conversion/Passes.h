//===- Passes.h - conversions out of tir ------------------------*- C++ -*-===//
//
// Every conversion's header, and the registration of their passes.
//
//===----------------------------------------------------------------------===//

#ifndef TENSORIR_CONVERSION_PASSES_H
#define TENSORIR_CONVERSION_PASSES_H

#include "TensorIR/Conversion/LinalgToTIR/LinalgToTIR.h"
#include "TensorIR/Conversion/TIRToGPU/TIRToGPU.h"
#include "TensorIR/Conversion/TIRToSCF/TIRToSCF.h"

namespace mlir::tir {

#define GEN_PASS_REGISTRATION
#include "TensorIR/Conversion/Passes.h.inc"

} // namespace mlir::tir

#endif // TENSORIR_CONVERSION_PASSES_H
