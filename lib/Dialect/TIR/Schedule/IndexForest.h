//===- IndexForest.h - the computations cache_index chooses -----*- C++ -*-===//
//
// cache_index's analysis (CacheIndex.cpp does the rewrite): a block's
// stores as expression trees (the stored value, the SSA arithmetic in it,
// the index expressions of its loads and stores; a value used twice occurs
// twice), the pure computations of the block's variables among them, and
// TVM's choice of which to cache for a threshold.
//
//===----------------------------------------------------------------------===//

#ifndef TENSORIR_LIB_SCHEDULE_INDEXFOREST_H
#define TENSORIR_LIB_SCHEDULE_INDEXFOREST_H

#include "TensorIR/Dialect/TIR/IR/TIROps.h"

#include "mlir/IR/AffineExpr.h"
#include "mlir/IR/BuiltinTypes.h"

#include <deque>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace mlir::tir::sched {

/// One occurrence of a computation in a store of the block.
struct IndexNode {
  enum class Kind {
    Var,    // an iteration variable of the block
    Const,  // an arith.constant, or a constant inside an index expression
    Op,     // a single-result op of the block body
    Affine, // a binary node of an index expression of a load or store
    Load,   // a tir.load (its children: its indices)
    Opaque  // anything else: a value from outside, an impure op
  };
  Kind kind;
  /// SSA nodes: the value and the use this occurrence is.
  Value value;
  OpOperand *use = nullptr;
  /// Affine nodes: the expression (input space of `access`).
  AffineExpr expr;
  Operation *access = nullptr;
  /// Var: the variable's position among the block's iteration variables.
  unsigned var = 0;
  SmallVector<IndexNode *> children;
  /// Equal keys: equal computations.
  std::string key;
  unsigned complexity = 1;
  /// Every node, casts included: a computation containing another is
  /// larger, even where their complexities tie.
  unsigned size = 1;
  bool pure = true;
  bool usesVar = false;

  bool isLeaf() const {
    return kind == Kind::Var || kind == Kind::Const || kind == Kind::Opaque;
  }
  Type type() const {
    return kind == Kind::Affine ? IndexType::get(expr.getContext())
                                : value.getType();
  }
};

/// The stores of a block as expression trees, the candidates among them
/// and their counts.
class IndexForest {
public:
  explicit IndexForest(BlockOp block) : block(block) {
    block.getBody()->walk([&](StoreOp store) {
      if (store->getParentOfType<BlockOp>() != block)
        return;
      SmallVector<IndexNode *> roots{ssa(store.getValueMutable())};
      llvm::append_range(
          roots, accessTrees(store, store.getMap(), store.getIndicesMutable()));
      stores.push_back(std::move(roots));
    });
  }

  /// TVM's selection for `threshold`: the computations to cache, in the
  /// order of their buffers.
  SmallVector<IndexNode *> select(int64_t threshold);

  /// Whether `n` is a candidate: a computation of two nodes or more, of a
  /// variable, with no load or impure op, of a type a buffer holds.
  static bool isCandidate(const IndexNode *n) {
    if (n->kind != IndexNode::Kind::Op && n->kind != IndexNode::Kind::Affine)
      return false;
    if (!n->pure || !n->usesVar || n->complexity < 2)
      return false;
    Type t = n->type();
    if (auto i = dyn_cast<IntegerType>(t))
      return i.getWidth() >= 8;
    return t.isIndex() || isa<FloatType>(t);
  }

  std::vector<SmallVector<IndexNode *>> stores;

private:
  /// A candidate computation and how many times it occurs.
  struct Entry {
    IndexNode *rep;
    int64_t count = 0;
    bool visited = false;
    /// Fewer occurrences than the threshold: given to the candidates
    /// inside.
    bool expanded = false;
  };

  IndexNode *make(IndexNode::Kind kind) {
    arena.emplace_back();
    arena.back().kind = kind;
    return &arena.back();
  }
  IndexNode *ssa(OpOperand &use);
  IndexNode *affine(AffineExpr e, Operation *access,
                    MutableOperandRange indices);
  SmallVector<IndexNode *> accessTrees(Operation *access, AffineMap map,
                                       MutableOperandRange indices);
  void combine(IndexNode *n) {
    for (IndexNode *c : n->children) {
      n->pure &= c->pure;
      n->usesVar |= c->usesVar;
    }
  }
  void count(IndexNode *n);
  void giveToChildren(IndexNode *n, int64_t count);
  Entry &entryOf(IndexNode *n) {
    auto [it, inserted] = entryIndex.try_emplace(n->key, entries.size());
    if (inserted)
      entries.push_back({n});
    return entries[it->second];
  }

  BlockOp block;
  std::deque<IndexNode> arena;
  std::vector<Entry> entries;
  std::map<std::string, size_t> entryIndex;
};

/// Whether `op` is a cast to or from `index` (tir's spelling, not a
/// computation).
bool isIndexCast(Operation *op);

/// The index expression an index-typed arith op computes (`arith.addi`:
/// Add, `arith.floordivsi`: FloorDiv, ...); nullopt for any other op. Such
/// an op and the index expression count as one computation.
std::optional<AffineExprKind> getIndexOpKind(Operation *op);

} // namespace mlir::tir::sched

#endif // TENSORIR_LIB_SCHEDULE_INDEXFOREST_H
