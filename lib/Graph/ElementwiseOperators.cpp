//===- ElementwiseOperators.cpp - element-wise operators as generics ------===//
//
// Relax's element-wise operators, each one linalg.generic named after the
// operator (tir.name) over the result's shape, its operands read with NumPy
// broadcasting: arithmetic, comparisons, bitwise and logical operators,
// math functions, predicates, where, clip and astype. Each checks the
// element types it takes and names the operator and the rule when it
// refuses one.
//
//===----------------------------------------------------------------------===//

#include "OperatorCall.h"

#include "mlir/Dialect/Math/IR/Math.h"

#include "llvm/ADT/StringSwitch.h"

#include <algorithm>
#include <limits>

using namespace mlir;
using namespace mlir::tir;
using namespace mlir::tir::graph;

/// The map reading an operand of `inShape` at the result's indices (NumPy
/// broadcasting): leading dimensions dropped, size-1 dimensions read at 0.
static FailureOr<AffineMap> broadcastMap(const OperatorCall &call,
                                         ArrayRef<int64_t> inShape) {
  ArrayRef<int64_t> outShape = call.type.getShape();
  if (inShape.size() > outShape.size())
    return call.refuse() << "an operand of rank " << inShape.size()
                         << " does not broadcast to rank " << outShape.size();
  unsigned offset = outShape.size() - inShape.size();
  SmallVector<AffineExpr> results;
  for (auto [k, dim] : llvm::enumerate(inShape)) {
    int64_t outDim = outShape[offset + k];
    if (dim == 1 && outDim != 1) {
      results.push_back(getAffineConstantExpr(0, call.b.getContext()));
    } else if (dim == outDim) {
      results.push_back(getAffineDimExpr(offset + k, call.b.getContext()));
    } else {
      return call.refuse() << "dimension " << k << " of size " << dim
                           << " does not broadcast to " << outDim;
    }
  }
  return AffineMap::get(outShape.size(), 0, results, call.b.getContext());
}

/// A linalg.generic computing `body` on the operands, each broadcast to
/// the result's shape.
static FailureOr<Value>
broadcastGeneric(const OperatorCall &call, StringRef tirName,
                 function_ref<Value(OpBuilder &, Location, ValueRange)> body) {
  SmallVector<AffineMap> maps;
  for (unsigned k = 0; k < call.args.size(); ++k) {
    FailureOr<AffineMap> map = broadcastMap(call, call.shapeOf(k));
    if (failed(map))
      return failure();
    maps.push_back(*map);
  }
  maps.push_back(call.identity(call.type.getRank()));
  return call.generic(tirName, call.args, call.empty(), maps, 0, body);
}

/// The operator's name without its namespace ("gelu" for "nn.gelu"), the
/// generic's tir.name.
static StringRef shortName(StringRef name) {
  return name.rsplit('.').second.empty() ? name : name.rsplit('.').second;
}

enum class Kinds { Float, Number, Integer, Bool };

/// Whether element type `t` is one the operator takes.
static bool accepts(Kinds kinds, Type t) {
  switch (kinds) {
  case Kinds::Float:
    return isa<FloatType>(t);
  case Kinds::Number:
    return isa<FloatType>(t) || (t.isSignlessInteger() && !t.isInteger(1));
  case Kinds::Integer:
    return t.isSignlessInteger();
  case Kinds::Bool:
    return t.isInteger(1);
  }
  return false;
}

static StringRef kindsText(Kinds kinds) {
  switch (kinds) {
  case Kinds::Float:
    return "floating-point tensors";
  case Kinds::Number:
    return "floating-point or integer tensors";
  case Kinds::Integer:
    return "integer or bool tensors";
  case Kinds::Bool:
    return "bool tensors";
  }
  return "";
}

