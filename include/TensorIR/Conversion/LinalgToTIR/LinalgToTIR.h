//===- LinalgToTIR.h - linalg ops as TensorIR blocks ------------*- C++ -*-===//
//
// A linalg op computes as one TensorIR block under a loop nest: its loops are
// the block's iteration variables (parallel ones spatial, reduction ones
// reduce), its indexing maps the accesses, its body the computation. Used by
// --convert-linalg-to-tir (linalg on buffers, rewritten in place) and by
// --tir-legalize-ops (linalg on tensors in a graph function, each op
// becoming a prim_func and a tir.call_tir of it).
//
//===----------------------------------------------------------------------===//

#ifndef TENSORIR_CONVERSION_LINALGTOTIR_LINALGTOTIR_H
#define TENSORIR_CONVERSION_LINALGTOTIR_LINALGTOTIR_H

#include "TensorIR/Dialect/TIR/IR/TIROps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Pass/Pass.h"

namespace mlir::tir {

#define GEN_PASS_DECL_CONVERTLINALGTOTIRPASS
#define GEN_PASS_DECL_TIRLEGALIZEOPSPASS
#define GEN_PASS_DECL_TIRSIMPLIFYLAYOUTSPASS
#include "TensorIR/Conversion/Passes.h.inc"

/// Why `op` has no TensorIR block (dynamic loop ranges, a body op that
/// cannot be cloned into a block, ...); "" when it has one.
std::string checkLinalgForTIR(linalg::LinalgOp op);

/// Whether the body of `op` reads `input` (one of its inputs) with
/// tensor.extract at indices it computes (a gather, as relax's take): the
/// input's value is used though its block argument is not.
bool isGatheredInput(linalg::LinalgOp op, OpOperand *input);

/// Builds at `builder`'s insertion point the loop nest (loops `i0`, ...,
/// or named `axes[d]` with the block's variables `v_<axes[d]>`, as TVMScript
/// prints TVM's) and the block `name` that computes the linalg op `op`
/// (generic or named) reading `inputs` and writing `outputs` (buffers, one
/// per DPS operand; an input whose value the body does not use may be
/// null; a gathered input is loaded from at the indices its
/// tensor.extract computes). `inits`, when not empty, holds per output the
/// value a T.init writes (null: none); the body then starts from it instead of
/// the output's contents. checkLinalgForTIR(op) must be "".
BlockOp buildLinalgBlock(OpBuilder &builder, Location loc, linalg::LinalgOp op,
                         StringRef name, ValueRange inputs, ValueRange outputs,
                         ArrayRef<TypedAttr> inits = {},
                         ArrayRef<std::string> axes = {});

/// The names TVM gives the compute of a front end's operator: the block's
/// and, per loop of the op, the axis's.
struct LinalgBlockNames {
  std::string block;
  SmallVector<std::string> axes;
};

/// TVM's names for `op` (LinalgNames.cpp): "matmul" over i0, i1 reducing
/// k; "conv2d_nchw" over nn, ff, yy, xx reducing rc, ry, rx; "T_add" over
/// ax0, ...; "<input>_red"; "pool_max"; "T_transpose"; "compute" for any
/// other computation.
LinalgBlockNames getTVMNames(linalg::LinalgOp op);

} // namespace mlir::tir

#endif // TENSORIR_CONVERSION_LINALGTOTIR_LINALGTOTIR_H
