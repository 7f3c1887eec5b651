//===- LayoutOperators.cpp - broadcast_to, strided_slice, concat, tile ----===//
//
// Relax operators that move elements without computing, each one
// linalg.generic copying through affine maps: broadcast_to (the operand
// read at the result's indices with NumPy broadcasting), strided_slice
// (every stride-th element of some axes from a start), tile (the operand
// read at each index modulo its size) and concat (each operand read at the
// index shifted by its offset, the one whose range holds the index
// chosen).
//
//===----------------------------------------------------------------------===//

#include "OperatorCall.h"

using namespace mlir;
using namespace mlir::tir;
using namespace mlir::tir::graph;

/// A linalg.generic named after the operator copying `input` read through
/// `inputMap` into the result.
static Value copyThrough(const OperatorCall &call, StringRef name,
                         AffineMap inputMap) {
  return call.generic(name, call.args, call.empty(),
                      {inputMap, call.identity(call.type.getRank())}, 0,
                      [](OpBuilder &, Location, ValueRange a) { return a[0]; });
}

static FailureOr<Value> buildBroadcastTo(const OperatorCall &call) {
  if (failed(call.checkOperands(1)))
    return failure();
  ArrayRef<int64_t> in = call.shapeOf(0), out = call.type.getShape();
  if (in.size() > out.size())
    return call.refuse() << "a tensor of rank " << in.size()
                         << " does not broadcast to rank " << out.size();
  MLIRContext *ctx = call.b.getContext();
  unsigned offset = out.size() - in.size();
  SmallVector<AffineExpr> exprs;
  for (auto [k, dim] : llvm::enumerate(in)) {
    if (dim == out[offset + k])
      exprs.push_back(getAffineDimExpr(offset + k, ctx));
    else if (dim == 1)
      exprs.push_back(getAffineConstantExpr(0, ctx));
    else
      return call.refuse() << "shape " << shapeText(in)
                           << " does not broadcast to " << shapeText(out);
  }
  return copyThrough(call, "broadcast_to",
                     AffineMap::get(out.size(), 0, exprs, ctx));
}

/// strided_slice: attributes "axes", "begin" (the first index taken),
/// "end" and "strides" (non-zero), one value per sliced axis, as Python's
/// range(begin, end, stride) over that axis.
static FailureOr<Value> buildStridedSlice(const OperatorCall &call) {
  if (failed(call.checkOperands(1)))
    return failure();
  ArrayRef<int64_t> in = call.shapeOf(0), out = call.type.getShape();
  auto axesAttr = dyn_cast_if_present<DenseI64ArrayAttr>(call.attr("axes"));
  if (!axesAttr)
    return call.refuse() << "needs the attribute 'axes', a list of integers";
  size_t count = axesAttr.size();
  FailureOr<SmallVector<int64_t>> begin = call.intsAttr("begin", count);
  FailureOr<SmallVector<int64_t>> end = call.intsAttr("end", count);
  FailureOr<SmallVector<int64_t>> strides = call.intsAttr("strides", count);
  if (failed(begin) || failed(end) || failed(strides))
    return failure();
  if (in.size() != out.size())
    return call.refuse() << "the result has rank " << out.size()
                         << ", the operand " << in.size();
  MLIRContext *ctx = call.b.getContext();
  SmallVector<AffineExpr> exprs;
  SmallVector<int64_t> expected(in);
  for (unsigned d = 0; d < in.size(); ++d)
    exprs.push_back(getAffineDimExpr(d, ctx));
  for (auto [k, axis] : llvm::enumerate(axesAttr.asArrayRef())) {
    int64_t start = (*begin)[k], stop = (*end)[k], step = (*strides)[k];
    if (stop < -1) // before the front, reversed: one before index 0
      stop = -1;
    if (axis < 0 || axis >= static_cast<int64_t>(in.size()))
      return call.refuse() << "axis " << axis << " is outside rank "
                           << in.size();
    if (step == 0)
      return call.refuse() << "a stride is 0";
    int64_t taken =
        step > 0 ? std::max<int64_t>(0, (stop - start + step - 1) / step)
                 : std::max<int64_t>(0, (start - stop - step - 1) / -step);
    if (taken > 0 &&
        (start < 0 || start >= in[axis] || start + (taken - 1) * step < 0 ||
         start + (taken - 1) * step >= in[axis]))
      return call.refuse() << "the slice of axis " << axis << " from " << start
                           << " by " << step << " leaves the axis of size "
                           << in[axis];
    expected[axis] = taken;
    exprs[axis] = getAffineDimExpr(axis, ctx) * step + start;
    // A prefix (from 0 by 1) reads at i, which linalg would take for the
    // loop's range (the operand's whole axis): it reads at i mod size, the
    // same index, as the loop stays below the size.
    if (start == 0 && step == 1 && taken < in[axis])
      exprs[axis] = getAffineDimExpr(axis, ctx) % in[axis];
  }
  if (ArrayRef<int64_t>(expected) != out)
    return call.refuse() << "the slice gives " << shapeText(expected)
                         << ", not " << shapeText(out);
  if (llvm::is_contained(out, 0))
    return call.refuse() << "the slice is empty";
  return copyThrough(call, "strided_slice",
                     AffineMap::get(out.size(), 0, exprs, ctx));
}

