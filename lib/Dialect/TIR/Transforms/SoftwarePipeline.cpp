//===- SoftwarePipeline.cpp - reading and checking a pipelined loop -------===//
//
// The annotations of a software-pipelined loop, and the rule that makes
// the pipeline run the same program: each statement instance (statement S
// of iteration j) runs at step j + stage(S), the statements of a step in
// their annotated order, so two instances that touch one element (one of
// them writing) must keep their order. Within an iteration that is TVM's
// rule (ValidatePipelineBody), applied to every such pair, not only to a
// write followed by a read. Across iterations TVM checks nothing; here a
// pair whose steps could swap the iterations' order is allowed only when
// its parts of the buffer cannot overlap between different iterations (a
// tile of a cache that each iteration fills anew), or when the buffer is
// one iteration's (then it gets enough copies: countPipelineVersions).
//
//===----------------------------------------------------------------------===//

#include "TensorIR/Dialect/TIR/Transforms/SoftwarePipeline.h"
#include "TensorIR/Dialect/TIR/Arith/Simplify.h"

#include "TensorIR/Dialect/TIR/Analysis/RegionRelax.h"
#include "TensorIR/Dialect/TIR/IR/TIRIndexExpr.h"
#include "TensorIR/Dialect/TIR/IR/TIRUtils.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

#include "llvm/ADT/MapVector.h"

using namespace mlir;
using namespace mlir::tir;

static std::string loopName(ForOp loop) {
  return loop.getVarName().value_or("").str();
}

/// What a diagnostic calls a statement: its blocks' names, quoted (the
/// op's name when it holds no block).
static std::string blockNames(Operation *stmt) {
  SmallVector<std::string> names;
  stmt->walk<WalkOrder::PreOrder>([&](BlockOp block) {
    std::string name = ("'" + block.getBlockName() + "'").str();
    if (!llvm::is_contained(names, name))
      names.push_back(name);
  });
  return names.empty() ? ("'" + stmt->getName().getStringRef() + "'").str()
                       : llvm::join(names, ", ");
}

std::string SoftwarePipeline::describe(unsigned i) const {
  return "statement " + std::to_string(i) + " (" + blockNames(statements[i]) +
         ", stage " + std::to_string(stages[i]) + ", order " +
         std::to_string(orders[i]) + ")";
}

bool mlir::tir::hasSoftwarePipelineAnnotation(ForOp loop) {
  DictionaryAttr annotations = loop.getAnnotationsAttr();
  return annotations && (annotations.get(kPipelineStageKey) ||
                         annotations.get(kPipelineOrderKey));
}

