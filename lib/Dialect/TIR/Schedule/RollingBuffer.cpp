//===- RollingBuffer.cpp - TVM's rolling_buffer ---------------------------===//
//
// A producer computed at a tile of its consumer (compute_at) writes, per
// tile, a window of an intermediate buffer that overlaps the previous
// tile's window (a 3x3 pool over 4-row tiles needs 6 rows, 2 of them the
// last tile's). rolling_buffer keeps only one window: the buffer shrinks to
// the window's extent on one dimension (the rolling axis), every access on
// that dimension goes modulo the extent (a ring), and the producer skips
// the rows the previous tile left in the ring (a predicate `i_0 < 1 or
// overlap <= offset` per overlapping dimension).
//
// The rolling axis is the first buffer dimension, in the order of the
// producer's loops from the outermost, whose window under the lowest loop
// enclosing the producer and its consumers starts at `loop * stride` (or
// `loop * s floordiv q`, stride ceil(s / q), or `loop`) and is wider than
// its stride. Iterations of that loop now depend on each other through the
// ring, so the iteration variables of the blocks that access the buffer
// and are fed by the loop become opaque (TVM marks the variable at the
// rolling axis's position in every block; this marks those the loop feeds,
// which is the same in TVM's examples and right where positions differ).
// Reduce variables stay: making one opaque would move its block's init
// into every iteration of the rolling loop (TVM does, and then a consumer
// whose reduction runs over that loop restarts it each time).
//
//===----------------------------------------------------------------------===//

#include "Relayout.h"
#include "Utils.h"

#include "TensorIR/Dialect/TIR/Arith/Simplify.h"
#include "TensorIR/Dialect/TIR/IR/TIRUtils.h"
#include "TensorIR/Dialect/TIR/Schedule/Analysis.h"
#include "TensorIR/Dialect/TIR/Schedule/Primitives.h"

using namespace mlir;
using namespace mlir::tir;
using namespace mlir::tir::sched;

static constexpr StringLiteral kPrimitive = "rolling_buffer";

namespace {
/// What one dimension of the window contributes: the loop whose tiles it
/// follows and by how much consecutive windows overlap.
struct RollingDim {
  Value loopVar;
  int64_t extent = 0;
  int64_t overlap = 0;
};

/// What rolling_buffer does, decided before anything changes.
struct RollingPlan {
  Value buffer;
  /// Per buffer dimension, its window; the rolling axis.
  SmallVector<RollingDim> dims;
  unsigned axis = 0;
  /// The predicate that skips what the previous window left in the ring
  /// (pairs of disjuncts, the pairs conjoined), over `inputs`.
  SmallVector<Conjunction> skips;
  SmallVector<Value> inputs;
};
} // namespace

/// The rolling pattern of one dimension's window start `lower` (over
/// `inputs`): `v`, `v * s` or `v * s floordiv q` for a variable v, or a
/// constant (no variable). Fails for anything else.
static FailureOr<RollingDim> matchWindow(AffineExpr lower, int64_t extent,
                                         ArrayRef<Value> inputs) {
  RollingDim dim;
  dim.extent = extent;
  if (isa<AffineConstantExpr>(lower))
    return dim;
  int64_t stride = 1;
  AffineExpr base = lower;
  int64_t divisor = 1;
  if (lower.getKind() == AffineExprKind::FloorDiv) {
    auto div = cast<AffineBinaryOpExpr>(lower);
    auto q = dyn_cast<AffineConstantExpr>(div.getRHS());
    if (!q || q.getValue() <= 0)
      return failure();
    divisor = q.getValue();
    base = div.getLHS();
  }
  if (base.getKind() == AffineExprKind::Mul) {
    auto mul = cast<AffineBinaryOpExpr>(base);
    auto s = dyn_cast<AffineConstantExpr>(mul.getRHS());
    if (!s || s.getValue() <= 0)
      return failure();
    stride = s.getValue();
    base = mul.getLHS();
  } else if (divisor != 1) {
    return failure();
  }
  auto var = dyn_cast<AffineDimExpr>(base);
  if (!var)
    return failure();
  stride = llvm::divideCeil(stride, divisor);
  // Only a loop's iterations follow one another (another variable, an
  // enclosing block's, computes each window whole).
  if (extent - stride > 0 && isLoopVar(inputs[var.getPosition()])) {
    dim.loopVar = inputs[var.getPosition()];
    dim.overlap = extent - stride;
  }
  return dim;
}

