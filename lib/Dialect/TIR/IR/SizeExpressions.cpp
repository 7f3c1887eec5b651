//===- SizeExpressions.cpp - integer expressions of shape variables -------===//
//
// Relax values computed from shape variables (R.shape([n * n, m + 1]),
// R.prim_value(n // 2)) are index arithmetic in a graph function; these
// read such an expression's text into arith ops and print the ops back.
//
//===----------------------------------------------------------------------===//

#include "TensorIR/Dialect/TIR/IR/ShapeVars.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/StringExtras.h"

using namespace mlir;
using namespace mlir::tir;

namespace {
/// Recursive descent over the expression's text, building as it reads.
struct ExpressionReader {
  OpBuilder &b;
  Location loc;
  StringRef text;
  function_ref<Value(StringRef)> lookup;

  void skip() { text = text.ltrim(); }
  bool eat(StringRef token) {
    skip();
    if (!text.starts_with(token))
      return false;
    // "/" alone is no operator here: only "//".
    text = text.drop_front(token.size());
    return true;
  }
  Value constant(int64_t v) {
    return arith::ConstantIndexOp::create(b, loc, v);
  }

  FailureOr<Value> atom() {
    skip();
    if (eat("-")) {
      FailureOr<Value> inner = atom();
      if (failed(inner))
        return failure();
      return Value(arith::SubIOp::create(b, loc, constant(0), *inner));
    }
    if (eat("(")) {
      FailureOr<Value> inner = sum();
      if (failed(inner) || !eat(")"))
        return failure();
      return inner;
    }
    if (!text.empty() && llvm::isDigit(text.front())) {
      size_t n = text.find_if_not([](char c) { return llvm::isDigit(c); });
      int64_t value;
      if (text.take_front(n).getAsInteger(10, value))
        return failure();
      text = text.drop_front(n);
      return constant(value);
    }
    size_t n = text.find_if_not(
        [](char c) { return llvm::isAlnum(c) || c == '_' || c == '.'; });
    if (n == 0 || text.empty())
      return failure();
    Value v = lookup(text.take_front(n));
    text = text.drop_front(n);
    if (!v)
      return failure();
    if (!v.getType().isIndex())
      v = arith::IndexCastOp::create(b, loc, b.getIndexType(), v);
    return v;
  }

  FailureOr<Value> product() {
    FailureOr<Value> result = atom();
    while (succeeded(result)) {
      enum { Mul, Div, Mod } kind;
      if (eat("*"))
        kind = Mul;
      else if (eat("//"))
        kind = Div;
      else if (eat("%"))
        kind = Mod;
      else
        break;
      FailureOr<Value> rhs = atom();
      if (failed(rhs))
        return failure();
      if (kind == Mul) {
        result = Value(arith::MulIOp::create(b, loc, *result, *rhs));
        continue;
      }
      // Sizes divide by positive constants only: a zero or negative
      // divisor has no meaning the runtime could check.
      APInt divisor;
      if (!matchPattern(*rhs, m_ConstantInt(&divisor)) ||
          divisor.getSExtValue() <= 0)
        return failure();
      Value quotient = arith::FloorDivSIOp::create(b, loc, *result, *rhs);
      result = kind == Div
                   ? quotient
                   : Value(arith::SubIOp::create(
                         b, loc, *result,
                         arith::MulIOp::create(b, loc, quotient, *rhs)));
    }
    return result;
  }

  FailureOr<Value> sum() {
    FailureOr<Value> result = product();
    while (succeeded(result)) {
      bool add;
      if (eat("+"))
        add = true;
      else if (eat("-"))
        add = false;
      else
        break;
      FailureOr<Value> rhs = product();
      if (failed(rhs))
        return failure();
      result = add ? Value(arith::AddIOp::create(b, loc, *result, *rhs))
                   : Value(arith::SubIOp::create(b, loc, *result, *rhs));
    }
    return result;
  }
};
} // namespace

FailureOr<Value>
mlir::tir::buildSizeExpression(OpBuilder &b, Location loc, StringRef text,
                               function_ref<Value(StringRef)> lookup) {
  ExpressionReader reader{b, loc, text, lookup};
  FailureOr<Value> result = reader.sum();
  reader.skip();
  if (failed(result) || !reader.text.empty())
    return failure();
  return result;
}

/// The text of `size`, parenthesized when it is a sum or difference and
/// `operand` says it is the operand of a product or division.
static std::string sizeText(Value size, bool operand) {
  APInt value;
  if (matchPattern(size, m_ConstantInt(&value))) {
    int64_t v = value.getSExtValue();
    return v < 0 && operand ? "(" + std::to_string(v) + ")" : std::to_string(v);
  }
  // A variable, or an affine form of variables, as the forms print.
  if (std::optional<AffineSize> form = getAffineSize(size)) {
    std::string text = form->str();
    bool compound = form->terms.size() + (form->constant != 0) > 1 ||
                    (form->terms.size() == 1 && form->terms[0].second != 1);
    return compound && operand ? "(" + text + ")" : text;
  }
  Operation *op = size.getDefiningOp();
  if (!op)
    return "";
  if (auto cast = dyn_cast<arith::IndexCastOp>(op))
    return sizeText(cast.getIn(), operand);
  if (op->getNumOperands() != 2)
    return "";
  // a - a // b * b: a floor modulo.
  if (auto sub = dyn_cast<arith::SubIOp>(op))
    if (auto mul = sub.getRhs().getDefiningOp<arith::MulIOp>())
      if (auto div = mul.getLhs().getDefiningOp<arith::FloorDivSIOp>();
          div && div.getLhs() == sub.getLhs() && div.getRhs() == mul.getRhs()) {
        std::string a = sizeText(div.getLhs(), true);
        std::string m = sizeText(div.getRhs(), true);
        if (a.empty() || m.empty())
          return "";
        return a + " % " + m;
      }
  const char *symbol = isa<arith::AddIOp>(op)         ? " + "
                       : isa<arith::SubIOp>(op)       ? " - "
                       : isa<arith::MulIOp>(op)       ? " * "
                       : isa<arith::FloorDivSIOp>(op) ? " // "
                                                      : nullptr;
  if (!symbol)
    return "";
  bool sum = isa<arith::AddIOp, arith::SubIOp>(op);
  std::string lhs = sizeText(op->getOperand(0), !sum);
  // The right side of a difference is parenthesized as an operand is.
  std::string rhs = sizeText(op->getOperand(1), !sum || isa<arith::SubIOp>(op));
  if (lhs.empty() || rhs.empty())
    return "";
  std::string text = lhs + symbol + rhs;
  return sum && operand ? "(" + text + ")" : text;
}

std::string mlir::tir::getSizeExpressionText(Value size) {
  return sizeText(size, false);
}