/// tile: the result's shape a multiple of the operand's (leading axes
/// added); each element is the operand's at the index modulo its size.
static FailureOr<Value> buildTile(const OperatorCall &call) {
  if (failed(call.checkOperands(1)))
    return failure();
  ArrayRef<int64_t> in = call.shapeOf(0), out = call.type.getShape();
  if (in.size() > out.size())
    return call.refuse() << "the result of rank " << out.size()
                         << " has fewer axes than the operand";
  MLIRContext *ctx = call.b.getContext();
  unsigned offset = out.size() - in.size();
  SmallVector<AffineExpr> exprs;
  for (auto [k, dim] : llvm::enumerate(in)) {
    int64_t total = out[offset + k];
    if (dim == 0 || total % dim != 0)
      return call.refuse() << "the result's axis " << offset + k << " of size "
                           << total << " is not a multiple of " << dim;
    AffineExpr d = getAffineDimExpr(offset + k, ctx);
    exprs.push_back(total == dim ? d : d % dim);
  }
  return copyThrough(call, "tile", AffineMap::get(out.size(), 0, exprs, ctx));
}

/// concat (attribute "axis"): the operands one after another along the
/// axis. Each is read at the index less its offset, modulo its size (in
/// bounds wherever the index is), and the body picks the one whose range
/// holds the index.
static FailureOr<Value> buildConcat(const OperatorCall &call) {
  if (call.args.empty())
    return call.refuse() << "takes at least one operand";
  if (failed(call.checkOperands(call.args.size())))
    return failure();
  FailureOr<int64_t> axisOr = call.intAttr("axis");
  if (failed(axisOr))
    return failure();
  int64_t axis = *axisOr;
  ArrayRef<int64_t> out = call.type.getShape();
  int64_t rank = out.size();
  if (axis < 0 || axis >= rank)
    return call.refuse() << "axis " << axis << " is outside rank " << rank;
  MLIRContext *ctx = call.b.getContext();
  SmallVector<AffineMap> maps;
  SmallVector<int64_t> starts;
  int64_t offset = 0;
  for (unsigned k = 0; k < call.args.size(); ++k) {
    ArrayRef<int64_t> in = call.shapeOf(k);
    if (static_cast<int64_t>(in.size()) != rank)
      return call.refuse() << "operand " << k << " has rank " << in.size()
                           << ", the result " << rank;
    SmallVector<AffineExpr> exprs;
    for (int64_t d = 0; d < rank; ++d) {
      if (d != axis && in[d] != out[d])
        return call.refuse() << "operand " << k << " of shape " << shapeText(in)
                             << " differs from the result " << shapeText(out)
                             << " off axis " << axis;
      AffineExpr e = getAffineDimExpr(d, ctx);
      exprs.push_back(d == axis && in[d] != out[d] ? (e - offset) % in[d] : e);
    }
    starts.push_back(offset);
    offset += in[axis];
    maps.push_back(AffineMap::get(rank, 0, exprs, ctx));
  }
  if (offset != out[axis])
    return call.refuse() << "the operands' axis " << axis << " sum to "
                         << offset << ", the result has " << out[axis];
  if (call.args.size() == 1)
    return copyThrough(call, "concat", maps[0]);
  maps.push_back(call.identity(rank));
  return call.generic(
      "concat", call.args, call.empty(), maps, 0,
      [&](OpBuilder &b, Location loc, ValueRange a) -> Value {
        Value index = linalg::IndexOp::create(b, loc, axis);
        Value picked = a[call.args.size() - 1];
        for (int k = static_cast<int>(call.args.size()) - 2; k >= 0; --k) {
          Value end = arith::ConstantIndexOp::create(b, loc, starts[k + 1]);
          Value inside = arith::CmpIOp::create(
              b, loc, arith::CmpIPredicate::ult, index, end);
          picked = arith::SelectOp::create(b, loc, inside, a[k], picked);
        }
        return picked;
      });
}

ArrayRef<std::pair<StringRef, OperatorBuilder>>
mlir::tir::graph::getLayoutOperators() {
  static const std::pair<StringRef, OperatorBuilder> operators[] = {
      {"broadcast_to", buildBroadcastTo},
      {"strided_slice", buildStridedSlice},
      {"tile", buildTile},
      {"concat", buildConcat},
  };
  return operators;
}
