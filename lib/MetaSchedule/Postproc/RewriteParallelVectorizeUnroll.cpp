//===- RewriteParallelVectorizeUnroll.cpp - the root's loop plans ---------===//
//
// TVM's RewriteParallelVectorizeUnroll. The parallel-vectorize-unroll rule
// leaves its choices on the root block: "meta_schedule.parallel" (the most
// iterations the outer loops fused into one parallel loop may have),
// "meta_schedule.vectorize" (the most lanes of the inner loops fused into
// one vectorized loop) and "meta_schedule.unroll_explicit" or
// "meta_schedule.unroll_implicit" (the most steps to unroll). While a
// scheduled function's root block has any of them, they are removed and
// each block directly under the root gets its own plan:
//
//  - parallel: the outer loops, outermost first, while they are spatial
//    (only spatial block variables use them), plain (no annotation or
//    thread binding) and of constant extent; the loop that makes the
//    product exceed the limit, or holds more than one statement, is the
//    last one taken.
//  - vectorize: the inner loops, innermost first, under the same rules,
//    each holding one statement, while the product stays within the limit,
//    and no more loops than the block's accesses walk contiguously (for
//    each buffer it reads or writes, the loops from the innermost out whose
//    strides in the flattened buffer continue each other; loops the access
//    does not use are free).
//  - When every loop could be parallel and vectorized, all are fused and
//    split by the vector length: the outer part parallel, the inner part
//    vectorized. Otherwise vectorizing wins the loops both want.
//  - unroll: the block's outermost loop is annotated
//    "pragma_auto_unroll_max_step" (the limit plus one) and
//    "pragma_unroll_explicit" (1 for unroll_explicit), unless the block is
//    spatial or the limit is 0.
//
// A step that is refused rejects the schedule.
//
// Departures from TVM: a single loop that is "fused" keeps its name (tir's
// fuse of one loop is the loop; TVM renames it `<name>_fused`). A root
// annotation whose value is not an integer is removed all the same (TVM
// leaves it, and finds the root again forever). An access whose strides
// cannot be known (a dynamic dimension or loop extent) ends the contiguous
// run there (TVM reads the extent as a constant and fails). Setting both
// unroll annotations rejects the schedule (TVM aborts).
//
//===----------------------------------------------------------------------===//

#include "TensorIR/Dialect/TIR/Analysis/AccessRegions.h"
#include "TensorIR/MetaSchedule/Analysis.h"
#include "TensorIR/MetaSchedule/Postprocs.h"
#include "TensorIR/MetaSchedule/ScheduleSteps.h"

#include <limits>

using namespace mlir;
using namespace mlir::tir;
using namespace mlir::tir::ms;

