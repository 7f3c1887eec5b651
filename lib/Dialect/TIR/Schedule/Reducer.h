//===- Reducer.h - a reduction block's commutative reducer ------*- C++ -*-===//
//
// TVM's commutative reducers recognized in a reduction block: the block's
// init stores the reducer's identity into each reduction buffer, and its
// body stores into each buffer the reducer's combination of the buffer's
// current values (x) and the new values (y). The reducers are TVM's:
// sum, product, min, max (and, beyond TVM's registry, bitwise and, or,
// xor), the pair sum, and the (index, value) pairs of argmax / argmin in
// both of TVM's forms (ties kept, or broken by the smaller index, as
// topi builds them).
//
// In tir's SSA form a reduction over several buffers computes every stored
// value before it stores any (TVM writes that with LetStmts): the update's
// loads all come before its first store.
//
//===----------------------------------------------------------------------===//

#ifndef TENSORIR_LIB_SCHEDULE_REDUCER_H
#define TENSORIR_LIB_SCHEDULE_REDUCER_H

#include "TensorIR/Dialect/TIR/IR/TIROps.h"
#include "TensorIR/Dialect/TIR/Schedule/ScheduleError.h"

#include <memory>

namespace mlir::tir::sched {

/// The combiner of one buffer as the block computes it: leaves are the
/// current value of buffer `index` (X), the new value `index` (Y), or an
/// op of the block whose operands are the children.
struct CombinerNode {
  enum Kind { X, Y, Op } kind;
  unsigned index = 0;
  Operation *op = nullptr;
  SmallVector<std::unique_ptr<CombinerNode>> children;
};

/// A reduction block's update, matched against a commutative reducer.
struct Reduction {
  /// The reducer, for diagnostics: "sum", "argmax", ...
  std::string name;
  /// Per reduction buffer, in the reducer's order (an argmax's index
  /// buffer first): the store of the init, the store of the update.
  SmallVector<StoreOp> inits, updates;
  /// The new values (y) the update combines, values of the block's body.
  SmallVector<Value> rhs;
  /// The identities the init stores.
  SmallVector<TypedAttr> identities;
  /// The combiner of each buffer, as the block writes it.
  SmallVector<std::unique_ptr<CombinerNode>> combiners;

  /// The reduction buffers, in the reducer's order.
  SmallVector<Value> getBuffers() const;
  /// Builds the combined values of current values `x` and new values `y`
  /// at the builder's insertion point (the block's ops, cloned).
  SmallVector<Value> combine(OpBuilder &builder, ValueRange x,
                             ValueRange y) const;
  /// Builds the identities at the builder's insertion point.
  SmallVector<Value> buildIdentities(OpBuilder &builder, Location loc) const;
};

/// Recognizes the reducer of `block` (a reduction block) or refuses for
/// `primitive`, naming the rule the block breaks: an init that is not
/// stores of constants into distinct buffers, an update that is not one
/// store per initialized buffer (the same buffers, shapes and indices) of
/// values computed before any of them is stored, no reducer of the
/// registry matching the combination and the identities, new values that
/// read a reduction buffer.
FailureOr<Reduction> matchReduction(BlockOp block, StringRef primitive,
                                    ScheduleError &error);

} // namespace mlir::tir::sched

#endif // TENSORIR_LIB_SCHEDULE_REDUCER_H