/// The operands (all of `count`) hold one element type the operator takes;
/// the result holds `resultType` (null: the operands').
static LogicalResult checkTypes(const OperatorCall &call, unsigned count,
                                Kinds kinds, Type resultType = {}) {
  if (failed(call.checkShapedOperands(count)))
    return failure();
  Type elem = call.elementTypeOf(0);
  for (unsigned k = 0; k < count; ++k) {
    if (call.elementTypeOf(k) != elem)
      return call.refuse() << "the operands hold " << elem << " and "
                           << call.elementTypeOf(k)
                           << "; they must hold one type (astype first)";
  }
  if (!accepts(kinds, elem))
    return call.refuse() << "takes " << kindsText(kinds) << ", not " << elem;
  Type expected = resultType ? resultType : elem;
  if (call.elementType() != expected)
    return call.refuse() << "gives " << expected << ", not "
                         << call.elementType();
  return success();
}

static Value floatConstant(OpBuilder &b, Location loc, Type t, double v) {
  return arith::ConstantOp::create(b, loc, b.getFloatAttr(t, v));
}

static Value intConstant(OpBuilder &b, Location loc, Type t, int64_t v) {
  return arith::ConstantOp::create(b, loc, b.getIntegerAttr(t, v));
}

//===----------------------------------------------------------------------===//
// Unary operators
//===----------------------------------------------------------------------===//

/// The scalar body of unary operator `name` on `x`.
static Value unaryScalar(OpBuilder &b, Location loc, StringRef name, Value x) {
  Type t = x.getType();
  bool isFloat = isa<FloatType>(t);
  if (name == "abs")
    return isFloat ? Value(math::AbsFOp::create(b, loc, x))
                   : Value(math::AbsIOp::create(b, loc, x));
  if (name == "negative")
    return isFloat ? Value(arith::NegFOp::create(b, loc, x))
                   : Value(arith::SubIOp::create(b, loc,
                                                 intConstant(b, loc, t, 0), x));
  if (name == "square")
    return isFloat ? Value(arith::MulFOp::create(b, loc, x, x))
                   : Value(arith::MulIOp::create(b, loc, x, x));
  if (name == "sign") {
    // -1, 0 or 1 (NaN stays NaN for floats).
    if (isFloat) {
      Value zero = floatConstant(b, loc, t, 0),
            one = floatConstant(b, loc, t, 1);
      Value positive =
          arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OGT, x, zero);
      Value negative =
          arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLT, x, zero);
      Value signOf = arith::SelectOp::create(
          b, loc, negative, arith::NegFOp::create(b, loc, one), x);
      return arith::SelectOp::create(b, loc, positive, one, signOf);
    }
    Value zero = intConstant(b, loc, t, 0), one = intConstant(b, loc, t, 1);
    Value positive =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sgt, x, zero);
    Value negative =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, x, zero);
    Value low = arith::SelectOp::create(b, loc, negative,
                                        intConstant(b, loc, t, -1), zero);
    return arith::SelectOp::create(b, loc, positive, one, low);
  }
  if (!isFloat &&
      (name == "ceil" || name == "floor" || name == "round" || name == "trunc"))
    return x; // integers are whole already
  if (name == "ceil")
    return math::CeilOp::create(b, loc, x);
  if (name == "floor")
    return math::FloorOp::create(b, loc, x);
  if (name == "round") // halves to even, as TVM and PyTorch round
    return math::RoundEvenOp::create(b, loc, x);
  if (name == "trunc")
    return math::TruncOp::create(b, loc, x);
  if (name == "bitwise_not")
    return arith::XOrIOp::create(b, loc, x, intConstant(b, loc, t, -1));
  if (name == "logical_not")
    return arith::XOrIOp::create(b, loc, x, intConstant(b, loc, t, 1));
  if (name == "acos")
    return math::AcosOp::create(b, loc, x);
  if (name == "acosh")
    return math::AcoshOp::create(b, loc, x);
  if (name == "asin")
    return math::AsinOp::create(b, loc, x);
  if (name == "asinh")
    return math::AsinhOp::create(b, loc, x);
  if (name == "atan")
    return math::AtanOp::create(b, loc, x);
  if (name == "atanh")
    return math::AtanhOp::create(b, loc, x);
  if (name == "cos")
    return math::CosOp::create(b, loc, x);
  if (name == "cosh")
    return math::CoshOp::create(b, loc, x);
  if (name == "erf")
    return math::ErfOp::create(b, loc, x);
  if (name == "exp")
    return math::ExpOp::create(b, loc, x);
  if (name == "log")
    return math::LogOp::create(b, loc, x);
  if (name == "rsqrt")
    return math::RsqrtOp::create(b, loc, x);
  if (name == "sin")
    return math::SinOp::create(b, loc, x);
  if (name == "sinh")
    return math::SinhOp::create(b, loc, x);
  if (name == "sqrt")
    return math::SqrtOp::create(b, loc, x);
  if (name == "tan")
    return math::TanOp::create(b, loc, x);
  if (name == "tanh")
    return math::TanhOp::create(b, loc, x);
  Value one = floatConstant(b, loc, t, 1);
  Value half = floatConstant(b, loc, t, 0.5);
  if (name == "sigmoid" || name == "silu") {
    // 1 / (1 + exp(-x)), times x for silu.
    Value e = math::ExpOp::create(b, loc, arith::NegFOp::create(b, loc, x));
    Value s = arith::DivFOp::create(b, loc, one,
                                    arith::AddFOp::create(b, loc, one, e));
    return name == "silu" ? Value(arith::MulFOp::create(b, loc, x, s)) : s;
  }
  if (name == "gelu") {
    // x / 2 * (1 + erf(x / sqrt(2))).
    Value scaled =
        arith::MulFOp::create(b, loc, x, floatConstant(b, loc, t, M_SQRT1_2));
    Value e =
        arith::AddFOp::create(b, loc, one, math::ErfOp::create(b, loc, scaled));
    return arith::MulFOp::create(b, loc, arith::MulFOp::create(b, loc, x, half),
                                 e);
  }
  // gelu_tanh: x / 2 * (1 + tanh(sqrt(2 / pi) * (x + 0.044715 x^3))).
  Value cube =
      arith::MulFOp::create(b, loc, arith::MulFOp::create(b, loc, x, x), x);
  Value inner = arith::AddFOp::create(
      b, loc, x,
      arith::MulFOp::create(b, loc, cube, floatConstant(b, loc, t, 0.044715)));
  Value th = math::TanhOp::create(
      b, loc,
      arith::MulFOp::create(b, loc, inner,
                            floatConstant(b, loc, t, std::sqrt(2.0 / M_PI))));
  return arith::MulFOp::create(b, loc, arith::MulFOp::create(b, loc, x, half),
                               arith::AddFOp::create(b, loc, one, th));
}