namespace {

constexpr StringLiteral kParallel = "meta_schedule.parallel";
constexpr StringLiteral kVectorize = "meta_schedule.vectorize";
constexpr StringLiteral kUnrollExplicit = "meta_schedule.unroll_explicit";
constexpr StringLiteral kUnrollImplicit = "meta_schedule.unroll_implicit";
constexpr StringLiteral kAutoUnrollMaxStep = "pragma_auto_unroll_max_step";
constexpr StringLiteral kUnrollExplicitPragma = "pragma_unroll_explicit";

/// What the root's annotations ask (-1: not asked), and how many loops of
/// one block are parallelized and vectorized (-1: none).
struct LoopPlan {
  int64_t maxParallelExtent = -1;
  int64_t maxVectorizeExtent = -1;
  int64_t unrollExplicit = -1;
  int64_t unrollImplicit = -1;
  int64_t numParallelLoops = -1;
  int64_t numVectorizeLoops = -1;
};

/// Reads the annotations of `root` (TVM's root block: an explicit root
/// block, or a function, which has none) into `plan`; `keys` gets the keys
/// found (their values need not be integers). False when there is none.
bool parseRootAnnotations(Operation *root, LoopPlan &plan,
                          SmallVectorImpl<StringRef> &keys) {
  plan = LoopPlan();
  if (!isa<BlockOp>(root))
    return false;
  std::pair<StringLiteral, int64_t *> fields[] = {
      {kParallel, &plan.maxParallelExtent},
      {kVectorize, &plan.maxVectorizeExtent},
      {kUnrollExplicit, &plan.unrollExplicit},
      {kUnrollImplicit, &plan.unrollImplicit}};
  for (auto [key, field] : fields) {
    Attribute value = getAnnotation(root, key);
    if (!value)
      continue;
    keys.push_back(key);
    if (auto integer = dyn_cast<IntegerAttr>(value))
      *field = integer.getInt();
  }
  return !keys.empty();
}

/// TVM's StrideExtractor: the coefficient of dimension `dim` in `expr`,
/// followed only through sums (the smaller of both sides' coefficients)
/// and products with a constant; std::nullopt where it does not appear so.
std::optional<int64_t> strideOf(AffineExpr expr, unsigned dim) {
  if (auto d = dyn_cast<AffineDimExpr>(expr))
    return d.getPosition() == dim ? std::optional<int64_t>(1) : std::nullopt;
  auto binary = dyn_cast<AffineBinaryOpExpr>(expr);
  if (!binary)
    return std::nullopt;
  if (expr.getKind() == AffineExprKind::Add) {
    std::optional<int64_t> lhs = strideOf(binary.getLHS(), dim);
    std::optional<int64_t> rhs = strideOf(binary.getRHS(), dim);
    if (lhs && rhs)
      return std::min(*lhs, *rhs);
    return lhs ? lhs : rhs;
  }
  if (expr.getKind() == AffineExprKind::Mul) {
    if (auto c = dyn_cast<AffineConstantExpr>(binary.getLHS()))
      if (std::optional<int64_t> s = strideOf(binary.getRHS(), dim))
        return *s * c.getValue();
    if (auto c = dyn_cast<AffineConstantExpr>(binary.getRHS()))
      if (std::optional<int64_t> s = strideOf(binary.getLHS(), dim))
        return *s * c.getValue();
  }
  return std::nullopt;
}

/// How many of `loops` (the block's loops, outermost first), from the
/// innermost out, every access of `block` walks contiguously: per access,
/// the stride of each loop in the flattened buffer (0 when the access does
/// not use it); a loop is taken when it is unused, when it is the first
/// used one with stride 1 (or the first loop taken), or when its stride is
/// the previous used loop's stride times that loop's extent.
int64_t countContiguousLoops(BlockOp block, ArrayRef<ForOp> loops) {
  Refusal why;
  FailureOr<BlockAccessRegions> regions = getAccessRegions(block, why);
  if (failed(regions))
    return 0;
  MLIRContext *ctx = block.getContext();
  // The region starts over the values the bindings and the region values
  // are made of (the loop variables among them), each a dimension.
  SmallVector<Value> values;
  auto dimOf = [&](Value value) {
    auto it = llvm::find(values, value);
    if (it == values.end()) {
      values.push_back(value);
      return getAffineDimExpr(values.size() - 1, ctx);
    }
    return getAffineDimExpr(it - values.begin(), ctx);
  };
  SmallVector<AffineExpr> bindingDims;
  for (Value value : block.getBindingValues())
    bindingDims.push_back(dimOf(value));
  SmallVector<AffineExpr> bindings;
  for (AffineExpr binding : block.getBindingExprs())
    bindings.push_back(binding.replaceDims(bindingDims));
  SmallVector<AffineExpr> inputs;
  for (Value input : regions->inputs) {
    auto iterVar = dyn_cast<BlockArgument>(input);
    if (iterVar && iterVar.getOwner() == block.getBody() &&
        iterVar.getArgNumber() < bindings.size())
      inputs.push_back(bindings[iterVar.getArgNumber()]);
    else
      inputs.push_back(dimOf(input));
  }
  SmallVector<std::optional<unsigned>> loopDims;
  for (ForOp loop : loops) {
    auto it = llvm::find(values, loop.getInductionVar());
    loopDims.push_back(it == values.end()
                           ? std::nullopt
                           : std::optional<unsigned>(it - values.begin()));
  }

  int64_t maxFusible = std::numeric_limits<int64_t>::max();
  auto visit = [&](Value buffer, const RegionExprs &region) {
    auto type = cast<MemRefType>(buffer.getType());
    SmallVector<AffineExpr> starts;
    for (AffineExpr start : region.starts)
      starts.push_back(
          simplifyAffineExpr(start.replaceDims(inputs), values.size(), 0));
    // Per loop, its stride in the flattened buffer: 0 when unused,
    // std::nullopt when not known (a dynamic dimension inside).
    SmallVector<std::optional<int64_t>> strides;
    for (std::optional<unsigned> dim : loopDims) {
      std::optional<int64_t> stride = 0;
      std::optional<int64_t> inner = 1;
      for (int64_t i = static_cast<int64_t>(starts.size()) - 1; dim && i >= 0;
           --i) {
        int64_t coefficient = strideOf(starts[i], *dim).value_or(0);
        if (coefficient != 0) {
          stride = inner ? std::optional<int64_t>(coefficient * *inner)
                         : std::nullopt;
          break;
        }
        if (inner && !type.isDynamicDim(i))
          *inner *= type.getDimSize(i);
        else
          inner = std::nullopt;
      }
      strides.push_back(stride);
    }
    int64_t fusible = 0;
    int64_t previous = -1;
    for (int64_t i = static_cast<int64_t>(strides.size()) - 1; i >= 0; --i) {
      if (!strides[i])
        break;
      if (*strides[i] == 0) {
        ++fusible;
        continue;
      }
      if (previous == -1) {
        if (*strides[i] != 1 && fusible != 0)
          break;
      } else {
        ForOp loop = loops[previous];
        std::optional<int64_t> extent = loop.getConstantExtent();
        if (!extent || *strides[i] != *strides[previous] * *extent)
          break;
      }
      ++fusible;
      previous = i;
    }
    maxFusible = std::min(maxFusible, fusible);
  };
  for (auto &[buffer, region] : regions->reads)
    visit(buffer, region);
  for (auto &[buffer, region] : regions->writes)
    visit(buffer, region);
  return maxFusible;
}

/// TVM's AdjustParallelVectorize: how many of `loops` (the loops of
/// `block`, outermost first) `plan` parallelizes and vectorizes.
void planLoops(BlockOp block, ArrayRef<ForOp> loops, LoopPlan &plan) {
  if (plan.maxParallelExtent == -1 && plan.maxVectorizeExtent == -1)
    return;
  int64_t n = loops.size();
  SmallVector<IterType> types = llvm::map_to_vector(
      loops, [](ForOp loop) { return getLoopIterType(loop); });
  int64_t maxFusible = countContiguousLoops(block, loops);
  // The loops either rewrite could take.
  int64_t numRewritable = 0;
  for (int64_t i = 0; i < n; ++i) {
    ForOp loop = loops[i];
    if (!hasAnnotationOrBinding(loop) && types[i] == IterType::Spatial &&
        hasSingleStatement(loop) && loop.getConstantExtent())
      ++numRewritable;
  }

  if (plan.maxParallelExtent != -1) {
    int64_t taken = 0, product = 1;
    for (int64_t i = 0; i < n && types[i] == IterType::Spatial; ++i) {
      ForOp loop = loops[i];
      std::optional<int64_t> extent = loop.getConstantExtent();
      if (hasAnnotationOrBinding(loop) || !extent)
        break;
      ++taken;
      product *= *extent;
      if (product > plan.maxParallelExtent || !hasSingleStatement(loop))
        break;
    }
    plan.numParallelLoops = product == 1 ? -1 : taken;
  }
  if (plan.maxVectorizeExtent != -1) {
    int64_t taken = 0, product = 1;
    for (int64_t i = n - 1;
         i >= 0 && types[i] == IterType::Spatial && taken < maxFusible; --i) {
      ForOp loop = loops[i];
      std::optional<int64_t> extent = loop.getConstantExtent();
      if (hasAnnotationOrBinding(loop) || !hasSingleStatement(loop) || !extent)
        break;
      product *= *extent;
      if (product > plan.maxVectorizeExtent)
        break;
      ++taken;
    }
    plan.numVectorizeLoops = product == 1 ? -1 : taken;
  }
  if (plan.numParallelLoops != -1 && plan.numVectorizeLoops != -1) {
    if (numRewritable == n && maxFusible == n) {
      plan.numParallelLoops = n;
      plan.numVectorizeLoops = n;
    } else {
      plan.numParallelLoops =
          std::min(plan.numParallelLoops, n - plan.numVectorizeLoops);
    }
  }
}

class RewriteParallelVectorizeUnroll : public Postproc {
public:
  FailureOr<bool> apply(const Schedule &sch, std::string &) override {
    std::string refusal;
    ScheduleSteps steps(*sch, refusal);
    while (true) {
      // The first scheduled function whose root block has a plan.
      LoopPlan rootPlan;
      SmallVector<StringRef> keys;
      std::string funcName;
      for (FunctionOpInterface func :
           getScheduledFunctions(sch->getPayload())) {
        if (parseRootAnnotations(getRootBlock(func), rootPlan, keys)) {
          funcName = func.getName().str();
          break;
        }
      }
      if (keys.empty())
        return true;
      FailureOr<Value> root = steps.getBlock("root", funcName);
      if (failed(root))
        return false;
      for (StringRef key : keys)
        if (failed(steps.unannotate(*root, key)))
          return false;
      FailureOr<SmallVector<Value>> blocks = steps.getChildBlocks(*root);
      if (failed(blocks))
        return false;
      for (Value block : *blocks)
        if (failed(rewriteBlock(steps, block, rootPlan)))
          return false;
    }
  }