/// The lowest common ancestor of `ops`.
static Operation *getCommonAncestor(ArrayRef<Operation *> ops) {
  Operation *common = ops.front();
  for (Operation *op : ops.drop_front())
    while (common && common != op && !common->isProperAncestor(op))
      common = common->getParentOp();
  return common;
}

/// Every rule rolling_buffer checks, and the plan when they hold.
static FailureOr<RollingPlan> analyze(BlockOp block, int64_t bufferIndex,
                                      ScheduleError &error) {
  FailureOr<Value> found = getNthAccessBuffer(
      block, bufferIndex, /*isWrite=*/true, kPrimitive, error);
  if (failed(found))
    return failure();
  Value buffer = *found;
  std::string name = getBufferName(buffer);
  std::string blockName = ("block '" + block.getBlockName() + "'").str();

  // Not an output block: the scope allocates every buffer it writes.
  Operation *root = getScopeRoot(block);
  SmallVector<BlockOp> scopeBlocks = getScopeBlocks(root);
  BlockDependences deps(scopeBlocks);
  for (Value written : deps.getWrites(block)) {
    auto alloc = written.getDefiningOp<AllocBufferOp>();
    if (!alloc || alloc->getParentOp() != root)
      return refuse(error, block,
                    Twine(kPrimitive) + ": " + blockName +
                        " is an output block: it writes buffer '" +
                        getBufferName(written) +
                        "', which its scope does not allocate");
  }
  // Only read-after-write dependences: another writer or a reader before
  // it would see the ring's reuse.
  for (ArrayRef<Dependence> list :
       {deps.getDependences(block), deps.getDependents(block)})
    for (const Dependence &d : list)
      if (d.kind != DependenceKind::ReadAfterWrite) {
        BlockOp other = d.src == block ? d.dst : d.src;
        return refuse(
            error, block,
            Twine(kPrimitive) + ": " + blockName +
                " must have only read-after-write dependences, but block '" +
                other.getBlockName() + "' " +
                (d.kind == DependenceKind::WriteAfterWrite
                     ? "writes a buffer it writes"
                     : (d.src == block ? "writes a buffer it reads"
                                       : "reads a buffer it writes")));
      }

  MLIRContext *ctx = block.getContext();
  SmallVector<Value> values(block.getBindingValues());
  SmallVector<AffineExpr> bindings = block.getBindingExprs();
  Refusal ignored;
  FailureOr<BlockAccessRegions> regions = getAccessRegions(block, ignored);
  std::optional<RegionExprs> written;
  if (succeeded(regions))
    for (const auto &[b, r] : regions->writes)
      if (b == buffer)
        written = r;
  if (!written || regions->inputs.size() != block.getNumIterVars())
    return refuse(error, block,
                  Twine(kPrimitive) + ": the region " + blockName +
                      " writes of buffer '" + name +
                      "' must be given by its iteration variables alone");
  // A ring already (an index modulo a size, after an earlier
  // rolling_buffer): a second ring would drop what the first one keeps.
  for (AffineExpr start : written->starts) {
    bool modulo = false;
    start.walk(
        [&](AffineExpr e) { modulo |= e.getKind() == AffineExprKind::Mod; });
    if (modulo)
      return refuse(error, block,
                    Twine(kPrimitive) + ": " + blockName + " writes buffer '" +
                        name +
                        "' at an index modulo a size (a rolling buffer "
                        "already?); its windows must start at plain indices");
  }

  // The windows are relaxed without the block's predicate, and the ring
  // assumes each window was computed whole: a predicate may only cut what
  // lies past the buffer's end (a last, partial tile).
  auto type = cast<MemRefType>(buffer.getType());
  if (!isPredicateImpliedByDomains(block)) {
    SmallVector<IntegerSet> sets = block.getPredicateSets();
    unsigned n = values.size();
    auto boundsBuffer = [&](AffineExpr c) {
      for (auto [d, start] : llvm::enumerate(written->starts)) {
        AffineExpr room = type.getDimSize(d) - 1 - start.replaceDims(bindings);
        auto k =
            dyn_cast<AffineConstantExpr>(simplifyIndexExpr(c - room, n, 0));
        if (k && k.getValue() >= 0)
          return true;
      }
      return false;
    };
    bool cutsInside =
        sets.size() != 1 || block.getCondition() || !type.hasStaticShape();
    for (IntegerSet set : sets)
      for (auto [i, c] : llvm::enumerate(getConstraintsOverInputs(set)))
        cutsInside |= set.isEq(i) || !boundsBuffer(c);
    if (cutsInside)
      return refuse(error, block,
                    Twine(kPrimitive) + ": the predicate of " + blockName +
                        " skips points inside buffer '" + name +
                        "': the ring needs each window computed whole "
                        "(only points past the buffer's end may be cut)");
  }

  // The window is the producer's region under the lowest loop that holds
  // it and its consumers.
  SmallVector<Operation *> holders = {block};
  for (const Dependence &d : deps.getDependents(block))
    holders.push_back(d.dst);
  auto lca = dyn_cast_or_null<ForOp>(getCommonAncestor(holders));
  if (!lca)
    return refuse(error, block,
                  Twine(kPrimitive) + ": the lowest common ancestor of " +
                      blockName +
                      " and its consumers is not a loop (compute_at the "
                      "block under a loop of its consumers first)");
  FailureOr<LoopRegion> window = relaxRegionUnderLoop(
      lca, buffer, /*writes=*/true, {block}, kPrimitive, error);
  if (failed(window))
    return failure();
  SmallVector<RollingDim> dims;
  for (auto [lower, extentExpr] : llvm::zip(window->lowers, window->extents)) {
    auto extent = dyn_cast<AffineConstantExpr>(extentExpr);
    FailureOr<RollingDim> dim =
        extent ? matchWindow(lower, extent.getValue(), window->inputs)
               : FailureOr<RollingDim>(failure());
    if (failed(dim))
      return refuse(error, block,
                    Twine(kPrimitive) + ": the window " + blockName +
                        " writes of buffer '" + name +
                        "' must start at `loop * stride` (or a constant) "
                        "with a constant extent in every dimension");
    dims.push_back(*dim);
  }
  SmallVector<ForOp> loops;
  for (Operation *op = block->getParentOp(); op != root; op = op->getParentOp())
    if (auto loop = dyn_cast<ForOp>(op))
      loops.push_back(loop);
  std::optional<unsigned> axis;
  for (ForOp loop : llvm::reverse(loops)) {
    for (auto [d, dim] : llvm::enumerate(dims))
      if (dim.loopVar == loop.getInductionVar()) {
        axis = d;
        break;
      }
    if (axis)
      break;
  }
  if (!axis)
    return refuse(error, block,
                  Twine(kPrimitive) + ": no dimension of buffer '" + name +
                      "' rolls: the windows " + blockName +
                      " writes under loop " + loopName(lca) +
                      " do not overlap from one iteration of an enclosing "
                      "loop to the next");

  // The ring and the skips rely on each overlapping loop running its
  // iterations one after the other.
  for (const RollingDim &dim : dims) {
    if (!dim.loopVar)
      continue;
    ForOp loop = getLoopOfVar(dim.loopVar);
    if (loop.runsIterationsAtOnce())
      return refuse(error, loop,
                    Twine(kPrimitive) + ": loop " + loopName(loop) +
                        " runs its iterations at once, but each window of " +
                        blockName +
                        " reuses what the previous iteration "
                        "computed");
  }

  if (failed(checkRelayoutUses(buffer, kPrimitive, block, error)))
    return failure();

  // The predicate that skips what the previous window left in the ring:
  // per overlapping dimension, `v < 1 or start[v := 0] >= overlap`, with
  // start the producer's written index over its binding values.
  RollingPlan plan{buffer, dims, *axis, {}, {}};
  ExprInputs in{ctx, values};
  SmallVector<Conjunction> &skips = plan.skips;
  for (auto [d, dim] : llvm::enumerate(dims)) {
    if (!dim.loopVar)
      continue;
    // The skip keeps or drops whole instances: each must write one index
    // on the dimension, else an instance that starts in the overlap but
    // reaches past it would be dropped with its fresh rows.
    auto width = dyn_cast<AffineConstantExpr>(written->extents[d]);
    if (!width || width.getValue() != 1)
      return refuse(error, block,
                    Twine(kPrimitive) + ": " + blockName +
                        " writes more than one index of buffer '" + name +
                        "' on dimension " + Twine(d) +
                        " per instance (loops inside it), but the windows "
                        "overlap there and the recomputed part is skipped "
                        "by whole instances");
    AffineExpr v = in.dimOf(dim.loopVar);
    AffineExpr start = written->starts[d].replaceDims(bindings);
    AffineExpr offset = start.replace(v, getAffineConstantExpr(0, ctx));
    Conjunction first, fresh;
    first.constraints.push_back(-v);
    first.eqFlags.push_back(false);
    fresh.constraints.push_back(offset - dim.overlap);
    fresh.eqFlags.push_back(false);
    skips.push_back(std::move(first));
    skips.push_back(std::move(fresh));
  }
  plan.inputs = in.values;
  return plan;
}

