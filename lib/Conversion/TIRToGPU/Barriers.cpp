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
// An asynchronous copy (a store an async pipeline stage marked: cp.async)
// writes its element at some time between its issue and the pipeline's
// next wait: it counts as a write where it is issued (earlier reads must be
// done) and again at every wait (later reads must see it), the wait adding
// its writes without a barrier of its own.
//
//===----------------------------------------------------------------------===//

#include "KernelMemory.h"

#include "TensorIR/Dialect/TIR/Transforms/SoftwarePipeline.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

#include "llvm/ADT/DenseMap.h"

using namespace mlir;
using namespace mlir::tir;

namespace {

/// One access of a workgroup buffer: the buffer, the view of it the access
/// goes through, and the access's index map and operands when the index is
/// known to be the accessing thread's own (null map otherwise: computed
/// from no thread index, or a loop's or a condition's accesses).
struct Access {
  Value buffer, view;
  AffineMap map;
  SmallVector<Value> indices;

  /// Whether the two are at one index of one view, computed from the same
  /// values that depend on the thread: then a thread meets its own access
  /// there, not another thread's (TVM's ThreadSync makes the same
  /// exception).
  bool sameElement(const Access &o) const {
    return buffer == o.buffer && view == o.view && map && map == o.map &&
           indices == o.indices;
  }
  void makeInexact() {
    map = AffineMap();
    indices.clear();
  }
};

/// The workgroup-buffer accesses of a stretch of code.
struct Accesses {
  SmallVector<Access> reads, writes;

