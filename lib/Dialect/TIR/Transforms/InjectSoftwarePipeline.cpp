//===- InjectSoftwarePipeline.cpp - pipelined loops rewritten -------------===//
//
// TVM's InjectSoftwarePipeline on tir.for. A loop of `n` iterations whose
// statements have stages up to S becomes S + n steps: step t runs, in the
// annotated order, each statement of stage s on iteration t - s when that
// iteration exists. The first S steps (prologue) and the last S
// (epilogue) are written out with their iterations as constants; the
// steps in between, where every statement has an iteration, form the
// steady loop.
//
// Buffers of one iteration (allocated in the loop's body) get V copies,
// allocated before the pipeline (countPipelineVersions); iteration j
// uses copy j mod V. Where some V is above 1 the steady loop is unrolled
// by the least common multiple U of the copies' numbers (the remaining
// steps written out after it), so each statement instance names its copy:
// TVM indexes one buffer by `j mod V` instead, which would make a
// register tile dynamically indexed and hide from barrier placement that
// two copies are distinct.
//
// Asynchronous stages (in GPU kernels): each step is planned as a list of
// actions (run a statement instance, commit a group of copies, wait for
// groups) and the whole loop simulated once with its iterations as
// constants, so that every wait names exactly how many groups may still be
// in flight: the hardware's groups form one queue per thread, and a wait
// for N leaves the N most recent ones pending.
//
//===----------------------------------------------------------------------===//

#include "TensorIR/Dialect/TIR/Transforms/Passes.h"
#include "TensorIR/Dialect/TIR/Transforms/SoftwarePipeline.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/IRMapping.h"

#include "TensorIR/Dialect/TIR/IR/TIRUtils.h"

#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallPtrSet.h"

#include <map>
#include <numeric>

namespace mlir::tir {
#define GEN_PASS_DEF_TIRINJECTSOFTWAREPIPELINEPASS
#include "TensorIR/Dialect/TIR/Transforms/Passes.h.inc"
} // namespace mlir::tir

using namespace mlir;
using namespace mlir::tir;

namespace {
/// One thing a step of the pipeline does.
struct Action {
  enum Kind { Run, Commit, Wait } kind;
  /// Run: the statement. Commit: the stage whose group it commits. Wait:
  /// the statement about to run, whose groups it waits for.
  unsigned what;
  /// Wait: how many groups may stay pending (the simulation's count).
  int64_t pending = 0;
};

/// Marks the stores of `stmt` that copy global memory into shared memory
/// (a tir.load's value, stored unchanged) as asynchronous copies.
void markAsyncCopies(Operation *stmt) {
  stmt->walk([](StoreOp store) {
    auto load = store.getValue().getDefiningOp<LoadOp>();
    if (!load)
      return;
    auto scope = [](Value buffer) {
      return getStorageScope(
          cast<MemRefType>(getBufferStorage(buffer).getType()));
    };
    StringRef to = scope(store.getBuffer()), from = scope(load.getBuffer());
    if ((to == "shared" || to == "shared.dyn") && from.starts_with("global"))
      store->setAttr(kAsyncCopyAttr, UnitAttr::get(store.getContext()));
  });
}

class PipelineEmitter {
public:
  PipelineEmitter(const SoftwarePipeline &pipeline, bool asyncCopies)
      : p(pipeline), loc(p.loop.getLoc()),
        lower(*p.loop.getConstantLowerBound()),
        extent(*p.loop.getConstantUpperBound() - lower),
        versions(countPipelineVersions(p)) {
    for (int64_t v : versions)
      unroll = std::lcm(unroll, v);
    for (unsigned s = 0, e = p.statements.size(); s < e; ++s)
      byOrder.push_back(s);
    llvm::sort(byOrder, [&](unsigned a, unsigned b) {
      return p.orders[a] < p.orders[b];
    });
    collectRecomputed();
    if (asyncCopies)
      collectAsync();
    plan();
  }

  int64_t getUnroll() const { return unroll; }
  ArrayRef<int64_t> getVersions() const { return versions; }

