//===- ReductionOperators.cpp - sum, mean, max, min, prod, argmax ---------===//
//
// Relax's reductions over some axes of a tensor, each one linalg.generic
// named after the operator: the operand read at every index, the result
// at the kept ones (at 0 on the reduced axes with keepdims), starting from
// the reduction's identity. mean accumulates each element divided by the
// count, so that it stays one op. argmax / argmin keep the extreme value
// and its index, two results of which the index is the operator's.
//
//===----------------------------------------------------------------------===//

#include "OperatorCall.h"

#include <limits>

using namespace mlir;
using namespace mlir::tir;
using namespace mlir::tir::graph;

namespace {
/// A reduction's loops (the operand's axes, `axes` reducing) and the map
/// writing its result.
struct Reduced {
  SmallVector<utils::IteratorType> iterators;
  AffineMap output;
};
} // namespace

/// The loops and result map reducing `axes` of a tensor of shape `in`
/// (kept as size 1 with `keepdims`); refuses a result of another shape.
static FailureOr<Reduced> reduce(const OperatorCall &call, ArrayRef<int64_t> in,
                                 ArrayRef<int64_t> axes, bool keepdims) {
  MLIRContext *ctx = call.b.getContext();
  Reduced result;
  SmallVector<int64_t> shape;
  SmallVector<AffineExpr> exprs;
  for (int64_t d = 0, rank = in.size(); d < rank; ++d) {
    bool reduced = llvm::is_contained(axes, d);
    result.iterators.push_back(reduced ? utils::IteratorType::reduction
                                       : utils::IteratorType::parallel);
    if (!reduced) {
      shape.push_back(in[d]);
      exprs.push_back(getAffineDimExpr(d, ctx));
    } else if (keepdims) {
      shape.push_back(1);
      exprs.push_back(getAffineConstantExpr(0, ctx));
    }
  }
  if (ArrayRef<int64_t>(shape) != call.type.getShape())
    return call.refuse() << "reducing axes " << shapeText(axes) << " of "
                         << shapeText(in) << " gives " << shapeText(shape)
                         << ", not " << shapeText(call.type.getShape());
  result.output = AffineMap::get(in.size(), 0, exprs, ctx);
  return result;
}

static FailureOr<Value> buildReduction(const OperatorCall &call) {
  if (failed(call.checkOperands(1)))
    return failure();
  StringRef name = call.name;
  ArrayRef<int64_t> in = call.shapeOf(0);
  int64_t rank = in.size();
  auto axesAttr = dyn_cast_if_present<DenseI64ArrayAttr>(call.attr("axis"));
  if (!axesAttr)
    return call.refuse() << "needs the attribute 'axis', the reduced axes "
                            "in increasing order";
  ArrayRef<int64_t> axes = axesAttr.asArrayRef();
  for (auto [k, axis] : llvm::enumerate(axes))
    if (axis < 0 || axis >= rank || (k > 0 && axes[k - 1] >= axis))
      return call.refuse() << "axes " << shapeText(axes)
                           << " are not increasing axes of a rank-" << rank
                           << " tensor";
  auto keepAttr = dyn_cast_if_present<BoolAttr>(call.attr("keepdims"));
  bool keepdims = keepAttr && keepAttr.getValue();
  bool isFloat = call.isFloat();
  if (name == "mean" && !isFloat)
    return call.refuse() << "takes floating-point tensors, not "
                         << call.elementType() << " (astype first)";
  if (call.elementType().isInteger(1))
    return call.refuse() << "takes numbers, not bool tensors (astype first)";

  for (int64_t axis : axes)
    if (ShapedType::isDynamic(in[axis]))
      return call.refuse() << "reduces axis " << axis
                           << ", which a shape variable sizes (shape "
                              "variables size the kept axes only)";
  FailureOr<Reduced> reduced = reduce(call, in, axes, keepdims);
  if (failed(reduced))
    return failure();
  int64_t count = 1;
  for (int64_t axis : axes)
    count *= in[axis];
  MLIRContext *ctx = call.b.getContext();

  // The identity the result starts from.
  double identity = 0;
  if (name == "prod")
    identity = 1;
  else if (name == "max")
    identity = -std::numeric_limits<double>::infinity();
  else if (name == "min")
    identity = std::numeric_limits<double>::infinity();
  Value init = call.filled(call.scalar(identity));
  if (!init)
    return failure();
  SmallVector<AffineMap> maps{AffineMap::getMultiDimIdentityMap(rank, ctx),
                              reduced->output};
  Type elem = call.elementType();
  auto op = linalg::GenericOp::create(
      call.b, call.loc, TypeRange{call.type}, call.args, ValueRange{init}, maps,
      reduced->iterators, [&](OpBuilder &b, Location loc, ValueRange a) {
        Value x = a[0], acc = a[1], r;
        if (name == "mean") {
          Value scale = arith::ConstantOp::create(
              b, loc, b.getFloatAttr(elem, 1.0 / static_cast<double>(count)));
          r = arith::AddFOp::create(b, loc, acc,
                                    arith::MulFOp::create(b, loc, x, scale));
        } else if (name == "sum") {
          r = isFloat ? Value(arith::AddFOp::create(b, loc, acc, x))
                      : Value(arith::AddIOp::create(b, loc, acc, x));
        } else if (name == "prod") {
          r = isFloat ? Value(arith::MulFOp::create(b, loc, acc, x))
                      : Value(arith::MulIOp::create(b, loc, acc, x));
        } else if (name == "max") {
          r = isFloat ? Value(arith::MaximumFOp::create(b, loc, acc, x))
                      : Value(arith::MaxSIOp::create(b, loc, acc, x));
        } else {
          r = isFloat ? Value(arith::MinimumFOp::create(b, loc, acc, x))
                      : Value(arith::MinSIOp::create(b, loc, acc, x));
        }
        linalg::YieldOp::create(b, loc, r);
      });
  op->setAttr(TIRDialect::kNameAttrName, call.b.getStringAttr(name));
  if (call.attrs && !call.attrs.empty())
    op->setAttr(TIRDialect::kOperatorAttrsAttrName, call.attrs);
  return op.getResult(0);
}