static Kinds unaryKinds(StringRef name) {
  if (llvm::is_contained({"abs", "negative", "square", "sign", "ceil", "floor",
                          "round", "trunc"},
                         name))
    return Kinds::Number;
  if (name == "bitwise_not")
    return Kinds::Integer;
  if (name == "logical_not")
    return Kinds::Bool;
  return Kinds::Float;
}

static FailureOr<Value> buildUnary(const OperatorCall &call) {
  StringRef name = shortName(call.name);
  if (failed(checkTypes(call, 1, unaryKinds(name))))
    return failure();
  return broadcastGeneric(call, name,
                          [&](OpBuilder &b, Location loc, ValueRange a) {
                            return unaryScalar(b, loc, name, a[0]);
                          });
}

/// isinf, isnan, isfinite: a bool per element of a floating-point tensor.
static FailureOr<Value> buildPredicate(const OperatorCall &call) {
  StringRef name = call.name;
  if (failed(checkTypes(call, 1, Kinds::Float, call.b.getI1Type())))
    return failure();
  return broadcastGeneric(
      call, name, [&](OpBuilder &b, Location loc, ValueRange a) -> Value {
        Value x = a[0];
        if (name == "isnan")
          return arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNO, x, x);
        Value inf = floatConstant(b, loc, x.getType(),
                                  std::numeric_limits<double>::infinity());
        Value magnitude = math::AbsFOp::create(b, loc, x);
        return arith::CmpFOp::create(b, loc,
                                     name == "isinf"
                                         ? arith::CmpFPredicate::OEQ
                                         : arith::CmpFPredicate::OLT,
                                     magnitude, inf);
      });
}

//===----------------------------------------------------------------------===//
// Binary operators
//===----------------------------------------------------------------------===//

