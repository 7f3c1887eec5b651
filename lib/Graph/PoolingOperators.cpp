//===- PoolingOperators.cpp - max, average and adaptive average pooling ---===//
//
// Relax's poolings over 2 (NCHW) or 3 (NCDHW) spatial axes:
// - nn.max_pool2d / 3d (the data already padded with -inf): linalg's named
//   NCHW max pooling, or one linalg.generic for NCDHW (linalg names only
//   NDHWC);
// - nn.avg_pool2d / 3d: one linalg.generic, the output's pixels parallel,
//   the window reducing, the data read (as a gathered input) at the
//   window's position when it is inside the data and as 0 in the padding.
//   Each element is divided by its window's divisor as PyTorch counts it:
//   the window clipped to the padded data (count_include_pad) or to the
//   data, which ceil_mode's last windows need;
// - nn.adaptive_avg_pool2d / 3d of output sizes dividing the input's: the
//   mean of equal windows.
//
//===----------------------------------------------------------------------===//

#include "OperatorCall.h"

#include "mlir/Dialect/Utils/IndexingUtils.h"

#include <limits>

using namespace mlir;
using namespace mlir::tir;
using namespace mlir::tir::graph;

/// An empty tensor of the window's shape: the window's loops appear in a
/// pooling's maps through it (as linalg's pooling ops take one); the body
/// does not read it.
static Value windowShape(const OperatorCall &call, ArrayRef<int64_t> size) {
  return tensor::EmptyOp::create(call.b, call.loc, size, call.elementType());
}

static FailureOr<Value> buildMaxPool(const OperatorCall &call) {
  unsigned spatial = spatialRankOf(call.name);
  if (failed(call.checkOperands(1)) ||
      failed(checkWindowRanks(call, 1, spatial)))
    return failure();
  FailureOr<WindowSteps> steps = windowSteps(call, spatial);
  FailureOr<SmallVector<int64_t>> size = call.intsAttr("pool_size", spatial);
  if (failed(steps) || failed(size))
    return failure();
  if (llvm::any_of(*size, [](int64_t v) { return v < 1; }))
    return call.refuse() << "'pool_size' is at least 1 on each axis";
  ArrayRef<int64_t> in = call.shapeOf(0), out = call.type.getShape();
  if (in[0] != out[0] || in[1] != out[1])
    return call.refuse() << "the data " << shapeText(in) << " and the result "
                         << shapeText(out) << " differ in batch or channels";
  for (unsigned k = 0; k < spatial; ++k)
    if ((out[2 + k] - 1) * steps->strides[k] +
            ((*size)[k] - 1) * steps->dilation[k] >=
        in[2 + k])
      return call.refuse() << "the window leaves the data's axis " << 2 + k;
  // -inf, or an integer type's lowest value.
  Value init =
      call.filled(call.scalar(-std::numeric_limits<double>::infinity()));
  Value window = windowShape(call, *size);
  if (spatial == 2)
    return linalg::PoolingNchwMaxOp::create(
               call.b, call.loc, TypeRange{call.type},
               ValueRange{call.args[0], window}, ValueRange{init},
               call.b.getI64TensorAttr(steps->strides),
               call.b.getI64TensorAttr(steps->dilation))
        .getResult(0);
  // Loops n, c, the output's axes (parallel), the window's (reduction).
  MLIRContext *ctx = call.b.getContext();
  unsigned loops = 2 + 2 * spatial;
  auto d = [&](unsigned k) { return getAffineDimExpr(k, ctx); };
  SmallVector<AffineExpr> input{d(0), d(1)}, taps, output{d(0), d(1)};
  for (unsigned k = 0; k < spatial; ++k) {
    input.push_back(d(2 + k) * steps->strides[k] +
                    d(2 + spatial + k) * steps->dilation[k]);
    taps.push_back(d(2 + spatial + k));
    output.push_back(d(2 + k));
  }
  SmallVector<AffineMap> maps{AffineMap::get(loops, 0, input, ctx),
                              AffineMap::get(loops, 0, taps, ctx),
                              AffineMap::get(loops, 0, output, ctx)};
  bool isFloat = call.isFloat();
  return call.generic(call.name.drop_front(3), ValueRange{call.args[0], window},
                      init, maps, spatial,
                      [&](OpBuilder &b, Location loc, ValueRange a) -> Value {
                        if (isFloat) // NaN wins, as in PyTorch
                          return arith::MaximumFOp::create(b, loc, a[2], a[0]);
                        return arith::MaxSIOp::create(b, loc, a[2], a[0]);
                      });
}

