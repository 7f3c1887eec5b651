//===- Passes.h - TensorIR passes -------------------------------*- C++ -*-===//

#ifndef TENSORIR_DIALECT_TIR_TRANSFORMS_PASSES_H
#define TENSORIR_DIALECT_TIR_TRANSFORMS_PASSES_H

#include "mlir/Pass/Pass.h"

namespace mlir::tir {
class BlockOp;

#define GEN_PASS_DECL
#include "TensorIR/Dialect/TIR/Transforms/Passes.h.inc"

/// Computes and sets the read and write regions of `block` from its body
/// (TVM's GetBlockReadWriteRegion). Fails, with a diagnostic on the block,
/// when an access cannot be expressed in the block's iteration variables.
LogicalResult inferAccessRegions(BlockOp block);

#define GEN_PASS_REGISTRATION
#include "TensorIR/Dialect/TIR/Transforms/Passes.h.inc"

} // namespace mlir::tir

#endif // TENSORIR_DIALECT_TIR_TRANSFORMS_PASSES_H