FailureOr<SoftwarePipeline> mlir::tir::readSoftwarePipeline(ForOp loop) {
  SoftwarePipeline p;
  p.loop = loop;
  for (Operation &op : *loop.getBody()) {
    if (isa<memref::AllocaOp>(op))
      p.allocations.push_back(&op);
    else if (op.getNumRegions() != 0 || !isMemoryEffectFree(&op))
      p.statements.push_back(&op);
  }
  auto refuse = [&]() {
    InFlightDiagnostic diag = loop.emitOpError("loop '")
                              << loopName(loop)
                              << "' cannot be software-pipelined: ";
    return diag;
  };
  auto statementList = [&]() {
    std::string text;
    for (auto [i, stmt] : llvm::enumerate(p.statements))
      text += (i ? "; " : "") + blockNames(stmt);
    return text;
  };
  DictionaryAttr annotations = loop.getAnnotationsAttr();
  Attribute stageAttr =
      annotations ? annotations.get(kPipelineStageKey) : Attribute();
  Attribute orderAttr =
      annotations ? annotations.get(kPipelineOrderKey) : Attribute();
  if (!stageAttr || !orderAttr)
    return refuse() << "it has '"
                    << (stageAttr ? kPipelineStageKey : kPipelineOrderKey)
                    << "' but no '"
                    << (stageAttr ? kPipelineOrderKey : kPipelineStageKey)
                    << "' (a pipeline needs both)";
  if (loop.getKind() != ForKind::Serial && loop.getKind() != ForKind::Unrolled)
    return refuse() << "its iterations run at once ('"
                    << stringifyForKind(loop.getKind())
                    << "'): a pipeline overlaps consecutive iterations of a "
                       "serial or unrolled loop";
  if (!loop.getConstantLowerBound() || !loop.getConstantUpperBound())
    return refuse() << "its bounds are not constants (runtime bounds are not "
                       "supported yet)";
  for (auto [key, attr, out] :
       {std::tuple{kPipelineStageKey, stageAttr, &p.stages},
        std::tuple{kPipelineOrderKey, orderAttr, &p.orders}}) {
    std::optional<SmallVector<int64_t>> values = readIntegerList(attr);
    if (!values)
      return refuse() << "'" << key << "' is " << attr
                      << ", not a list of integers";
    if (values->size() != p.statements.size())
      return refuse() << "'" << key << "' has " << values->size()
                      << " entries, but the loop's body has "
                      << p.statements.size()
                      << " statements, one entry each: " << statementList();
    *out = std::move(*values);
  }
  for (auto [i, stmt] : llvm::enumerate(p.statements))
    if (!stmt->use_empty())
      return refuse() << "statement " << i << " ('"
                      << stmt->getName().getStringRef()
                      << "') gives a value other ops use";
  for (Operation *alloc : p.allocations)
    for (Value size : alloc->getOperands())
      if (loop->isAncestor(size.getParentBlock()->getParentOp()))
        return refuse() << "the size of buffer '"
                        << getBufferName(alloc->getResult(0))
                        << "' is computed in the loop";
  for (auto [i, stage] : llvm::enumerate(p.stages)) {
    if (stage < 0)
      return refuse() << "stage " << stage << " of statement " << i
                      << " is negative";
    if (stage > kMaxPipelineStage)
      return refuse() << "stage " << stage << " of statement " << i
                      << " is over " << kMaxPipelineStage
                      << " (the prologue and epilogue are written out, one "
                         "step per stage)";
    p.maxStage = std::max(p.maxStage, stage);
  }
  SmallVector<bool> seen(p.orders.size(), false);
  for (auto [i, order] : llvm::enumerate(p.orders)) {
    if (order < 0 || order >= static_cast<int64_t>(p.orders.size()) ||
        seen[order])
      return refuse() << "'" << kPipelineOrderKey << "' must hold 0 to "
                      << p.orders.size() - 1 << ", each once (statement " << i
                      << " has order " << order << ")";
    seen[order] = true;
  }
  if (Attribute async = annotations ? annotations.get(kPipelineAsyncStagesKey)
                                    : Attribute()) {
    std::optional<SmallVector<int64_t>> stages = readIntegerList(async);
    if (!stages)
      return refuse() << "'" << kPipelineAsyncStagesKey << "' is " << async
                      << ", not a list of integers";
    for (int64_t stage : *stages) {
      if (!llvm::is_contained(p.stages, stage))
        return refuse() << "'" << kPipelineAsyncStagesKey << "' names stage "
                        << stage
                        << ", which no statement has (stages: " << stageAttr
                        << ")";
      if (!llvm::is_contained(p.asyncStages, stage))
        p.asyncStages.push_back(stage);
    }
    llvm::sort(p.asyncStages);
  }
  return p;
}

namespace {
/// One statement's accesses of one buffer.
struct BufferUse {
  unsigned statement;
  bool reads = false, writes = false;
  /// The blocks holding the accesses (the outermost in the statement).
  SmallVector<BlockOp> blocks;
  /// Why the part of the buffer the statement touches cannot be taken from
  /// its blocks' regions ("" when it can).
  std::string unbounded;
};
} // namespace

/// Whether `buffer` reaches its memory through tir.match_buffer only (the
/// blocks' regions then describe the accesses).
static bool isDirect(Value buffer) {
  while (auto match = buffer.getDefiningOp<MatchBufferOp>())
    buffer = match.getSource();
  return buffer == getBufferStorage(buffer);
}

