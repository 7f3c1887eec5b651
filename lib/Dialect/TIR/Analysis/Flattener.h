//===- Flattener.h - structural equality's flattened form -------*- C++ -*-===//
//
// Private to lib/Dialect/TIR/Analysis: the Flattener turns one side of a
// structural comparison into a list of items (statements in order, expressions
// as canonical nodes). StructuralEqual.cpp walks statements and compares;
// FlattenExpr.cpp builds the expression nodes.
//
//===----------------------------------------------------------------------===//

#ifndef TENSORIR_LIB_ANALYSIS_FLATTENER_H
#define TENSORIR_LIB_ANALYSIS_FLATTENER_H

#include "TensorIR/Dialect/TIR/Analysis/StructuralEqual.h"

#include "CanonicalForm.h"

#include "TensorIR/Dialect/TIR/IR/TIROps.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringMap.h"

namespace mlir::tir::detail {

/// Whether `op` is compared in place, in order (a statement), rather than
/// as part of the expression trees of its users: ops with regions, results
/// that are variables (buffers), no results, or effects other than reads.
bool isStatement(Operation *op);

/// Attributes that only name things.
inline bool isNameAttr(StringRef name) {
  return name == "var_name" || name == "var_names" || name == "buffer_name";
}

/// The argument attribute that names a function parameter.
inline constexpr StringLiteral kArgNameAttr = TIRDialect::kNameAttrName;

/// One compared fact.
struct Item {
  /// The op whose path locates the item.
  Operation *context;
  /// The op shown in a message (null past the end of a block).
  Operation *subject;
  StringRef what;
  int64_t index;
  const Node *node;
};

/// Flattens one side into items.
class Flattener {
public:
  Flattener(NodeTable &table, const StructuralEqualOptions &options,
            Operation *root)
      : table(table), options(options), root(root) {
    walkStatement(root, /*parent=*/nullptr, 0);
  }

  ArrayRef<Item> getItems() const { return items; }
  uint64_t hash() const;
  std::string pathOf(Operation *op) const;
  /// Prints `n` with this side's variable names.
  std::string print(const Node *n, bool withTypes, bool withIds);

private:
  void emit(Operation *context, Operation *subject, StringRef what,
            int64_t index, const Node *node) {
    items.push_back({context, subject, what, index, node});
  }

  // Variables and expressions.
  /// A new variable; `range` is the inclusive constant range its
  /// definition gives it.
  const Node *define(Value v,
                     std::optional<std::pair<int64_t, int64_t>> range = {});
  /// The inclusive range [lower, upper - 1] of constant bounds.
  static std::optional<std::pair<int64_t, int64_t>> rangeOf(OpFoldResult lower,
                                                            OpFoldResult upper);
  const Node *expr(Value v);
  const Node *indexExpr(OpFoldResult ofr);
  const Node *exprOp(Operation *op, unsigned result);
  const Node *indexOp(Operation *op, unsigned result);
  int64_t writesBefore(LoadOp load);
  const Node *access(const Node *buffer, AffineMap map, ValueRange operands);
  const Node *region(const Node *buffer, AffineMap map,
                     ArrayRef<const Node *> inputs);
  SmallVector<const Node *> exprs(ValueRange values);
  DictionaryAttr attributes(Operation *op, ArrayRef<StringRef> handled);
  const Node *annotations(DictionaryAttr attr);

  // Statements.
  void walkRegion(Operation *owner, Region &region);
  void walkStatement(Operation *op, Operation *parent, int64_t position);
  void walkFunction(FunctionOpInterface func);
  void walkFor(ForOp op);
  void walkBlock(BlockOp op);
  void walkAccessRegions(BlockOp op);
  void walkAccesses(
      BlockOp op, StringRef what, StringRef itemWhat,
      const std::optional<SmallVector<std::pair<Value, AffineMap>>> &entries,
      ArrayRef<const Node *> inputs);
  void walkStore(StoreOp op);
  void walkAllocBuffer(AllocBufferOp op);
  void walkMatchBuffer(MatchBufferOp op);
  void walkGeneric(Operation *op);

  std::string label(Operation *op) const;
  std::string nameOf(Value v) const;

  NodeTable &table;
  const StructuralEqualOptions &options;
  Operation *root;
  std::vector<Item> items;
  /// Canonical node of every value seen (variables and expressions).
  DenseMap<Value, const Node *> values;
  /// The value of variable i.
  SmallVector<Value> vars;
  /// Whether an op (or an op inside it) may write a buffer.
  DenseMap<std::pair<Operation *, Value>, bool> writes;
};

} // namespace mlir::tir::detail

#endif // TENSORIR_LIB_ANALYSIS_FLATTENER_H
