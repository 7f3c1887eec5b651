//===- CanonicalForm.h - interned canonical forms of expressions -*- C++
//-*-===//
//
// The values that structural equality compares, as nodes of one table
// shared by both sides of a comparison. Nodes are hash-consed: two nodes are
// equal exactly when they are the same pointer, and every node carries a
// structural hash that does not depend on pointers (so it is stable across
// runs and contexts).
//
// Index expressions are kept in a linear normal form: a Sum is a constant
// plus constant multiples of atoms, where an atom is a variable or a
// non-linear term (`floordiv(e, c)`, `e1 * e2`, `min(...)`, an arbitrary op)
// whose operands are Sums again. `i * 4 + j` and `j + 4 * i` are the same
// node.
//
//===----------------------------------------------------------------------===//

#ifndef TENSORIR_LIB_ANALYSIS_CANONICALFORM_H
#define TENSORIR_LIB_ANALYSIS_CANONICALFORM_H

#include "mlir/IR/AffineExpr.h"
#include "mlir/IR/Attributes.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/IntegerSet.h"
#include "mlir/IR/Types.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/FoldingSet.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/Allocator.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>
#include <tuple>

namespace mlir::tir::detail {

enum class NodeKind : uint8_t {
  /// An integer (counts, enum values).
  Int,
  /// A string (op names, keywords).
  Str,
  /// An attribute, compared by MLIR's uniquing (value and type).
  Attr,
  /// A type.
  Type,
  /// A variable, by its alpha-equivalence number (`value`); `coeffs` holds
  /// the inclusive range {lo, hi} its definition gives it, if constant.
  Var,
  /// A free variable compared by identity (`ptr` is the mlir::Value).
  FreeVar,
  /// `value + sum(coeffs[i] * children[i])`, children are atoms, sorted.
  Sum,
  /// A non-linear index term `str(children...)`; `value` is 1 when the
  /// operands are unordered (min, max, *).
  Apply,
  /// An op's result `value` (for tir.load: the number of writes of the
  /// buffer before it): `str` is the op name, `attr` the attributes that
  /// matter, `type` the result type, children the operands.
  Op,
  /// An ordered list.
  List,
  /// A set (sorted, no duplicates); `str` is "and" or "or" for predicates.
  Set,
};

struct Node : llvm::FoldingSetNode {
  NodeKind kind;
  int64_t value = 0;
  StringRef str;
  Attribute attr;
  Type type;
  const void *ptr = nullptr;
  ArrayRef<const Node *> children;
  ArrayRef<int64_t> coeffs;
  /// Structural hash: equal nodes have equal hashes, and it is computed
  /// from contents only (never from pointers, except for FreeVar).
  uint64_t hash = 0;

  void Profile(llvm::FoldingSetNodeID &id) const;

  bool isSum() const { return kind == NodeKind::Sum; }
  /// The constant of a Sum without terms.
  std::optional<int64_t> getConstant() const {
    if (kind == NodeKind::Sum && children.empty())
      return value;
    return std::nullopt;
  }
};

/// Mixes `value` into `seed` (order-sensitive).
uint64_t hashCombine(uint64_t seed, uint64_t value);
/// A stable hash of a string.
uint64_t hashString(StringRef s);

/// Prints a variable given its number (Var) or its value (FreeVar).
using VarPrinter = llvm::function_ref<void(raw_ostream &, const Node *)>;

/// The node table. Both sides of a comparison must use the same table.
class NodeTable {
public:
  const Node *getInt(int64_t v);
  const Node *getStr(StringRef s);
  /// A null attribute is the string "<none>".
  const Node *getAttr(Attribute attr);
  const Node *getType(Type type);
  /// Variable `id`, with the constant range [lo, hi] its definition gives
  /// it (a loop's bounds, a block variable's domain), which division and
  /// modulo use: `mod(f floordiv 16, 3)` is `f floordiv 16` for f in
  /// [0, 47].
  const Node *getVar(int64_t id,
                     std::optional<std::pair<int64_t, int64_t>> range = {});
  const Node *getFreeVar(const void *value);
  const Node *getList(ArrayRef<const Node *> elements);
  /// Sorts and removes duplicates.
  const Node *getSet(StringRef tag, ArrayRef<const Node *> elements);
  const Node *getOp(StringRef name, DictionaryAttr attrs, Type type,
                    int64_t result, ArrayRef<const Node *> operands);