/// The key standing for memory that ops of unknown effects (a tir.call
/// given no buffer) may touch.
static Value unseenMemory() { return Value(); }

/// Per buffer (the memory, through views), the statements that access it,
/// in program order. Buffers allocated inside a statement are left out
/// (one statement's own). A statement holding an op of unknown effects
/// that is given no buffer accesses every buffer (and unseenMemory()).
static llvm::MapVector<Value, SmallVector<BufferUse>>
collectUses(const SoftwarePipeline &p) {
  llvm::MapVector<Value, SmallVector<BufferUse>> uses;
  SmallVector<unsigned> opaque;
  for (auto [i, stmt] : llvm::enumerate(p.statements)) {
    llvm::MapVector<Value, BufferUse> mine;
    bool touchesAll = false;
    auto note = [&, i = i, stmt = stmt](Value buffer, bool reads, bool writes,
                                        Operation *at, StringRef why = "") {
      Value storage = getBufferStorage(buffer);
      Operation *def = storage.getDefiningOp();
      if (!def)
        def = storage.getParentBlock()->getParentOp();
      if (stmt->isAncestor(def))
        return;
      BufferUse &use = mine[storage];
      use.statement = i;
      use.reads |= reads;
      use.writes |= writes;
      // The outermost block in the statement around the access: its
      // region covers the blocks nested in it.
      BlockOp block = dyn_cast<BlockOp>(at);
      for (Operation *o = at; o && o != stmt->getParentOp();
           o = o->getParentOp())
        if (auto b = dyn_cast<BlockOp>(o))
          block = b;
      if (!why.empty())
        use.unbounded = why.str();
      else if (!isDirect(buffer))
        use.unbounded = "it is accessed through a view";
      else if (!isa<MemRefType>(storage.getType()))
        use.unbounded = "it has no rank";
      else if (!block)
        use.unbounded = "it is accessed outside every block";
      if (block && !llvm::is_contained(use.blocks, block))
        use.blocks.push_back(block);
    };
    stmt->walk([&](Operation *op) {
      if (auto load = dyn_cast<LoadOp>(op)) {
        note(load.getBuffer(), true, false, op);
      } else if (auto store = dyn_cast<StoreOp>(op)) {
        note(store.getBuffer(), false, true, op);
      } else if (auto block = dyn_cast<BlockOp>(op)) {
        for (Value buffer : block.getReadBuffers())
          note(buffer, true, false, op);
        for (Value buffer : block.getWriteBuffers())
          note(buffer, false, true, op);
      } else if (!isa<ForOp, InitOp, MatchBufferOp>(op) &&
                 !isMemoryEffectFree(op)) {
        // Allocations and frees of the statement's own buffers aside, an
        // op with effects (a call of an intrinsic, of unknown effects)
        // may read and write the buffers it is given, or, given none, any.
        SmallVector<MemoryEffects::EffectInstance> effects;
        auto iface = dyn_cast<MemoryEffectOpInterface>(op);
        if (iface) {
          iface.getEffects(effects);
          if (llvm::all_of(effects, [](const auto &e) {
                return isa<MemoryEffects::Allocate, MemoryEffects::Free>(
                    e.getEffect());
              }))
            return;
        }
        bool given = false;
        for (Value operand : op->getOperands())
          if (isa<BaseMemRefType>(operand.getType())) {
            note(operand, true, true, op,
                 ("it is given to '" + op->getName().getStringRef() + "'")
                     .str());
            given = true;
          }
        if (!given)
          touchesAll = true;
      }
    });
    if (touchesAll)
      opaque.push_back(i);
    for (auto &[buffer, use] : mine)
      uses[buffer].push_back(use);
  }
  for (unsigned i : opaque) {
    std::string why = "statement " + std::to_string(i) +
                      " has an op of unknown effects that is given no buffer";
    for (auto &[buffer, list] : uses) {
      auto it = llvm::find_if(
          list, [&](const BufferUse &u) { return u.statement == i; });
      if (it == list.end()) {
        BufferUse use;
        use.statement = i;
        it = list.insert(
            llvm::find_if(list,
                          [&](const BufferUse &u) { return u.statement > i; }),
            use);
      }
      it->reads = it->writes = true;
      it->unbounded = why;
    }
    BufferUse use;
    use.statement = i;
    use.reads = use.writes = true;
    use.unbounded = why;
    uses[unseenMemory()].push_back(use);
  }
  return uses;
}

