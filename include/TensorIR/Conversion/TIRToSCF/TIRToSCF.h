//===- TIRToSCF.h - lower tir to scf, arith and memref ----------*- C++ -*-===//

#ifndef TENSORIR_CONVERSION_TIRTOSCF_TIRTOSCF_H
#define TENSORIR_CONVERSION_TIRTOSCF_TIRTOSCF_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Pass/Pass.h"

namespace mlir {
class RewritePatternSet;
} // namespace mlir

namespace mlir::tir {

#define GEN_PASS_DECL_CONVERTTIRTOSCFPASS
#include "TensorIR/Conversion/Passes.h.inc"

/// Adds the conversion patterns that lower tir.for (to scf.for, or
/// scf.parallel for parallel loops), tir.block (with its tir.init and the
/// tir.alloc_buffer ops it scopes), tir.alloc_buffer, tir.load and
/// tir.store to scf / arith / memref. They are meant for a dialect
/// conversion in which those ops are illegal and arith, memref and scf
/// legal, with folding off (the output is what the patterns build). A
/// thread-bound tir.for is not matched (the GPU lowering provides its own
/// pattern); storage scopes are kept and storage_align strides are not
/// applied (both are convertTIRToSCF's).
void populateTIRToSCFConversionPatterns(RewritePatternSet &patterns);

/// Lowers every tir op under `root` (see convert-tir-to-scf) with the
/// patterns above, dropping the storage scopes of allocations first when
/// asked and the parameters' tir.name attributes after; with
/// `compactBuffers`, buffers are allocated where planBufferCompaction
/// (CompactBuffers.h) says, with the shape it gives. Fails, with a
/// diagnostic and no change, on ops it does not lower (thread-bound loops,
/// tir.match_buffer).
LogicalResult convertTIRToSCF(Operation *root, bool dropStorageScopes = false,
                              bool compactBuffers = false);

} // namespace mlir::tir

#endif // TENSORIR_CONVERSION_TIRTOSCF_TIRTOSCF_H
