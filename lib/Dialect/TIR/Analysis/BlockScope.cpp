//===- BlockScope.cpp - scopes, producers, consumers, dependences ---------===//

#include "TensorIR/Dialect/TIR/Analysis/BlockScope.h"
#include "TensorIR/Dialect/TIR/Analysis/AccessRegions.h"

#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace mlir::tir;

Operation *mlir::tir::getScopeRoot(Operation *op) {
  Operation *scope = op->getParentOp();
  while (scope && !isa<BlockOp>(scope) &&
         !scope->hasTrait<OpTrait::IsIsolatedFromAbove>())
    scope = scope->getParentOp();
  return scope;
}

SmallVector<BlockOp> mlir::tir::collectChildBlocks(Operation *op) {
  SmallVector<BlockOp> blocks;
  op->walk<WalkOrder::PreOrder>([&](BlockOp block) {
    if (block == op)
      return WalkResult::advance();
    blocks.push_back(block);
    return WalkResult::skip();
  });
  return blocks;
}

SmallVector<BlockOp> mlir::tir::getScopeBlocks(Operation *root) {
  return root ? collectChildBlocks(root) : SmallVector<BlockOp>{};
}

static bool intersects(ArrayRef<Value> a, ArrayRef<Value> b) {
  return llvm::any_of(a, [&](Value v) { return llvm::is_contained(b, v); });
}

/// The blocks of `scope` before `block` that write what it reads
/// (producers), or after it that read what it writes (consumers).
static SmallVector<BlockOp>
dataNeighbours(BlockOp block, ArrayRef<BlockOp> scope, bool producers) {
  SmallVector<Value> reads, writes;
  getAccessedBuffers(block, reads, writes);
  const BlockOp *self = llvm::find(scope, block);
  auto side = producers
                  ? llvm::make_range(scope.begin(), self)
                  : llvm::make_range(self == scope.end() ? self : self + 1,
                                     scope.end());
  SmallVector<BlockOp> found;
  for (BlockOp other : side) {
    SmallVector<Value> otherReads, otherWrites;
    getAccessedBuffers(other, otherReads, otherWrites);
    if (producers ? intersects(otherWrites, reads)
                  : intersects(otherReads, writes))
      found.push_back(other);
  }
  return found;
}

SmallVector<BlockOp> mlir::tir::getProducersIn(BlockOp block,
                                               ArrayRef<BlockOp> scope) {
  return dataNeighbours(block, scope, /*producers=*/true);
}

SmallVector<BlockOp> mlir::tir::getConsumersIn(BlockOp block,
                                               ArrayRef<BlockOp> scope) {
  return dataNeighbours(block, scope, /*producers=*/false);
}

//===----------------------------------------------------------------------===//
// BlockDependences
//===----------------------------------------------------------------------===//

BlockDependences::BlockDependences(ArrayRef<BlockOp> blocksIn)
    : blocks(blocksIn) {
  unsigned n = blocks.size();
  reads.resize(n);
  writes.resize(n);
  into.resize(n);
  outOf.resize(n);
  llvm::DenseMap<Value, SmallVector<unsigned>> readersOf, writersOf;
  for (auto [i, block] : llvm::enumerate(blocks)) {
    position[block] = i;
    getAccessedBuffers(block, reads[i], writes[i]);
    // Sources of each kind, as a set in first-seen order, then sorted into
    // program order.
    llvm::SetVector<unsigned> raw, waw, war;
    for (Value b : reads[i])
      for (unsigned w : writersOf.lookup(b))
        raw.insert(w);
    for (Value b : writes[i]) {
      for (unsigned w : writersOf.lookup(b))
        waw.insert(w);
      for (unsigned r : readersOf.lookup(b))
        war.insert(r);
    }
    auto add = [&, i = i](llvm::SetVector<unsigned> &srcs,
                          DependenceKind kind) {
      SmallVector<unsigned> sorted(srcs.begin(), srcs.end());
      llvm::sort(sorted);
      for (unsigned s : sorted) {
        Dependence dep{blocks[s], blocks[i], kind};
        into[i].push_back(dep);
        outOf[s].push_back(dep);
      }
    };
    add(raw, DependenceKind::ReadAfterWrite);
    add(waw, DependenceKind::WriteAfterWrite);
    add(war, DependenceKind::WriteAfterRead);
    for (Value b : llvm::SetVector<Value>(reads[i].begin(), reads[i].end()))
      readersOf[b].push_back(i);
    for (Value b : llvm::SetVector<Value>(writes[i].begin(), writes[i].end())) {
      writersOf[b].push_back(i);
      writers[b].push_back(block);
    }
  }
  // outOf lists are in program order of the later block: blocks are
  // visited in order.
}

ArrayRef<Dependence> BlockDependences::getDependents(BlockOp block) const {
  auto it = position.find(block);
  return it == position.end() ? ArrayRef<Dependence>() : outOf[it->second];
}

ArrayRef<Dependence> BlockDependences::getDependences(BlockOp block) const {
  auto it = position.find(block);
  return it == position.end() ? ArrayRef<Dependence>() : into[it->second];
}

SmallVector<BlockOp> BlockDependences::getProducers(BlockOp block) const {
  SmallVector<BlockOp> result;
  for (const Dependence &d : getDependences(block))
    if (d.kind == DependenceKind::ReadAfterWrite)
      result.push_back(d.src);
  return result;
}

SmallVector<BlockOp> BlockDependences::getConsumers(BlockOp block) const {
  SmallVector<BlockOp> result;
  for (const Dependence &d : getDependents(block))
    if (d.kind == DependenceKind::ReadAfterWrite)
      result.push_back(d.dst);
  return result;
}

ArrayRef<BlockOp> BlockDependences::getWriters(Value buffer) const {
  auto it = writers.find(buffer);
  return it == writers.end() ? ArrayRef<BlockOp>() : ArrayRef(it->second);
}

ArrayRef<Value> BlockDependences::getReads(BlockOp block) const {
  auto it = position.find(block);
  return it == position.end() ? ArrayRef<Value>() : ArrayRef(reads[it->second]);
}

ArrayRef<Value> BlockDependences::getWrites(BlockOp block) const {
  auto it = position.find(block);
  return it == position.end() ? ArrayRef<Value>()
                              : ArrayRef(writes[it->second]);
}
