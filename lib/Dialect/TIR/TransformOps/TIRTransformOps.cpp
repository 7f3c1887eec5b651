//===- TIRTransformOps.cpp - transform.tir extension ----------------------===//
//
// The op classes, whose glue (applyToPayload) is in TIRTransformOps.td next
// to each op, and the extension that registers them. What every op shares
// (the transform interpreter's apply, the effects) is ScheduleOpTrait, in
// lib/Dialect/TIR/TransformOps/ScheduleOpInterface.cpp.
//
//===----------------------------------------------------------------------===//

#include "TensorIR/Dialect/TIR/TransformOps/TIRTransformOps.h"
#include "TensorIR/Dialect/TIR/IR/TIRDialect.h"
#include "TensorIR/Dialect/TIR/IR/TIROps.h"
#include "TensorIR/Dialect/TIR/Schedule/Primitives.h"
#include "TensorIR/Dialect/TIR/Schedule/Query.h"

#include "mlir/Dialect/Transform/IR/TransformDialect.h"
#include "mlir/IR/AffineExprVisitor.h"

using namespace mlir;
using namespace mlir::tir;

#define GET_OP_CLASSES
#include "TensorIR/Dialect/TIR/TransformOps/TIRTransformOps.cpp.inc"

//===----------------------------------------------------------------------===//
// SplitOp
//===----------------------------------------------------------------------===//

LogicalResult tir::SplitOp::verify() {
  if (getFactors().size() < 2)
    return emitOpError("expects at least two factors");
  if (getLoops().size() != getFactors().size())
    return emitOpError("expects one result per factor: ")
           << getFactors().size() << " factors, " << getLoops().size()
           << " results";
  size_t scalable = llvm::count(getFactors(), 0);
  ArrayAttr scalableFactors = getScalableFactorsAttr();
  size_t given = scalableFactors ? scalableFactors.size() : 0;
  if (scalable != given)
    return emitOpError("has ")
           << scalable << " factors of 0 (scalable) but " << given
           << " scalable_factors: split factors are positive, -1 (inferred) "
              "or 0 (the next of scalable_factors)";
  if (scalableFactors) {
    for (Attribute attr : scalableFactors) {
      AffineMap map = cast<AffineMapAttr>(attr).getValue();
      if (map.getNumDims() != 0 || map.getNumSymbols() != 1 ||
          map.getNumResults() != 1)
        return emitOpError("expects scalable factors as affine maps "
                           "'()[s0] -> (expr)' of vscale, got ")
               << AffineMapAttr::get(map);
    }
  }
  return success();
}

/// The factors, in order: inferred (-1), scalable (0) or constant.
static SmallVector<SplitFactor> splitFactors(tir::SplitOp op) {
  SmallVector<SplitFactor> factors;
  unsigned scalable = 0;
  for (int64_t factor : op.getFactors()) {
    if (factor == -1) {
      factors.push_back(SplitFactor::inferred());
    } else if (factor == 0) {
      AffineMap map =
          cast<AffineMapAttr>(op.getScalableFactorsAttr()[scalable++])
              .getValue();
      factors.push_back(SplitFactor::ofScalable(map.getResult(0)));
    } else {
      factors.push_back(SplitFactor::of(factor));
    }
  }
  return factors;
}

LogicalResult tir::SplitOp::applyToPayload(RewriterBase &rewriter,
                                           SchedulePayload &payload,
                                           ScheduleError &error) {
  FailureOr<ForOp> loop = payload.single<ForOp>(0, "tir.for", error);
  if (failed(loop))
    return failure();
  SplitOptions options;
  options.preserveUnitIters = getPreserveUnitIters();
  options.disablePredication = getDisablePredication();
  if (std::optional<ArrayRef<int64_t>> values = getVscaleValues())
    options.vscaleValues.assign(values->begin(), values->end());
  FailureOr<SmallVector<ForOp>> loops =
      split(rewriter, *loop, splitFactors(*this), options, error);
  if (failed(loops))
    return failure();
  for (auto [index, newLoop] : llvm::enumerate(*loops))
    payload.setResult(index, ArrayRef<Operation *>(newLoop));
  return success();
}

