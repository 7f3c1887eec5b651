//===- CanonicalFormDivision.cpp - division and modulo normal forms -------===//
//
// The part of the canonical forms (CanonicalForm.h) that puts floordiv,
// ceildiv and mod of index expressions in a normal form, with the ranges
// variables have where they are known.
//
//===----------------------------------------------------------------------===//

#include "CanonicalForm.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MathExtras.h"

#include <numeric>

using namespace mlir;
using namespace mlir::tir::detail;

/// The only atom of `a` when `a` is that atom exactly (coefficient 1, no
/// constant) and is an application of `name` to a constant positive divisor;
/// sets `divisor`.
static const Node *asDivAtom(const Node *a, StringRef name, int64_t &divisor) {
  if (a->value != 0 || a->children.size() != 1 || a->coeffs[0] != 1)
    return nullptr;
  const Node *atom = a->children[0];
  if (atom->kind != NodeKind::Apply || atom->str != name ||
      atom->children.size() != 2)
    return nullptr;
  std::optional<int64_t> c = atom->children[1]->getConstant();
  if (!c || *c <= 0)
    return nullptr;
  divisor = *c;
  return atom->children[0];
}

// Division and modulo by a positive constant d are put in a normal form
// with rules that hold for all integer values of the atoms (floor
// semantics):
//   floordiv(q * d + r, d) = q + floordiv(r, d)        (r's coefficients and
//   mod(q * d + r, d)      = mod(r, d)                  constant in [0, d))
//   ceildiv(x, d)          = floordiv(x + d - 1, d)
//   floordiv(floordiv(x, c), d)       = floordiv(x, c * d)
//   floordiv(mod(x, c * d), d)        = mod(floordiv(x, d), c)
//   mod(mod(x, c * d), d)             = mod(x, d)
//   mod(mod(x, c), d)                 = mod(x, c)          (c <= d)
// so that, e.g., the `(f mod 16384) floordiv 128` of one fuse and the
// `(f floordiv 128) mod 128` of another are one form. Other divisors
// (non-constant, zero, negative) leave an atom. The nesting rules are
// getIndexDigit's (TensorIR/Dialect/TIR/Arith/Digits.h), which
// simplifyIndexExpr applies too: both write nested divisions and
// remainders as the one digit `mod(floordiv(x, a), b)`.
//
// Where variables have ranges (loop and block variables of constant
// bounds), two more rules use them:
//   floordiv(x, d) = q, mod(x, d) = x - q * d   (x within [q * d, q * d + d))
//   floordiv(g * x + r, g * e) = floordiv(x, e),
//   mod(g * x + r, g * e) = g * mod(x, e) + r   (r within [0, g))
// so that a fused loop's `(f mod 48) floordiv 16` for f < 48 is
// `f floordiv 16`, and a split fused loop's `(128 * o + i) floordiv 100352`
// for i < 128 is `o floordiv 784`.

std::optional<std::pair<int64_t, int64_t>> NodeTable::getBounds(const Node *a) {
  using Bounds = std::pair<int64_t, int64_t>;
  auto atomBounds = [&](const Node *atom) -> std::optional<Bounds> {
    if (atom->kind == NodeKind::Var && atom->coeffs.size() == 2)
      return Bounds{atom->coeffs[0], atom->coeffs[1]};
    if (atom->kind != NodeKind::Apply || atom->children.size() != 2)
      return std::nullopt;
    std::optional<int64_t> c = atom->children[1]->getConstant();
    if (!c || *c <= 0)
      return std::nullopt;
    if (atom->str == "mod")
      return Bounds{0, *c - 1};
    if (atom->str == "floordiv") {
      std::optional<Bounds> x = getBounds(atom->children[0]);
      if (!x)
        return std::nullopt;
      return Bounds{llvm::divideFloorSigned(x->first, *c),
                    llvm::divideFloorSigned(x->second, *c)};
    }
    return std::nullopt;
  };
  a = asSum(a);
  int64_t lo = a->value, hi = a->value;
  for (auto [child, k] : llvm::zip(a->children, a->coeffs)) {
    std::optional<Bounds> b = atomBounds(child);
    if (!b)
      return std::nullopt;
    int64_t x, y;
    if (llvm::MulOverflow(k, b->first, x) || llvm::MulOverflow(k, b->second, y))
      return std::nullopt;
    if (x > y)
      std::swap(x, y);
    if (llvm::AddOverflow(lo, x, lo) || llvm::AddOverflow(hi, y, hi))
      return std::nullopt;
  }
  return Bounds{lo, hi};
}

/// The quotient of a by d when it is the same for all of a's values.
static std::optional<int64_t>
constantQuotient(std::optional<std::pair<int64_t, int64_t>> bounds, int64_t d) {
  if (!bounds)
    return std::nullopt;
  int64_t q = llvm::divideFloorSigned(bounds->first, d);
  if (q != llvm::divideFloorSigned(bounds->second, d))
    return std::nullopt;
  return q;
}