  void run() {
    ForOp loop = p.loop;
    OpBuilder b(loop);
    for (auto [s, stmt] : llvm::enumerate(p.statements))
      if (isAsync[s])
        markAsyncCopies(stmt);
    // The copies of the iteration's buffers.
    for (auto [alloc, count] : llvm::zip(p.allocations, versions)) {
      copies.emplace_back();
      for (int64_t v = 0; v < count; ++v)
        copies.back().push_back(b.clone(*alloc)->getResult(0));
    }
    int64_t stages = p.maxStage;
    // Prologue: steps [0, S), iterations not yet all started.
    for (int64_t t = 0; t < stages; ++t)
      emitConstantStep(b, t);
    // Steady steps [S, n): every statement has its iteration.
    int64_t steady = extent - stages;
    if (steady > 0 && unroll == 1) {
      auto body = [&](OpBuilder &lb, Location, Value t) {
        for (const Action &a : steadyActions(stages, 1, steady))
          emitAction(lb, a, [&](unsigned s) -> std::pair<Value, int64_t> {
            Value j = p.stages[s] == 0
                          ? t
                          : arith::AddIOp::create(lb, loc, t,
                                                  constant(lb, -p.stages[s]));
            return {j, 0};
          });
      };
      makeLoop(b, lower + stages, lower + extent, body);
    } else if (steady > 0) {
      int64_t rounds = steady / unroll;
      auto body = [&](OpBuilder &lb, Location, Value q) {
        Value base = arith::MulIOp::create(lb, loc, q, constant(lb, unroll));
        for (int64_t u = 0; u < unroll; ++u)
          for (const Action &a : steadyActions(stages + u, unroll, rounds))
            emitAction(lb, a, [&](unsigned s) -> std::pair<Value, int64_t> {
              int64_t rel = stages + u - p.stages[s];
              Value j = lower + rel == 0
                            ? base
                            : arith::AddIOp::create(lb, loc, base,
                                                    constant(lb, lower + rel));
              return {j, rel % unroll};
            });
      };
      if (rounds > 0)
        makeLoop(b, 0, rounds, body, "_0");
      for (int64_t t = stages + rounds * unroll; t < extent; ++t)
        emitConstantStep(b, t);
    }
    // Epilogue: the steps after the last iteration started.
    for (int64_t t = std::max(stages, extent); t < extent + stages; ++t)
      emitConstantStep(b, t);
    // Copies nothing in the loop waited for land before what follows.
    if (waitAtEnd)
      emitWait(b, 0);
    loop.erase();
  }

private:
  SoftwarePipeline p;
  Location loc;
  int64_t lower, extent;
  SmallVector<int64_t> versions;
  int64_t unroll = 1;
  SmallVector<unsigned> byOrder;
  /// Per statement, the ops of the body it uses (side-effect free, in
  /// program order), recomputed for each instance.
  SmallVector<SmallVector<Operation *>> recomputed;
  /// Per allocation, its copies.
  SmallVector<SmallVector<Value>> copies;
  /// Per statement: whether its stage is asynchronous; the asynchronous
  /// statements that write a buffer it touches earlier in the same
  /// iteration (its wait is for their groups).
  SmallVector<bool> isAsync;
  SmallVector<SmallVector<unsigned>> waitsFor;
  /// With async stages, per step, its actions (waits with their exact
  /// counts); empty otherwise (stepActions gives them).
  std::vector<SmallVector<Action>> steps;
  /// Whether groups are left pending after the last step.
  bool waitAtEnd = false;

  Value constant(OpBuilder &b, int64_t v) {
    return arith::ConstantIndexOp::create(b, loc, v);
  }

  void collectAsync() {
    for (int64_t stage : p.stages)
      isAsync.push_back(llvm::is_contained(p.asyncStages, stage));
    waitsFor = getEarlierWriters(p, [&](unsigned x) { return isAsync[x]; });
  }

  /// The actions of step `t` (waits without counts): each statement whose
  /// iteration exists, in order; before one that touches what an async
  /// group of its iteration writes, that group committed (if this step
  /// issued it) and waited for (once per step); after the last statement
  /// of an async stage, its group committed.
  SmallVector<Action> stepActions(int64_t t) const {
    SmallVector<Action> out;
    auto present = [&](unsigned s) {
      int64_t j = t - p.stages[s];
      return j >= 0 && j < extent;
    };
    llvm::SmallDenseSet<int64_t, 4> open;
    llvm::SmallDenseSet<std::pair<int64_t, int64_t>, 4> waited;
    for (auto [pos, s] : llvm::enumerate(byOrder)) {
      if (!present(s))
        continue;
      if (!isAsync.empty()) {
        bool wait = false;
        for (unsigned x : waitsFor[s]) {
          int64_t stage = p.stages[x];
          if (stage == p.stages[s] && open.erase(stage))
            out.push_back({Action::Commit, static_cast<unsigned>(stage)});
          wait |= waited.insert({stage, p.stages[s]}).second;
        }
        if (wait)
          out.push_back({Action::Wait, s});
      }
      out.push_back({Action::Run, s});
      if (isAsync.empty() || !isAsync[s])
        continue;
      int64_t stage = p.stages[s];
      open.insert(stage);
      bool last = llvm::none_of(
          ArrayRef<unsigned>(byOrder).drop_front(pos + 1), [&](unsigned r) {
            return isAsync[r] && p.stages[r] == stage && present(r);
          });
      if (last && open.erase(stage))
        out.push_back({Action::Commit, static_cast<unsigned>(stage)});
    }
    return out;
  }

