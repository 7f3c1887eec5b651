//===- OperatorCall.h - one graph operator being built ----------*- C++ -*-===//
//
// What the files building graph operators share (private to TIRGraph): the
// operator call with its operands, result type and attributes, its located
// errors naming the operator, and the helpers that build linalg ops of the
// result's shape.
//
//===----------------------------------------------------------------------===//

#ifndef TENSORIR_LIB_GRAPH_OPERATORCALL_H
#define TENSORIR_LIB_GRAPH_OPERATORCALL_H

#include "TensorIR/Dialect/TIR/IR/TIRDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Diagnostics.h"

#include "llvm/ADT/STLExtras.h"

#include <cmath>
#include <string>
#include <utility>

namespace mlir::tir::graph {

/// A shape as relax writes it: (2, 3).
inline std::string shapeText(ArrayRef<int64_t> shape) {
  std::string text = "(";
  for (auto [k, d] : llvm::enumerate(shape))
    text += (k ? ", " : "") + std::to_string(d);
  return text + (shape.size() == 1 ? ",)" : ")");
}

/// One operator being built: its operands, result type and attributes, and
/// the errors it reports (located, naming the operator).
struct OperatorCall {
  OpBuilder &b;
  Location loc;
  StringRef name;
  ValueRange args;
  RankedTensorType type;
  /// The sizes of the result's dynamic dimensions, one per '?' in order.
  ValueRange dims;
  DictionaryAttr attrs;

  InFlightDiagnostic refuse() const {
    return emitError(loc) << "relax." << name << ": ";
  }

  Type elementType() const { return type.getElementType(); }
  bool isFloat() const { return isa<FloatType>(elementType()); }

  /// The operands' count and that each is a ranked tensor (of any element
  /// type: the operator checks those; buildGraphOperator checked that
  /// their shapes are static unless the operator takes dynamic ones).
  LogicalResult checkShapedOperands(unsigned count) const {
    if (args.size() != count)
      return refuse() << "takes " << count << " operand"
                      << (count == 1 ? "" : "s") << ", got " << args.size();
    for (auto [index, arg] : llvm::enumerate(args))
      if (!isa<RankedTensorType>(arg.getType()))
        return refuse() << "operand " << index << " is not a ranked tensor";
    return success();
  }

  /// The operands' count and that each is a ranked tensor of the result's
  /// element type.
  LogicalResult checkOperands(unsigned count) const {
    if (failed(checkShapedOperands(count)))
      return failure();
    for (auto [index, arg] : llvm::enumerate(args)) {
      Type elem = cast<RankedTensorType>(arg.getType()).getElementType();
      if (elem != elementType())
        return refuse() << "operand " << index << " holds " << elem
                        << ", the result " << elementType();
    }
    return success();
  }

  /// That operand `index` holds integers (the indices of a gather).
  LogicalResult checkIndexOperand(unsigned index) const {
    Type elem = elementTypeOf(index);
    if (!elem.isSignlessInteger() || elem.isInteger(1))
      return refuse() << "the indices hold " << elem << ", not integers";
    return success();
  }

  Type elementTypeOf(unsigned index) const {
    return cast<RankedTensorType>(args[index].getType()).getElementType();
  }

  ArrayRef<int64_t> shapeOf(unsigned index) const {
    return cast<RankedTensorType>(args[index].getType()).getShape();
  }

  Attribute attr(StringRef key) const {
    return attrs ? attrs.get(key) : Attribute();
  }

  FailureOr<int64_t> intAttr(StringRef key) const {
    if (auto value = dyn_cast_if_present<IntegerAttr>(attr(key)))
      return value.getInt();
    return refuse() << "needs the integer attribute '" << key << "'";
  }

  FailureOr<double> floatAttr(StringRef key) const {
    if (auto value = dyn_cast_if_present<FloatAttr>(attr(key)))
      return value.getValueAsDouble();
    if (auto value = dyn_cast_if_present<IntegerAttr>(attr(key)))
      return static_cast<double>(value.getInt());
    return refuse() << "needs the number attribute '" << key << "'";
  }