/// cumsum / cumprod along "axis" (inclusive, or without the element itself
/// with "exclusive"), each element converted to the result's element type
/// first: out[.., i, ..] accumulates x[.., k, ..] for k <= i (k < i), a
/// reduction over k whose body keeps the accumulator where k is past i.
static FailureOr<Value> buildScan(const OperatorCall &call) {
  if (failed(call.checkShapedOperands(1)))
    return failure();
  ArrayRef<int64_t> in = call.shapeOf(0);
  int64_t rank = in.size();
  FailureOr<int64_t> axis = call.intAttr("axis");
  if (failed(axis))
    return failure();
  if (*axis < 0 || *axis >= rank)
    return call.refuse() << "'axis' " << *axis << " is not an axis of a rank-"
                         << rank << " tensor";
  if (in != call.type.getShape())
    return call.refuse() << "keeps its operand's shape " << shapeText(in)
                         << ", not " << shapeText(call.type.getShape());
  Type elem = call.elementType();
  if (elem.isInteger(1))
    return call.refuse() << "gives numbers, not bool tensors";
  auto exclusiveAttr = dyn_cast_if_present<BoolAttr>(call.attr("exclusive"));
  bool exclusive = exclusiveAttr && exclusiveAttr.getValue();
  bool product = call.name == "cumprod";
  MLIRContext *ctx = call.b.getContext();
  // Loops: the result's, then k along the axis.
  SmallVector<AffineExpr> read;
  for (int64_t d = 0; d < rank; ++d)
    read.push_back(getAffineDimExpr(d == *axis ? rank : d, ctx));
  SmallVector<AffineMap> maps{
      AffineMap::get(rank + 1, 0, read, ctx),
      AffineMap::getMultiDimIdentityMap(rank + 1, ctx).getMajorSubMap(rank)};
  Value init = call.filled(call.scalar(product ? 1 : 0));
  if (!init)
    return failure();
  bool isFloat = call.isFloat();
  int64_t at = *axis;
  return call.generic(
      call.name, call.args, init, maps, /*reductions=*/1,
      [&](OpBuilder &b, Location loc, ValueRange a) -> Value {
        Value x = convertScalar(b, loc, a[0], elem), acc = a[1];
        Value i = linalg::IndexOp::create(b, loc, at);
        Value k = linalg::IndexOp::create(b, loc, rank);
        Value inside = arith::CmpIOp::create(
            b, loc,
            exclusive ? arith::CmpIPredicate::slt : arith::CmpIPredicate::sle,
            k, i);
        Value next =
            product ? (isFloat ? Value(arith::MulFOp::create(b, loc, acc, x))
                               : Value(arith::MulIOp::create(b, loc, acc, x)))
                    : (isFloat ? Value(arith::AddFOp::create(b, loc, acc, x))
                               : Value(arith::AddIOp::create(b, loc, acc, x)));
        return arith::SelectOp::create(b, loc, inside, next, acc);
      });
}

