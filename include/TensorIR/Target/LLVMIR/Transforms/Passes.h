//===- Passes.h - passes around tir's LLVM code generation ------*- C++ -*-===//
//
// Passes that prepare a lowered tir module for LLVM code generation and fix
// up the llvm-dialect module afterwards (C entry points, parallel bodies as
// functions, noalias parameters, the target CPU), and the helpers they share.
//
//===----------------------------------------------------------------------===//

#ifndef TENSORIR_TARGET_LLVMIR_TRANSFORMS_PASSES_H
#define TENSORIR_TARGET_LLVMIR_TRANSFORMS_PASSES_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Pass/Pass.h"

#include <string>

namespace mlir::tir {

#define GEN_PASS_DECL
#include "TensorIR/Target/LLVMIR/Transforms/Passes.h.inc"

/// Records in TIRDialect::kNoAliasParamsAttrName that the memref parameters
/// `args` of `func` are distinct buffers: the positions, once each memref
/// expands to (allocated, aligned, offset, sizes, strides), of their aligned
/// pointers.
void recordNoAliasBuffers(func::FuncOp func, ArrayRef<unsigned> args);

/// The host CPU's features as LLVM spells them ("+avx2,-avx512f,...").
std::string getHostCPUFeatures();

/// Checks, before LLVM sees them (it ends the process on some unknown
/// CPUs), that `cpu` and every entry of `features` ("+name" or "-name",
/// comma-separated) are known to LLVM's target for this machine; emits an
/// error at `loc` that names the unknown one otherwise. An empty `cpu` or
/// `features` is not checked.
LogicalResult verifyTargetCPU(Location loc, StringRef cpu, StringRef features);

/// The math functions --tir-approximate-math rewrites when given none.
ArrayRef<StringRef> getDefaultApproximatedMathFunctions();

#define GEN_PASS_REGISTRATION
#include "TensorIR/Target/LLVMIR/Transforms/Passes.h.inc"

} // namespace mlir::tir

#endif // TENSORIR_TARGET_LLVMIR_TRANSFORMS_PASSES_H