/// The fewest copies a buffer needs for the pair (`x` of an iteration, `y`
/// of a later one at a distance that is a multiple of the copies) to keep
/// that order: x runs at step j + s_x, y at j + m + s_y.
static int64_t versionsFor(const SoftwarePipeline &p, const BufferUse &x,
                           const BufferUse &y) {
  if (!x.writes && !y.writes)
    return 1;
  int64_t apart = p.stages[x.statement] - p.stages[y.statement];
  int64_t need =
      p.orders[x.statement] < p.orders[y.statement] ? apart : apart + 1;
  return std::max<int64_t>(need, 1);
}

/// The regions of a buffer that `use` reads and writes in one iteration
/// of the loop; failure, saying why in `why`, when they cannot be bounded.
static FailureOr<SmallVector<LoopRegion>>
regionsOf(ForOp loop, Value buffer, const BufferUse &use, Refusal &why) {
  if (!use.unbounded.empty()) {
    why.message = use.unbounded;
    return failure();
  }
  SmallVector<LoopRegion> regions;
  for (bool writes : {false, true}) {
    if ((writes && !use.writes) || (!writes && !use.reads))
      continue;
    Refusal failure;
    FailureOr<LoopRegion> region =
        relaxRegionUnder(loop, buffer, writes, use.blocks, failure);
    if (mlir::failed(region) || region->lowers.empty()) {
      why.message = mlir::failed(region) && !failure.message.empty()
                        ? failure.message
                        : std::string("its blocks' ") +
                              (writes ? "write" : "read") +
                              " regions do not list it";
      return mlir::failure();
    }
    regions.push_back(*region);
  }
  return regions;
}

/// Whether the part `a` of a buffer in iteration j and the part `b` in
/// any other iteration j' cannot overlap: in some dimension both start at
/// `c * j` plus the same offsets up to a constant `delta`, and moving by c
/// or more clears the other's extent on both sides.
static bool apartAcrossIterations(ForOp loop, const LoopRegion &a,
                                  const LoopRegion &b) {
  if (a.lowers.size() != b.lowers.size())
    return false;
  MLIRContext *ctx = loop.getContext();
  SmallVector<Value> inputs(a.inputs);
  SmallVector<AffineExpr> bDims;
  for (Value v : b.inputs) {
    auto it = llvm::find(inputs, v);
    if (it == inputs.end()) {
      inputs.push_back(v);
      it = inputs.end() - 1;
    }
    bDims.push_back(getAffineDimExpr(it - inputs.begin(), ctx));
  }
  unsigned numInputs = inputs.size();
  auto it = llvm::find(inputs, loop.getInductionVar());
  std::optional<AffineExpr> j;
  if (it != inputs.end())
    j = getAffineDimExpr(it - inputs.begin(), ctx);
  auto constant = [&](AffineExpr e) -> std::optional<int64_t> {
    if (auto c =
            dyn_cast<AffineConstantExpr>(simplifyIndexExpr(e, numInputs, 0)))
      return c.getValue();
    return std::nullopt;
  };
  // How far the start moves from one iteration to the next.
  auto step = [&](AffineExpr lower) -> std::optional<int64_t> {
    if (!j)
      return 0;
    return constant(lower.replace(*j, *j + 1) - lower);
  };
  for (unsigned d = 0, e = a.lowers.size(); d < e; ++d) {
    auto ea = dyn_cast<AffineConstantExpr>(a.extents[d]);
    auto eb = dyn_cast<AffineConstantExpr>(b.extents[d]);
    if (!ea || !eb)
      continue;
    AffineExpr la = a.lowers[d];
    AffineExpr lb = b.lowers[d].replaceDims(bDims);
    std::optional<int64_t> ca = step(la), cb = step(lb);
    std::optional<int64_t> delta = constant(la - lb);
    if (!ca || !cb || *ca != *cb || !delta)
      continue;
    int64_t c = std::abs(*ca);
    // a's part of iteration j + m against b's of iteration j, m != 0.
    if (c > 0 ? (*delta + c >= eb.getValue() && *delta - c + ea.getValue() <= 0)
              : (*delta >= eb.getValue() || *delta + ea.getValue() <= 0))
      return true;
  }
  return false;
}

