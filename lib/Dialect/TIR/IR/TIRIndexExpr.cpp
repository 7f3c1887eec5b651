//===- TIRIndexExpr.cpp - index expressions over SSA values ---------------===//

#include "TensorIR/Dialect/TIR/IR/TIRIndexExpr.h"
#include "TensorIR/Dialect/TIR/Arith/Simplify.h"

#include "mlir/IR/Builders.h"

using namespace mlir;
using namespace mlir::tir;

//===----------------------------------------------------------------------===//
// Input space and storage form
//===----------------------------------------------------------------------===//

AffineExpr mlir::tir::toInputSpace(AffineExpr e, unsigned numDims,
                                   unsigned numSymbols) {
  if (numSymbols == 0)
    return e;
  SmallVector<AffineExpr> dims, syms;
  for (unsigned i = 0; i < numDims; ++i)
    dims.push_back(getAffineDimExpr(i, e.getContext()));
  for (unsigned i = 0; i < numSymbols; ++i)
    syms.push_back(getAffineDimExpr(numDims + i, e.getContext()));
  return e.replaceDimsAndSymbols(dims, syms);
}

SmallVector<AffineExpr> mlir::tir::getExprsOverInputs(AffineMap map) {
  SmallVector<AffineExpr> out;
  for (AffineExpr e : map.getResults())
    out.push_back(toInputSpace(e, map.getNumDims(), map.getNumSymbols()));
  return out;
}

SmallVector<AffineExpr> mlir::tir::getConstraintsOverInputs(IntegerSet set) {
  SmallVector<AffineExpr> out;
  for (AffineExpr e : set.getConstraints())
    out.push_back(toInputSpace(e, set.getNumDims(), set.getNumSymbols()));
  return out;
}

bool mlir::tir::isExpressibleOverDims(AffineExpr e) {
  bool ok = true;
  e.walk([&](AffineExpr sub) {
    auto bin = dyn_cast<AffineBinaryOpExpr>(sub);
    if (!bin)
      return;
    switch (sub.getKind()) {
    case AffineExprKind::Mul:
      if (!bin.getLHS().isSymbolicOrConstant() &&
          !bin.getRHS().isSymbolicOrConstant())
        ok = false;
      break;
    case AffineExprKind::FloorDiv:
    case AffineExprKind::CeilDiv:
    case AffineExprKind::Mod:
      if (!bin.getRHS().isSymbolicOrConstant())
        ok = false;
      break;
    default:
      break;
    }
  });
  return ok;
}

/// Input space -> storage: all `n` inputs become symbols.
static AffineExpr dimsToSymbols(AffineExpr e, unsigned n) {
  SmallVector<AffineExpr> syms;
  for (unsigned i = 0; i < n; ++i)
    syms.push_back(getAffineSymbolExpr(i, e.getContext()));
  return e.replaceDimsAndSymbols(syms, {});
}

AffineMap mlir::tir::makeInputMap(unsigned numInputs,
                                  ArrayRef<AffineExpr> exprs,
                                  MLIRContext *ctx) {
  if (llvm::all_of(exprs, isExpressibleOverDims))
    return AffineMap::get(numInputs, 0, exprs, ctx);
  SmallVector<AffineExpr> syms;
  for (AffineExpr e : exprs)
    syms.push_back(dimsToSymbols(e, numInputs));
  return AffineMap::get(0, numInputs, syms, ctx);
}

IntegerSet mlir::tir::makeInputSet(unsigned numInputs,
                                   ArrayRef<AffineExpr> constraints,
                                   ArrayRef<bool> eqFlags, MLIRContext *ctx) {
  if (llvm::all_of(constraints, isExpressibleOverDims))
    return IntegerSet::get(numInputs, 0, constraints, eqFlags);
  SmallVector<AffineExpr> syms;
  for (AffineExpr e : constraints)
    syms.push_back(dimsToSymbols(e, numInputs));
  return IntegerSet::get(0, numInputs, syms, eqFlags);
}

//===----------------------------------------------------------------------===//
// Regions
//===----------------------------------------------------------------------===//

