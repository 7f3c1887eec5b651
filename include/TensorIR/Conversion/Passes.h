//===- Passes.h - conversions out of tir ------------------------*- C++ -*-===//

#ifndef TENSORIR_CONVERSION_PASSES_H
#define TENSORIR_CONVERSION_PASSES_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Pass/Pass.h"

namespace mlir::tir {

#define GEN_PASS_DECL
#include "TensorIR/Conversion/Passes.h.inc"

/// Lowers every tir op under `root` to scf / arith / memref (see
/// convert-tir-to-scf). Fails with a diagnostic on ops it cannot lower.
/// Lowers every tir op under `root` (see convert-tir-to-scf). Fails, with a
/// diagnostic and no change, on ops it does not lower.
LogicalResult convertTIRToSCF(Operation *root, bool dropStorageScopes = false);

/// The attribute listing, on a func.func, the parameters of its expanded
/// (llvm-dialect) signature that may be marked noalias.
constexpr llvm::StringLiteral kNoAliasParamsAttrName = "tir.noalias_params";

/// Records in kNoAliasParamsAttrName that the memref parameters `args` of
/// `func` are distinct buffers: the positions, once each memref expands to
/// (allocated, aligned, offset, sizes, strides), of their aligned pointers.
void recordNoAliasBuffers(func::FuncOp func, ArrayRef<unsigned> args);

/// The host CPU's features as LLVM spells them ("+avx2,-avx512f,...").
std::string getHostCPUFeatures();

#define GEN_PASS_REGISTRATION
#include "TensorIR/Conversion/Passes.h.inc"

} // namespace mlir::tir

#endif // TENSORIR_CONVERSION_PASSES_H
