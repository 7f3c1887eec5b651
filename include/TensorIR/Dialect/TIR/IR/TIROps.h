//===- TIROps.h - TensorIR operations ---------------------------*- C++ -*-===//

#ifndef TENSORIR_DIALECT_TIR_IR_TIROPS_H
#define TENSORIR_DIALECT_TIR_IR_TIROPS_H

#include "TensorIR/Dialect/TIR/IR/TIRAttrs.h"
#include "TensorIR/Dialect/TIR/IR/TIRDialect.h"
#include "TensorIR/Dialect/TIR/IR/TIRIndexExpr.h"
#include "TensorIR/Dialect/TIR/IR/TIRTypes.h"
#include "mlir/IR/AffineMap.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/IntegerSet.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace mlir::tir {
class InitOp;

/// Fails, naming the attribute, when an affine map or integer set of `op`
/// divides (floordiv, ceildiv, mod) by a constant that is not positive.
LogicalResult verifyPositiveDivisors(Operation *op);

/// The trait every tir op has: see verifyPositiveDivisors.
template <typename ConcreteType>
class PositiveDivisors
    : public OpTrait::TraitBase<ConcreteType, PositiveDivisors> {
public:
  static LogicalResult verifyTrait(Operation *op) {
    return verifyPositiveDivisors(op);
  }
};

/// One iteration variable of a tir.block being built (BlockOp's builder):
/// its kind, its domain [lower, upper), its binding (an index expression in
/// input space over the block's binding values) and a name ("": none).
struct IterVarSpec {
  IterType type;
  OpFoldResult lower;
  OpFoldResult upper;
  AffineExpr binding;
  StringRef name = "";
};

/// The read and write regions of a tir.block being built: each buffer with
/// its region in input space over the block's iteration variables, then
/// `regionValues`.
struct BlockRegionsSpec {
  SmallVector<std::pair<Value, RegionExprs>> reads, writes;
  SmallVector<Value> regionValues;
};
} // namespace mlir::tir

#define GET_OP_CLASSES
#include "TensorIR/Dialect/TIR/IR/TIROps.h.inc"

#endif // TENSORIR_DIALECT_TIR_IR_TIROPS_H
