//===- BufferCompaction.cpp - the part of a buffer an op touches ----------===//

#include "TensorIR/Dialect/TIR/Analysis/BufferCompaction.h"
#include "TensorIR/Dialect/TIR/Analysis/RegionRelax.h"

#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace mlir::tir;

FailureOr<CompactPart> mlir::tir::getCompactPart(Operation *anchor,
                                                 Value buffer,
                                                 ArrayRef<BlockOp> blocks,
                                                 Refusal &why,
                                                 bool sameThreadIsPoint) {
  Refusal relaxFailure;
  FailureOr<LoopRegion> reads =
      relaxRegionUnder(anchor, buffer, /*writes=*/false, blocks, relaxFailure,
                       sameThreadIsPoint);
  FailureOr<LoopRegion> writes =
      succeeded(reads)
          ? relaxRegionUnder(anchor, buffer, /*writes=*/true, blocks,
                             relaxFailure, sameThreadIsPoint)
          : FailureOr<LoopRegion>(failure());
  FailureOr<LoopRegion> region = failed(writes)
                                     ? FailureOr<LoopRegion>(failure())
                                     : uniteLoopRegions(*reads, *writes);
  if (failed(region) || region->lowers.empty()) {
    why.message = relaxFailure.message.empty()
                      ? "the part of it each execution touches cannot be "
                        "bounded"
                      : relaxFailure.message;
    return failure();
  }
  auto type = cast<MemRefType>(buffer.getType());
  MLIRContext *ctx = anchor->getContext();
  CompactPart part;
  part.inputs = region->inputs;
  for (unsigned d = 0, e = type.getRank(); d < e; ++d) {
    auto extent = dyn_cast<AffineConstantExpr>(region->extents[d]);
    if (!extent || extent.getValue() <= 0) {
      why.message = "the part of it each execution touches is not of a "
                    "constant size in dimension " +
                    std::to_string(d);
      return failure();
    }
    // (A dynamic dimension keeps the part's extent: the whole is of
    // runtime size.)
    if (!type.isDynamicDim(d) && extent.getValue() >= type.getDimSize(d)) {
      part.shape.push_back(type.getDimSize(d));
      part.lowers.push_back(getAffineConstantExpr(0, ctx));
    } else {
      part.shape.push_back(extent.getValue());
      part.lowers.push_back(region->lowers[d]);
    }
  }
  return part;
}

Operation *mlir::tir::getCompactionAnchor(ArrayRef<BlockOp> blocks) {
  if (blocks.empty())
    return nullptr;
  Operation *lca = blocks.front()->getParentOp();
  for (BlockOp block : blocks.drop_front())
    while (lca && !lca->isProperAncestor(block))
      lca = lca->getParentOp();
  while (lca && !isa<ForOp, BlockOp>(lca))
    lca = lca->getParentOp();
  return lca;
}

SmallVector<BlockOp>
mlir::tir::getOutermostBlocksUnder(Operation *anchor,
                                   ArrayRef<BlockOp> blocks) {
  llvm::SetVector<BlockOp> outermost;
  for (BlockOp block : blocks) {
    for (Operation *p = block->getParentOp(); p != anchor; p = p->getParentOp())
      if (auto outer = dyn_cast<BlockOp>(p))
        block = outer;
    outermost.insert(block);
  }
  return outermost.takeVector();
}
