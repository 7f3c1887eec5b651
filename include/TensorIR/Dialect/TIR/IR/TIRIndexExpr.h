//===- TIRIndexExpr.h - index expressions over SSA values -------*- C++ -*-===//
//
// tir writes index expressions (bindings, predicates, regions, buffer
// indices) as AffineExprs over a list of SSA operands. TensorIR allows more
// than MLIR's affine rules: products of variables (`%k * %k`) and division or
// modulo by runtime values (`%f floordiv (%n * 128)`). AffineExpr can hold
// these (as "semi-affine" or non-affine expressions), and this file gives
// them one textual form and one storage form:
//
// - In memory, code works in *input space*: input i (the i-th operand) is
//   dimension i. `getExprsOverInputs` / `makeInputMap` convert.
// - In attributes, a map is stored with its inputs as dimensions when MLIR's
//   affine syntax can hold it, and otherwise with every input as a symbol
//   (MLIR's parser accepts products and divisors of symbols), so the generic
//   form always parses back.
// - In the custom syntax, expressions are written over SSA names with `+`,
//   `-`, `*`, `floordiv`, `ceildiv`, `mod` and parentheses, with no
//   dimension/symbol distinction (`symbol(%n)` is accepted and means `%n`).
//
//===----------------------------------------------------------------------===//

#ifndef TENSORIR_DIALECT_TIR_IR_TIRINDEXEXPR_H
#define TENSORIR_DIALECT_TIR_IR_TIRINDEXEXPR_H

#include "mlir/IR/AffineExpr.h"
#include "mlir/IR/AffineMap.h"
#include "mlir/IR/IntegerSet.h"
#include "mlir/IR/OpImplementation.h"

namespace mlir::tir {

//===----------------------------------------------------------------------===//
// Input space and storage form
//===----------------------------------------------------------------------===//

/// `e` (over `numDims` dims and `numSymbols` symbols) with symbol j as
/// dimension numDims + j.
AffineExpr toInputSpace(AffineExpr e, unsigned numDims, unsigned numSymbols);
/// The results of `map` in input space.
SmallVector<AffineExpr> getExprsOverInputs(AffineMap map);
/// The constraints of `set` in input space.
SmallVector<AffineExpr> getConstraintsOverInputs(IntegerSet set);

/// Whether MLIR's affine syntax can hold `e` with all its inputs as dims
/// (every product has a constant side, every divisor is constant).
bool isExpressibleOverDims(AffineExpr e);

/// The storage form of expressions in input space over `numInputs`
/// operands: dims when every expression is expressible over dims, symbols
/// otherwise.
AffineMap makeInputMap(unsigned numInputs, ArrayRef<AffineExpr> exprs,
                       MLIRContext *ctx);
IntegerSet makeInputSet(unsigned numInputs, ArrayRef<AffineExpr> constraints,
                        ArrayRef<bool> eqFlags, MLIRContext *ctx);

/// A conjunction of constraints in input space (`c >= 0`, or `c == 0` where
/// the flag is set); a predicate is a disjunction of these.
struct Conjunction {
  SmallVector<AffineExpr> constraints;
  SmallVector<bool> eqFlags;
};

/// (a or b) and (c or d): the cross product of the disjuncts.
SmallVector<Conjunction> conjoinConditions(ArrayRef<Conjunction> lhs,
                                           ArrayRef<Conjunction> rhs);
/// not (D1 or D2 ...) = not D1 and not D2; not (c1 and c2) = not c1 or not
/// c2; not (e >= 0) = -e - 1 >= 0; not (e == 0) = e - 1 >= 0 or -e - 1 >= 0.
SmallVector<Conjunction> negateCondition(ArrayRef<Conjunction> dnf);

enum class IndexComparison { LT, LE, GT, GE, EQ };
/// `lhs cmp rhs` as one constraint: `a < b` is `b - a - 1 >= 0`, ...
Conjunction compareIndexExprs(IndexComparison cmp, AffineExpr lhs,
                              AffineExpr rhs);

//===----------------------------------------------------------------------===//
// Regions
//===----------------------------------------------------------------------===//

/// A buffer region: a start and an extent per dimension.
struct RegionExprs {
  SmallVector<AffineExpr> starts;
  SmallVector<AffineExpr> extents;
};

/// Splits a region map `(...) -> (start_0.., extent_0..)` in two (in input
/// space).
RegionExprs splitRegionMap(AffineMap map);
/// The inverse of splitRegionMap: a storage-form map over `numInputs`
/// inputs, expressions simplified.
AffineMap buildRegionMap(unsigned numInputs, const RegionExprs &region,
                         MLIRContext *ctx);

//===----------------------------------------------------------------------===//
// Syntax
//===----------------------------------------------------------------------===//

/// Parses index expressions over SSA names; names are interned in `names`
/// (the first occurrence gives the input position).
class IndexExprParser {
public:
  using UnresolvedOperand = OpAsmParser::UnresolvedOperand;