RegionExprs mlir::tir::splitRegionMap(AffineMap map) {
  SmallVector<AffineExpr> exprs = getExprsOverInputs(map);
  RegionExprs region;
  unsigned rank = exprs.size() / 2;
  for (unsigned i = 0; i < rank; ++i) {
    region.starts.push_back(exprs[i]);
    region.extents.push_back(exprs[rank + i]);
  }
  return region;
}

AffineMap mlir::tir::buildRegionMap(unsigned numInputs,
                                    const RegionExprs &region,
                                    MLIRContext *ctx) {
  SmallVector<AffineExpr> results;
  for (AffineExpr e : region.starts)
    results.push_back(simplifyIndexExpr(e, numInputs, 0));
  for (AffineExpr e : region.extents)
    results.push_back(simplifyIndexExpr(e, numInputs, 0));
  return makeInputMap(numInputs, results, ctx);
}

//===----------------------------------------------------------------------===//
// Parsing
//===----------------------------------------------------------------------===//

unsigned IndexExprParser::intern(const UnresolvedOperand &name) {
  for (auto [i, existing] : llvm::enumerate(names))
    if (existing.name == name.name && existing.number == name.number)
      return i;
  names.push_back(name);
  return names.size() - 1;
}

ParseResult IndexExprParser::parseFactor(AffineExpr &expr) {
  MLIRContext *ctx = parser.getContext();
  if (succeeded(parser.parseOptionalMinus())) {
    AffineExpr inner;
    if (parseFactor(inner))
      return failure();
    expr = -inner;
    return success();
  }
  if (succeeded(parser.parseOptionalLParen())) {
    if (parseExpr(expr) || parser.parseRParen())
      return failure();
    return success();
  }
  if (succeeded(parser.parseOptionalKeyword("symbol"))) {
    UnresolvedOperand name;
    if (parser.parseLParen() || parser.parseOperand(name) ||
        parser.parseRParen())
      return failure();
    expr = getAffineDimExpr(intern(name), ctx);
    return success();
  }
  UnresolvedOperand name;
  OptionalParseResult hasName = parser.parseOptionalOperand(name);
  if (hasName.has_value()) {
    if (failed(*hasName))
      return failure();
    expr = getAffineDimExpr(intern(name), ctx);
    return success();
  }
  int64_t value;
  SMLoc loc = parser.getCurrentLocation();
  OptionalParseResult hasInt = parser.parseOptionalInteger(value);
  if (hasInt.has_value()) {
    if (failed(*hasInt))
      return failure();
    expr = getAffineConstantExpr(value, ctx);
    return success();
  }
  return parser.emitError(loc, "expected an index expression: an integer, "
                               "an SSA name, '-' or '('");
}

ParseResult IndexExprParser::parseTermRest(AffineExpr &expr) {
  while (true) {
    AffineExpr rhs;
    SMLoc loc = parser.getCurrentLocation();
    if (succeeded(parser.parseOptionalStar())) {
      if (parseFactor(rhs))
        return failure();
      expr = expr * rhs;
      continue;
    }
    StringRef op;
    if (succeeded(
            parser.parseOptionalKeyword(&op, {"floordiv", "ceildiv", "mod"}))) {
      if (parseFactor(rhs))
        return failure();
      if (auto c = dyn_cast<AffineConstantExpr>(rhs); c && c.getValue() <= 0)
        return parser.emitError(loc, "'") << op << "' by " << c.getValue()
                                          << "; the divisor must be positive";
      expr = op == "floordiv"  ? expr.floorDiv(rhs)
             : op == "ceildiv" ? expr.ceilDiv(rhs)
                               : expr % rhs;
      continue;
    }
    return success();
  }
}

ParseResult IndexExprParser::parseTerm(AffineExpr &expr) {
  if (parseFactor(expr))
    return failure();
  return parseTermRest(expr);
}

ParseResult IndexExprParser::parseExprRest(AffineExpr &expr) {
  while (true) {
    AffineExpr rhs;
    if (succeeded(parser.parseOptionalPlus())) {
      if (parseTerm(rhs))
        return failure();
      expr = expr + rhs;
    } else if (succeeded(parser.parseOptionalMinus())) {
      if (parseTerm(rhs))
        return failure();
      expr = expr - rhs;
    } else {
      return success();
    }
  }
}

