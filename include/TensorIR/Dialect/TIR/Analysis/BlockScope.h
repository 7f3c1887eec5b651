//===- BlockScope.h - scopes, producers, consumers, dependences -*- C++ -*-===//
//
// TVM's block scope: the blocks directly under a scope root (a block, or the
// function as the implicit root block), nested in loops but not in another
// block, and the data dependences among them through the buffers they read
// and write.
//
//===----------------------------------------------------------------------===//

#ifndef TENSORIR_DIALECT_TIR_ANALYSIS_BLOCKSCOPE_H
#define TENSORIR_DIALECT_TIR_ANALYSIS_BLOCKSCOPE_H

#include "TensorIR/Dialect/TIR/IR/TIROps.h"

#include "llvm/ADT/DenseMap.h"

namespace mlir::tir {

/// The scope root of `op`: its nearest enclosing tir.block, or the function
/// (the nearest op isolated from above) when there is none.
Operation *getScopeRoot(Operation *op);

/// The blocks under `op` (a block, a loop or a function) that are not
/// inside another block under it, in program order.
SmallVector<BlockOp> collectChildBlocks(Operation *op);

/// The blocks of the scope `root` (collectChildBlocks; none for null).
SmallVector<BlockOp> getScopeBlocks(Operation *root);

/// The blocks of `scope` before `block` that write a buffer it reads
/// (producers), or after it that read a buffer it writes (consumers), in
/// program order.
SmallVector<BlockOp> getProducersIn(BlockOp block, ArrayRef<BlockOp> scope);
SmallVector<BlockOp> getConsumersIn(BlockOp block, ArrayRef<BlockOp> scope);

/// How a later block depends on an earlier one.
enum class DependenceKind {
  ReadAfterWrite,  // the later block reads what the earlier one writes
  WriteAfterWrite, // both write a buffer
  WriteAfterRead,  // the later block writes what the earlier one reads
};

/// One dependence: `dst` comes after `src` and depends on it.
struct Dependence {
  BlockOp src, dst;
  DependenceKind kind;
};

/// The dependences among the blocks of one scope (TVM's BlockScope),
/// computed once over the blocks in program order; each (src, dst, kind)
/// appears once, whatever the number of buffers behind it.
class BlockDependences {
public:
  explicit BlockDependences(ArrayRef<BlockOp> blocks);

  ArrayRef<BlockOp> getBlocks() const { return blocks; }
  /// The dependences of later blocks on `block`, and of `block` on earlier
  /// ones, in program order of the other block.
  ArrayRef<Dependence> getDependents(BlockOp block) const;
  ArrayRef<Dependence> getDependences(BlockOp block) const;
  /// Earlier blocks that write a buffer `block` reads (TVM's producers),
  /// later blocks that read a buffer it writes (consumers).
  SmallVector<BlockOp> getProducers(BlockOp block) const;
  SmallVector<BlockOp> getConsumers(BlockOp block) const;
  /// The blocks of the scope that write `buffer`, in program order.
  ArrayRef<BlockOp> getWriters(Value buffer) const;
  /// The buffers `block` reads and writes (getAccessedBuffers).
  ArrayRef<Value> getReads(BlockOp block) const;
  ArrayRef<Value> getWrites(BlockOp block) const;

private:
  SmallVector<BlockOp> blocks;
  llvm::DenseMap<Operation *, unsigned> position;
  SmallVector<SmallVector<Value>> reads, writes;
  SmallVector<SmallVector<Dependence>> into, outOf;
  llvm::DenseMap<Value, SmallVector<BlockOp>> writers;
};

} // namespace mlir::tir

#endif // TENSORIR_DIALECT_TIR_ANALYSIS_BLOCKSCOPE_H