  /// With async stages, every step's actions, the loop run once in order: a
  /// commit numbers its group (stage, iteration); a wait before statement s of
  /// iteration j leaves pending the groups committed after the last one s
  /// needs.
  void plan() {
    if (isAsync.empty() || llvm::none_of(isAsync, [](bool a) { return a; }))
      return;
    int64_t total = extent + p.maxStage;
    steps.reserve(total);
    std::map<std::pair<int64_t, int64_t>, int64_t> lastCommit;
    int64_t commits = 0, landed = 0;
    for (int64_t t = 0; t < total; ++t) {
      SmallVector<Action> actions = stepActions(t);
      for (Action &a : actions) {
        if (a.kind == Action::Commit) {
          lastCommit[{a.what, t - a.what}] = commits++;
        } else if (a.kind == Action::Wait) {
          int64_t j = t - p.stages[a.what], needed = -1;
          for (unsigned x : waitsFor[a.what]) {
            auto it = lastCommit.find({p.stages[x], j});
            assert(it != lastCommit.end() && "a group waited before commit");
            needed = std::max(needed, it->second);
          }
          a.pending = commits - 1 - needed;
          landed = std::max(landed, needed + 1);
        }
      }
      steps.push_back(std::move(actions));
    }
    waitAtEnd = landed < commits;
  }

  /// The actions of the steady loop's body for step `first` (all
  /// statements present), each wait leaving pending the fewest groups any
  /// of the steps `first + k * stride`, k < count, allows.
  SmallVector<Action> steadyActions(int64_t first, int64_t stride,
                                    int64_t count) const {
    if (steps.empty())
      return stepActions(first);
    SmallVector<Action> out = steps[first];
    for (int64_t k = 1; k < count; ++k)
      for (auto [a, other] : llvm::zip(out, steps[first + k * stride]))
        a.pending = std::min(a.pending, other.pending);
    return out;
  }

  void emitCall(OpBuilder &b, StringRef name, ArrayRef<Attribute> literals) {
    SmallVector<Attribute> args{b.getStringAttr(name)};
    llvm::append_range(args, literals);
    CallOp::create(b, loc, TypeRange{}, b.getStringAttr("call_extern"),
                   ValueRange{}, b.getArrayAttr(args));
  }
  void emitWait(OpBuilder &b, int64_t pending) {
    emitCall(b, kWaitGroupName, {b.getI32IntegerAttr(pending)});
  }

  /// Emits `a`; `iteration` gives a statement's iteration and phase.
  void emitAction(OpBuilder &b, const Action &a,
                  function_ref<std::pair<Value, int64_t>(unsigned)> iteration) {
    switch (a.kind) {
    case Action::Commit:
      emitCall(b, kCommitGroupName, {});
      return;
    case Action::Wait:
      emitWait(b, a.pending);
      return;
    case Action::Run: {
      auto [j, phase] = iteration(a.what);
      emitInstance(b, a.what, j, phase);
      return;
    }
    }
  }

  void collectRecomputed() {
    Block *body = p.loop.getBody();
    for (Operation *stmt : p.statements) {
      llvm::SmallPtrSet<Operation *, 16> needed;
      SmallVector<Value> work;
      stmt->walk(
          [&](Operation *op) { llvm::append_range(work, op->getOperands()); });
      while (!work.empty()) {
        Operation *def = work.pop_back_val().getDefiningOp();
        if (!def || def->getBlock() != body ||
            llvm::is_contained(p.allocations, def) ||
            !needed.insert(def).second)
          continue;
        llvm::append_range(work, def->getOperands());
      }
      recomputed.emplace_back();
      for (Operation &op : *body)
        if (needed.contains(&op))
          recomputed.back().push_back(&op);
    }
  }