ParseResult IndexExprParser::parseExpr(AffineExpr &expr) {
  if (parseTerm(expr))
    return failure();
  return parseExprRest(expr);
}

ParseResult IndexExprParser::parseRegion(RegionExprs &region) {
  auto parseOne = [&]() -> ParseResult {
    AffineExpr lo, hi;
    if (parseExpr(lo))
      return failure();
    if (succeeded(parser.parseOptionalColon())) {
      if (parseExpr(hi))
        return failure();
    } else {
      hi = lo + 1;
    }
    region.starts.push_back(lo);
    region.extents.push_back(hi - lo);
    return success();
  };
  if (parser.parseCommaSeparatedList(OpAsmParser::Delimiter::Square, parseOne))
    return failure();
  // The number of inputs is only known once every dimension has been seen.
  for (AffineExpr &e : region.extents)
    e = simplifyIndexExpr(e, names.size(), 0);
  return success();
}

ParseResult
IndexExprParser::parseIndexList(SmallVectorImpl<AffineExpr> &exprs) {
  return parser.parseCommaSeparatedList(OpAsmParser::Delimiter::Square,
                                        [&]() -> ParseResult {
                                          AffineExpr e;
                                          if (parseExpr(e))
                                            return failure();
                                          exprs.push_back(e);
                                          return success();
                                        });
}

SmallVector<Conjunction>
mlir::tir::conjoinConditions(ArrayRef<Conjunction> lhs,
                             ArrayRef<Conjunction> rhs) {
  SmallVector<Conjunction> out;
  for (const Conjunction &a : lhs)
    for (const Conjunction &b : rhs) {
      Conjunction c = a;
      c.constraints.append(b.constraints);
      c.eqFlags.append(b.eqFlags);
      out.push_back(std::move(c));
    }
  return out;
}

SmallVector<Conjunction> mlir::tir::negateCondition(ArrayRef<Conjunction> dnf) {
  SmallVector<Conjunction> acc(1); // true
  for (const Conjunction &c : dnf) {
    SmallVector<Conjunction> negated;
    for (auto [e, eq] : llvm::zip(c.constraints, c.eqFlags)) {
      auto single = [&](AffineExpr x) {
        Conjunction n;
        n.constraints.push_back(x);
        n.eqFlags.push_back(false);
        negated.push_back(std::move(n));
      };
      if (eq) {
        single(e - 1);
        single(-e - 1);
      } else {
        single(-e - 1);
      }
    }
    // not (true) = false: an empty disjunction.
    acc = conjoinConditions(acc, negated);
  }
  return acc;
}

Conjunction mlir::tir::compareIndexExprs(IndexComparison cmp, AffineExpr lhs,
                                         AffineExpr rhs) {
  // a < b  <=>  b - a - 1 >= 0, and so on.
  Conjunction c;
  c.eqFlags.push_back(cmp == IndexComparison::EQ);
  switch (cmp) {
  case IndexComparison::LT:
    c.constraints.push_back(rhs - lhs - 1);
    break;
  case IndexComparison::LE:
    c.constraints.push_back(rhs - lhs);
    break;
  case IndexComparison::GT:
    c.constraints.push_back(lhs - rhs - 1);
    break;
  case IndexComparison::GE:
  case IndexComparison::EQ:
    c.constraints.push_back(lhs - rhs);
    break;
  }
  return c;
}

ParseResult IndexExprParser::parseAndTail(SmallVectorImpl<Conjunction> &acc) {
  while (succeeded(parser.parseOptionalKeyword("and")) ||
         succeeded(parser.parseOptionalComma())) {
    SmallVector<Conjunction> rhs;
    if (parseUnary(rhs))
      return failure();
    SmallVector<Conjunction> joined = conjoinConditions(acc, rhs);
    acc.assign(joined.begin(), joined.end());
  }
  return success();
}

ParseResult IndexExprParser::parseOrTail(SmallVectorImpl<Conjunction> &acc) {
  if (parseAndTail(acc))
    return failure();
  while (succeeded(parser.parseOptionalKeyword("or"))) {
    SmallVector<Conjunction> rhs;
    if (parseUnary(rhs) || parseAndTail(rhs))
      return failure();
    acc.append(rhs.begin(), rhs.end());
  }
  return success();
}

