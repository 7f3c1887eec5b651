//===- IndexForest.cpp - the computations cache_index chooses -------------===//
//
// See IndexForest.h. The counting follows TVM's: maximal candidates first;
// with a threshold, candidates occurring fewer times give their
// occurrences to the largest candidates inside them, from the most complex
// down (the larger first where complexities tie), so a computation's count
// is final when it is visited.
//
//===----------------------------------------------------------------------===//

#include "IndexForest.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/TypeSwitch.h"

#include <functional>

using namespace mlir;
using namespace mlir::tir;
using namespace mlir::tir::sched;

std::optional<AffineExprKind> sched::getIndexOpKind(Operation *op) {
  if (op->getNumResults() != 1 || !op->getResult(0).getType().isIndex())
    return std::nullopt;
  return TypeSwitch<Operation *, std::optional<AffineExprKind>>(op)
      .Case([](arith::AddIOp) { return AffineExprKind::Add; })
      .Case([](arith::MulIOp) { return AffineExprKind::Mul; })
      .Case([](arith::FloorDivSIOp) { return AffineExprKind::FloorDiv; })
      .Case([](arith::CeilDivSIOp) { return AffineExprKind::CeilDiv; })
      .Default([](Operation *) { return std::nullopt; });
}

/// The name of a binary index operation in a computation's key, the same
/// for an index expression and the arith op computing it.
static StringRef kindName(AffineExprKind kind) {
  switch (kind) {
  case AffineExprKind::Add:
    return "add";
  case AffineExprKind::Mul:
    return "mul";
  case AffineExprKind::FloorDiv:
    return "floordiv";
  case AffineExprKind::CeilDiv:
    return "ceildiv";
  default:
    return "mod";
  }
}

bool sched::isIndexCast(Operation *op) {
  return isa<arith::IndexCastOp, arith::IndexCastUIOp>(op);
}

IndexNode *IndexForest::ssa(OpOperand &use) {
  Value v = use.get();
  IndexNode *n;
  if (auto arg = dyn_cast<BlockArgument>(v);
      arg && arg.getOwner() == block.getBody() &&
      arg.getArgNumber() < block.getNumIterVars()) {
    n = make(IndexNode::Kind::Var);
    n->var = arg.getArgNumber();
    n->key = "v" + std::to_string(n->var);
    n->usesVar = true;
  } else if (auto cst = v.getDefiningOp<arith::ConstantOp>()) {
    n = make(IndexNode::Kind::Const);
    llvm::raw_string_ostream os(n->key);
    // An index constant is the same node as one in an index expression.
    if (auto i = dyn_cast<IntegerAttr>(cst.getValue());
        i && v.getType().isIndex())
      os << "c" << i.getInt();
    else
      os << "k" << cst.getValue();
  } else if (Operation *def = v.getDefiningOp();
             def && def->getParentOfType<BlockOp>() == block) {
    if (auto load = dyn_cast<LoadOp>(def)) {
      n = make(IndexNode::Kind::Load);
      n->children = accessTrees(load, load.getMap(), load.getIndicesMutable());
      n->pure = false;
      n->key = "load";
    } else if (def->getNumResults() == 1 && def->getNumRegions() == 0 &&
               def->getNumOperands() > 0 && isPure(def)) {
      n = make(IndexNode::Kind::Op);
      for (OpOperand &operand : def->getOpOperands())
        n->children.push_back(ssa(operand));
      combine(n);
      llvm::raw_string_ostream os(n->key);
      if (std::optional<AffineExprKind> kind = getIndexOpKind(def))
        os << kindName(*kind);
      else
        os << def->getName() << def->getAttrDictionary() << ":" << v.getType();
      os << "(";
      for (IndexNode *c : n->children)
        os << c->key << ",";
      os << ")";
      // A cast to or from `index` is tir's spelling, not a computation.
      n->complexity = isIndexCast(def) ? 0 : 1;
      for (IndexNode *c : n->children)
        n->size += c->size;
      for (IndexNode *c : n->children)
        n->complexity += c->complexity;
    } else {
      n = make(IndexNode::Kind::Opaque);
      n->pure = false;
      n->key = "?";
    }
  } else {
    n = make(IndexNode::Kind::Opaque);
    n->pure = false;
    n->key = "?";
  }
  n->value = v;
  n->use = &use;
  return n;
}