/// Python's remainder from C's (`rem` of dividing by `rhs`): the divisor's
/// sign, `rem + rhs` where a non-zero `rem` and `rhs` differ in sign.
Value mlir::tir::graph::floorModOf(OpBuilder &b, Location loc, Value rem,
                                   Value rhs) {
  Type t = rem.getType();
  bool isFloat = isa<FloatType>(t);
  Value zero =
      isFloat ? floatConstant(b, loc, t, 0) : intConstant(b, loc, t, 0);
  auto compare = [&](arith::CmpFPredicate f, arith::CmpIPredicate i, Value x) {
    return isFloat ? Value(arith::CmpFOp::create(b, loc, f, x, zero))
                   : Value(arith::CmpIOp::create(b, loc, i, x, zero));
  };
  Value nonzero =
      compare(arith::CmpFPredicate::ONE, arith::CmpIPredicate::ne, rem);
  Value differ = arith::XOrIOp::create(
      b, loc,
      compare(arith::CmpFPredicate::OLT, arith::CmpIPredicate::slt, rem),
      compare(arith::CmpFPredicate::OLT, arith::CmpIPredicate::slt, rhs));
  Value fix = arith::AndIOp::create(b, loc, nonzero, differ);
  Value sum = isFloat ? Value(arith::AddFOp::create(b, loc, rem, rhs))
                      : Value(arith::AddIOp::create(b, loc, rem, rhs));
  return arith::SelectOp::create(b, loc, fix, sum, rem);
}

/// The scalar body of arithmetic operator `op` (same-typed operands).
static Value arithmeticScalar(OpBuilder &b, Location loc, StringRef op,
                              Value lhs, Value rhs) {
  Type t = lhs.getType();
  if (isa<FloatType>(t)) {
    if (op == "add")
      return arith::AddFOp::create(b, loc, lhs, rhs);
    if (op == "subtract")
      return arith::SubFOp::create(b, loc, lhs, rhs);
    if (op == "multiply")
      return arith::MulFOp::create(b, loc, lhs, rhs);
    if (op == "divide")
      return arith::DivFOp::create(b, loc, lhs, rhs);
    if (op == "maximum")
      return arith::MaximumFOp::create(b, loc, lhs, rhs);
    if (op == "minimum")
      return arith::MinimumFOp::create(b, loc, lhs, rhs);
    if (op == "power")
      return math::PowFOp::create(b, loc, lhs, rhs);
    if (op == "floor_divide")
      return math::FloorOp::create(b, loc,
                                   arith::DivFOp::create(b, loc, lhs, rhs));
    Value rem = arith::RemFOp::create(b, loc, lhs, rhs); // C's fmod
    return op == "mod" ? rem : floorModOf(b, loc, rem, rhs);
  }
  if (op == "add")
    return arith::AddIOp::create(b, loc, lhs, rhs);
  if (op == "subtract")
    return arith::SubIOp::create(b, loc, lhs, rhs);
  if (op == "multiply")
    return arith::MulIOp::create(b, loc, lhs, rhs);
  if (op == "divide") // TVM's integer division truncates
    return arith::DivSIOp::create(b, loc, lhs, rhs);
  if (op == "maximum")
    return arith::MaxSIOp::create(b, loc, lhs, rhs);
  if (op == "minimum")
    return arith::MinSIOp::create(b, loc, lhs, rhs);
  if (op == "power")
    return math::IPowIOp::create(b, loc, lhs, rhs);
  if (op == "floor_divide")
    return arith::FloorDivSIOp::create(b, loc, lhs, rhs);
  Value rem = arith::RemSIOp::create(b, loc, lhs, rhs);
  return op == "mod" ? rem : floorModOf(b, loc, rem, rhs);
}

/// The arithmetic operators defined on bools, as PyTorch defines them (a
/// bool is 0 or 1 and the result saturates to a bool): add and maximum are
/// `or`, multiply and minimum `and`.
static bool takesBools(StringRef op) {
  return llvm::is_contained({StringRef("add"), StringRef("multiply"),
                             StringRef("maximum"), StringRef("minimum")},
                            op);
}