ParseResult IndexExprParser::parseNegated(SmallVectorImpl<Conjunction> &out) {
  SmallVector<Conjunction> inner;
  if (parseUnary(inner))
    return failure();
  SmallVector<Conjunction> n = negateCondition(inner);
  out.append(n.begin(), n.end());
  return success();
}

ParseResult IndexExprParser::parseUnary(SmallVectorImpl<Conjunction> &out) {
  if (succeeded(parser.parseOptionalKeyword("not")))
    return parseNegated(out);
  AffineExpr lhs;
  if (succeeded(parser.parseOptionalLParen())) {
    bool isCondition;
    SmallVector<Conjunction> cond;
    if (parseParenthesized(isCondition, lhs, cond))
      return failure();
    if (isCondition) {
      out.append(cond.begin(), cond.end());
      return success();
    }
    // `(e) * 2 + 1 < n`: finish the expression, then compare.
    if (parseTermRest(lhs) || parseExprRest(lhs))
      return failure();
  } else if (parseExpr(lhs)) {
    return failure();
  }
  return parseComparisonRest(lhs, out);
}

ParseResult
IndexExprParser::parseParenthesized(bool &isCondition, AffineExpr &expr,
                                    SmallVectorImpl<Conjunction> &cond) {
  // After '(': either an index expression `(e)` or a condition `(c)`.
  isCondition = true;
  if (succeeded(parser.parseOptionalKeyword("not"))) {
    if (parseNegated(cond) || parseOrTail(cond))
      return failure();
    return parser.parseRParen();
  }
  if (succeeded(parser.parseOptionalLParen())) {
    bool innerIsCondition;
    SmallVector<Conjunction> inner;
    if (parseParenthesized(innerIsCondition, expr, inner))
      return failure();
    if (innerIsCondition) {
      cond.append(inner.begin(), inner.end());
      if (parseOrTail(cond))
        return failure();
      return parser.parseRParen();
    }
    if (parseTermRest(expr) || parseExprRest(expr))
      return failure();
  } else if (parseExpr(expr)) {
    return failure();
  }
  if (succeeded(parser.parseOptionalRParen())) {
    isCondition = false;
    return success();
  }
  if (parseComparisonRest(expr, cond) || parseOrTail(cond))
    return failure();
  return parser.parseRParen();
}

ParseResult
IndexExprParser::parseComparisonRest(AffineExpr lhs,
                                     SmallVectorImpl<Conjunction> &out) {
  IndexComparison cmp;
  SMLoc loc = parser.getCurrentLocation();
  if (succeeded(parser.parseOptionalLess()))
    cmp = succeeded(parser.parseOptionalEqual()) ? IndexComparison::LE
                                                 : IndexComparison::LT;
  else if (succeeded(parser.parseOptionalGreater()))
    cmp = succeeded(parser.parseOptionalEqual()) ? IndexComparison::GE
                                                 : IndexComparison::GT;
  else if (succeeded(parser.parseOptionalEqual())) {
    if (parser.parseEqual())
      return failure();
    cmp = IndexComparison::EQ;
  } else
    return parser.emitError(loc, "expected a comparison (<, <=, >, >=, ==)");
  AffineExpr rhs;
  if (parseExpr(rhs))
    return failure();
  Conjunction c = compareIndexExprs(cmp, lhs, rhs);
  out.push_back(std::move(c));
  return success();
}

ParseResult
IndexExprParser::parseCondition(SmallVectorImpl<Conjunction> &disjuncts) {
  SmallVector<Conjunction> acc;
  if (parseUnary(acc) || parseOrTail(acc))
    return failure();
  for (Conjunction &c : acc)
    for (AffineExpr &e : c.constraints)
      e = simplifyIndexExpr(e, names.size(), 0);
  disjuncts.append(acc.begin(), acc.end());
  return success();
}

//===----------------------------------------------------------------------===//
// Printing
//===----------------------------------------------------------------------===//

namespace {
/// Prints input-space expressions TVMScript-style: `a * 4 + b - 1`,
/// `(a + b) floordiv 4`, no `symbol(...)`.
class ExprPrinter {
public:
  ExprPrinter(OpAsmPrinter &p, ValueRange inputs) : p(p), inputs(inputs) {}

