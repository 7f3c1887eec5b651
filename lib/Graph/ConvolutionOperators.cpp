//===- ConvolutionOperators.cpp - nn.conv2d and nn.conv3d -----------------===//
//
// Relax's convolutions over 2 (NCHW data, OIHW weight) or 3 (NCDHW, OIDHW)
// spatial axes, the data already padded (relax.op pads it first): linalg's
// named convolution for one group, else one linalg.generic whose output
// channel o reads input channel (o floordiv (O / groups)) * (C / groups) + c,
// c over the group's channels, reducing with the window.
//
//===----------------------------------------------------------------------===//

#include "OperatorCall.h"

using namespace mlir;
using namespace mlir::tir;
using namespace mlir::tir::graph;

/// The convolution as one generic: loops n, o and the output's spatial
/// axes (parallel), then c and the window's axes (reduction).
static Value buildGenericConvolution(const OperatorCall &call, unsigned spatial,
                                     int64_t groups, const WindowSteps &steps) {
  ArrayRef<int64_t> w = call.shapeOf(1);
  MLIRContext *ctx = call.b.getContext();
  unsigned loops = 3 + 2 * spatial;
  auto d = [&](unsigned k) { return getAffineDimExpr(k, ctx); };
  AffineExpr n = d(0), o = d(1), c = d(2 + spatial);
  int64_t perGroupOut = w[0] / groups, perGroupIn = w[1];
  SmallVector<AffineExpr> input{n, o.floorDiv(perGroupOut) * perGroupIn + c};
  SmallVector<AffineExpr> weight{o, c}, output{n, o};
  for (unsigned k = 0; k < spatial; ++k) {
    AffineExpr at = d(2 + k), tap = d(3 + spatial + k);
    input.push_back(at * steps.strides[k] + tap * steps.dilation[k]);
    weight.push_back(tap);
    output.push_back(at);
  }
  SmallVector<AffineMap> maps{AffineMap::get(loops, 0, input, ctx),
                              AffineMap::get(loops, 0, weight, ctx),
                              AffineMap::get(loops, 0, output, ctx)};
  return call.productSum(spatial == 3 ? "conv3d" : "conv2d", maps, 1 + spatial);
}

static FailureOr<Value> buildConvolution(const OperatorCall &call) {
  unsigned spatial = spatialRankOf(call.name);
  if (failed(call.checkOperands(2)) ||
      failed(checkWindowRanks(call, 2, spatial)))
    return failure();
  FailureOr<WindowSteps> steps = windowSteps(call, spatial);
  if (failed(steps))
    return failure();
  int64_t groups = 1;
  if (call.attr("groups")) {
    FailureOr<int64_t> value = call.intAttr("groups");
    if (failed(value))
      return failure();
    if (*value < 1)
      return call.refuse() << "groups is at least 1, not " << *value;
    groups = *value;
  }
  ArrayRef<int64_t> x = call.shapeOf(0), w = call.shapeOf(1);
  ArrayRef<int64_t> out = call.type.getShape();
  // Dynamic sizes (a batch, an image's height given at run time; one group
  // only) are taken to fit as the front end's shape inference said; the
  // kernel's window and channels are static.
  auto dynamic = [](int64_t size) { return ShapedType::isDynamic(size); };
  bool dynamicData = llvm::any_of(x, dynamic) || llvm::any_of(out, dynamic);
  bool dynamicWindow = llvm::any_of(w.drop_front(2), dynamic);
  if (dynamicWindow ||
      ((dynamicData || llvm::any_of(w, dynamic)) && groups != 1))
    return call.refuse() << "takes a window of static size, and dynamic "
                            "sizes in one group only; got data "
                         << shapeText(x) << ", weight " << shapeText(w) << ", "
                         << groups << " group(s)";
  auto differ = [&](int64_t a, int64_t b) {
    return !dynamic(a) && !dynamic(b) && a != b;
  };
  if ((!dynamic(x[1]) && x[1] % groups != 0) || differ(x[1] / groups, w[1]) ||
      (!dynamic(w[0]) && w[0] % groups != 0) || differ(x[0], out[0]) ||
      differ(w[0], out[1]))
    return call.refuse() << "data " << shapeText(x) << " and weight "
                         << shapeText(w) << " do not give " << shapeText(out)
                         << " in " << groups
                         << " group(s) (weight: O, C / groups, then the "
                            "window)";
  for (unsigned k = 0; k < spatial; ++k)
    if (!dynamic(out[2 + k]) && !dynamic(x[2 + k]) &&
        (out[2 + k] - 1) * steps->strides[k] +
                (w[2 + k] - 1) * steps->dilation[k] >=
            x[2 + k])
      return call.refuse() << "the window leaves the data's axis " << 2 + k;
  if (groups > 1)
    return buildGenericConvolution(call, spatial, groups, *steps);
  Value init = call.filled(call.scalar(0));
  Attribute strides = call.b.getI64TensorAttr(steps->strides);
  Attribute dilation = call.b.getI64TensorAttr(steps->dilation);
  if (spatial == 3)
    return linalg::Conv3DNcdhwFcdhwOp::create(
               call.b, call.loc, TypeRange{call.type}, call.args,
               ValueRange{init}, strides, dilation)
        .getResult(0);
  return linalg::Conv2DNchwFchwOp::create(call.b, call.loc,
                                          TypeRange{call.type}, call.args,
                                          ValueRange{init}, strides, dilation)
      .getResult(0);
}

ArrayRef<std::pair<StringRef, OperatorBuilder>>
mlir::tir::graph::getConvolutionOperators() {
  static const std::pair<StringRef, OperatorBuilder> operators[] = {
      {"nn.conv2d", buildConvolution},
      {"nn.conv3d", buildConvolution},
  };
  return operators;
}
