//===- AffineTerms.cpp - index expressions as sums of terms ---------------===//

#include "TensorIR/Dialect/TIR/Arith/AffineTerms.h"
#include "TensorIR/Dialect/TIR/Arith/Simplify.h"

#include "mlir/IR/AffineExprVisitor.h"

using namespace mlir;
using namespace mlir::tir;

/// Wrapping arithmetic: coefficients that overflow int64 are meaningless
/// anyway, but must not be undefined behaviour.
static int64_t wrapMul(int64_t a, int64_t b) {
  return static_cast<int64_t>(static_cast<uint64_t>(a) *
                              static_cast<uint64_t>(b));
}
static int64_t wrapAdd(int64_t a, int64_t b) {
  return static_cast<int64_t>(static_cast<uint64_t>(a) +
                              static_cast<uint64_t>(b));
}

/// Appends `e * scale` to `out`.
static void collect(AffineExpr e, int64_t scale, AffineTerms &out) {
  if (auto c = dyn_cast<AffineConstantExpr>(e)) {
    out.constant = wrapAdd(out.constant, wrapMul(c.getValue(), scale));
    return;
  }
  if (e.getKind() == AffineExprKind::Add) {
    auto bin = cast<AffineBinaryOpExpr>(e);
    collect(bin.getLHS(), scale, out);
    collect(bin.getRHS(), scale, out);
    return;
  }
  if (e.getKind() == AffineExprKind::Mul) {
    auto bin = cast<AffineBinaryOpExpr>(e);
    if (auto k = dyn_cast<AffineConstantExpr>(bin.getRHS())) {
      collect(bin.getLHS(), wrapMul(scale, k.getValue()), out);
      return;
    }
    if (auto k = dyn_cast<AffineConstantExpr>(bin.getLHS())) {
      collect(bin.getRHS(), wrapMul(scale, k.getValue()), out);
      return;
    }
  }
  auto *it = llvm::find_if(out.terms, [&](auto &t) { return t.first == e; });
  if (it == out.terms.end())
    out.terms.push_back({e, scale});
  else
    it->second = wrapAdd(it->second, scale);
}

static void dropZeros(AffineTerms &t) {
  llvm::erase_if(t.terms, [](auto &term) { return term.second == 0; });
}

AffineTerms AffineTerms::get(AffineExpr e) {
  AffineTerms result;
  collect(e, 1, result);
  dropZeros(result);
  return result;
}

int64_t AffineTerms::getCoefficient(AffineExpr term) const {
  for (auto [t, k] : terms)
    if (t == term)
      return k;
  return 0;
}

std::optional<int64_t> AffineTerms::getDimCoefficient(unsigned pos) const {
  int64_t coefficient = 0;
  for (auto [t, k] : terms) {
    if (auto d = dyn_cast<AffineDimExpr>(t)) {
      if (d.getPosition() == pos)
        coefficient = k;
      continue;
    }
    if (t.isFunctionOfDim(pos))
      return std::nullopt;
  }
  return coefficient;
}

void AffineTerms::add(const AffineTerms &other, int64_t scale) {
  constant = wrapAdd(constant, wrapMul(other.constant, scale));
  for (const auto &[t, k] : other.terms) {
    AffineExpr term = t;
    auto *it = llvm::find_if(terms, [&](auto &x) { return x.first == term; });
    if (it == terms.end())
      terms.push_back({t, wrapMul(k, scale)});
    else
      it->second = wrapAdd(it->second, wrapMul(k, scale));
  }
  dropZeros(*this);
}

AffineTerms
AffineTerms::filter(function_ref<bool(AffineExpr term)> keep) const {
  AffineTerms result;
  for (auto [t, k] : terms)
    if (keep(t))
      result.terms.push_back({t, k});
  return result;
}

AffineTerms AffineTerms::sorted() const {
  AffineTerms result = *this;
  llvm::sort(result.terms, [](auto &a, auto &b) {
    if (a.first != b.first)
      return a.first.getImpl() < b.first.getImpl();
    return a.second < b.second;
  });
  return result;
}

AffineExpr AffineTerms::toExpr(MLIRContext *ctx) const {
  AffineExpr total = getAffineConstantExpr(0, ctx);
  for (auto [t, k] : terms)
    total = total + t * k;
  return total + constant;
}

std::optional<int64_t> mlir::tir::getConstantDifference(AffineExpr a,
                                                        AffineExpr b,
                                                        unsigned numDims,
                                                        unsigned numSymbols) {
  auto diff = dyn_cast<AffineConstantExpr>(
      simplifyIndexExpr(a - b, numDims, numSymbols));
  if (!diff)
    return std::nullopt;
  return diff.getValue();
}

bool mlir::tir::involvesDims(AffineExpr e, const llvm::SmallBitVector &dims) {
  bool found = false;
  e.walk([&](AffineExpr sub) {
    if (auto d = dyn_cast<AffineDimExpr>(sub))
      found |= d.getPosition() < dims.size() && dims.test(d.getPosition());
  });
  return found;
}

bool mlir::tir::isQuasiAffineIn(AffineExpr e,
                                const llvm::SmallBitVector &vars) {
  auto bin = dyn_cast<AffineBinaryOpExpr>(e);
  if (!bin)
    return true;
  switch (e.getKind()) {
  case AffineExprKind::Add:
    return isQuasiAffineIn(bin.getLHS(), vars) &&
           isQuasiAffineIn(bin.getRHS(), vars);
  case AffineExprKind::Mul:
    // One factor must not depend on the variables.
    return (!involvesDims(bin.getLHS(), vars) &&
            isQuasiAffineIn(bin.getRHS(), vars)) ||
           (!involvesDims(bin.getRHS(), vars) &&
            isQuasiAffineIn(bin.getLHS(), vars));
  default:
    // floordiv / ceildiv / mod by a constant, or by a parameter (TVM's
    // split of a fused iterator by a runtime extent, `f floordiv n`), keep
    // a quasi-affine form.
    return !involvesDims(bin.getRHS(), vars) &&
           isQuasiAffineIn(bin.getLHS(), vars);
  }
}
