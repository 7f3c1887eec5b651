//===- ImageOperators.cpp - image.resize2d --------------------------------===//
//
// Relax's image.resize2d (NCHW) as one linalg.generic over the result: each
// output pixel's source coordinate (the coordinate transformation mode's),
// then the nearest pixel (the rounding method's) or the bilinear blend of
// the four around it, read from the data (a gathered input) at indices
// clamped into it.
//
//===----------------------------------------------------------------------===//

#include "OperatorCall.h"

#include "mlir/Dialect/Math/IR/Math.h"

using namespace mlir;
using namespace mlir::tir;
using namespace mlir::tir::graph;

static StringRef stringAttr(const OperatorCall &call, StringRef key,
                            StringRef fallback) {
  if (auto value = dyn_cast_if_present<StringAttr>(call.attr(key)))
    return value.getValue();
  return fallback;
}

static FailureOr<Value> buildResize2d(const OperatorCall &call) {
  if (failed(call.checkOperands(1)))
    return failure();
  ArrayRef<int64_t> in = call.shapeOf(0), out = call.type.getShape();
  if (in.size() != 4 || out.size() != 4 || in[0] != out[0] || in[1] != out[1])
    return call.refuse() << "takes NCHW data and gives NCHW of its batch and "
                            "channels";
  if (!call.isFloat())
    return call.refuse() << "takes floating-point tensors, not "
                         << call.elementType();
  StringRef method = stringAttr(call, "method", "linear");
  StringRef mode =
      stringAttr(call, "coordinate_transformation_mode", "half_pixel");
  StringRef rounding = stringAttr(call, "rounding_method", "round");
  if (method != "linear" && method != "nearest_neighbor")
    return call.refuse() << "method '" << method
                         << "' (linear and nearest_neighbor are supported)";
  if (!llvm::is_contained(
          {"half_pixel", "pytorch_half_pixel", "align_corners", "asymmetric"},
          mode))
    return call.refuse() << "coordinate_transformation_mode '" << mode
                         << "' (half_pixel, pytorch_half_pixel, "
                            "align_corners and asymmetric are supported)";
  if (rounding.empty())
    rounding = "round";
  if (!llvm::is_contained(
          {"round", "floor", "ceil", "round_prefer_floor", "round_prefer_ceil"},
          rounding))
    return call.refuse() << "rounding_method '" << rounding << "'";
  MLIRContext *ctx = call.b.getContext();
  SmallVector<AffineExpr> zeros(4, getAffineConstantExpr(0, ctx));
  Value source = call.args[0];
  Type elem = call.elementType();
  return call.generic(
      "resize2d", call.args, call.empty(),
      {AffineMap::get(4, 0, zeros, ctx), call.identity(4)}, 0,
      [&](OpBuilder &b, Location loc, ValueRange) -> Value {
        auto real = [&](double v) -> Value {
          return arith::ConstantOp::create(b, loc, b.getF32FloatAttr(v));
        };
        // Coordinates in f32 whatever the data holds.
        auto coordinate = [&](unsigned axis) -> Value {
          int64_t size = in[axis], target = out[axis];
          Value o = arith::UIToFPOp::create(
              b, loc, b.getF32Type(),
              arith::IndexCastOp::create(
                  b, loc, b.getI64Type(),
                  linalg::IndexOp::create(b, loc, axis)));
          double scale = static_cast<double>(size) / target;
          if (mode == "align_corners")
            return target > 1 ? Value(arith::MulFOp::create(
                                    b, loc, o,
                                    real(static_cast<double>(size - 1) /
                                         (target - 1))))
                              : real(0);
          if (mode == "asymmetric")
            return arith::MulFOp::create(b, loc, o, real(scale));
          if (mode == "pytorch_half_pixel" && target == 1)
            return real(0);
          return arith::SubFOp::create(
              b, loc,
              arith::MulFOp::create(b, loc,
                                    arith::AddFOp::create(b, loc, o, real(0.5)),
                                    real(scale)),
              real(0.5));
        };
        // A coordinate (f32, whole) as an index clamped into the axis.
        auto clamped = [&](Value whole, int64_t size) -> Value {
          return clampIndex(
              b, loc, arith::FPToSIOp::create(b, loc, b.getI64Type(), whole),
              size);
        };
        Value n = linalg::IndexOp::create(b, loc, 0);
        Value c = linalg::IndexOp::create(b, loc, 1);
        Value y = coordinate(2), x = coordinate(3);
        auto read = [&](Value row, Value col) -> Value {
          return tensor::ExtractOp::create(b, loc, source,
                                           ValueRange{n, c, row, col});
        };
        if (method == "nearest_neighbor") {
          auto nearest = [&](Value v) -> Value {
            if (rounding == "floor")
              return math::FloorOp::create(b, loc, v);
            if (rounding == "ceil")
              return math::CeilOp::create(b, loc, v);
            if (rounding == "round_prefer_floor")
              return math::CeilOp::create(
                  b, loc, arith::SubFOp::create(b, loc, v, real(0.5)));
            if (rounding == "round_prefer_ceil")
              return math::FloorOp::create(
                  b, loc, arith::AddFOp::create(b, loc, v, real(0.5)));
            return math::RoundEvenOp::create(b, loc, v);
          };
          return read(clamped(nearest(y), in[2]), clamped(nearest(x), in[3]));
        }
        // Bilinear: the four pixels around (y, x), weighted by distance.
        Value y0 = math::FloorOp::create(b, loc, y);
        Value x0 = math::FloorOp::create(b, loc, x);
        Value wy = arith::SubFOp::create(b, loc, y, y0);
        Value wx = arith::SubFOp::create(b, loc, x, x0);
        Value r0 = clamped(y0, in[2]);
        Value r1 = clamped(arith::AddFOp::create(b, loc, y0, real(1)), in[2]);
        Value c0 = clamped(x0, in[3]);
        Value c1 = clamped(arith::AddFOp::create(b, loc, x0, real(1)), in[3]);
        auto toElem = [&](Value v) -> Value {
          if (elem.isF32())
            return v;
          return elem.getIntOrFloatBitWidth() > 32
                     ? Value(arith::ExtFOp::create(b, loc, elem, v))
                     : Value(arith::TruncFOp::create(b, loc, elem, v));
        };
        auto lerp = [&](Value a, Value z, Value w) -> Value {
          Value wE = toElem(w);
          return arith::AddFOp::create(
              b, loc, a,
              arith::MulFOp::create(b, loc, arith::SubFOp::create(b, loc, z, a),
                                    wE));
        };
        Value top = lerp(read(r0, c0), read(r0, c1), wx);
        Value bottom = lerp(read(r1, c0), read(r1, c1), wx);
        return lerp(top, bottom, wy);
      });
}

ArrayRef<std::pair<StringRef, OperatorBuilder>>
mlir::tir::graph::getImageOperators() {
  static const std::pair<StringRef, OperatorBuilder> operators[] = {
      {"image.resize2d", buildResize2d},
  };
  return operators;
}
