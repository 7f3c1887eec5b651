//===- MutateParallel.cpp - another parallel extent -----------------------===//
//
// TVM's MutateParallel. A "meta_schedule.parallel" annotation (an integer,
// set on the root block by the parallel-vectorize-unroll rule) bounds the
// extent of the outer loops a postprocessor later fuses and parallelizes.
// One annotation is drawn uniformly; the trace is replayed on the task's
// module (a schedule seeded from the random state) to see, for each block
// of the annotated block's scope, the constant extents of its outer loops
// that only spatial variables use (those outside the outermost other
// loop). Their running products, from the outermost, up to the first that
// reaches num-cores * max_jobs_per_core, are the extents the annotation
// may take; extents that fuse the same number of loops in every block are
// one plan. The plan of the current value is removed, another is drawn
// uniformly (plans in lexicographic order, as TVM's ordered map), and the
// annotation takes its extent in the new trace.
//
// TVM finds the annotated block again by the name its GetBlock looked up;
// here the replayed annotation's own handle gives it (a function stands
// for its root block, written out as a block "root" or not).
//
//===----------------------------------------------------------------------===//

#include "MutatorUtils.h"

#include "TensorIR/Dialect/TIR/Schedule/Analysis.h"
#include "TensorIR/Dialect/TIR/Schedule/Primitives.h"
#include "TensorIR/MetaSchedule/Mutators.h"
#include "TensorIR/MetaSchedule/ScheduleRules.h"

#include "mlir/Interfaces/FunctionInterfaces.h"

#include <map>

using namespace mlir;
using namespace mlir::tir;
using namespace mlir::tir::ms;
using namespace mlir::tir::ms::mutator;

namespace {

class MutateParallel : public Mutator {
public:
  explicit MutateParallel(int64_t maxJobsPerCore)
      : maxJobsPerCore(maxJobsPerCore) {}

  LogicalResult initializeWithTuneContext(const TuneContext &context,
                                          std::string &error) override;
  FailureOr<std::optional<Trace>> apply(const Trace &trace,
                                        RandomEngine::State &randState,
                                        std::string &error) override;
  FailureOr<std::shared_ptr<Mutator>> clone(std::string &) const override {
    auto copy = std::make_shared<MutateParallel>(maxJobsPerCore);
    copy->maxParallelExtent = maxParallelExtent;
    if (mod)
      copy->mod = OwningOpRef<ModuleOp>(mod.get().clone());
    return std::shared_ptr<Mutator>(copy);
  }
  std::string str() const override {
    return defaultRepr("MutateParallel", this);
  }

  /// The most jobs per core (-1: no parallelism, as TVM's).
  int64_t maxJobsPerCore;

private:
  /// num-cores times maxJobsPerCore, from the context's target.
  int64_t maxParallelExtent = 0;
  /// The task's module (null until initialized with a context).
  OwningOpRef<ModuleOp> mod;
};

} // namespace

LogicalResult
MutateParallel::initializeWithTuneContext(const TuneContext &context,
                                          std::string &error) {
  if (!context.target) {
    error = "MutateParallel needs the TuneContext's target";
    return failure();
  }
  FailureOr<int64_t> cores = getTargetNumCores(context, error);
  if (failed(cores))
    return failure();
  maxParallelExtent = *cores * maxJobsPerCore;
  return copyTaskModule(context, "MutateParallel", mod, error);
}

/// TVM's AnalyzeParallel: for each block directly in `scope` (through
/// loops), the running products of the extents of its outer loops, from
/// the outermost, stopping at the first product that reaches `limit`. The
/// loops are those above the innermost loop of a runtime extent or whose
/// variable a non-spatial iteration variable of a block of the scope
/// binds; a block with none gives no list.
static std::vector<std::vector<int64_t>> getLoopExtentProducts(Operation *scope,
                                                               int64_t limit) {
  SmallVector<BlockOp> blocks = getChildBlocks(scope);
  // What non-spatial iteration variables are bound to.
  SmallVector<Value> nonSpatialInputs;
  for (BlockOp block : blocks)
    for (Value input : block.getBindingValues())
      if (llvm::any_of(block.getIterVarsFedBy(input), [&](unsigned i) {
            return block.getIterType(i) != IterType::Spatial;
          }))
        nonSpatialInputs.push_back(input);
  std::vector<std::vector<int64_t>> products;
  for (BlockOp block : blocks) {
    // Innermost first; a loop that does not qualify drops those under it.
    std::vector<int64_t> extents;
    for (Operation *op = block->getParentOp(); op && op != scope;
         op = op->getParentOp()) {
      auto loop = dyn_cast<ForOp>(op);
      if (!loop)
        continue;
      std::optional<int64_t> extent = loop.getConstantExtent();
      Value iv = loop.getInductionVar();
      bool nonSpatial = llvm::any_of(nonSpatialInputs, [&](Value input) {
        return dependsOnAny(input, iv);
      });
      if (extent && !nonSpatial)
        extents.push_back(*extent);
      else
        extents.clear();
    }
    if (extents.empty())
      continue;
    std::vector<int64_t> &running = products.emplace_back();
    int64_t product = 1;
    for (auto it = extents.rbegin(); it != extents.rend(); ++it) {
      running.push_back(product *= *it);
      if (product >= limit)
        break;
    }
  }
  return products;
}