  //===--------------------------------------------------------------------===//
  // Index expressions (all results are Sums)
  //===--------------------------------------------------------------------===//

  /// A Sum: merges equal atoms, drops zero coefficients, sorts.
  const Node *getSum(int64_t constant,
                     ArrayRef<std::pair<const Node *, int64_t>> terms);
  const Node *constant(int64_t c) { return getSum(c, {}); }
  /// An atom (any non-Sum node) as a Sum.
  const Node *atom(const Node *n);
  /// A Sum as is, anything else as an atom.
  const Node *asSum(const Node *n) { return n->isSum() ? n : atom(n); }

  const Node *add(const Node *a, const Node *b);
  const Node *scale(const Node *a, int64_t c);
  const Node *sub(const Node *a, const Node *b) { return add(a, scale(b, -1)); }
  const Node *mul(const Node *a, const Node *b);
  const Node *floorDiv(const Node *a, const Node *b);
  const Node *ceilDiv(const Node *a, const Node *b);
  const Node *mod(const Node *a, const Node *b);
  /// min / max / ...: an unordered atom over the operands.
  const Node *applyUnordered(StringRef name, ArrayRef<const Node *> operands);
  /// An ordered atom over the operands.
  const Node *apply(StringRef name, ArrayRef<const Node *> operands);

  /// The inclusive bounds of index expression `a` when its variables have
  /// ranges (and its divisions and remainders constant divisors).
  std::optional<std::pair<int64_t, int64_t>> getBounds(const Node *a);

  /// `expr` with input i (dims first, then symbols) replaced by inputs[i].
  const Node *fromAffine(AffineExpr expr, unsigned numDims,
                         ArrayRef<const Node *> inputs);
  /// The predicate `expr >= 0` (or `== 0`) in normal form: coefficients
  /// divided by their gcd, the sign of an equality fixed. Returns nullptr
  /// when it always holds, and the string "false" when it never does.
  const Node *constraint(const Node *expr, bool isEq);
  /// A conjunction of constraints of `set` over inputs, as an "and" Set;
  /// the "false" string when one of them never holds.
  const Node *conjunction(IntegerSet set, ArrayRef<const Node *> inputs);
  /// A disjunction of conjunctions (nullptr entries are "true"): the "true"
  /// string when one is empty, "false" when none remain, the conjunction
  /// itself when one remains, and an "or" Set otherwise.
  const Node *disjunction(ArrayRef<const Node *> conjunctions);

  //===--------------------------------------------------------------------===//
  // Printing
  //===--------------------------------------------------------------------===//

  /// Prints `n` readably (linear forms as `i * 4 + j - 1`); output is
  /// deterministic. `withTypes` adds the result types and attributes of
  /// ops. Long output
  /// is cut after `limit` characters.
  void print(raw_ostream &os, const Node *n, VarPrinter printVar,
             bool withTypes = false, size_t limit = 400);

private:
  const Node *intern(Node &proto);
  std::optional<std::tuple<int64_t, const Node *, const Node *>>
  factorOut(const Node *a, int64_t d);
  /// `k * x - k * d * floordiv(x, d)` in the terms of a sum, for an atom
  /// x, as `k * mod(x, d)` (TVM writes a remainder either way); nullptr
  /// when the terms have no such pair.
  const Node *foldRemainder(int64_t base, ArrayRef<const Node *> atoms,
                            ArrayRef<int64_t> coeffs);
  uint64_t hashAttr(Attribute attr);
  uint64_t hashType(Type type);
  void printImpl(raw_ostream &os, const Node *n, VarPrinter printVar,
                 bool parenthesize);

  llvm::BumpPtrAllocator allocator;
  llvm::FoldingSet<Node> nodes;
  DenseMap<const void *, uint64_t> attrHashes, typeHashes;
  // State of the printer while it runs.
  std::string *printed = nullptr;
  size_t printLimit = 0;
  bool printTypes = false;
  /// Set while foldRemainder builds a remainder (no nested folding).
  bool foldingRemainder = false;
};

} // namespace mlir::tir::detail

#endif // TENSORIR_LIB_ANALYSIS_CANONICALFORM_H