bool mlir::tir::canRollingBuffer(BlockOp block, int64_t bufferIndex) {
  ScheduleError ignored;
  return succeeded(analyze(block, bufferIndex, ignored));
}

/// The ring, the skips, and the opaque variables.
static void apply(RewriterBase &rewriter, BlockOp block,
                  const RollingPlan &plan) {
  MLIRContext *ctx = block.getContext();
  Value buffer = plan.buffer;
  ArrayRef<RollingDim> dims = plan.dims;
  unsigned axis = plan.axis;
  auto type = cast<MemRefType>(buffer.getType());

  // The ring: every access on the rolling axis modulo the window's extent.
  SmallVector<AffineExpr> ringExprs;
  SmallVector<int64_t> shape(type.getShape());
  for (unsigned d = 0; d < shape.size(); ++d)
    ringExprs.push_back(d == axis ? getAffineDimExpr(d, ctx) % dims[d].extent
                                  : getAffineDimExpr(d, ctx));
  shape[axis] = dims[axis].extent;
  SmallVector<BlockOp> accessors;
  for (Operation *user : buffer.getUsers())
    if (isa<LoadOp, StoreOp>(user))
      if (auto b = user->getParentOfType<BlockOp>();
          b && !llvm::is_contained(accessors, b))
        accessors.push_back(b);
  Operation *bufferScope = buffer.getDefiningOp()->getParentOp();
  // The analysis checked the buffer's uses (checkRelayoutUses).
  ScheduleError unexpected;
  LogicalResult relaidOut =
      relayoutBuffer(rewriter, bufferScope, buffer,
                     AffineMap::get(shape.size(), 0, ringExprs, ctx), shape,
                     /*simplify=*/false, kPrimitive, block, unexpected);
  assert(succeeded(relaidOut) && "rolling_buffer: uses checked in analyze");
  (void)relaidOut;

  rewriter.modifyOpInPlace(block, [&] {
    // Each pair of skips is one `or`; the pairs are conjoined.
    for (unsigned k = 0; k < plan.skips.size(); k += 2)
      conjoinPredicate(block, ArrayRef(plan.skips).slice(k, 2), plan.inputs);
  });
  Value rollingVar = dims[axis].loopVar;
  for (BlockOp b : accessors) {
    SmallVector<unsigned> fed = b.getIterVarsFedBy(rollingVar);
    if (fed.empty())
      continue;
    // A reduce variable stays one: its kind decides where the block's
    // init runs, and it already keeps its loops serial.
    SmallVector<Attribute> types(b.getIterTypes().getValue());
    for (unsigned i : fed)
      if (b.getIterType(i) != IterType::Reduce)
        types[i] = IterTypeAttr::get(ctx, IterType::Opaque);
    rewriter.modifyOpInPlace(
        b, [&] { b.setIterTypesAttr(ArrayAttr::get(ctx, types)); });
  }
}

LogicalResult mlir::tir::rollingBuffer(RewriterBase &rewriter, BlockOp block,
                                       int64_t bufferIndex,
                                       ScheduleError &error) {
  FailureOr<RollingPlan> plan = analyze(block, bufferIndex, error);
  if (failed(plan))
    return failure();
  apply(rewriter, block, *plan);
  return success();
}