  enum Prec { Sum = 0, Product = 1, Atom = 2 };

  void print(AffineExpr e, Prec context = Sum) {
    switch (e.getKind()) {
    case AffineExprKind::Constant: {
      int64_t v = cast<AffineConstantExpr>(e).getValue();
      if (v < 0 && context != Sum)
        p << '(' << v << ')';
      else
        p << v;
      return;
    }
    case AffineExprKind::DimId:
      p.printOperand(inputs[cast<AffineDimExpr>(e).getPosition()]);
      return;
    case AffineExprKind::SymbolId:
      p << "<symbol " << cast<AffineSymbolExpr>(e).getPosition() << '>';
      return;
    case AffineExprKind::Add: {
      bool paren = context != Sum;
      if (paren)
        p << '(';
      printSum(e);
      if (paren)
        p << ')';
      return;
    }
    default:
      break;
    }
    auto bin = cast<AffineBinaryOpExpr>(e);
    bool paren = context == Atom;
    if (paren)
      p << '(';
    if (e.getKind() == AffineExprKind::Mul) {
      auto c = dyn_cast<AffineConstantExpr>(bin.getRHS());
      if (c && c.getValue() == -1) {
        p << '-';
        print(bin.getLHS(), Atom);
      } else {
        print(bin.getLHS(), Product);
        p << " * ";
        print(bin.getRHS(), Atom);
      }
    } else {
      // `(a floordiv 4) mod 3` rather than `a floordiv 4 mod 3`.
      print(bin.getLHS(),
            isa<AffineBinaryOpExpr>(bin.getLHS()) ? Atom : Product);
      p << (e.getKind() == AffineExprKind::FloorDiv  ? " floordiv "
            : e.getKind() == AffineExprKind::CeilDiv ? " ceildiv "
                                                     : " mod ");
      print(bin.getRHS(), Atom);
    }
    if (paren)
      p << ')';
  }

private:
  /// Flattens a sum and prints negative terms with '-'.
  void printSum(AffineExpr e) {
    SmallVector<AffineExpr> terms;
    collect(e, terms);
    for (auto [i, t] : llvm::enumerate(terms)) {
      AffineExpr positive;
      if (isNegative(t, positive)) {
        p << (i ? " - " : "-");
        print(positive, i ? Product : Atom);
        continue;
      }
      if (i)
        p << " + ";
      print(t, Product);
    }
  }

  static void collect(AffineExpr e, SmallVectorImpl<AffineExpr> &terms) {
    if (e.getKind() == AffineExprKind::Add) {
      auto bin = cast<AffineBinaryOpExpr>(e);
      collect(bin.getLHS(), terms);
      collect(bin.getRHS(), terms);
      return;
    }
    terms.push_back(e);
  }

  /// Whether `t` is `-x` (a negative constant, or a product with a negative
  /// constant factor); `positive` is x.
  static bool isNegative(AffineExpr t, AffineExpr &positive) {
    if (auto c = dyn_cast<AffineConstantExpr>(t)) {
      if (c.getValue() >= 0)
        return false;
      positive = getAffineConstantExpr(-c.getValue(), t.getContext());
      return true;
    }
    if (t.getKind() != AffineExprKind::Mul)
      return false;
    auto bin = cast<AffineBinaryOpExpr>(t);
    auto c = dyn_cast<AffineConstantExpr>(bin.getRHS());
    if (!c || c.getValue() >= 0)
      return false;
    positive = c.getValue() == -1 ? bin.getLHS() : bin.getLHS() * -c.getValue();
    return true;
  }

  OpAsmPrinter &p;
  ValueRange inputs;
};
} // namespace

void mlir::tir::printIndexExpr(OpAsmPrinter &p, AffineExpr expr,
                               ValueRange inputs) {
  ExprPrinter(p, inputs).print(expr);
}

void mlir::tir::printRegion(OpAsmPrinter &p, AffineMap regionMap,
                            ValueRange inputs) {
  RegionExprs region = splitRegionMap(regionMap);
  unsigned n = regionMap.getNumInputs();
  p << '[';
  for (unsigned i = 0, e = region.starts.size(); i < e; ++i) {
    if (i)
      p << ", ";
    printIndexExpr(p, region.starts[i], inputs);
    auto ext = dyn_cast<AffineConstantExpr>(region.extents[i]);
    if (ext && ext.getValue() == 1)
      continue;
    p << " : ";
    printIndexExpr(
        p, simplifyIndexExpr(region.starts[i] + region.extents[i], n, 0),
        inputs);
  }
  p << ']';
}