static FailureOr<Value> buildArithmetic(const OperatorCall &call) {
  if (failed(call.checkShapedOperands(2)))
    return failure();
  StringRef name = call.name;
  if (takesBools(name) && call.elementTypeOf(0).isInteger(1)) {
    if (failed(checkTypes(call, 2, Kinds::Bool)))
      return failure();
    bool isOr = name == "add" || name == "maximum";
    return broadcastGeneric(
        call, name, [&](OpBuilder &b, Location loc, ValueRange a) -> Value {
          if (isOr)
            return arith::OrIOp::create(b, loc, a[0], a[1]);
          return arith::AndIOp::create(b, loc, a[0], a[1]);
        });
  }
  if (failed(checkTypes(call, 2, Kinds::Number)))
    return failure();
  return broadcastGeneric(call, name,
                          [&](OpBuilder &b, Location loc, ValueRange a) {
                            return arithmeticScalar(b, loc, name, a[0], a[1]);
                          });
}

/// nn.relu: max(x, 0).
static FailureOr<Value> buildRelu(const OperatorCall &call) {
  if (failed(checkTypes(call, 1, Kinds::Number)))
    return failure();
  return broadcastGeneric(
      call, "relu", [&](OpBuilder &b, Location loc, ValueRange a) {
        Value zero =
            arith::ConstantOp::create(b, loc, b.getZeroAttr(a[0].getType()));
        return arithmeticScalar(b, loc, "maximum", a[0], zero);
      });
}

/// nn.leakyrelu: x where x > 0, else alpha * x (attribute "alpha").
static FailureOr<Value> buildLeakyRelu(const OperatorCall &call) {
  if (failed(checkTypes(call, 1, Kinds::Float)))
    return failure();
  FailureOr<double> alpha = call.floatAttr("alpha");
  if (failed(alpha))
    return failure();
  return broadcastGeneric(
      call, "leakyrelu", [&](OpBuilder &b, Location loc, ValueRange a) {
        Value x = a[0];
        Type t = x.getType();
        Value positive = arith::CmpFOp::create(
            b, loc, arith::CmpFPredicate::OGT, x, floatConstant(b, loc, t, 0));
        Value scaled =
            arith::MulFOp::create(b, loc, x, floatConstant(b, loc, t, *alpha));
        return arith::SelectOp::create(b, loc, positive, x, scaled);
      });
}

/// bitwise_* on integers and bools, logical_* on bools; shifts on integers.
static FailureOr<Value> buildBitwise(const OperatorCall &call) {
  StringRef name = call.name;
  bool logical = name.starts_with("logical_");
  if (failed(checkTypes(call, 2, logical ? Kinds::Bool : Kinds::Integer)))
    return failure();
  return broadcastGeneric(
      call, name, [&](OpBuilder &b, Location loc, ValueRange a) -> Value {
        if (name.ends_with("_and"))
          return arith::AndIOp::create(b, loc, a[0], a[1]);
        if (name.ends_with("_or"))
          return arith::OrIOp::create(b, loc, a[0], a[1]);
        if (name.ends_with("_xor"))
          return arith::XOrIOp::create(b, loc, a[0], a[1]);
        if (name == "left_shift")
          return arith::ShLIOp::create(b, loc, a[0], a[1]);
        return arith::ShRSIOp::create(b, loc, a[0], a[1]);
      });
}