  /// Statement `s` of iteration `j`, whose distance from the first
  /// iteration is `phase` modulo the unroll factor: it uses copy `phase mod
  /// V` of each buffer of the iteration.
  void emitInstance(OpBuilder &b, unsigned s, Value j, int64_t phase) {
    IRMapping map;
    map.map(p.loop.getInductionVar(), j);
    for (auto [alloc, list] : llvm::zip(p.allocations, copies))
      map.map(alloc->getResult(0), list[phase % list.size()]);
    for (Operation *op : recomputed[s])
      b.clone(*op, map);
    b.clone(*p.statements[s], map);
  }

  /// Step `t` with constant iterations: each statement whose iteration
  /// exists.
  void emitConstantStep(OpBuilder &b, int64_t t) {
    for (const Action &a : steps.empty() ? stepActions(t) : steps[t])
      emitAction(b, a, [&](unsigned s) -> std::pair<Value, int64_t> {
        int64_t j = t - p.stages[s];
        return {constant(b, lower + j), j % unroll};
      });
  }

  /// A loop like the pipelined one (kind, name, other annotations) over
  /// [from, to); unrolled by U it counts rounds of U steps, named like the
  /// outer loop of a split (`k_0`).
  void makeLoop(OpBuilder &b, int64_t from, int64_t to,
                function_ref<void(OpBuilder &, Location, Value)> body,
                StringRef suffix = "") {
    ForOp loop = p.loop;
    std::string name = loop.getVarName().value_or("").str();
    auto steady = ForOp::create(
        b, loc, from, to, name.empty() ? name : name + suffix.str(), body);
    steady.setKind(loop.getKind());
    if (DictionaryAttr annotations = loop.getAnnotationsAttr()) {
      NamedAttrList kept;
      for (NamedAttribute a : annotations)
        if (a.getName() != kPipelineStageKey &&
            a.getName() != kPipelineOrderKey &&
            a.getName() != kPipelineAsyncStagesKey)
          kept.push_back(a);
      if (!kept.empty())
        steady.setAnnotationsAttr(kept.getDictionary(loop.getContext()));
    }
  }
};
} // namespace

LogicalResult
mlir::tir::injectSoftwarePipeline(const SoftwarePipeline &pipeline,
                                  bool asyncCopies) {
  PipelineEmitter emitter(pipeline, asyncCopies);
  if (emitter.getUnroll() > kMaxPipelineUnroll) {
    ForOp loop = pipeline.loop;
    InFlightDiagnostic diag =
        loop.emitOpError("loop '")
        << loop.getVarName().value_or("")
        << "' cannot be software-pipelined: its buffers of one iteration "
           "need ";
    llvm::interleaveComma(emitter.getVersions(), diag);
    return diag << " copies, which would unroll the steady loop "
                << emitter.getUnroll() << " times (at most "
                << kMaxPipelineUnroll
                << "): give the statements that share a buffer closer stages";
  }
  emitter.run();
  return success();
}

LogicalResult mlir::tir::injectSoftwarePipelines(
    Operation *root, function_ref<bool(ForOp)> filter, bool asyncCopies) {
  SmallVector<ForOp> loops;
  root->walk([&](ForOp loop) {
    if (hasSoftwarePipelineAnnotation(loop) && (!filter || filter(loop)))
      loops.push_back(loop);
  });
  // A pipeline becomes several statements: one directly in the body of
  // another pipelined loop would change that loop's statements.
  for (ForOp loop : loops)
    if (auto parent = dyn_cast<ForOp>(loop->getParentOp());
        parent && hasSoftwarePipelineAnnotation(parent))
      return loop.emitOpError("loop '")
             << loop.getVarName().value_or("")
             << "' cannot be software-pipelined: it is a statement of "
                "pipelined loop '"
             << parent.getVarName().value_or("")
             << "' (nested pipelines are supported under a statement, not "
                "as one)";
  for (ForOp loop : loops) {
    FailureOr<SoftwarePipeline> p = readSoftwarePipeline(loop);
    if (failed(p))
      return failure();
    if (failed(injectSoftwarePipeline(*p, asyncCopies)))
      return failure();
  }
  return success();
}

namespace {
struct TIRInjectSoftwarePipelinePass
    : public tir::impl::TIRInjectSoftwarePipelinePassBase<
          TIRInjectSoftwarePipelinePass> {
  void runOnOperation() override {
    if (failed(checkSoftwarePipelines(getOperation())) ||
        failed(injectSoftwarePipelines(getOperation())))
      signalPassFailure();
  }
};
} // namespace