/// The block whose scope a parallel annotation of `target` bounds: a
/// function stands for its root block, which may be written out as a
/// block "root" without iteration variables holding the whole body.
static Operation *getAnnotatedScope(Operation *target) {
  if (!isa<FunctionOpInterface>(target))
    return target;
  SmallVector<BlockOp> children = getChildBlocks(target);
  if (children.size() == 1 && children[0]->getParentOp() == target &&
      children[0].getBlockName() == "root" && children[0].getNumIterVars() == 0)
    return children[0];
  return target;
}

/// TVM's GetNumFusedLoops: for each block, how many outer loops a parallel
/// extent of `limit` fuses: those whose product stays within it, and one
/// more unless they are all of them.
static std::vector<int>
getNumFusedLoops(const std::vector<std::vector<int64_t>> &products,
                 int64_t limit) {
  std::vector<int> plan;
  for (const std::vector<int64_t> &running : products) {
    int n = running.size();
    int i = std::upper_bound(running.begin(), running.end(), limit) -
            running.begin();
    if (i > 0 && running[i - 1] == limit)
      --i;
    if (i != n)
      ++i;
    plan.push_back(i);
  }
  return plan;
}

FailureOr<std::optional<Trace>>
MutateParallel::apply(const Trace &trace, RandomEngine::State &randState,
                      std::string &error) {
  if (!mod) {
    error = "MutateParallel is not initialized with a TuneContext";
    return failure();
  }
  // 1. An annotation to change.
  std::vector<InstructionRef> annotations;
  for (const InstructionRef &inst : trace.getInstructions())
    if (getAnnotationKey(*inst) == "meta_schedule.parallel")
      annotations.push_back(inst);
  if (annotations.empty())
    return std::optional<Trace>();
  InstructionRef chosen =
      annotations[sampleInt(randState, 0, annotations.size())];
  auto extent = dyn_cast_if_present<IntegerAttr>(
      chosen->attributes ? chosen->attributes.get("ann_val") : Attribute());
  if (!extent) {
    error = "MutateParallel: the value of a \"meta_schedule.parallel\" "
            "annotation is an integer";
    return failure();
  }

  // 2. The loops, as the trace leaves them; the annotated block is the
  // replayed annotation's.
  FailureOr<Schedule> sch = forkTracedSchedule(*mod, randState, error);
  if (failed(sch))
    return failure();
  RV annotated;
  auto provider = [&](const InstructionRef &recorded, const Instruction &here,
                      Attribute decision,
                      std::string &) -> FailureOr<Attribute> {
    if (recorded == chosen && !here.operands.empty() &&
        !here.operands[0].empty())
      annotated = here.operands[0].front();
    return decision;
  };
  if (failed((*sch)->applyTrace(trace, /*removePostproc=*/true, provider,
                                error))) {
    error = "MutateParallel: the trace does not replay on the task's "
            "module: " +
            error;
    return failure();
  }
  Operation *annotatedOp = getPayloadOp(*sch, annotated);
  if (!annotatedOp)
    return std::optional<Trace>();
  Operation *scope = getAnnotatedScope(annotatedOp);

  // 3. The plans each extent within the limit gives (the last extent of a
  // plan kept).
  std::vector<std::vector<int64_t>> products =
      getLoopExtentProducts(scope, maxParallelExtent);
  DenseSet<int64_t> seen;
  std::map<std::vector<int>, int64_t> plans;
  for (const std::vector<int64_t> &running : products)
    for (int64_t limit : running)
      if (limit <= maxParallelExtent && seen.insert(limit).second)
        plans[getNumFusedLoops(products, limit)] = limit;

  // 4. Another plan than the current one.
  plans.erase(getNumFusedLoops(products, extent.getInt()));
  if (plans.empty())
    return std::optional<Trace>();
  auto it = plans.begin();
  std::advance(it, sampleInt(randState, 0, plans.size()));

  // 5. The trace up to postprocessing, the annotation with that extent.
  auto changed = std::make_shared<Instruction>(*chosen);
  NamedAttrList attrs(chosen->attributes);
  attrs.set("ann_val", IntegerAttr::get(extent.getType(), it->second));
  changed->attributes = attrs.getDictionary(extent.getContext());
  Trace result;
  for (const InstructionRef &inst : trace.getInstructions()) {
    if (inst->kind->isPostproc())
      break;
    if (inst == chosen)
      result.append(changed);
    else
      result.append(inst, trace.getDecision(inst.get()));
  }
  return std::optional<Trace>(std::move(result));
}

std::shared_ptr<Mutator>
mlir::tir::ms::createMutateParallel(int64_t maxJobsPerCore) {
  return std::make_shared<MutateParallel>(maxJobsPerCore);
}

std::optional<int64_t>
mlir::tir::ms::getMaxJobsPerCore(const Mutator &mutator) {
  if (auto *parallel = dynamic_cast<const MutateParallel *>(&mutator))
    return parallel->maxJobsPerCore;
  return std::nullopt;
}