/// equal, not_equal, less, less_equal, greater, greater_equal: bools.
static FailureOr<Value> buildComparison(const OperatorCall &call) {
  if (failed(call.checkShapedOperands(2)))
    return failure();
  Kinds kinds =
      isa<FloatType>(call.elementTypeOf(0)) ? Kinds::Float : Kinds::Integer;
  if (failed(checkTypes(call, 2, kinds, call.b.getI1Type())))
    return failure();
  StringRef name = call.name;
  return broadcastGeneric(
      call, name, [&](OpBuilder &b, Location loc, ValueRange a) -> Value {
        if (isa<FloatType>(a[0].getType())) {
          // Ordered comparisons: false with a NaN, except not_equal.
          auto predicate = llvm::StringSwitch<arith::CmpFPredicate>(name)
                               .Case("equal", arith::CmpFPredicate::OEQ)
                               .Case("not_equal", arith::CmpFPredicate::UNE)
                               .Case("less", arith::CmpFPredicate::OLT)
                               .Case("less_equal", arith::CmpFPredicate::OLE)
                               .Case("greater", arith::CmpFPredicate::OGT)
                               .Default(arith::CmpFPredicate::OGE);
          return arith::CmpFOp::create(b, loc, predicate, a[0], a[1]);
        }
        auto predicate = llvm::StringSwitch<arith::CmpIPredicate>(name)
                             .Case("equal", arith::CmpIPredicate::eq)
                             .Case("not_equal", arith::CmpIPredicate::ne)
                             .Case("less", arith::CmpIPredicate::slt)
                             .Case("less_equal", arith::CmpIPredicate::sle)
                             .Case("greater", arith::CmpIPredicate::sgt)
                             .Default(arith::CmpIPredicate::sge);
        return arith::CmpIOp::create(b, loc, predicate, a[0], a[1]);
      });
}

//===----------------------------------------------------------------------===//
// where, clip, astype
//===----------------------------------------------------------------------===//

/// where(condition, x1, x2): x1 where the condition holds, else x2.
static FailureOr<Value> buildWhere(const OperatorCall &call) {
  if (failed(call.checkShapedOperands(3)))
    return failure();
  if (!call.elementTypeOf(0).isInteger(1))
    return call.refuse() << "the condition holds " << call.elementTypeOf(0)
                         << ", not bool";
  if (call.elementTypeOf(1) != call.elementTypeOf(2) ||
      call.elementTypeOf(1) != call.elementType())
    return call.refuse() << "the values hold " << call.elementTypeOf(1)
                         << " and " << call.elementTypeOf(2)
                         << " and the result " << call.elementType()
                         << "; they must hold one type";
  return broadcastGeneric(
      call, "where", [&](OpBuilder &b, Location loc, ValueRange a) {
        return arith::SelectOp::create(b, loc, a[0], a[1], a[2]);
      });
}

/// clip(x, min, max): x within [min, max] (attributes "min" and "max").
static FailureOr<Value> buildClip(const OperatorCall &call) {
  if (failed(checkTypes(call, 1, Kinds::Number)))
    return failure();
  FailureOr<double> low = call.floatAttr("min"), high = call.floatAttr("max");
  if (failed(low) || failed(high))
    return failure();
  if (*low > *high)
    return call.refuse() << "min " << *low << " is above max " << *high;
  return broadcastGeneric(
      call, "clip", [&](OpBuilder &b, Location loc, ValueRange a) -> Value {
        Value x = a[0];
        Type t = x.getType();
        if (isa<FloatType>(t))
          return arith::MinimumFOp::create(
              b, loc,
              arith::MaximumFOp::create(b, loc, x,
                                        floatConstant(b, loc, t, *low)),
              floatConstant(b, loc, t, *high));
        // An integer tensor: bounds past its range saturate.
        unsigned width = t.getIntOrFloatBitWidth();
        auto bound = [&](double v) {
          double lo = static_cast<double>(
              APInt::getSignedMinValue(width).getSExtValue());
          double hi = static_cast<double>(
              APInt::getSignedMaxValue(width).getSExtValue());
          return intConstant(b, loc, t,
                             static_cast<int64_t>(std::clamp(v, lo, hi)));
        };
        return arith::MinSIOp::create(
            b, loc, arith::MaxSIOp::create(b, loc, x, bound(std::ceil(*low))),
            bound(std::floor(*high)));
      });
}

