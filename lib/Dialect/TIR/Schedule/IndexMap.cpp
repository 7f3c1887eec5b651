//===- IndexMap.cpp - TVM's IndexMap over affine maps ---------------------===//

#include "IndexMap.h"

#include "TensorIR/Dialect/TIR/Arith/AffineTerms.h"
#include "TensorIR/Dialect/TIR/Arith/Digits.h"
#include "TensorIR/Dialect/TIR/Arith/Interval.h"
#include "TensorIR/Dialect/TIR/Arith/Simplify.h"
#include "TensorIR/Dialect/TIR/IR/TIRIndexExpr.h"

#include "mlir/IR/AffineExprVisitor.h"

using namespace mlir;
using namespace mlir::tir;
using namespace mlir::tir::sched;

/// The ranges of the map's inputs: [0, extent) each.
static SmallVector<std::optional<Interval>>
inputRanges(ArrayRef<int64_t> extents) {
  SmallVector<std::optional<Interval>> ranges;
  for (int64_t e : extents)
    ranges.push_back(Interval{0, e - 1});
  return ranges;
}

FailureOr<SmallVector<int64_t>>
mlir::tir::sched::getMappedShape(AffineMap map, ArrayRef<int64_t> extents,
                                 Refusal &why) {
  SmallVector<std::optional<Interval>> ranges = inputRanges(extents);
  SmallVector<int64_t> shape;
  for (auto [k, e] : llvm::enumerate(map.getResults())) {
    std::optional<Interval> range = evaluateRange(e, ranges);
    if (!range) {
      why.message =
          "result " + std::to_string(k) + " of the index map is unbounded";
      return failure();
    }
    if (range->lo < 0) {
      why.message = "result " + std::to_string(k) +
                    " of the index map can be negative (it reaches " +
                    std::to_string(range->lo) + ")";
      return failure();
    }
    shape.push_back(range->hi + 1);
  }
  return shape;
}

namespace {
/// `((d + offset) floordiv lower) mod extent`, the extent no more than
/// the values the division takes.
struct Piece {
  unsigned input;
  int64_t lower;
  int64_t extent;
  int64_t offset = 0;
};
/// A piece times `scale` in a result.
struct Term {
  Piece piece;
  int64_t scale;
  unsigned result;
};
} // namespace

static int64_t ceilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

/// `e` without the mods that cut nothing of their operand's range (the
/// inputs over [0, extent)): `(i mod 12) floordiv 8` is `i floordiv 8`
/// for i in [0, 12).
static AffineExpr dropIdleMods(AffineExpr e,
                               ArrayRef<std::optional<Interval>> ranges) {
  auto bin = dyn_cast<AffineBinaryOpExpr>(e);
  if (!bin)
    return e;
  AffineExpr lhs = dropIdleMods(bin.getLHS(), ranges);
  AffineExpr rhs = dropIdleMods(bin.getRHS(), ranges);
  if (e.getKind() == AffineExprKind::Mod)
    if (auto m = dyn_cast<AffineConstantExpr>(rhs); m && m.getValue() > 0)
      if (std::optional<Interval> r = evaluateRange(lhs, ranges);
          r && r->lo >= 0 && r->hi < m.getValue())
        return lhs;
  if (lhs == bin.getLHS() && rhs == bin.getRHS())
    return e;
  return getAffineBinaryOpExpr(e.getKind(), lhs, rhs);
}

/// `e` as a piece: a digit (getIndexDigit) of an input, or of an input
/// shifted by a constant (`(i + 1) floordiv 8`: values over [c, c +
/// extent)), once mods that cut nothing of its range are dropped.
static std::optional<Piece>
parsePiece(AffineExpr e, ArrayRef<int64_t> extents,
           ArrayRef<std::optional<Interval>> ranges) {
  IndexDigit digit = getIndexDigit(dropIdleMods(e, ranges));
  AffineTerms base = AffineTerms::get(digit.base);
  if (base.terms.size() != 1 || base.terms.front().second != 1 ||
      base.constant < 0)
    return std::nullopt;
  auto d = dyn_cast<AffineDimExpr>(base.terms.front().first);
  if (!d)
    return std::nullopt;
  unsigned input = d.getPosition();
  int64_t values = ceilDiv(extents[input] + base.constant, digit.divisor);
  int64_t extent = digit.extent ? std::min(*digit.extent, values) : values;
  return Piece{input, digit.divisor, extent, base.constant};
}

/// Result `result`, `e`, as a sum of scaled pieces (each with a positive
/// scale) plus a constant.
static bool parseSum(AffineExpr e, unsigned result, ArrayRef<int64_t> extents,
                     ArrayRef<std::optional<Interval>> ranges,
                     SmallVectorImpl<Term> &terms, int64_t &constant) {
  AffineTerms sum = AffineTerms::get(e);
  constant = sum.constant;
  for (auto [term, scale] : sum.terms) {
    std::optional<Piece> p = parsePiece(term, extents, ranges);
    if (!p || scale <= 0)
      return false;
    if (p->extent > 1)
      terms.push_back({*p, scale, result});
  }
  return true;
}