  IndexExprParser(OpAsmParser &parser,
                  SmallVectorImpl<UnresolvedOperand> &names)
      : parser(parser), names(names) {}

  /// e := term (('+' | '-') term)*
  ParseResult parseExpr(AffineExpr &expr);
  /// `[e, lo : hi, ...]`; a lone `e` is the unit range [e, e + 1).
  ParseResult parseRegion(RegionExprs &region);
  /// `[e, ...]`
  ParseResult parseIndexList(SmallVectorImpl<AffineExpr> &exprs);
  /// A boolean condition: comparisons (<, <=, >, >=, ==, !=) of
  /// expressions, joined by `and` (or `,`), `or`, `not` and parentheses,
  /// as a disjunction of conjunctions.
  ParseResult parseCondition(SmallVectorImpl<Conjunction> &disjuncts);

private:
  ParseResult parseTerm(AffineExpr &expr);
  ParseResult parseTermRest(AffineExpr &expr);
  ParseResult parseExprRest(AffineExpr &expr);
  ParseResult parseFactor(AffineExpr &expr);
  /// [not] comparison, or a parenthesized condition.
  ParseResult parseUnary(SmallVectorImpl<Conjunction> &out);
  /// After `not`: the negation of the next unary condition.
  ParseResult parseNegated(SmallVectorImpl<Conjunction> &out);
  /// Continues `acc` with `and c ...`.
  ParseResult parseAndTail(SmallVectorImpl<Conjunction> &acc);
  /// Continues `acc` with `and c ...` then `or c and c ...`.
  ParseResult parseOrTail(SmallVectorImpl<Conjunction> &acc);
  /// After '(': an expression `(e)` or a condition `(c)`, through ')'.
  ParseResult parseParenthesized(bool &isCondition, AffineExpr &expr,
                                 SmallVectorImpl<Conjunction> &cond);
  ParseResult parseComparisonRest(AffineExpr lhs,
                                  SmallVectorImpl<Conjunction> &out);
  unsigned intern(const UnresolvedOperand &name);

  OpAsmParser &parser;
  SmallVectorImpl<UnresolvedOperand> &names;
};

/// Prints `expr` (input space) with input i shown as `inputs[i]`.
void printIndexExpr(OpAsmPrinter &p, AffineExpr expr, ValueRange inputs);
/// Prints `[e, lo : hi, ...]` for a region map (storage form) over
/// `inputs`.
void printRegion(OpAsmPrinter &p, AffineMap regionMap, ValueRange inputs);
/// Prints `[e, ...]` for an access map (storage form) over `inputs`.
void printIndexList(OpAsmPrinter &p, AffineMap map, ValueRange inputs);
/// Prints a predicate (disjunction of storage-form sets) over `inputs`:
/// `c and c or c and c`.
void printCondition(OpAsmPrinter &p, ArrayRef<IntegerSet> disjuncts,
                    ValueRange inputs);

} // namespace mlir::tir

#endif // TENSORIR_DIALECT_TIR_IR_TIRINDEXEXPR_H
