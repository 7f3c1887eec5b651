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
//===----------------------------------------------------------------------===//

#include "TensorIR/Dialect/TIR/Transforms/Passes.h"
#include "TensorIR/Dialect/TIR/Transforms/SoftwarePipeline.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/IRMapping.h"

#include "llvm/ADT/SetVector.h"

#include <numeric>

namespace mlir::tir {
#define GEN_PASS_DEF_TIRINJECTSOFTWAREPIPELINEPASS
#include "TensorIR/Dialect/TIR/Transforms/Passes.h.inc"
} // namespace mlir::tir

using namespace mlir;
using namespace mlir::tir;

namespace {
class PipelineEmitter {
public:
  explicit PipelineEmitter(const SoftwarePipeline &pipeline)
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
  }

  int64_t getUnroll() const { return unroll; }
  ArrayRef<int64_t> getVersions() const { return versions; }

  void run() {
    ForOp loop = p.loop;
    OpBuilder b(loop);
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
        for (unsigned s : byOrder) {
          Value j = p.stages[s] == 0
                        ? t
                        : arith::AddIOp::create(lb, loc, t,
                                                constant(lb, -p.stages[s]));
          emitInstance(lb, s, j, /*phase=*/0);
        }
      };
      makeLoop(b, lower + stages, lower + extent, body);
    } else if (steady > 0) {
      int64_t rounds = steady / unroll;
      auto body = [&](OpBuilder &lb, Location, Value q) {
        Value base = arith::MulIOp::create(lb, loc, q, constant(lb, unroll));
        for (int64_t u = 0; u < unroll; ++u)
          for (unsigned s : byOrder) {
            int64_t rel = stages + u - p.stages[s];
            Value j = lower + rel == 0
                          ? base
                          : arith::AddIOp::create(lb, loc, base,
                                                  constant(lb, lower + rel));
            emitInstance(lb, s, j, rel % unroll);
          }
      };
      if (rounds > 0)
        makeLoop(b, 0, rounds, body, "_0");
      for (int64_t t = stages + rounds * unroll; t < extent; ++t)
        emitConstantStep(b, t);
    }
    // Epilogue: the steps after the last iteration started.
    for (int64_t t = std::max(stages, extent); t < extent + stages; ++t)
      emitConstantStep(b, t);
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

  Value constant(OpBuilder &b, int64_t v) {
    return arith::ConstantIndexOp::create(b, loc, v);
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
    for (unsigned s : byOrder) {
      int64_t j = t - p.stages[s];
      if (j >= 0 && j < extent)
        emitInstance(b, s, constant(b, lower + j), j % unroll);
    }
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
mlir::tir::injectSoftwarePipeline(const SoftwarePipeline &pipeline) {
  PipelineEmitter emitter(pipeline);
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

LogicalResult
mlir::tir::injectSoftwarePipelines(Operation *root,
                                   function_ref<bool(ForOp)> filter) {
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
    if (failed(injectSoftwarePipeline(*p)))
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