LogicalResult
mlir::tir::checkSoftwarePipeline(const SoftwarePipeline &pipeline,
                                 function_ref<bool(Value)> iterationBuffer) {
  const SoftwarePipeline &p = pipeline;
  ForOp loop = p.loop;
  auto refuse = [&]() {
    InFlightDiagnostic diag = loop.emitOpError("loop '")
                              << loopName(loop)
                              << "' cannot be software-pipelined: ";
    return diag;
  };
  auto verb = [](const BufferUse &u) { return u.writes ? "writes" : "reads"; };
  for (auto &[buffer, list] : collectUses(p)) {
    std::string name =
        buffer ? getBufferName(buffer) : "memory an opaque call may touch";
    if (auto arg = dyn_cast_or_null<BlockArgument>(buffer); name.empty() && arg)
      name = "parameter #" + std::to_string(arg.getArgNumber());
    // Within one iteration: the later statement in no earlier step, and in
    // a later order within one step.
    for (unsigned a = 0; a < list.size(); ++a)
      for (unsigned b = a + 1; b < list.size(); ++b) {
        const BufferUse &x = list[a], &y = list[b];
        if (!x.writes && !y.writes)
          continue;
        unsigned sx = x.statement, sy = y.statement;
        if (p.runsBefore(sx, sy))
          continue;
        return refuse() << p.describe(sy) << " " << verb(y) << " buffer '"
                        << name << "' after " << p.describe(sx) << " "
                        << verb(x)
                        << " it in the same iteration, but would run before "
                           "it (a statement may not take an earlier stage, "
                           "or in the same stage an earlier order, than one "
                           "it depends on)";
      }
    // A buffer of one iteration gets copies; a loop of one iteration has
    // no other.
    Operation *def = buffer ? buffer.getDefiningOp() : nullptr;
    if ((def && llvm::is_contained(p.allocations, def)) ||
        (buffer && iterationBuffer && iterationBuffer(buffer)) ||
        loop.getConstantExtent().value_or(2) < 2)
      continue;
    // Across iterations: a pair whose steps swap two iterations' order
    // needs parts that never overlap between iterations.
    llvm::DenseMap<unsigned, FailureOr<SmallVector<LoopRegion>>> regions;
    llvm::DenseMap<unsigned, Refusal> whyNot;
    for (const BufferUse &x : list)
      for (const BufferUse &y : list) {
        if (versionsFor(p, x, y) == 1)
          continue;
        for (const BufferUse *u : {&x, &y})
          if (!regions.count(u->statement))
            regions.try_emplace(
                u->statement,
                buffer ? regionsOf(loop, buffer, *u, whyNot[u->statement])
                       : FailureOr<SmallVector<LoopRegion>>(failure()));
        FailureOr<SmallVector<LoopRegion>> &rx =
            regions.find(x.statement)->second;
        FailureOr<SmallVector<LoopRegion>> &ry =
            regions.find(y.statement)->second;
        bool apart = succeeded(rx) && succeeded(ry);
        if (apart)
          for (const LoopRegion &ra : *rx)
            for (const LoopRegion &rb : *ry)
              apart = apart && apartAcrossIterations(loop, ra, rb);
        if (apart)
          continue;
        InFlightDiagnostic diag =
            refuse() << p.describe(x.statement) << " " << verb(x) << " buffer '"
                     << name << "', and " << p.describe(y.statement) << " "
                     << verb(y)
                     << " it in a later iteration, but the pipeline would "
                        "run it before: ";
        std::string why = failed(rx)   ? whyNot[x.statement].message
                          : failed(ry) ? whyNot[y.statement].message
                                       : "";
        if (!why.empty())
          diag << "the parts of the buffer they touch cannot be bounded ("
               << why << ")";
        else
          diag << "their parts of the buffer may overlap between iterations "
                  "(not one tile per iteration)";
        return diag << ", so they need stages in the iterations' order (or "
                       "the same stage)";
      }
  }
  return success();
}

