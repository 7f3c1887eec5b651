//===- AffineTerms.h - index expressions as sums of terms -------*- C++ -*-===//
//
// An index expression split into terms with constant coefficients and a
// constant: `d0 * 4 + d1 floordiv 2 - 3` is 4 * (d0) + 1 * (d1 floordiv 2)
// + (-3). Range simplification divides the terms, the affine-binding rule
// compares the terms of bindings and predicates, region inference joins
// regions whose starts differ by a constant, and region relaxation reads
// the coefficient of a variable. Also: whether an expression is quasi-affine
// in some of its inputs.
//
//===----------------------------------------------------------------------===//

#ifndef TENSORIR_DIALECT_TIR_ARITH_AFFINETERMS_H
#define TENSORIR_DIALECT_TIR_ARITH_AFFINETERMS_H

#include "mlir/IR/AffineExpr.h"
#include "llvm/ADT/SmallBitVector.h"

#include <optional>

namespace mlir::tir {

/// `sum(coefficient * term) + constant`. A term is an expression that is
/// not a sum, a constant or a product by a constant: a dimension, a symbol,
/// a product of non-constant factors, a division or a modulo. Like terms
/// are merged (in the order they first appear) and zero coefficients
/// dropped.
struct AffineTerms {
  SmallVector<std::pair<AffineExpr, int64_t>> terms;
  int64_t constant = 0;

  /// The terms of `e`.
  static AffineTerms get(AffineExpr e);

  bool isConstant() const { return terms.empty(); }
  /// The coefficient of `term` (0 when it does not appear).
  int64_t getCoefficient(AffineExpr term) const;
  /// The coefficient of dimension `pos` when it appears only as a term of
  /// its own (`d0 * 4 + d1`: 4); nullopt when it also appears inside
  /// another term (`d0 floordiv 2`, `d0 * d1`).
  std::optional<int64_t> getDimCoefficient(unsigned pos) const;

  /// Adds `other * scale`.
  void add(const AffineTerms &other, int64_t scale = 1);
  /// The terms (not the constant) that `keep` accepts.
  AffineTerms filter(function_ref<bool(AffineExpr term)> keep) const;
  /// The terms sorted into a canonical order (for comparing sums).
  AffineTerms sorted() const;
  bool operator==(const AffineTerms &o) const {
    return terms == o.terms && constant == o.constant;
  }

  /// The sum as an expression (`ctx` for an empty sum).
  AffineExpr toExpr(MLIRContext *ctx) const;
};

/// `a - b` when it is a constant (after simplification over `numDims` dims
/// and `numSymbols` symbols), nullopt otherwise.
std::optional<int64_t> getConstantDifference(AffineExpr a, AffineExpr b,
                                             unsigned numDims,
                                             unsigned numSymbols = 0);

/// Whether `e` uses one of the dimensions set in `dims`.
bool involvesDims(AffineExpr e, const llvm::SmallBitVector &dims);

/// Whether `e` (input space) is quasi-affine in the dimensions set in
/// `vars`: products have a factor free of them, divisors are free of them
/// (a constant, or a parameter: `d0 floordiv d1` in d0, TVM's split of a
/// fused iterator by a runtime extent). Other dimensions act as parameters
/// (`d0 * d0 + d1` is affine in d1).
bool isQuasiAffineIn(AffineExpr e, const llvm::SmallBitVector &vars);

} // namespace mlir::tir

#endif // TENSORIR_DIALECT_TIR_ARITH_AFFINETERMS_H
