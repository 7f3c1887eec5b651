//===- IndexingOperators.cpp - take, gather_elements, slice_scatter -------===//
//
// Relax's operators that read at computed indices, each one linalg.generic
// whose body reads with tensor.extract: take (a gather along one axis at
// the index the indices tensor holds), gather_elements (the same per
// element) and slice_scatter (a strided slice of the data replaced by
// another tensor). The data is an input of the generic (read through
// a constant map, its block argument unused) so that legalization passes
// it to the prim_func, whose block loads from it at the computed index.
// Indices out of range are clamped (modes "fast" and "clip") or wrapped
// ("wrap"): no read leaves the data.
//
//===----------------------------------------------------------------------===//

#include "OperatorCall.h"

using namespace mlir;
using namespace mlir::tir;
using namespace mlir::tir::graph;

static FailureOr<Value> buildTake(const OperatorCall &call) {
  if (failed(call.checkShapedOperands(2)))
    return failure();
  ArrayRef<int64_t> data = call.shapeOf(0), indices = call.shapeOf(1);
  if (failed(call.checkIndexOperand(1)))
    return failure();
  if (call.elementTypeOf(0) != call.elementType())
    return call.refuse() << "the data holds " << call.elementTypeOf(0)
                         << ", the result " << call.elementType();
  FailureOr<int64_t> axisOr = call.intAttr("axis");
  if (failed(axisOr))
    return failure();
  int64_t axis = *axisOr, rank = data.size(), indexRank = indices.size();
  if (axis < 0 || axis >= rank)
    return call.refuse() << "axis " << axis << " is outside the data's rank "
                         << rank;
  StringRef mode = "fast";
  if (auto attr = dyn_cast_if_present<StringAttr>(call.attr("mode")))
    mode = attr.getValue();
  if (mode != "fast" && mode != "clip" && mode != "wrap")
    return call.refuse() << "mode '" << mode
                         << "' is not \"fast\", \"clip\" or \"wrap\"";
  SmallVector<int64_t> shape(data.take_front(axis));
  llvm::append_range(shape, indices);
  llvm::append_range(shape, data.drop_front(axis + 1));
  if (ArrayRef<int64_t>(shape) != call.type.getShape())
    return call.refuse() << "taking " << shapeText(indices) << " along axis "
                         << axis << " of " << shapeText(data) << " gives "
                         << shapeText(shape) << ", not "
                         << shapeText(call.type.getShape());
  if (data[axis] == 0)
    return call.refuse() << "axis " << axis << " of the data is empty";
  if (ShapedType::isDynamic(data[axis]) ||
      llvm::any_of(indices, ShapedType::isDynamic))
    return call.refuse() << "takes along a static axis with indices of a "
                            "static shape (shape variables size the other "
                            "dimensions)";

  MLIRContext *ctx = call.b.getContext();
  unsigned loops = shape.size();
  SmallVector<AffineExpr> zeros(rank, getAffineConstantExpr(0, ctx));
  SmallVector<AffineExpr> picked;
  for (int64_t k = 0; k < indexRank; ++k)
    picked.push_back(getAffineDimExpr(axis + k, ctx));
  SmallVector<AffineMap> maps{AffineMap::get(loops, 0, zeros, ctx),
                              AffineMap::get(loops, 0, picked, ctx),
                              call.identity(loops)};
  Value source = call.args[0];
  int64_t size = data[axis];
  return call.generic(
      "take", call.args, call.empty(), maps, 0,
      [&](OpBuilder &b, Location loc, ValueRange a) -> Value {
        Value index = a[1];
        if (mode == "wrap") {
          // Python's modulo: -1 is the last element.
          Value n = arith::ConstantOp::create(
              b, loc, b.getIntegerAttr(index.getType(), size));
          index =
              floorModOf(b, loc, arith::RemSIOp::create(b, loc, index, n), n);
        }
        SmallVector<Value> at;
        for (int64_t d = 0; d < rank; ++d) {
          if (d == axis)
            at.push_back(clampIndex(b, loc, index, size));
          else
            at.push_back(linalg::IndexOp::create(
                b, loc, d < axis ? d : d - 1 + indexRank));
        }
        return tensor::ExtractOp::create(b, loc, source, at);
      });
}