SmallVector<SmallVector<unsigned>>
mlir::tir::getEarlierWriters(const SoftwarePipeline &pipeline,
                             function_ref<bool(unsigned)> writer) {
  SmallVector<SmallVector<unsigned>> out(pipeline.statements.size());
  for (auto &[buffer, list] : collectUses(pipeline))
    for (const BufferUse &x : list)
      for (const BufferUse &y : list)
        if (x.writes && writer(x.statement) &&
            pipeline.runsBefore(x.statement, y.statement) &&
            !llvm::is_contained(out[y.statement], x.statement))
          out[y.statement].push_back(x.statement);
  for (SmallVector<unsigned> &writers : out)
    llvm::sort(writers);
  return out;
}

SmallVector<int64_t>
mlir::tir::countPipelineVersions(const SoftwarePipeline &pipeline) {
  SmallVector<int64_t> versions(pipeline.allocations.size(), 1);
  auto uses = collectUses(pipeline);
  for (auto [i, alloc] : llvm::enumerate(pipeline.allocations)) {
    auto it = uses.find(alloc->getResult(0));
    if (it == uses.end())
      continue;
    for (const BufferUse &x : it->second)
      for (const BufferUse &y : it->second)
        versions[i] = std::max(versions[i], versionsFor(pipeline, x, y));
  }
  // TVM's `double_buffer_scope` = i on a block: its i-th written buffer
  // gets two copies even where one would do (the barrier between its
  // writer and its readers goes).
  for (Operation *stmt : pipeline.statements)
    stmt->walk([&](BlockOp block) {
      DictionaryAttr annotations = block.getAnnotationsAttr();
      auto index = annotations ? dyn_cast_or_null<IntegerAttr>(
                                     annotations.get(kDoubleBufferScopeKey))
                               : IntegerAttr();
      if (!index)
        return;
      // The written buffer: from the block's regions where it keeps them,
      // else the one buffer its stores write.
      Value written;
      auto writes = block.getWriteBuffers();
      if (block.hasAccessRegions()) {
        if (index.getInt() >= 0 &&
            index.getInt() < static_cast<int64_t>(writes.size()))
          written = getBufferStorage(writes[index.getInt()]);
      } else {
        // Without regions: the index counts the buffers its stores write,
        // in the order of their first store.
        SmallVector<Value> stored;
        block.walk([&](StoreOp store) {
          Value storage = getBufferStorage(store.getBuffer());
          if (!llvm::is_contained(stored, storage))
            stored.push_back(storage);
        });
        if (index.getInt() >= 0 &&
            index.getInt() < static_cast<int64_t>(stored.size()))
          written = stored[index.getInt()];
      }
      for (auto [i, alloc] : llvm::enumerate(pipeline.allocations))
        if (written && alloc->getResult(0) == written)
          versions[i] = std::max<int64_t>(versions[i], 2);
    });
  return versions;
}

LogicalResult mlir::tir::checkSoftwarePipelines(
    Operation *root, function_ref<bool(ForOp)> filter,
    function_ref<bool(ForOp, Value)> iterationBuffer) {
  WalkResult result = root->walk([&](ForOp loop) {
    if (!hasSoftwarePipelineAnnotation(loop) || (filter && !filter(loop)))
      return WalkResult::advance();
    FailureOr<SoftwarePipeline> p = readSoftwarePipeline(loop);
    auto mine = [&](Value buffer) {
      return iterationBuffer && iterationBuffer(loop, buffer);
    };
    if (failed(p) || failed(checkSoftwarePipeline(*p, mine)))
      return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}
