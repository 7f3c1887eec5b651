//===- PoolingOperators.cpp - average pooling with padding ----------------===//
//
// Relax's nn.avg_pool2d (NCHW) as one linalg.generic: the output's pixels
// parallel, the window reducing, the data read (as a gathered input) at the
// window's position when it is inside the data and as 0 in the padding.
// Each element is divided by its window's divisor as PyTorch counts it: the
// window clipped to the padded data (count_include_pad) or to the data,
// which ceil_mode's last windows need.
//
//===----------------------------------------------------------------------===//

#include "OperatorCall.h"

using namespace mlir;
using namespace mlir::tir;
using namespace mlir::tir::graph;

static FailureOr<Value> buildAvgPool2d(const OperatorCall &call) {
  if (failed(call.checkOperands(1)))
    return failure();
  if (call.type.getRank() != 4 || call.shapeOf(0).size() != 4)
    return call.refuse() << "takes NCHW tensors";
  if (!call.isFloat())
    return call.refuse() << "takes floating-point tensors, not "
                         << call.elementType();
  FailureOr<SmallVector<int64_t>> size = call.intsAttr("pool_size", 2);
  FailureOr<SmallVector<int64_t>> strides = call.intsAttr("strides", 2);
  FailureOr<SmallVector<int64_t>> dilation = call.intsAttr("dilation", 2);
  FailureOr<SmallVector<int64_t>> padding = call.intsAttr("padding", 4);
  if (failed(size) || failed(strides) || failed(dilation) || failed(padding))
    return failure();
  auto includePad =
      dyn_cast_if_present<BoolAttr>(call.attr("count_include_pad"));
  bool countPad = includePad && includePad.getValue();
  ArrayRef<int64_t> in = call.shapeOf(0), out = call.type.getShape();
  if (in[0] != out[0] || in[1] != out[1])
    return call.refuse() << "the data " << shapeText(in) << " and the result "
                         << shapeText(out) << " differ in batch or channels";
  for (int k = 0; k < 2; ++k) {
    if ((*size)[k] < 1 || (*strides)[k] < 1 || (*dilation)[k] < 1)
      return call.refuse()
             << "pool sizes, strides and dilations are at least 1";
    // Every window starts inside the padded data.
    if ((out[2 + k] - 1) * (*strides)[k] >=
            in[2 + k] + (*padding)[k] + (*padding)[k + 2] ||
        (*padding)[k] < 0 || (*padding)[k + 2] < 0)
      return call.refuse() << "the result's axis " << 2 + k << " of size "
                           << out[2 + k] << " has windows past the padded data";
  }
  MLIRContext *ctx = call.b.getContext();
  SmallVector<AffineExpr> zeros(4, getAffineConstantExpr(0, ctx));
  SmallVector<AffineExpr> pixel;
  for (unsigned d = 0; d < 4; ++d)
    pixel.push_back(getAffineDimExpr(d, ctx));
  // The window's loops appear in the maps through an empty tensor of its
  // shape (as linalg's pooling ops take one), which the body does not read.
  Value window = tensor::EmptyOp::create(
      call.b, call.loc, ArrayRef<int64_t>{(*size)[0], (*size)[1]},
      call.elementType());
  SmallVector<AffineMap> maps{
      AffineMap::get(6, 0, zeros, ctx),
      AffineMap::get(6, 0, {getAffineDimExpr(4, ctx), getAffineDimExpr(5, ctx)},
                     ctx),
      AffineMap::get(6, 0, pixel, ctx)};
  Value source = call.args[0];
  Type elem = call.elementType();
  Value init = call.filled(call.scalar(0));
  return call.generic(
      "avg_pool2d", ValueRange{call.args[0], window}, init, maps, 2,
      [&](OpBuilder &b, Location loc, ValueRange a) -> Value {
        auto index = [&](int64_t v) -> Value {
          return arith::ConstantIndexOp::create(b, loc, v);
        };
        auto minIndex = [&](Value x, Value y) -> Value {
          return arith::MinSIOp::create(b, loc, x, y);
        };
        auto maxIndex = [&](Value x, Value y) -> Value {
          return arith::MaxSIOp::create(b, loc, x, y);
        };
        Value inside;
        SmallVector<Value> at{linalg::IndexOp::create(b, loc, 0),
                              linalg::IndexOp::create(b, loc, 1)};
        Value divisor = index(1);
        for (int k = 0; k < 2; ++k) {
          int64_t stride = (*strides)[k], dil = (*dilation)[k];
          int64_t low = (*padding)[k], high = (*padding)[k + 2];
          int64_t extent = in[2 + k];
          Value o = linalg::IndexOp::create(b, loc, 2 + k);
          Value w = linalg::IndexOp::create(b, loc, 4 + k);
          // The position read: o * stride + w * dilation - low.
          Value start = arith::SubIOp::create(
              b, loc, arith::MulIOp::create(b, loc, o, index(stride)),
              index(low));
          Value pos = arith::AddIOp::create(
              b, loc, start, arith::MulIOp::create(b, loc, w, index(dil)));
          Value ok = arith::AndIOp::create(
              b, loc,
              arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, pos,
                                    index(0)),
              arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, pos,
                                    index(extent)));
          inside =
              inside ? Value(arith::AndIOp::create(b, loc, inside, ok)) : ok;
          at.push_back(clampIndex(b, loc, pos, extent));
          // The window [start, start + span) clipped to the padded data
          // (count_include_pad) or to the data.
          int64_t span = ((*size)[k] - 1) * dil + 1;
          Value end =
              minIndex(arith::AddIOp::create(b, loc, start, index(span)),
                       index(extent + high));
          if (!countPad) {
            start = maxIndex(start, index(0));
            end = minIndex(end, index(extent));
          }
          divisor = arith::MulIOp::create(
              b, loc, divisor, arith::SubIOp::create(b, loc, end, start));
        }
        Value x = tensor::ExtractOp::create(b, loc, source, at);
        Value zero = arith::ConstantOp::create(b, loc, b.getFloatAttr(elem, 0));
        x = arith::SelectOp::create(b, loc, inside, x, zero);
        Value count = arith::SIToFPOp::create(
            b, loc, elem,
            arith::IndexCastOp::create(b, loc, b.getI64Type(), divisor));
        return arith::AddFOp::create(b, loc, a[2],
                                     arith::DivFOp::create(b, loc, x, count));
      });
}

ArrayRef<std::pair<StringRef, OperatorBuilder>>
mlir::tir::graph::getPoolingOperators() {
  static const std::pair<StringRef, OperatorBuilder> operators[] = {
      {"nn.avg_pool2d", buildAvgPool2d},
  };
  return operators;
}