Value mlir::tir::graph::convertScalar(OpBuilder &b, Location loc, Value x,
                                      Type to) {
  Type from = x.getType();
  if (from == to)
    return x;
  if (to.isInteger(1)) {
    if (isa<FloatType>(from))
      return arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNE, x,
                                   floatConstant(b, loc, from, 0));
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, x,
                                 intConstant(b, loc, from, 0));
  }
  if (isa<FloatType>(from) && isa<FloatType>(to))
    return from.getIntOrFloatBitWidth() < to.getIntOrFloatBitWidth()
               ? Value(arith::ExtFOp::create(b, loc, to, x))
               : Value(arith::TruncFOp::create(b, loc, to, x));
  if (isa<FloatType>(to)) // bools are 0 or 1, not -1
    return from.isInteger(1) ? Value(arith::UIToFPOp::create(b, loc, to, x))
                             : Value(arith::SIToFPOp::create(b, loc, to, x));
  if (isa<FloatType>(from))
    return arith::FPToSIOp::create(b, loc, to, x);
  unsigned fromWidth = from.getIntOrFloatBitWidth();
  unsigned toWidth = to.getIntOrFloatBitWidth();
  if (fromWidth > toWidth)
    return arith::TruncIOp::create(b, loc, to, x);
  return from.isInteger(1) ? Value(arith::ExtUIOp::create(b, loc, to, x))
                           : Value(arith::ExtSIOp::create(b, loc, to, x));
}

/// astype(x, dtype): each element converted to the result's element type.
static FailureOr<Value> buildAstype(const OperatorCall &call) {
  if (failed(call.checkShapedOperands(1)))
    return failure();
  if (call.shapeOf(0) != call.type.getShape())
    return call.refuse() << "the operand of shape "
                         << shapeText(call.shapeOf(0))
                         << " is not of the result's shape "
                         << shapeText(call.type.getShape());
  Type to = call.elementType();
  return broadcastGeneric(call, "astype",
                          [&](OpBuilder &b, Location loc, ValueRange a) {
                            return convertScalar(b, loc, a[0], to);
                          });
}

ArrayRef<std::pair<StringRef, OperatorBuilder>>
mlir::tir::graph::getElementwiseOperators() {
  static const std::pair<StringRef, OperatorBuilder> operators[] = {
      {"add", buildArithmetic},
      {"subtract", buildArithmetic},
      {"multiply", buildArithmetic},
      {"divide", buildArithmetic},
      {"maximum", buildArithmetic},
      {"minimum", buildArithmetic},
      {"power", buildArithmetic},
      {"mod", buildArithmetic},
      {"floor_mod", buildArithmetic},
      {"floor_divide", buildArithmetic},
      {"bitwise_and", buildBitwise},
      {"bitwise_or", buildBitwise},
      {"bitwise_xor", buildBitwise},
      {"left_shift", buildBitwise},
      {"right_shift", buildBitwise},
      {"logical_and", buildBitwise},
      {"logical_or", buildBitwise},
      {"logical_xor", buildBitwise},
      {"equal", buildComparison},
      {"not_equal", buildComparison},
      {"less", buildComparison},
      {"less_equal", buildComparison},
      {"greater", buildComparison},
      {"greater_equal", buildComparison},
      {"nn.relu", buildRelu},
      {"nn.leakyrelu", buildLeakyRelu},
      {"abs", buildUnary},
      {"negative", buildUnary},
      {"square", buildUnary},
      {"sign", buildUnary},
      {"ceil", buildUnary},
      {"floor", buildUnary},
      {"round", buildUnary},
      {"trunc", buildUnary},
      {"bitwise_not", buildUnary},
      {"logical_not", buildUnary},
      {"acos", buildUnary},
      {"acosh", buildUnary},
      {"asin", buildUnary},
      {"asinh", buildUnary},
      {"atan", buildUnary},
      {"atanh", buildUnary},
      {"cos", buildUnary},
      {"cosh", buildUnary},
      {"erf", buildUnary},
      {"exp", buildUnary},
      {"log", buildUnary},
      {"rsqrt", buildUnary},
      {"sin", buildUnary},
      {"sinh", buildUnary},
      {"sqrt", buildUnary},
      {"tan", buildUnary},
      {"tanh", buildUnary},
      {"sigmoid", buildUnary},
      {"nn.silu", buildUnary},
      {"nn.gelu", buildUnary},
      {"nn.gelu_tanh", buildUnary},
      {"isinf", buildPredicate},
      {"isnan", buildPredicate},
      {"isfinite", buildPredicate},
      {"where", buildWhere},
      {"clip", buildClip},
      {"astype", buildAstype},
  };
  return operators;
}