  FailureOr<SmallVector<int64_t>> intsAttr(StringRef key, size_t size) const {
    auto value = dyn_cast_if_present<DenseI64ArrayAttr>(attr(key));
    if (!value)
      return refuse() << "needs the attribute '" << key
                      << "', a list of integers";
    if (value.size() != static_cast<int64_t>(size))
      return refuse() << "'" << key << "' has " << value.size()
                      << " values, not " << size;
    return SmallVector<int64_t>(value.asArrayRef());
  }

  /// A scalar of the result's element type; for an integer type, an
  /// infinity is its lowest or highest value (a padding that never wins a
  /// max or min) and a fraction is truncated. Null after an error for NaN.
  Value scalar(double value) const {
    Type elem = elementType();
    if (auto floatType = dyn_cast<FloatType>(elem))
      return arith::ConstantOp::create(b, loc,
                                       b.getFloatAttr(floatType, value));
    unsigned width = elem.getIntOrFloatBitWidth();
    if (std::isnan(value)) {
      refuse() << "NaN has no value of " << elem;
      return {};
    }
    APInt number = std::isinf(value)
                       ? (value < 0 ? APInt::getSignedMinValue(width)
                                    : APInt::getSignedMaxValue(width))
                       : APInt(width, static_cast<int64_t>(value),
                               /*isSigned=*/true, /*implicitTrunc=*/true);
    return arith::ConstantOp::create(b, loc, b.getIntegerAttr(elem, number));
  }

  Value empty() const {
    return tensor::EmptyOp::create(b, loc, type.getShape(), elementType(),
                                   dims);
  }

  Value filled(Value value) const {
    return linalg::FillOp::create(b, loc, ValueRange{value},
                                  ValueRange{empty()})
        .getResult(0);
  }

  AffineMap identity(unsigned rank) const {
    return AffineMap::getMultiDimIdentityMap(rank, b.getContext());
  }

  /// A linalg.generic named `tirName` over the result's shape (plus
  /// `reductions` trailing reduction dimensions).
  Value
  generic(StringRef tirName, ValueRange inputs, Value init,
          ArrayRef<AffineMap> maps, unsigned reductions,
          function_ref<Value(OpBuilder &, Location, ValueRange)> body) const {
    SmallVector<utils::IteratorType> iterators(type.getRank(),
                                               utils::IteratorType::parallel);
    iterators.append(reductions, utils::IteratorType::reduction);
    auto op = linalg::GenericOp::create(
        b, loc, TypeRange{type}, inputs, ValueRange{init}, maps, iterators,
        [&](OpBuilder &nested, Location nestedLoc, ValueRange blockArgs) {
          linalg::YieldOp::create(nested, nestedLoc,
                                  body(nested, nestedLoc, blockArgs));
        });
    op->setAttr(TIRDialect::kNameAttrName, b.getStringAttr(tirName));
    // The operator's attributes, which the TVMScript printer rebuilds it
    // from (an operator is printed when rebuilding gives the same op).
    if (attrs && !attrs.empty())
      op->setAttr(TIRDialect::kOperatorAttrsAttrName, attrs);
    return op.getResult(0);
  }

