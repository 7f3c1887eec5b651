//===- OpPattern.h - how a prim_func's outputs depend on its inputs -*- C++
//-*-===//
//
// TVM's operator pattern of a prim_func (relax's AnnotateTIROpPattern): the
// kind of dependence of what its blocks write on what they read, by which
// graph-level fusion decides what may join one function. From the most to
// the least fusible: element-wise, broadcast, injective, commutative
// reduction, output-element-wise-fusable (a matmul, a convolution: a
// reduction whose consumers' element-wise work can follow it in place),
// opaque.
//
//===----------------------------------------------------------------------===//

#ifndef TENSORIR_DIALECT_TIR_ANALYSIS_OPPATTERN_H
#define TENSORIR_DIALECT_TIR_ANALYSIS_OPPATTERN_H

#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace mlir::tir {

/// TVM's OpPatternKind, with its numbers (the `op_pattern` attribute).
enum class OpPattern : int64_t {
  ElemWise = 0,
  Broadcast = 1,
  Injective = 2,
  CommReduce = 3,
  OutEWiseFusable = 4,
  Opaque = 8,
};

/// The pattern of prim_func `func`: the least fusible of its blocks'. A
/// block that writes one buffer once is element-wise when every read is at
/// the written indices, broadcast when a read's indices are some of them in
/// order (a block reading at the written indices too, a bias add, stays
/// element-wise), injective when a read's indices use only the written
/// ones, else opaque; a block with reduction variables is
/// output-element-wise-fusable when it accumulates products (C += A * B) or
/// reads at an expression of a reduction variable (pooling windows), else a
/// commutative reduction; a reduction followed by a spatial block writing an
/// output (softmax's normalization) is output-element-wise-fusable. A function
/// without a body, with a block that is none of these, or with a loop bound
/// to GPU threads (a kernel already scheduled) is opaque.
OpPattern analyzeOpPattern(func::FuncOp func);

/// The pattern `func` is annotated with (`tir.op_pattern`), or else
/// analyzeOpPattern's.
OpPattern getOpPattern(func::FuncOp func);

} // namespace mlir::tir

#endif // TENSORIR_DIALECT_TIR_ANALYSIS_OPPATTERN_H