/// For a divisor d: a = g * x + r with g > 1 dividing d and r in [0, g)
/// (its variables' ranges say so), g the largest such common factor of d
/// and the coefficients of a's largest terms. Then floordiv(a, d) is
/// floordiv(x, d / g) and mod(a, d) is g * mod(x, d / g) + r.
std::optional<std::tuple<int64_t, const Node *, const Node *>>
NodeTable::factorOut(const Node *a, int64_t d) {
  SmallVector<std::pair<const Node *, int64_t>> terms;
  for (auto [child, k] : llvm::zip(a->children, a->coeffs))
    terms.push_back({child, k});
  if (terms.size() < 2)
    return std::nullopt;
  // Largest coefficients first; the rest is the remainder.
  llvm::sort(terms, [](const auto &x, const auto &y) {
    if (std::abs(x.second) != std::abs(y.second))
      return std::abs(x.second) > std::abs(y.second);
    return x.first->hash < y.first->hash;
  });
  std::optional<std::tuple<int64_t, const Node *, const Node *>> best;
  int64_t g = d;
  for (size_t k = 1; k < terms.size(); ++k) {
    g = std::gcd(g, std::abs(terms[k - 1].second));
    if (g <= 1)
      break;
    if (best && std::get<0>(*best) >= g)
      continue;
    const Node *r = getSum(a->value, ArrayRef(terms).drop_front(k));
    std::optional<std::pair<int64_t, int64_t>> bounds = getBounds(r);
    if (!bounds || bounds->first < 0 || bounds->second >= g)
      continue;
    SmallVector<std::pair<const Node *, int64_t>> scaled;
    for (auto [child, coeff] : ArrayRef(terms).take_front(k))
      scaled.push_back({child, coeff / g});
    best = std::make_tuple(g, getSum(0, scaled), r);
  }
  return best;
}

const Node *NodeTable::floorDiv(const Node *a, const Node *b) {
  a = asSum(a);
  b = asSum(b);
  std::optional<int64_t> divisor = b->getConstant();
  if (!divisor || *divisor <= 0)
    return atom(apply("floordiv", {a, b}));
  int64_t d = *divisor;
  // Within one multiple of d (its variables' ranges say so): a constant.
  if (std::optional<int64_t> q = constantQuotient(getBounds(a), d))
    return constant(*q);
  if (auto factored = factorOut(a, d))
    return floorDiv(std::get<1>(*factored),
                    constant(d / std::get<0>(*factored)));
  int64_t inner;
  if (const Node *x = asDivAtom(a, "floordiv", inner)) {
    int64_t product;
    if (!llvm::MulOverflow(inner, d, product))
      return floorDiv(x, constant(product));
  }
  if (const Node *x = asDivAtom(a, "mod", inner); x && inner % d == 0)
    return mod(floorDiv(x, b), constant(inner / d));
  // Split a into d * quotient + remainder.
  SmallVector<std::pair<const Node *, int64_t>> quotient, remainder;
  for (auto [child, k] : llvm::zip(a->children, a->coeffs)) {
    int64_t q = llvm::divideFloorSigned(k, d);
    if (q != 0)
      quotient.push_back({child, q});
    if (k - q * d != 0)
      remainder.push_back({child, k - q * d});
  }
  int64_t q0 = llvm::divideFloorSigned(a->value, d);
  const Node *q = getSum(q0, quotient);
  if (remainder.empty())
    return q;
  const Node *r = getSum(a->value - q0 * d, remainder);
  if (std::optional<int64_t> rq = constantQuotient(getBounds(r), d))
    return add(q, constant(*rq));
  return add(q, atom(apply("floordiv", {r, b})));
}

const Node *NodeTable::ceilDiv(const Node *a, const Node *b) {
  // ceildiv(a, b) is floordiv(a + b - 1, b) for the positive divisors index
  // arithmetic has (TVM writes it either way).
  std::optional<int64_t> divisor = asSum(b)->getConstant();
  if (divisor && *divisor <= 0)
    return atom(apply("ceildiv", {asSum(a), asSum(b)}));
  return floorDiv(add(add(a, b), constant(-1)), b);
}

const Node *NodeTable::mod(const Node *a, const Node *b) {
  a = asSum(a);
  b = asSum(b);
  std::optional<int64_t> divisor = b->getConstant();
  if (!divisor || *divisor <= 0)
    return atom(apply("mod", {a, b}));
  int64_t d = *divisor;
  // Within one multiple of d: a minus that multiple.
  if (std::optional<int64_t> q = constantQuotient(getBounds(a), d))
    return add(a, constant(-*q * d));
  if (auto factored = factorOut(a, d)) {
    auto [g, x, r] = *factored;
    return add(scale(mod(x, constant(d / g)), g), r);
  }
  int64_t inner;
  if (const Node *x = asDivAtom(a, "mod", inner)) {
    if (inner % d == 0)
      return mod(x, b);
    if (inner <= d)
      return a;
  }
  SmallVector<std::pair<const Node *, int64_t>> remainder;
  for (auto [child, k] : llvm::zip(a->children, a->coeffs))
    if (int64_t r = llvm::mod(k, d); r != 0)
      remainder.push_back({child, r});
  int64_t r0 = a->value - llvm::divideFloorSigned(a->value, d) * d;
  if (remainder.empty())
    return constant(r0);
  const Node *r = getSum(r0, remainder);
  if (std::optional<int64_t> q = constantQuotient(getBounds(r), d))
    return add(r, constant(-*q * d));
  return atom(apply("mod", {r, b}));
}