  /// A generic `tirName` accumulating the product of the two operands
  /// (read by maps[0] and maps[1]) from 0 into the result (maps[2]), over
  /// `reductions` trailing reduction dimensions: a matmul, a convolution.
  Value productSum(StringRef tirName, ArrayRef<AffineMap> maps,
                   unsigned reductions) const {
    bool isFloat = this->isFloat();
    return generic(tirName, args, filled(scalar(0)), maps, reductions,
                   [&](OpBuilder &nested, Location at, ValueRange a) -> Value {
                     if (isFloat)
                       return arith::AddFOp::create(
                           nested, at, a[2],
                           arith::MulFOp::create(nested, at, a[0], a[1]));
                     return arith::AddIOp::create(
                         nested, at, a[2],
                         arith::MulIOp::create(nested, at, a[0], a[1]));
                   });
  }
};

/// `index` (of index type or an integer type) clamped into [0, size), as
/// an index: where a body reads a tensor at an index it computed.
inline Value clampIndex(OpBuilder &b, Location loc, Value index, int64_t size) {
  if (!index.getType().isIndex())
    index = arith::IndexCastOp::create(b, loc, b.getIndexType(), index);
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value last = arith::ConstantIndexOp::create(b, loc, size - 1);
  return arith::MinSIOp::create(
      b, loc, arith::MaxSIOp::create(b, loc, index, zero), last);
}

/// The spatial axes of window operator `name`: 3 for the "...3d" ones
/// (NCDHW), else 2 (NCHW).
inline unsigned spatialRankOf(StringRef name) {
  return name.ends_with("3d") ? 3 : 2;
}

/// That the result and the first `operands` operands of a window operator
/// over `spatial` axes have rank 2 + spatial (batch, channels, then the
/// spatial axes).
inline LogicalResult checkWindowRanks(const OperatorCall &call,
                                      unsigned operands, unsigned spatial) {
  int64_t rank = 2 + spatial;
  const char *layout = spatial == 3 ? "NCDHW" : "NCHW";
  if (call.type.getRank() != rank)
    return call.refuse() << "takes " << layout
                         << " tensors, the result has rank "
                         << call.type.getRank();
  for (unsigned k = 0; k < operands; ++k)
    if (static_cast<int64_t>(call.shapeOf(k).size()) != rank)
      return call.refuse() << "operand " << k << " has rank "
                           << call.shapeOf(k).size() << ", not " << rank;
  return success();
}

/// A window operator's "strides" and "dilation" (one value per spatial
/// axis, each at least 1).
struct WindowSteps {
  SmallVector<int64_t> strides, dilation;
};
inline FailureOr<WindowSteps> windowSteps(const OperatorCall &call,
                                          unsigned spatial) {
  FailureOr<SmallVector<int64_t>> strides = call.intsAttr("strides", spatial);
  FailureOr<SmallVector<int64_t>> dilation = call.intsAttr("dilation", spatial);
  if (failed(strides) || failed(dilation))
    return failure();
  if (llvm::any_of(*strides, [](int64_t v) { return v < 1; }) ||
      llvm::any_of(*dilation, [](int64_t v) { return v < 1; }))
    return call.refuse() << "strides and dilations are at least 1";
  return WindowSteps{*strides, *dilation};
}

/// Python's remainder from C's (`rem` of dividing by `rhs`, floats or
/// integers): the divisor's sign (ElementwiseOperators.cpp).
Value floorModOf(OpBuilder &b, Location loc, Value rem, Value rhs);

/// The conversion of scalar `x` to `to` (C's: floats to integers truncate,
/// anything to bool is "not zero"; ElementwiseOperators.cpp).
Value convertScalar(OpBuilder &b, Location loc, Value x, Type to);

/// Builds one operator; fails after reporting through call.refuse().
using OperatorBuilder = FailureOr<Value> (*)(const OperatorCall &);

/// The element-wise operators (ElementwiseOperators.cpp): arithmetic,
/// comparisons, bitwise and logical operators with NumPy broadcasting, math
/// functions, predicates, where, clip and astype.
ArrayRef<std::pair<StringRef, OperatorBuilder>> getElementwiseOperators();

/// sum, mean, max, min, prod over some axes, argmax, argmin, cumsum and
/// cumprod (ReductionOperators.cpp).
ArrayRef<std::pair<StringRef, OperatorBuilder>> getReductionOperators();

/// image.resize2d (ImageOperators.cpp).
ArrayRef<std::pair<StringRef, OperatorBuilder>> getImageOperators();

/// nn.max_pool2d / 3d, nn.avg_pool2d / 3d, nn.adaptive_avg_pool2d / 3d
/// (PoolingOperators.cpp).
ArrayRef<std::pair<StringRef, OperatorBuilder>> getPoolingOperators();

/// nn.conv2d and nn.conv3d (ConvolutionOperators.cpp).
ArrayRef<std::pair<StringRef, OperatorBuilder>> getConvolutionOperators();

/// take, gather_elements, slice_scatter (IndexingOperators.cpp).
ArrayRef<std::pair<StringRef, OperatorBuilder>> getIndexingOperators();

/// broadcast_to, strided_slice, tile and concat (LayoutOperators.cpp).
ArrayRef<std::pair<StringRef, OperatorBuilder>> getLayoutOperators();

} // namespace mlir::tir::graph

#endif // TENSORIR_LIB_GRAPH_OPERATORCALL_H