static FailureOr<Value> buildAdaptiveAvgPool(const OperatorCall &call) {
  unsigned spatial = spatialRankOf(call.name);
  if (failed(call.checkOperands(1)) ||
      failed(checkWindowRanks(call, 1, spatial)))
    return failure();
  if (!call.isFloat())
    return call.refuse() << "takes floating-point tensors";
  ArrayRef<int64_t> in = call.shapeOf(0);
  ArrayRef<int64_t> out = call.type.getShape();
  if (in[0] != out[0] || in[1] != out[1])
    return call.refuse() << "keeps the batch and channel dimensions";
  SmallVector<int64_t> size;
  for (unsigned k = 2; k < 2 + spatial; ++k) {
    if (out[k] == 0 || in[k] % out[k] != 0)
      return call.refuse() << "takes output sizes that divide the input's ("
                           << shapeText(in.drop_front(2)) << " to "
                           << shapeText(out.drop_front(2)) << ")";
    size.push_back(in[k] / out[k]);
  }
  MLIRContext *ctx = call.b.getContext();
  unsigned loops = 2 + 2 * spatial;
  auto d = [&](unsigned k) { return getAffineDimExpr(k, ctx); };
  SmallVector<AffineExpr> input{d(0), d(1)}, taps, output{d(0), d(1)};
  for (unsigned k = 0; k < spatial; ++k) {
    input.push_back(d(2 + k) * size[k] + d(2 + spatial + k));
    taps.push_back(d(2 + spatial + k));
    output.push_back(d(2 + k));
  }
  SmallVector<AffineMap> maps = {AffineMap::get(loops, 0, input, ctx),
                                 AffineMap::get(loops, 0, taps, ctx),
                                 AffineMap::get(loops, 0, output, ctx)};
  Value init = call.filled(call.scalar(0));
  double scale = 1.0 / static_cast<double>(computeProduct(size));
  return call.generic(
      call.name.drop_front(3),
      ValueRange{call.args[0], windowShape(call, size)}, init, maps, spatial,
      [&](OpBuilder &b, Location loc, ValueRange a) -> Value {
        Value factor = arith::ConstantOp::create(
            b, loc, b.getFloatAttr(a[0].getType(), scale));
        Value scaled = arith::MulFOp::create(b, loc, a[0], factor);
        return arith::AddFOp::create(b, loc, a[2], scaled);
      });
}

static FailureOr<Value> buildAvgPool(const OperatorCall &call) {
  unsigned spatial = spatialRankOf(call.name);
  if (failed(call.checkOperands(1)) ||
      failed(checkWindowRanks(call, 1, spatial)))
    return failure();
  if (!call.isFloat())
    return call.refuse() << "takes floating-point tensors, not "
                         << call.elementType();
  FailureOr<SmallVector<int64_t>> size = call.intsAttr("pool_size", spatial);
  FailureOr<WindowSteps> steps = windowSteps(call, spatial);
  // The padding before each axis, then after each.
  FailureOr<SmallVector<int64_t>> padding =
      call.intsAttr("padding", 2 * spatial);
  if (failed(size) || failed(steps) || failed(padding))
    return failure();
  auto includePad =
      dyn_cast_if_present<BoolAttr>(call.attr("count_include_pad"));
  bool countPad = includePad && includePad.getValue();
  ArrayRef<int64_t> in = call.shapeOf(0), out = call.type.getShape();
  if (in[0] != out[0] || in[1] != out[1])
    return call.refuse() << "the data " << shapeText(in) << " and the result "
                         << shapeText(out) << " differ in batch or channels";
  for (unsigned k = 0; k < spatial; ++k) {
    int64_t low = (*padding)[k], high = (*padding)[k + spatial];
    if ((*size)[k] < 1)
      return call.refuse() << "pool sizes are at least 1";
    // Every window starts inside the padded data.
    if ((out[2 + k] - 1) * steps->strides[k] >= in[2 + k] + low + high ||
        low < 0 || high < 0)
      return call.refuse() << "the result's axis " << 2 + k << " of size "
                           << out[2 + k] << " has windows past the padded data";
  }
  MLIRContext *ctx = call.b.getContext();
  unsigned rank = 2 + spatial, loops = rank + spatial;
  SmallVector<AffineExpr> zeros(rank, getAffineConstantExpr(0, ctx));
  SmallVector<AffineExpr> pixel, taps;
  for (unsigned d = 0; d < rank; ++d)
    pixel.push_back(getAffineDimExpr(d, ctx));
  for (unsigned k = 0; k < spatial; ++k)
    taps.push_back(getAffineDimExpr(rank + k, ctx));
  SmallVector<AffineMap> maps{AffineMap::get(loops, 0, zeros, ctx),
                              AffineMap::get(loops, 0, taps, ctx),
                              AffineMap::get(loops, 0, pixel, ctx)};
  Value source = call.args[0];
  Type elem = call.elementType();
  Value init = call.filled(call.scalar(0));
  return call.generic(
      call.name.drop_front(3),
      ValueRange{call.args[0], windowShape(call, *size)}, init, maps, spatial,
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
        for (unsigned k = 0; k < spatial; ++k) {
          int64_t stride = steps->strides[k], dil = steps->dilation[k];
          int64_t low = (*padding)[k], high = (*padding)[k + spatial];
          int64_t extent = in[2 + k];
          Value o = linalg::IndexOp::create(b, loc, 2 + k);
          Value w = linalg::IndexOp::create(b, loc, rank + k);
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
      {"nn.max_pool2d", buildMaxPool},
      {"nn.max_pool3d", buildMaxPool},
      {"nn.avg_pool2d", buildAvgPool},
      {"nn.avg_pool3d", buildAvgPool},
      {"nn.adaptive_avg_pool2d", buildAdaptiveAvgPool},
      {"nn.adaptive_avg_pool3d", buildAdaptiveAvgPool},
  };
  return operators;
}