void mlir::tir::printIndexList(OpAsmPrinter &p, AffineMap map,
                               ValueRange inputs) {
  p << '[';
  llvm::interleaveComma(getExprsOverInputs(map), p,
                        [&](AffineExpr e) { printIndexExpr(p, e, inputs); });
  p << ']';
}

/// Splits the top-level sum `e` into its constant and the other terms.
static void splitConstant(AffineExpr e, SmallVectorImpl<AffineExpr> &terms,
                          int64_t &constant) {
  if (e.getKind() == AffineExprKind::Add) {
    auto bin = cast<AffineBinaryOpExpr>(e);
    splitConstant(bin.getLHS(), terms, constant);
    splitConstant(bin.getRHS(), terms, constant);
    return;
  }
  if (auto c = dyn_cast<AffineConstantExpr>(e)) {
    constant += c.getValue();
    return;
  }
  terms.push_back(e);
}

static bool isNegativeTerm(AffineExpr e) {
  if (e.getKind() != AffineExprKind::Mul)
    return false;
  auto c = dyn_cast<AffineConstantExpr>(cast<AffineBinaryOpExpr>(e).getRHS());
  return c && c.getValue() < 0;
}

/// Prints `c >= 0` / `c == 0` as a comparison that reads naturally:
/// `x < 10` rather than `-x + 9 >= 0`.
static void printConstraint(OpAsmPrinter &p, AffineExpr c, bool eq,
                            unsigned numInputs, ValueRange inputs) {
  MLIRContext *ctx = c.getContext();
  SmallVector<AffineExpr> terms;
  int64_t constant = 0;
  splitConstant(c, terms, constant);
  AffineExpr rest = getAffineConstantExpr(0, ctx);
  for (AffineExpr t : terms)
    rest = rest + t;
  AffineExpr negatives = getAffineConstantExpr(0, ctx);
  AffineExpr positives = getAffineConstantExpr(0, ctx);
  bool anyNegative = false, anyPositive = false;
  for (AffineExpr t : terms) {
    if (isNegativeTerm(t)) {
      negatives = negatives - t;
      anyNegative = true;
    } else {
      positives = positives + t;
      anyPositive = true;
    }
  }
  auto simplify = [&](AffineExpr x) {
    return simplifyIndexExpr(x, numInputs, 0);
  };
  if (eq) {
    // rest + c == 0  <=>  rest == -c
    printIndexExpr(p, simplify(rest), inputs);
    p << " == " << -constant;
  } else if (anyNegative && !anyPositive) {
    // -n + c >= 0  <=>  n < c + 1
    printIndexExpr(p, simplify(negatives), inputs);
    p << " < " << constant + 1;
  } else if (anyNegative) {
    // -n + q + c >= 0  <=>  n < q + c + 1 (TVM's `i0 * 16 + i1 < n`)
    printIndexExpr(p, simplify(negatives), inputs);
    p << " < ";
    printIndexExpr(p, simplify(positives + (constant + 1)), inputs);
  } else {
    // rest + c >= 0  <=>  rest >= -c
    printIndexExpr(p, simplify(rest), inputs);
    p << " >= " << -constant;
  }
}

void mlir::tir::printCondition(OpAsmPrinter &p, ArrayRef<IntegerSet> disjuncts,
                               ValueRange inputs) {
  bool parenthesize = disjuncts.size() > 1;
  for (auto [i, set] : llvm::enumerate(disjuncts)) {
    if (i)
      p << " or ";
    bool paren = parenthesize && set.getNumConstraints() > 1;
    if (paren)
      p << '(';
    SmallVector<AffineExpr> cs = getConstraintsOverInputs(set);
    for (auto [j, c] : llvm::enumerate(cs)) {
      if (j)
        p << " and ";
      printConstraint(p, c, set.isEq(j), set.getNumInputs(), inputs);
    }
    if (paren)
      p << ')';
  }
}
