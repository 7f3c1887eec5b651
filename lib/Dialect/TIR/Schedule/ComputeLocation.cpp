//===- ComputeLocation.cpp - where a block may be computed ----------------===//
//
// TVM's CollectComputeLocation, which sample_compute_location draws from:
// inlined (-2, when compute_inline would apply), at the root (-1), or under
// one of the loops above its first consumer (their index among them),
// those loops limited as TVM limits them: no deeper than the lowest loop
// holding every consumer, no unit loops, no spatial loop after a loop that
// is not, no trailing loops that are not spatial, and only where compute_at
// would apply.
//
//===----------------------------------------------------------------------===//

#include "TensorIR/Dialect/TIR/Schedule/Primitives.h"
#include "TensorIR/Dialect/TIR/Schedule/Query.h"

using namespace mlir;
using namespace mlir::tir;

/// TVM's GetLoopIterType: how the blocks directly under `loop` use its
/// variable: only in spatial variables (spatial, also when unused), only
/// in reduce variables (reduce), or otherwise (opaque).
static IterType loopIterType(ForOp loop) {
  Value iv = loop.getInductionVar();
  int spatial = 0, reduce = 0, other = 0;
  for (BlockOp block : getChildBlocks(loop)) {
    for (unsigned i : block.getIterVarsFedBy(iv)) {
      IterType type = block.getIterType(i);
      if (type == IterType::Spatial)
        ++spatial;
      else if (type == IterType::Reduce)
        ++reduce;
      else
        ++other;
    }
  }
  if (other || (spatial && reduce))
    return IterType::Opaque;
  return reduce ? IterType::Reduce : IterType::Spatial;
}

/// The innermost op holding all of `ops`.
static Operation *lowestCommonAncestor(ArrayRef<BlockOp> ops) {
  Operation *common = ops.front()->getParentOp();
  while (common && !llvm::all_of(ops, [&](BlockOp b) {
           return common->isProperAncestor(b);
         }))
    common = common->getParentOp();
  return common;
}

SmallVector<ComputeLocation> mlir::tir::collectComputeLocations(BlockOp block) {
  SmallVector<ComputeLocation> locations;
  if (canComputeInline(block))
    locations.push_back({-2, {}});
  locations.push_back({-1, {}});
  SmallVector<BlockOp> consumers = getConsumers(block);
  if (consumers.empty())
    return locations;
  auto boundary = dyn_cast_if_present<ForOp>(lowestCommonAncestor(consumers));
  if (!boundary)
    return locations;
  SmallVector<ForOp> loops = getLoops(consumers.front());
  auto it = llvm::find(loops, boundary);
  if (it == loops.end())
    return locations;
  size_t candidates = it - loops.begin() + 1;
  SmallVector<IterType> types;
  int lastSpatial = -1;
  for (size_t i = 0; i < candidates; ++i) {
    types.push_back(loopIterType(loops[i]));
    if (types.back() == IterType::Spatial)
      lastSpatial = i;
  }
  bool seenOther = false;
  for (size_t i = 0; i < candidates; ++i) {
    std::optional<int64_t> lower = loops[i].getConstantLowerBound();
    std::optional<int64_t> upper = loops[i].getConstantUpperBound();
    if (lower && upper && *upper - *lower == 1)
      continue;
    if (types[i] == IterType::Spatial) {
      if (seenOther)
        break;
    } else {
      seenOther = true;
      if (static_cast<int>(i) > lastSpatial)
        break;
    }
    if (canComputeAt(block, loops[i], /*preserveUnitLoops=*/true))
      locations.push_back({static_cast<int64_t>(i), loops[i]});
  }
  return locations;
}