  FailureOr<std::shared_ptr<Postproc>> clone(std::string &) const override {
    return std::shared_ptr<Postproc>(
        std::make_shared<RewriteParallelVectorizeUnroll>());
  }

  std::string str() const override {
    return defaultRepr("RewriteParallelVectorizeUnroll", this);
  }

private:
  /// The plan of one block under the root, applied; fails when a step is
  /// refused.
  static LogicalResult rewriteBlock(ScheduleSteps &steps, Value block,
                                    LoopPlan plan) {
    FailureOr<SmallVector<Value>> loopHandles = steps.getLoops(block);
    if (failed(loopHandles))
      return failure();
    SmallVector<Value> loops = std::move(*loopHandles);
    if (loops.empty())
      return success();
    BlockOp blockOp = steps.getBlockOp(block);
    SmallVector<ForOp> loopOps;
    for (Value loop : loops)
      loopOps.push_back(steps.getForOp(loop));
    if (!blockOp || llvm::is_contained(loopOps, ForOp()))
      return failure();
    planLoops(blockOp, loopOps, plan);

    int64_t n = loops.size();
    if (plan.numParallelLoops == n && plan.numVectorizeLoops == n) {
      // All fused, then split by the vector length.
      FailureOr<Value> fused = steps.fuse(loops);
      if (failed(fused))
        return failure();
      std::optional<int64_t> factors[] = {std::nullopt,
                                          plan.maxVectorizeExtent};
      FailureOr<SmallVector<Value>> parts =
          steps.split(*fused, ArrayRef<std::optional<int64_t>>(factors));
      if (failed(parts) || failed(steps.parallel((*parts)[0])) ||
          failed(steps.vectorize((*parts)[1])))
        return failure();
      std::fill(loops.begin(), loops.end() - 1, (*parts)[0]);
      loops.back() = (*parts)[1];
    } else {
      if (plan.numParallelLoops > 0) {
        auto outer = ArrayRef<Value>(loops).take_front(plan.numParallelLoops);
        FailureOr<Value> fused = steps.fuse(outer);
        if (failed(fused) || failed(steps.parallel(*fused)))
          return failure();
        std::fill_n(loops.begin(), plan.numParallelLoops, *fused);
      }
      if (plan.numVectorizeLoops > 0) {
        auto inner = ArrayRef<Value>(loops).take_back(plan.numVectorizeLoops);
        FailureOr<Value> fused = steps.fuse(inner);
        if (failed(fused) || failed(steps.vectorize(*fused)))
          return failure();
        std::fill(loops.end() - plan.numVectorizeLoops, loops.end(), *fused);
      }
    }

    if (plan.unrollExplicit == -1 && plan.unrollImplicit == -1)
      return success();
    // TVM asks for one of them only.
    if (plan.unrollExplicit != -1 && plan.unrollImplicit != -1)
      return failure();
    int64_t maxStep = plan.unrollExplicit + plan.unrollImplicit + 1;
    // Steps never replace a block: blockOp is still the block.
    if (maxStep <= 0 || isSpatialBlock(blockOp))
      return success();
    if (failed(steps.annotate(loops.front(), kAutoUnrollMaxStep, maxStep)) ||
        failed(steps.annotate(loops.front(), kUnrollExplicitPragma,
                              int64_t(plan.unrollExplicit != -1))))
      return failure();
    return success();
  }
};

} // namespace

std::shared_ptr<Postproc>
mlir::tir::ms::createRewriteParallelVectorizeUnroll() {
  return std::make_shared<RewriteParallelVectorizeUnroll>();
}