IndexNode *IndexForest::affine(AffineExpr e, Operation *access,
                               MutableOperandRange indices) {
  if (auto dim = dyn_cast<AffineDimExpr>(e))
    return ssa(indices[dim.getPosition()]);
  if (auto cst = dyn_cast<AffineConstantExpr>(e)) {
    IndexNode *n = make(IndexNode::Kind::Const);
    n->expr = e;
    n->access = access;
    n->key = "c" + std::to_string(cst.getValue());
    return n;
  }
  auto bin = cast<AffineBinaryOpExpr>(e);
  IndexNode *n = make(IndexNode::Kind::Affine);
  n->expr = e;
  n->access = access;
  n->children = {affine(bin.getLHS(), access, indices),
                 affine(bin.getRHS(), access, indices)};
  combine(n);
  // A division by a runtime value may divide by 0 where the block does
  // not run (a guard, a predicate): not computed ahead.
  if (e.getKind() != AffineExprKind::Add &&
      e.getKind() != AffineExprKind::Mul &&
      !isa<AffineConstantExpr>(bin.getRHS()))
    n->pure = false;
  n->key = (kindName(e.getKind()) + "(" + n->children[0]->key + "," +
            n->children[1]->key + ",)")
               .str();
  n->complexity = 1 + n->children[0]->complexity + n->children[1]->complexity;
  n->size = 1 + n->children[0]->size + n->children[1]->size;
  return n;
}

SmallVector<IndexNode *> IndexForest::accessTrees(Operation *access,
                                                  AffineMap map,
                                                  MutableOperandRange indices) {
  SmallVector<IndexNode *> trees;
  unsigned n = indices.size();
  for (AffineExpr e : getExprsOverInputs(map))
    trees.push_back(affine(simplifyAffineExpr(e, n, 0), access, indices));
  return trees;
}

/// TVM's first count: each maximal candidate occurrence.
void IndexForest::count(IndexNode *n) {
  if (n->isLeaf())
    return;
  if (isCandidate(n)) {
    entryOf(n).count += 1;
    return;
  }
  for (IndexNode *c : n->children)
    count(c);
}

/// Gives `count` occurrences to each largest candidate inside `n`.
void IndexForest::giveToChildren(IndexNode *n, int64_t count) {
  for (IndexNode *c : n->children) {
    if (isCandidate(c))
      entryOf(c).count += count;
    else
      giveToChildren(c, count);
  }
}

SmallVector<IndexNode *> IndexForest::select(int64_t threshold) {
  for (auto &roots : stores)
    for (IndexNode *root : roots)
      count(root);
  // Below the threshold, a candidate's occurrences go to the candidates
  // inside it. From the most complex down (the larger first where they
  // tie): a computation is visited after every one containing it, so its
  // count is final when it is visited.
  auto before = [](const IndexNode *a, const IndexNode *b) {
    return std::make_pair(a->complexity, a->size) >
           std::make_pair(b->complexity, b->size);
  };
  while (true) {
    std::optional<size_t> next;
    for (size_t i = 0; i < entries.size(); ++i)
      if (!entries[i].visited &&
          (!next || before(entries[i].rep, entries[*next].rep)))
        next = i;
    if (!next)
      break;
    entries[*next].visited = true;
    int64_t count = entries[*next].count;
    if (count < threshold) {
      entries[*next].expanded = true;
      giveToChildren(entries[*next].rep, count);
    }
  }
  // In the order of first occurrence (post-order: inner computations
  // first), then the most complex first.
  SmallVector<IndexNode *> chosen;
  llvm::StringSet<> seen;
  std::function<void(IndexNode *)> visit = [&](IndexNode *n) {
    for (IndexNode *c : n->children)
      visit(c);
    if (!isCandidate(n))
      return;
    auto it = entryIndex.find(n->key);
    if (it != entryIndex.end() && !entries[it->second].expanded &&
        seen.insert(n->key).second)
      chosen.push_back(entries[it->second].rep);
  };
  for (auto &roots : stores)
    for (IndexNode *root : roots)
      visit(root);
  llvm::stable_sort(chosen, [](IndexNode *a, IndexNode *b) {
    return a->complexity > b->complexity;
  });
  return chosen;
}
