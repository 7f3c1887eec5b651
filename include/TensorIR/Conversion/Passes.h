//===- Passes.h - conversions out of tir ------------------------*- C++ -*-===//

#ifndef TENSORIR_CONVERSION_PASSES_H
#define TENSORIR_CONVERSION_PASSES_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Pass/Pass.h"

// getHostCPUFeatures moved to the LLVM target's passes; lib/Compiler still
// reaches it through this header. Drop this include once it includes
// TensorIR/Target/LLVMIR/Transforms/Passes.h itself.
#include "TensorIR/Target/LLVMIR/Transforms/Passes.h"

namespace mlir::tir {

#define GEN_PASS_DECL
#include "TensorIR/Conversion/Passes.h.inc"

/// Lowers every tir op under `root` to scf / arith / memref (see
/// convert-tir-to-scf). Fails with a diagnostic on ops it cannot lower.
/// Lowers every tir op under `root` (see convert-tir-to-scf). Fails, with a
/// diagnostic and no change, on ops it does not lower.
LogicalResult convertTIRToSCF(Operation *root, bool dropStorageScopes = false);

#define GEN_PASS_REGISTRATION
#include "TensorIR/Conversion/Passes.h.inc"

} // namespace mlir::tir

#endif // TENSORIR_CONVERSION_PASSES_H