/// argmax / argmin along one axis (attributes "axis", "keepdims"): the
/// index (i64) of the first extreme element (NaN counts as the extreme, as
/// in PyTorch), from a generic that also keeps the extreme value.
static FailureOr<Value> buildArgExtreme(const OperatorCall &call) {
  if (failed(call.checkShapedOperands(1)))
    return failure();
  bool isMax = call.name == "argmax";
  ArrayRef<int64_t> in = call.shapeOf(0);
  Type elem = call.elementTypeOf(0);
  if (elem.isInteger(1))
    return call.refuse() << "takes numbers, not bool tensors (astype first)";
  if (!call.elementType().isInteger(64))
    return call.refuse() << "gives int64 indices, not " << call.elementType();
  FailureOr<int64_t> axisOr = call.intAttr("axis");
  if (failed(axisOr))
    return failure();
  int64_t axis = *axisOr, rank = in.size();
  if (axis < 0 || axis >= rank)
    return call.refuse() << "axis " << axis << " is outside rank " << rank;
  auto keepAttr = dyn_cast_if_present<BoolAttr>(call.attr("keepdims"));
  bool keepdims = keepAttr && keepAttr.getValue();
  MLIRContext *ctx = call.b.getContext();
  FailureOr<Reduced> reduced = reduce(call, in, {axis}, keepdims);
  if (failed(reduced))
    return failure();
  ArrayRef<int64_t> shape = call.type.getShape();
  OpBuilder &b = call.b;
  Location loc = call.loc;
  bool isFloat = isa<FloatType>(elem);
  // The value starts at the other extreme, the index at 0.
  TypedAttr start;
  if (isFloat)
    start =
        b.getFloatAttr(elem, isMax ? -std::numeric_limits<double>::infinity()
                                   : std::numeric_limits<double>::infinity());
  else
    start = b.getIntegerAttr(
        elem, isMax ? APInt::getSignedMinValue(elem.getIntOrFloatBitWidth())
                    : APInt::getSignedMaxValue(elem.getIntOrFloatBitWidth()));
  auto valueType = RankedTensorType::get(shape, elem);
  Value values =
      linalg::FillOp::create(
          b, loc, ValueRange{arith::ConstantOp::create(b, loc, start)},
          ValueRange{tensor::EmptyOp::create(b, loc, shape, elem)})
          .getResult(0);
  Value indices = call.filled(call.scalar(0));
  AffineMap outMap = reduced->output;
  auto op = linalg::GenericOp::create(
      b, loc, TypeRange{valueType, call.type}, call.args,
      ValueRange{values, indices},
      {AffineMap::getMultiDimIdentityMap(rank, ctx), outMap, outMap},
      reduced->iterators, [&](OpBuilder &nb, Location nl, ValueRange a) {
        Value x = a[0], best = a[1], at = a[2];
        Value better;
        if (isFloat) {
          // Strictly beyond (the first extreme stays), or a NaN first met.
          Value beyond = arith::CmpFOp::create(
              nb, nl,
              isMax ? arith::CmpFPredicate::OGT : arith::CmpFPredicate::OLT, x,
              best);
          Value xNan =
              arith::CmpFOp::create(nb, nl, arith::CmpFPredicate::UNO, x, x);
          Value bestNan = arith::CmpFOp::create(
              nb, nl, arith::CmpFPredicate::UNO, best, best);
          Value firstNan = arith::AndIOp::create(
              nb, nl, xNan,
              arith::XOrIOp::create(
                  nb, nl, bestNan,
                  arith::ConstantOp::create(nb, nl, nb.getBoolAttr(true))));
          better = arith::OrIOp::create(nb, nl, beyond, firstNan);
        } else {
          better = arith::CmpIOp::create(nb, nl,
                                         isMax ? arith::CmpIPredicate::sgt
                                               : arith::CmpIPredicate::slt,
                                         x, best);
        }
        Value k = arith::IndexCastOp::create(
            nb, nl, nb.getI64Type(), linalg::IndexOp::create(nb, nl, axis));
        linalg::YieldOp::create(
            nb, nl,
            ValueRange{arith::SelectOp::create(nb, nl, better, x, best),
                       arith::SelectOp::create(nb, nl, better, k, at)});
      });
  op->setAttr(TIRDialect::kNameAttrName, b.getStringAttr(call.name));
  if (call.attrs && !call.attrs.empty())
    op->setAttr(TIRDialect::kOperatorAttrsAttrName, call.attrs);
  return op.getResult(1);
}

ArrayRef<std::pair<StringRef, OperatorBuilder>>
mlir::tir::graph::getReductionOperators() {
  static const std::pair<StringRef, OperatorBuilder> operators[] = {
      {"sum", buildReduction},     {"mean", buildReduction},
      {"max", buildReduction},     {"min", buildReduction},
      {"prod", buildReduction},    {"argmax", buildArgExtreme},
      {"cumsum", buildScan},       {"cumprod", buildScan},
      {"argmin", buildArgExtreme},
  };
  return operators;
}
