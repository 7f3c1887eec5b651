//===- VerifyVTCMLimit.cpp - VTCM buffers within the target's capacity ----===//
//
// TVM's VerifyVTCMLimit (Hexagon): a schedule is rejected when the buffers
// it places in VTCM (storage scope "global.vtcm") take more than the
// target's "vtcm-capacity" bytes. Each buffer counts as it is allocated
// once compacted (the part of it one execution of its compaction anchor
// touches, as the lowering allocates it), times the copies a software
// pipeline keeps when the anchor is a pipelined loop (one more per stage
// between the buffer's first writer and its last reader, as
// InjectSoftwarePipeline versions it). TVM lowers the function and sums
// the allocations; a target without a capacity limits nothing.
//
//===----------------------------------------------------------------------===//

#include "TensorIR/MetaSchedule/Analysis.h"
#include "TensorIR/MetaSchedule/Postprocs.h"
#include "TensorIR/MetaSchedule/Target.h"
#include "TensorIR/MetaSchedule/TuneContext.h"

#include "TensorIR/Dialect/TIR/Analysis/BufferCompaction.h"
#include "TensorIR/Dialect/TIR/Analysis/RegionRelax.h"
#include "TensorIR/Dialect/TIR/IR/TIRUtils.h"

#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;
using namespace mlir::tir;
using namespace mlir::tir::ms;

namespace {

/// The bytes `alloc` (a static shape) takes once compacted and versioned.
int64_t getAllocatedBytes(AllocBufferOp alloc) {
  Value buffer = alloc.getBuffer();
  auto type = cast<MemRefType>(buffer.getType());
  // TVM counts a runtime size as nothing.
  if (!type.hasStaticShape())
    return 0;
  SmallVector<int64_t> shape(type.getShape());
  int64_t versions = 1;
  // A buffer used otherwise than by loads, stores and block regions stays
  // whole, as the lowering's compaction leaves it.
  SmallVector<BlockOp> blocks = getAccessingBlocks(buffer);
  if (Operation *anchor = getCompactionAnchor(blocks)) {
    SmallVector<BlockOp> outermost = getOutermostBlocksUnder(anchor, blocks);
    Refusal why;
    FailureOr<CompactPart> part =
        getCompactPart(anchor, buffer, outermost, why);
    if (succeeded(part))
      shape = part->shape;
    versions = getPipelineVersions(anchor, outermost);
  }
  int64_t elements = 1;
  for (int64_t extent : shape)
    elements *= extent;
  int64_t bits = type.getElementType().isIntOrFloat()
                     ? type.getElementType().getIntOrFloatBitWidth()
                     : 8;
  return elements * ((bits + 7) / 8) * versions;
}

class VerifyVTCMLimit : public Postproc {
public:
  LogicalResult initializeWithTuneContext(const TuneContext &context,
                                          std::string &) override {
    capacity =
        context.target ? context.target->getInt("vtcm-capacity") : std::nullopt;
    return success();
  }

  FailureOr<bool> apply(const Schedule &sch, std::string &) override {
    if (!capacity || *capacity <= 0)
      return true;
    for (FunctionOpInterface func : getScheduledFunctions(sch->getPayload())) {
      int64_t bytes = 0;
      func->walk([&](AllocBufferOp alloc) {
        if (getStorageScope(cast<MemRefType>(alloc.getBuffer().getType())) ==
            "global.vtcm")
          bytes += getAllocatedBytes(alloc);
      });
      if (bytes > *capacity)
        return false;
    }
    return true;
  }

  FailureOr<std::shared_ptr<Postproc>> clone(std::string &) const override {
    return std::shared_ptr<Postproc>(std::make_shared<VerifyVTCMLimit>(*this));
  }

  std::string str() const override {
    return defaultRepr("VerifyVTCMLimit", this);
  }

private:
  std::optional<int64_t> capacity;
};

} // namespace

std::shared_ptr<Postproc> mlir::tir::ms::createVerifyVTCMLimit() {
  return std::make_shared<VerifyVTCMLimit>();
}