FailureOr<IndexMapAnalysis>
mlir::tir::sched::analyzeIndexMap(AffineMap map, ArrayRef<int64_t> extents,
                                  Refusal &why) {
  MLIRContext *ctx = map.getContext();
  IndexMapAnalysis result;
  FailureOr<SmallVector<int64_t>> shape = getMappedShape(map, extents, why);
  if (failed(shape))
    return failure();
  result.shape = *shape;
  unsigned numResults = map.getNumResults();
  unsigned numInputs = map.getNumDims();
  SmallVector<Term> terms;
  SmallVector<int64_t> constants(numResults, 0);
  SmallVector<std::optional<Interval>> ranges = inputRanges(extents);
  result.inputsOf.resize(numResults);
  for (auto [k, e] : llvm::enumerate(map.getResults())) {
    for (unsigned d = 0; d < numInputs; ++d)
      if (e.isFunctionOfDim(d))
        result.inputsOf[k].push_back(d);
    if (!parseSum(e, k, extents, ranges, terms, constants[k])) {
      why.message =
          "result " + std::to_string(k) +
          " of the index map is not a sum of scaled pieces of the indices "
          "(`d`, `d floordiv c`, `d mod c`)";
      return failure();
    }
  }
  bool exact = true;
  result.inputPadded.assign(numInputs, false);
  result.inputOffset.assign(numInputs, 0);
  // Within a result, terms in mixed radix: each scale at least the span of
  // the ones below (exactly, for no gap).
  SmallVector<SmallVector<Term *>> byResult(numResults);
  for (Term &t : terms)
    byResult[t.result].push_back(&t);
  for (unsigned k = 0; k < numResults; ++k) {
    auto &list = byResult[k];
    llvm::sort(list, [](Term *a, Term *b) { return a->scale < b->scale; });
    int64_t span = 1;
    for (Term *t : list) {
      if (t->scale < span) {
        why.message = "result " + std::to_string(k) +
                      " of the index map sends two indices to the same value";
        return failure();
      }
      exact &= t->scale == span;
      span = t->scale * t->piece.extent;
    }
    exact &= constants[k] == 0;
  }
  result.resultsExact = exact;
  // Within an input, the pieces tile it: lower factors 1, e0, e0 * e1, ...
  SmallVector<SmallVector<Term *>> byInput(numInputs);
  for (Term &t : terms)
    byInput[t.piece.input].push_back(&t);
  for (unsigned d = 0; d < numInputs; ++d) {
    auto &list = byInput[d];
    llvm::sort(
        list, [](Term *a, Term *b) { return a->piece.lower < b->piece.lower; });
    int64_t covered = 1;
    int64_t offset = list.empty() ? 0 : list.front()->piece.offset;
    for (Term *t : list) {
      if (t->piece.offset != offset) {
        why.message = "the index map splits index " + std::to_string(d) +
                      " shifted by different constants";
        return failure();
      }
      if (t->piece.lower != covered) {
        why.message =
            "the index map " +
            std::string(t->piece.lower > covered ? "loses part of"
                                                 : "uses twice part of") +
            " index " + std::to_string(d);
        return failure();
      }
      covered *= t->piece.extent;
    }
    if (covered < extents[d] + offset) {
      why.message = "the index map loses part of index " + std::to_string(d);
      return failure();
    }
    // A shifted index leaves the values below its shift unused.
    bool whole = covered == extents[d] && offset == 0;
    exact &= whole;
    result.inputPadded[d] = !whole;
    result.inputOffset[d] = offset;
  }
  result.bijective = exact;
  result.pads = !exact;

  // The inverse: each input as the sum of its pieces, each read back from
  // its result.
  for (unsigned d = 0; d < numInputs; ++d) {
    // A unit input that a result is exactly reads that result (always 0),
    // as TVM keeps unit variables.
    if (byInput[d].empty()) {
      AffineExpr same = getAffineConstantExpr(0, ctx);
      for (auto [k, e] : llvm::enumerate(map.getResults()))
        if (e == getAffineDimExpr(d, ctx))
          same = getAffineDimExpr(k, ctx);
      result.inverse.push_back(same);
      continue;
    }
    AffineExpr sum = getAffineConstantExpr(0, ctx);
    for (Term *t : byInput[d]) {
      unsigned k = t->result;
      AffineExpr r = getAffineDimExpr(k, ctx) - constants[k];
      bool isTop = byResult[k].back() == t;
      int64_t s = t->scale, e = t->piece.extent;
      AffineExpr value = isTop ? (s == 1 ? r : r.floorDiv(s))
                               : (s == 1 ? r % e : (r % (s * e)).floorDiv(s));
      sum = sum + value * t->piece.lower;
    }
    result.inverse.push_back(
        simplifyIndexExpr(sum - result.inputOffset[d], numResults, 0));
  }
  return result;
}

//===----------------------------------------------------------------------===//
// Symbolic extents
//===----------------------------------------------------------------------===//