void tir::SplitOp::printPythonArgument(StringRef name, Attribute value,
                                       raw_ostream &os) {
  // The scalable factors appear in `factors`; vscale's values come from
  // the target in Python.
  if (name == "scalable_factors" || name == "vscale_values")
    return;
  if (name != "factors") {
    os << name << "=";
    printPythonValue(value, os);
    return;
  }
  SmallVector<SplitFactor> factors = splitFactors(*this);
  os << "factors=[";
  llvm::interleaveComma(factors, os, [&](const SplitFactor &factor) {
    if (factor.isInferred())
      os << "None";
    else if (factor.constant)
      os << *factor.constant;
    else
      printPythonExpr(factor.scalable, os);
  });
  os << "]";
}

//===----------------------------------------------------------------------===//
// Extension
//===----------------------------------------------------------------------===//

namespace {
class TIRTransformDialectExtension
    : public transform::TransformDialectExtension<
          TIRTransformDialectExtension> {
public:
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(TIRTransformDialectExtension)

  TIRTransformDialectExtension() {
    declareDependentDialect<TIRDialect>();
    registerTransformOps<
#define GET_OP_LIST
#include "TensorIR/Dialect/TIR/TransformOps/TIRTransformOps.cpp.inc"
        >();
  }
};
} // namespace

void mlir::tir::registerTransformDialectExtension(DialectRegistry &registry) {
  registry.addExtensions<TIRTransformDialectExtension>();
}

//===----------------------------------------------------------------------===//
// ReIndexOp
//===----------------------------------------------------------------------===//

/// The buffer_index_type of the ops that take TVM's ("read" | "write", i).
static LogicalResult verifyBufferIndexType(Operation *op, StringRef type) {
  if (type != "read" && type != "write")
    return op->emitOpError(
               "expects buffer_index_type \"read\" or \"write\", got \"")
           << type << "\"";
  return success();
}

/// An argument of an op taking TVM's buffer ("read" | "write", index): the
/// pair printed for buffer_index, nothing for buffer_index_type, any other
/// attribute as printPythonValue does.
static void printPythonBufferOpArgument(StringRef name, Attribute value,
                                        StringRef type, int64_t index,
                                        raw_ostream &os) {
  if (name == "buffer_index_type")
    return;
  if (name == "buffer_index") {
    os << "buffer=(\"" << type << "\", " << index << ")";
    return;
  }
  os << name << "=";
  printPythonValue(value, os);
}

LogicalResult tir::ReIndexOp::verify() {
  return verifyBufferIndexType(*this, getBufferIndexType());
}

void tir::ReIndexOp::printPythonArgument(StringRef name, Attribute value,
                                         raw_ostream &os) {
  printPythonBufferOpArgument(name, value, getBufferIndexType(),
                              getBufferIndex(), os);
}

//===----------------------------------------------------------------------===//
// Index maps
//===----------------------------------------------------------------------===//

LogicalResult tir::TransformBlockLayoutOp::verify() {
  if (getIndexMap().getNumSymbols() != 0)
    return emitOpError("expects an index map over dimensions only, got ")
           << getIndexMapAttr();
  return success();
}

LogicalResult tir::TransformLayoutOp::verify() {
  if (Attribute pad = getPadValueAttr();
      pad && !isa<IntegerAttr, FloatAttr>(pad)) {
    auto map = dyn_cast<AffineMapAttr>(pad);
    if (!map || map.getValue().getNumSymbols() != 0 ||
        map.getValue().getNumResults() != 1)
      return emitOpError("expects pad_value to be an integer or float "
                         "constant, or an affine map over dimensions to one "
                         "result, got ")
             << pad;
  }
  if (getIndexMap().getNumSymbols() != 0)
    return emitOpError("expects an index map over dimensions only, got ")
           << getIndexMapAttr();
  return verifyBufferIndexType(*this, getBufferIndexType());
}

void tir::TransformLayoutOp::printPythonArgument(StringRef name,
                                                 Attribute value,
                                                 raw_ostream &os) {
  printPythonBufferOpArgument(name, value, getBufferIndexType(),
                              getBufferIndex(), os);
}

LogicalResult tir::SetAxisSeparatorOp::verify() {
  return verifyBufferIndexType(*this, getBufferIndexType());
}

void tir::SetAxisSeparatorOp::printPythonArgument(StringRef name,
                                                  Attribute value,
                                                  raw_ostream &os) {
  printPythonBufferOpArgument(name, value, getBufferIndexType(),
                              getBufferIndex(), os);
}