/// gather_elements(data, indices, axis): out[i] = data[i with axis at
/// indices[i]] (indices clamped into the axis); the result has the
/// indices' shape, no larger than the data's off the axis.
static FailureOr<Value> buildGatherElements(const OperatorCall &call) {
  if (failed(call.checkShapedOperands(2)))
    return failure();
  ArrayRef<int64_t> data = call.shapeOf(0), indices = call.shapeOf(1);
  if (failed(call.checkIndexOperand(1)))
    return failure();
  FailureOr<int64_t> axisOr = call.intAttr("axis");
  if (failed(axisOr))
    return failure();
  int64_t axis = *axisOr, rank = data.size();
  if (axis < 0 || axis >= rank || indices.size() != data.size())
    return call.refuse() << "takes indices of the data's rank " << rank
                         << " and an axis inside it";
  for (int64_t d = 0; d < rank; ++d)
    if (d != axis && indices[d] > data[d])
      return call.refuse() << "the indices " << shapeText(indices)
                           << " are larger than the data " << shapeText(data)
                           << " off axis " << axis;
  if (call.type.getShape() != indices ||
      call.elementType() != call.elementTypeOf(0))
    return call.refuse() << "gives the indices' shape and the data's type";
  MLIRContext *ctx = call.b.getContext();
  SmallVector<AffineExpr> zeros(rank, getAffineConstantExpr(0, ctx));
  Value source = call.args[0];
  int64_t size = data[axis];
  return call.generic(
      "gather_elements", call.args, call.empty(),
      {AffineMap::get(rank, 0, zeros, ctx), call.identity(rank),
       call.identity(rank)},
      0, [&](OpBuilder &b, Location loc, ValueRange a) -> Value {
        SmallVector<Value> at;
        for (int64_t d = 0; d < rank; ++d)
          at.push_back(d == axis ? clampIndex(b, loc, a[1], size)
                                 : Value(linalg::IndexOp::create(b, loc, d)));
        return tensor::ExtractOp::create(b, loc, source, at);
      });
}

/// slice_scatter(data, src, axis, start, end, step): the data with
/// range(start, end, step) of the axis taken from src in turn.
static FailureOr<Value> buildSliceScatter(const OperatorCall &call) {
  if (failed(call.checkOperands(2)))
    return failure();
  ArrayRef<int64_t> data = call.shapeOf(0), src = call.shapeOf(1);
  FailureOr<int64_t> axisOr = call.intAttr("axis"),
                     start = call.intAttr("start"), end = call.intAttr("end"),
                     step = call.intAttr("step");
  if (failed(axisOr) || failed(start) || failed(end) || failed(step))
    return failure();
  int64_t axis = *axisOr, rank = data.size();
  if (axis < 0 || axis >= rank || src.size() != data.size())
    return call.refuse() << "takes a source of the data's rank " << rank
                         << " and an axis inside it";
  if (*step < 1 || *start < 0 || *end > data[axis] || *start >= *end)
    return call.refuse() << "the slice [" << *start << ", " << *end << ") by "
                         << *step << " is not inside axis " << axis
                         << " of size " << data[axis];
  int64_t count = (*end - *start + *step - 1) / *step;
  for (int64_t d = 0; d < rank; ++d)
    if ((d == axis ? count : data[d]) != src[d])
      return call.refuse() << "the source " << shapeText(src)
                           << " does not fill the slice of " << shapeText(data);
  if (call.type.getShape() != data)
    return call.refuse() << "gives the data's shape";
  MLIRContext *ctx = call.b.getContext();
  SmallVector<AffineExpr> zeros(rank, getAffineConstantExpr(0, ctx));
  Value source = call.args[1];
  return call.generic(
      "slice_scatter", call.args, call.empty(),
      {call.identity(rank), AffineMap::get(rank, 0, zeros, ctx),
       call.identity(rank)},
      0, [&](OpBuilder &b, Location loc, ValueRange a) -> Value {
        auto index = [&](int64_t v) -> Value {
          return arith::ConstantIndexOp::create(b, loc, v);
        };
        Value i = linalg::IndexOp::create(b, loc, axis);
        Value offset = arith::SubIOp::create(b, loc, i, index(*start));
        Value inRange = arith::AndIOp::create(
            b, loc,
            arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, i,
                                  index(*start)),
            arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, i,
                                  index(*end)));
        Value onStep = arith::CmpIOp::create(
            b, loc, arith::CmpIPredicate::eq,
            arith::RemSIOp::create(b, loc, offset, index(*step)), index(0));
        Value taken = arith::AndIOp::create(b, loc, inRange, onStep);
        Value j = clampIndex(
            b, loc, arith::DivSIOp::create(b, loc, offset, index(*step)),
            count);
        SmallVector<Value> at;
        for (int64_t d = 0; d < rank; ++d)
          at.push_back(d == axis ? j
                                 : Value(linalg::IndexOp::create(b, loc, d)));
        Value v = tensor::ExtractOp::create(b, loc, source, at);
        return arith::SelectOp::create(b, loc, taken, v, a[0]);
      });
}

ArrayRef<std::pair<StringRef, OperatorBuilder>>
mlir::tir::graph::getIndexingOperators() {
  static const std::pair<StringRef, OperatorBuilder> operators[] = {
      {"take", buildTake},
      {"gather_elements", buildGatherElements},
      {"slice_scatter", buildSliceScatter},
  };
  return operators;
}
