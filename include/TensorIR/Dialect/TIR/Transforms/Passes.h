//===- Passes.h - TensorIR passes -------------------------------*- C++ -*-===//

#ifndef TENSORIR_DIALECT_TIR_TRANSFORMS_PASSES_H
#define TENSORIR_DIALECT_TIR_TRANSFORMS_PASSES_H

// inferAccessRegions, which --tir-infer-access-regions applies.
#include "TensorIR/Dialect/TIR/Analysis/AccessRegions.h"
#include "TensorIR/Dialect/TIR/Analysis/Refusal.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir {
class RewriterBase;
} // namespace mlir

namespace mlir::tir {
class BlockOp;

/// The pointer compiled code calls packed functions through
/// (--tir-lower-packed-calls; the runtime's kPackedHookSymbol).
constexpr StringLiteral kPackedCallHookSymbol = "__tir_packed_call";

#define GEN_PASS_DECL
#include "TensorIR/Dialect/TIR/Transforms/Passes.h.inc"

/// Replaces the tir.init of `block` (if any) by an scf.if on "every reduce
/// iteration variable is at the start of its domain" (TVM's LowerInitBlock).
void lowerInit(RewriterBase &rewriter, BlockOp block);

/// Unrolls `loop` completely when its trip count is constant, else by
/// `dynamicFactor` with a remainder loop.
LogicalResult unrollLoop(RewriterBase &rewriter, scf::ForOp loop,
                         unsigned dynamicFactor);

/// Rewrites `loop` (whose iterations are independent) into vector code of at
/// most `maxLanes` lanes. On failure the loop is unchanged and `reason` says
/// why (the message names the op that has no vector form).
LogicalResult vectorizeLoop(RewriterBase &rewriter, scf::ForOp loop,
                            unsigned maxLanes, Refusal &reason);

#define GEN_PASS_REGISTRATION
#include "TensorIR/Dialect/TIR/Transforms/Passes.h.inc"

} // namespace mlir::tir

#endif // TENSORIR_DIALECT_TIR_TRANSFORMS_PASSES_H