  bool empty() const { return reads.empty() && writes.empty(); }
  void clear() {
    reads.clear();
    writes.clear();
  }
  void add(const Accesses &o) {
    llvm::append_range(reads, o.reads);
    llvm::append_range(writes, o.writes);
  }
  /// After a loop or a condition, the same values may stand for another
  /// iteration, or an access may not have happened in every thread.
  void makeInexact() {
    for (Access &a : reads)
      a.makeInexact();
    for (Access &a : writes)
      a.makeInexact();
  }
  /// Whether `next`, run after this without a barrier, could see another
  /// thread's access half done: it reads what this wrote, or writes what
  /// this read, at an element not known to be the thread's own. (Two writes
  /// in a row are no conflict: a thread's writes land in order, and two
  /// threads writing one element unordered is a race of the program
  /// itself, which a barrier would not make right.)
  bool conflictsWith(const Accesses &next) const {
    auto conflict = [](ArrayRef<Access> before, ArrayRef<Access> after) {
      for (const Access &a : after)
        for (const Access &b : before)
          if (a.buffer == b.buffer && !a.sameElement(b))
            return true;
      return false;
    };
    return conflict(writes, next.reads) || conflict(reads, next.writes);
  }
};

class BarrierPlacer {
public:
  explicit BarrierPlacer(gpu::LaunchOp launch) : launch(launch) {
    // Each workgroup buffer (an attribution, or a view of the dynamic
    // shared memory), and the views of it, stand for the buffer.
    SmallVector<Value> roots(launch.getWorkgroupAttributions());
    launch.walk([&](memref::ViewOp view) {
      if (view.getSource().getDefiningOp<gpu::DynamicSharedMemoryOp>())
        roots.push_back(view.getResult());
    });
    for (Value arg : roots) {
      SmallVector<Value> work{arg};
      while (!work.empty()) {
        Value v = work.pop_back_val();
        shared[v] = arg;
        for (Operation *user : v.getUsers())
          if (isa<memref::ReinterpretCastOp, memref::SubViewOp, MatchBufferOp>(
                  user))
            work.push_back(user->getResult(0));
      }
    }
    launch.walk([&](StoreOp store) {
      if (store->hasAttr(kAsyncCopyAttr))
        if (Value buffer = shared.lookup(store.getBuffer());
            buffer && !llvm::is_contained(asyncTargets, buffer))
          asyncTargets.push_back(buffer);
    });
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
  /// The workgroup buffers asynchronous copies write.
  SmallVector<Value> asyncTargets;
  bool failed = false;

  /// The access of `view` at `map(indices)`, its index kept only when the
  /// access is a single op's (`exact`) and the index depends on the thread.
  Access accessOf(Value view, AffineMap map, ValueRange indices, bool exact) {
    gpu::KernelDim3 ids = launch.getThreadIds();
    auto isThreadId = [&](Value x) {
      return x == ids.x || x == ids.y || x == ids.z;
    };
    Access a{shared.lookup(view), view, AffineMap(), {}};
    if (exact && llvm::any_of(indices, [&](Value v) {
          return dependsOn(v, isThreadId);
        })) {
      a.map = map;
      a.indices.assign(indices.begin(), indices.end());
    }
    return a;
  }

  Accesses summarize(Operation *op) {
    Accesses acc;
    // Inside a loop an index differs from one iteration to the next: no
    // element is known to be the thread's own there.
    bool exact = op->getNumRegions() == 0;
    op->walk([&](Operation *inner) {
      if (auto load = dyn_cast<LoadOp>(inner)) {
        if (shared.count(load.getBuffer()))
          acc.reads.push_back(accessOf(load.getBuffer(), load.getMap(),
                                       load.getIndices(), exact));
      } else if (auto store = dyn_cast<StoreOp>(inner)) {
        if (shared.count(store.getBuffer()))
          acc.writes.push_back(accessOf(store.getBuffer(), store.getMap(),
                                        store.getIndices(), exact));
      } else if (auto call = dyn_cast<CallOp>(inner)) {
        // The instructions a kernel may call: ldmatrix, the per-lane
        // 8-bit load and wgmma read the shared tiles they take, a fragment
        // store writes its destination (anywhere in them); any other call
        // is taken to do both.
        ArrayAttr args = call.getArgs();
        auto name = args.empty() ? StringAttr() : dyn_cast<StringAttr>(args[0]);
        // An asynchronous pipeline's commit and wait: no access here
        // (visitSequence counts a wait's).
        if (!getAsyncGroupCallName(inner).empty())
          return;
        bool reads = !name || name.getValue() != "tir.ptx_fragment_store";
        bool writes = !name || (name.getValue() != "tir.ptx_ldmatrix" &&
                                name.getValue() != "tir.ptx_fragment_load_b8" &&
                                name.getValue() != "tir.ptx_wgmma");
        for (Value operand : inner->getOperands()) {
          if (!shared.count(operand))
            continue;
          Access a = accessOf(operand, AffineMap(), ValueRange(), false);
          if (reads)
            acc.reads.push_back(a);
          if (writes)
            acc.writes.push_back(a);
        }
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
    // A statement: region-free ops up to a store (a TVM BufferStore with
    // its loads), whose accesses count together, before the store lands.
    Operation *statementStart = nullptr;
    Accesses statement;
    for (Operation &op : llvm::make_early_inc_range(block)) {
      if (isa<gpu::BarrierOp>(op)) {
        pending.clear();
        statement.clear();
        statementStart = nullptr;
        continue;
      }
      if (StringRef async = getAsyncGroupCallName(&op); !async.empty()) {
        if (!statement.empty()) {
          if (pending.conflictsWith(statement))
            placeBefore(statementStart);
          pending.add(statement);
          statement.clear();
        }
        statementStart = nullptr;
        // At a wait the copies land: later reads need a barrier after it.
        if (async == kWaitGroupName)
          for (Value target : asyncTargets)
            pending.writes.push_back(
                accessOf(target, AffineMap(), ValueRange(), false));
        continue;
      }
      if (op.getNumRegions() == 0) {
        Accesses acc = summarize(&op);
        if (!statementStart)
          statementStart = &op;
        statement.add(acc);
        if (!isa<StoreOp>(op))
          continue;
        if (pending.conflictsWith(statement)) {
          placeBefore(statementStart);
          pending.clear();
        }
        pending.add(statement);
        statement.clear();
        statementStart = nullptr;
        continue;
      }
      // Loads left over before a loop or block count with it.
      Accesses acc = summarize(&op);
      acc.add(statement);
      Operation *start = statementStart ? statementStart : &op;
      Accesses leftover = std::move(statement);
      statement.clear();
      statementStart = nullptr;
      if (acc.empty())
        continue;
      if (pending.conflictsWith(acc)) {
        placeBefore(start);
        pending.clear();
      }
      pending.add(leftover);
      if (auto loop = dyn_cast<ForOp>(op)) {
        std::optional<int64_t> lo = loop.getConstantLowerBound();
        std::optional<int64_t> hi = loop.getConstantUpperBound();
        Accesses before = pending;
        visitSequence(*loop.getBody(), pending);
        if (!lo || !hi || *hi - *lo > 1) {
          // The next iteration: the same values, other elements.
          pending.makeInexact();
          visitSequence(*loop.getBody(), pending);
        }
        pending.makeInexact();
        // A loop that may run no iteration leaves what came before it.
        if (!lo || !hi || *hi <= *lo)
          pending.add(before);
        continue;
      }
      if (auto inner = dyn_cast<BlockOp>(op)) {
        visitSequence(*inner.getBody(), pending);
        // A predicated block may not have run in every thread.
        if (inner.getPredicateAttr() || inner.getCondition())
          pending.makeInexact();
        continue;
      }
      // A condition: either way.
      for (Region &region : op.getRegions())
        for (Block &inner : region) {
          Accesses branch = pending;
          visitSequence(inner, branch);
          branch.makeInexact();
          pending.add(branch);
        }
    }
    // Loads at the end with no store: they count too.
    if (!statement.empty()) {
      if (pending.conflictsWith(statement))
        placeBefore(statementStart);
      pending.add(statement);
    }
  }
};

} // namespace

LogicalResult mlir::tir::insertBarriers(gpu::LaunchOp launch) {
  return BarrierPlacer(launch).run();
}