namespace {
/// Bounds [lo, hi] of an expression, over symbols.
struct SymbolicBound {
  AffineExpr lo, hi;
};
} // namespace

/// Whether `e` (over symbols, each non-negative) is non-negative.
static bool isKnownNonNegative(AffineExpr e) {
  if (auto c = dyn_cast<AffineConstantExpr>(e))
    return c.getValue() >= 0;
  if (isa<AffineSymbolExpr>(e))
    return true;
  auto bin = dyn_cast<AffineBinaryOpExpr>(e);
  if (!bin)
    return false;
  switch (e.getKind()) {
  case AffineExprKind::Add:
  case AffineExprKind::Mul:
    return isKnownNonNegative(bin.getLHS()) && isKnownNonNegative(bin.getRHS());
  case AffineExprKind::FloorDiv:
  case AffineExprKind::CeilDiv:
    return isKnownNonNegative(bin.getLHS());
  default:
    return true;
  }
}

/// Bounds of `e` with dimension i in `dims[i]`, symbols as themselves.
static std::optional<SymbolicBound>
boundOf(AffineExpr e, ArrayRef<SymbolicBound> dims, unsigned numSymbols) {
  auto simplify = [&](AffineExpr x) {
    return simplifyAffineExpr(x, 0, numSymbols);
  };
  if (auto d = dyn_cast<AffineDimExpr>(e))
    return dims[d.getPosition()];
  if (isa<AffineSymbolExpr, AffineConstantExpr>(e))
    return SymbolicBound{e, e};
  auto bin = cast<AffineBinaryOpExpr>(e);
  std::optional<SymbolicBound> l = boundOf(bin.getLHS(), dims, numSymbols);
  std::optional<SymbolicBound> r = boundOf(bin.getRHS(), dims, numSymbols);
  if (!l || !r)
    return std::nullopt;
  switch (e.getKind()) {
  case AffineExprKind::Add:
    return SymbolicBound{simplify(l->lo + r->lo), simplify(l->hi + r->hi)};
  case AffineExprKind::Mul: {
    if (auto c = dyn_cast<AffineConstantExpr>(bin.getRHS())) {
      if (c.getValue() >= 0)
        return SymbolicBound{simplify(l->lo * c), simplify(l->hi * c)};
      return SymbolicBound{simplify(l->hi * c), simplify(l->lo * c)};
    }
    if (!isKnownNonNegative(l->lo) || !isKnownNonNegative(r->lo))
      return std::nullopt;
    return SymbolicBound{simplify(l->lo * r->lo), simplify(l->hi * r->hi)};
  }
  case AffineExprKind::FloorDiv:
  case AffineExprKind::CeilDiv: {
    // A positive divisor (a constant above 0, or runtime values).
    auto c = dyn_cast<AffineConstantExpr>(r->lo);
    if ((c && c.getValue() <= 0) || !isKnownNonNegative(l->lo))
      return std::nullopt;
    if (e.getKind() == AffineExprKind::FloorDiv)
      return SymbolicBound{simplify(l->lo.floorDiv(r->hi)),
                           simplify(l->hi.floorDiv(r->lo))};
    return SymbolicBound{simplify(l->lo.ceilDiv(r->hi)),
                         simplify(l->hi.ceilDiv(r->lo))};
  }
  default: {
    // mod m: within [0, m - 1]; the value itself where it is below m.
    auto c = dyn_cast<AffineConstantExpr>(r->lo);
    if (c && c.getValue() <= 0)
      return std::nullopt;
    auto lo = dyn_cast<AffineConstantExpr>(l->lo);
    auto hi = dyn_cast<AffineConstantExpr>(l->hi);
    if (c && lo && hi && lo.getValue() >= 0 && hi.getValue() < c.getValue())
      return *l;
    return SymbolicBound{getAffineConstantExpr(0, e.getContext()),
                         simplify(r->hi - 1)};
  }
  }
}

FailureOr<SmallVector<AffineExpr>>
sched::getSymbolicMappedShape(AffineMap map, ArrayRef<AffineExpr> extents,
                              Refusal &why) {
  MLIRContext *ctx = map.getContext();
  unsigned numSymbols = map.getNumSymbols();
  SmallVector<SymbolicBound> dims;
  for (AffineExpr extent : extents)
    dims.push_back({getAffineConstantExpr(0, ctx),
                    simplifyAffineExpr(extent - 1, 0, numSymbols)});
  SmallVector<AffineExpr> shape;
  for (auto [k, result] : llvm::enumerate(map.getResults())) {
    std::optional<SymbolicBound> b = boundOf(result, dims, numSymbols);
    if (!b) {
      why.message =
          "result " + std::to_string(k) + " of the index map cannot be bounded";
      return failure();
    }
    if (!isKnownNonNegative(b->lo)) {
      why.message =
          "result " + std::to_string(k) + " of the index map can be negative";
      return failure();
    }
    shape.push_back(simplifyAffineExpr(b->hi + 1, 0, numSymbols));
  }
  return shape;
}
