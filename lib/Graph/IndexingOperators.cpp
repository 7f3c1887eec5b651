//===- IndexingOperators.cpp - take: elements picked by index tensors -----===//
//
// Relax's take (a gather along one axis), one linalg.generic over the
// result whose body reads the data with tensor.extract at the index the
// indices tensor holds. The data is an input of the generic (read through
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
  Type indexType = call.elementTypeOf(1);
  if (!indexType.isSignlessInteger() || indexType.isInteger(1))
    return call.refuse() << "the indices hold " << indexType
                         << ", not integers";
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
        Type t = index.getType();
        auto constant = [&](int64_t v) -> Value {
          return arith::ConstantOp::create(b, loc, b.getIntegerAttr(t, v));
        };
        if (mode == "wrap") {
          // Python's modulo: -1 is the last element.
          Value n = constant(size);
          Value rem = arith::RemSIOp::create(b, loc, index, n);
          Value negative = arith::CmpIOp::create(
              b, loc, arith::CmpIPredicate::slt, rem, constant(0));
          index = arith::SelectOp::create(
              b, loc, negative, arith::AddIOp::create(b, loc, rem, n), rem);
        } else {
          index = arith::MinSIOp::create(
              b, loc, arith::MaxSIOp::create(b, loc, index, constant(0)),
              constant(size - 1));
        }
        SmallVector<Value> at;
        for (int64_t d = 0; d < rank; ++d) {
          if (d == axis)
            at.push_back(
                arith::IndexCastOp::create(b, loc, b.getIndexType(), index));
          else
            at.push_back(linalg::IndexOp::create(
                b, loc, d < axis ? d : d - 1 + indexRank));
        }
        return tensor::ExtractOp::create(b, loc, source, at);
      });
}

ArrayRef<std::pair<StringRef, OperatorBuilder>>
mlir::tir::graph::getIndexingOperators() {
  static const std::pair<StringRef, OperatorBuilder> operators[] = {
      {"take", buildTake},
  };
  return operators;
}
