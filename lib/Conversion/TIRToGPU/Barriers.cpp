//===- Barriers.cpp - barriers between threads sharing memory -------------===//
//
// TVM's ThreadSync for shared memory, on a kernel's body: statements run
// in every thread of the block, one after another; where a statement reads
// a workgroup buffer that an earlier one wrote (since the last barrier), or
// writes one that an earlier one read, the threads wait for each other
// first. The barrier goes before the outermost statement of the
// sequence that holds the access, so a loop of copies into shared memory
// is preceded by one barrier, not one per copy. A loop's body is walked
// twice: the second time its statements see what the end of the previous
// iteration left (a copy at the top of `k` overwrites what the computation
// at the bottom of the previous iteration read).
//
//===----------------------------------------------------------------------===//

#include "KernelMemory.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

#include "llvm/ADT/DenseSet.h"

using namespace mlir;
using namespace mlir::tir;

namespace {

/// The workgroup buffers a stretch of code reads and writes.
struct Accesses {
  llvm::SmallDenseSet<Value, 4> reads, writes;

  bool empty() const { return reads.empty() && writes.empty(); }
  void clear() {
    reads.clear();
    writes.clear();
  }
  void add(const Accesses &o) {
    reads.insert(o.reads.begin(), o.reads.end());
    writes.insert(o.writes.begin(), o.writes.end());
  }
  /// Whether `next`, run after this without a barrier, could see another
  /// thread's access half done: it reads what this wrote, or writes what
  /// this read. (Two writes in a row are no conflict: a thread's writes
  /// land in order, and two threads writing one element unordered is a
  /// race of the program itself, which a barrier would not make right.)
  bool conflictsWith(const Accesses &next) const {
    for (Value v : next.reads)
      if (writes.contains(v))
        return true;
    for (Value v : next.writes)
      if (reads.contains(v))
        return true;
    return false;
  }
};

class BarrierPlacer {
public:
  explicit BarrierPlacer(gpu::LaunchOp launch) : launch(launch) {
    // Each workgroup buffer, and the views of it, stand for the buffer.
    for (BlockArgument arg : launch.getWorkgroupAttributions()) {
      SmallVector<Value> work{arg};
      while (!work.empty()) {
        Value v = work.pop_back_val();
        shared[v] = arg;
        for (Operation *user : v.getUsers())
          if (isa<memref::ReinterpretCastOp, memref::SubViewOp>(user))
            work.push_back(user->getResult(0));
      }
    }
  }

  LogicalResult run() {
    if (shared.empty())
      return success();
    Accesses pending;
    visitSequence(launch.getBody().front(), pending);
    return failure(failed);
  }

private:
  gpu::LaunchOp launch;
  llvm::SmallDenseMap<Value, Value, 4> shared;
  bool failed = false;

  Accesses summarize(Operation *op) {
    Accesses acc;
    op->walk([&](Operation *inner) {
      if (auto load = dyn_cast<LoadOp>(inner)) {
        if (auto it = shared.find(load.getBuffer()); it != shared.end())
          acc.reads.insert(it->second);
      } else if (auto store = dyn_cast<StoreOp>(inner)) {
        if (auto it = shared.find(store.getBuffer()); it != shared.end())
          acc.writes.insert(it->second);
      }
    });
    return acc;
  }

  /// A barrier before `op`, unless some thread may not reach it.
  void placeBefore(Operation *op) {
    for (Operation *p = op->getParentOp(); p && p != launch;
         p = p->getParentOp()) {
      auto block = dyn_cast<BlockOp>(p);
      if (isa<scf::IfOp>(p) ||
          (block && (block.getPredicateAttr() || block.getCondition()))) {
        op->emitOpError("needs a barrier before it (it reads or writes "
                        "shared memory that other threads access before "
                        "it), but it runs under a condition that not every "
                        "thread of the block meets (a predicate, or a loop "
                        "bound to a thread index with fewer iterations "
                        "than the block has threads): the threads would "
                        "wait for each other forever");
        failed = true;
        return;
      }
    }
    OpBuilder b(op);
    gpu::BarrierOp::create(b, op->getLoc());
  }

  /// Walks the statements of `block`, with `pending` the accesses since
  /// the last barrier before it; leaves in `pending` those at its end.
  void visitSequence(Block &block, Accesses &pending) {
    for (Operation &op : llvm::make_early_inc_range(block)) {
      if (isa<gpu::BarrierOp>(op)) {
        pending.clear();
        continue;
      }
      Accesses acc = summarize(&op);
      if (acc.empty())
        continue;
      if (pending.conflictsWith(acc)) {
        placeBefore(&op);
        pending.clear();
      }
      if (op.getNumRegions() == 0) {
        pending.add(acc);
        continue;
      }
      if (auto loop = dyn_cast<ForOp>(op)) {
        visitSequence(*loop.getBody(), pending);
        std::optional<int64_t> lo = loop.getConstantLowerBound();
        std::optional<int64_t> hi = loop.getConstantUpperBound();
        if (!lo || !hi || *hi - *lo > 1)
          visitSequence(*loop.getBody(), pending);
        continue;
      }
      if (auto inner = dyn_cast<BlockOp>(op)) {
        visitSequence(*inner.getBody(), pending);
        continue;
      }
      // A condition: either way.
      for (Region &region : op.getRegions())
        for (Block &inner : region) {
          Accesses branch = pending;
          visitSequence(inner, branch);
          pending.add(branch);
        }
    }
  }
};

} // namespace

LogicalResult mlir::tir::insertBarriers(gpu::LaunchOp launch) {
  return BarrierPlacer(launch).run();
}
