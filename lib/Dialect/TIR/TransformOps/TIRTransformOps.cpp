//===- TIRTransformOps.cpp - transform.tir extension ----------------------===//
//
// The op classes, whose glue (applyToPayload) is in TIRTransformOps.td next
// to each op, and the extension that registers them. What every op shares
// (the transform interpreter's apply, the effects) is ScheduleOpTrait, in
// lib/Schedule/ScheduleOpInterface.cpp.
//
//===----------------------------------------------------------------------===//

#include "TensorIR/Dialect/TIR/TransformOps/TIRTransformOps.h"
#include "TensorIR/Dialect/TIR/IR/TIRDialect.h"
#include "TensorIR/Dialect/TIR/IR/TIROps.h"
#include "TensorIR/Schedule/Primitives.h"
#include "TensorIR/Schedule/Query.h"

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

/// An index expression as Python: T.vscale() for s0 (a scalable split
/// factor), d<k> for dimension k (an index map's index).
static void printPythonExpr(AffineExpr expr, raw_ostream &os) {
  if (auto symbol = dyn_cast<AffineSymbolExpr>(expr)) {
    os << "T.vscale()";
  } else if (auto dim = dyn_cast<AffineDimExpr>(expr)) {
    os << "d" << dim.getPosition();
  } else if (auto constant = dyn_cast<AffineConstantExpr>(expr)) {
    os << constant.getValue();
  } else if (auto binary = dyn_cast<AffineBinaryOpExpr>(expr)) {
    if (binary.getKind() == AffineExprKind::CeilDiv) {
      os << "T.ceildiv(";
      printPythonExpr(binary.getLHS(), os);
      os << ", ";
      printPythonExpr(binary.getRHS(), os);
      os << ")";
      return;
    }
    StringRef op = binary.getKind() == AffineExprKind::Add   ? " + "
                   : binary.getKind() == AffineExprKind::Mul ? " * "
                   : binary.getKind() == AffineExprKind::Mod ? " % "
                                                             : " // ";
    os << "(";
    printPythonExpr(binary.getLHS(), os);
    os << op;
    printPythonExpr(binary.getRHS(), os);
    os << ")";
  }
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

/// TVM's Python takes the buffer as ("read" | "write", index): printed for
/// buffer_index, nothing for buffer_index_type. Returns whether `name` was
/// one of the two.
static bool printPythonBufferArgument(StringRef name, StringRef type,
                                      int64_t index, raw_ostream &os) {
  if (name == "buffer_index")
    os << "buffer=(\"" << type << "\", " << index << ")";
  return name == "buffer_index" || name == "buffer_index_type";
}

LogicalResult tir::ReIndexOp::verify() {
  return verifyBufferIndexType(*this, getBufferIndexType());
}

void tir::ReIndexOp::printPythonArgument(StringRef name, Attribute value,
                                         raw_ostream &os) {
  printPythonBufferArgument(name, getBufferIndexType(), getBufferIndex(), os);
}

//===----------------------------------------------------------------------===//
// Index maps
//===----------------------------------------------------------------------===//

void mlir::tir::printPythonIndexMap(AffineMap map, raw_ostream &os) {
  os << "lambda ";
  for (unsigned d = 0; d < map.getNumDims(); ++d)
    os << (d ? ", " : "") << "d" << d;
  os << ": (";
  for (AffineExpr e : map.getResults()) {
    printPythonExpr(e, os);
    os << ", ";
  }
  os << ")";
}

LogicalResult tir::TransformBlockLayoutOp::verify() {
  if (getIndexMap().getNumSymbols() != 0)
    return emitOpError("expects an index map over dimensions only, got ")
           << getIndexMapAttr();
  return success();
}

void tir::TransformBlockLayoutOp::printPythonArgument(StringRef name,
                                                      Attribute value,
                                                      raw_ostream &os) {
  os << name << "=";
  printPythonIndexMap(cast<AffineMapAttr>(value).getValue(), os);
}

LogicalResult tir::TransformLayoutOp::verify() {
  if (Attribute pad = getPadValueAttr();
      pad && !isa<IntegerAttr, FloatAttr>(pad))
    return emitOpError(
               "expects pad_value to be an integer or float constant, got ")
           << pad;
  if (getIndexMap().getNumSymbols() != 0)
    return emitOpError("expects an index map over dimensions only, got ")
           << getIndexMapAttr();
  return verifyBufferIndexType(*this, getBufferIndexType());
}

void tir::TransformLayoutOp::printPythonArgument(StringRef name,
                                                 Attribute value,
                                                 raw_ostream &os) {
  if (printPythonBufferArgument(name, getBufferIndexType(), getBufferIndex(),
                                os))
    return;
  os << name << "=";
  if (name == "index_map")
    printPythonIndexMap(cast<AffineMapAttr>(value).getValue(), os);
  else
    printPythonValue(value, os);
}

LogicalResult tir::SetAxisSeparatorOp::verify() {
  return verifyBufferIndexType(*this, getBufferIndexType());
}

void tir::SetAxisSeparatorOp::printPythonArgument(StringRef name,
                                                  Attribute value,
                                                  raw_ostream &os) {
  if (printPythonBufferArgument(name, getBufferIndexType(), getBufferIndex(),
                                os))
    return;
  os << name << "=";
  printPythonValue(value, os);
}
