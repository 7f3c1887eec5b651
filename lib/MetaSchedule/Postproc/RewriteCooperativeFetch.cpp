//===- RewriteCooperativeFetch.cpp - cache copies spread over threads -----===//
//
// TVM's RewriteCooperativeFetch. MultiLevelTiling leaves each cache block
// it computes at a GPU tile annotated "meta_schedule.cooperative_fetch"
// with a vector length (a sampled parameter); the threads of the tile
// share the copy. The trace is read in order: the last loop bound to
// threadIdx.x (and threadIdx.y) before an annotation gives that block's
// thread extents (the bound loop's extent now), and an annotation
// "warp_execution" makes threadIdx.x a warp (the target's
// thread_warp_size). Once the whole trace is read, each annotated block,
// in the annotations' order, loses its annotation (unannotate) and its
// innermost loop (the cache's fused loop) is split by
// [None, threadIdx.y extent (if any), threadIdx.x extent, vector length]:
// the vector part vectorized, then the threadIdx.x part bound, then the
// threadIdx.y part. The vector length drops to 1 (no vector part) when it
// does not divide the loop's extent, or when the block uses values wider
// than 4 bytes (64-bit vectors do not lower well on CUDA); a block whose
// innermost loop has a runtime extent only loses its annotation.
//
// A refused step, or a bound loop or annotated block the schedule no longer
// holds, rejects the schedule (TVM's throws, which the search counts as a
// failure).
//
//===----------------------------------------------------------------------===//

#include "TensorIR/MetaSchedule/Postprocs.h"
#include "TensorIR/MetaSchedule/ScheduleSteps.h"
#include "TensorIR/MetaSchedule/TuneContext.h"

#include "mlir/Interfaces/CastInterfaces.h"

using namespace mlir;
using namespace mlir::tir;
using namespace mlir::tir::ms;

namespace {

constexpr StringLiteral kCooperativeFetch = "meta_schedule.cooperative_fetch";
constexpr StringLiteral kWarpExecution = "warp_execution";

/// One annotated block to rewrite, with what the trace said before its
/// annotation.
struct FetchTask {
  Value block;
  int64_t threadX, threadY, vectorLane;
};

bool isKind(const Instruction &inst, StringRef name) {
  return inst.kind && inst.kind->getName() == name;
}

/// The string attribute `name` of an instruction, or "".
StringRef getStringAttribute(const Instruction &inst, StringRef name) {
  auto attr = dyn_cast_if_present<StringAttr>(
      inst.attributes ? inst.attributes.get(name) : Attribute());
  return attr ? attr.getValue() : "";
}

/// The handle of the random variable of operand `index` of `inst` (its
/// first), or null.
Value getOperandHandle(const Schedule &sch, const Instruction &inst,
                       unsigned index) {
  if (inst.operands.size() <= index || inst.operands[index].empty())
    return Value();
  return sch->getHandle(inst.operands[index].front());
}

/// The integer an Annotate instruction sets: its constant, or what its
/// parameter (a sampled value) holds now.
std::optional<int64_t> getAnnotationInteger(const Schedule &sch,
                                            const Instruction &inst) {
  std::vector<TVMValue> inputs, attrs;
  inst.kind->getTVMLayout(inst, inputs, attrs);
  if (inputs.size() != 2)
    return std::nullopt;
  Attribute value;
  if (inputs[1].tag == TVMValue::Tag::Constant) {
    value = inputs[1].constant;
  } else if (inputs[1].tag == TVMValue::Tag::Variable) {
    Value handle = sch->getHandle(inputs[1].variable);
    std::string ignored;
    FailureOr<ArrayRef<transform::MappedValue>> held =
        handle ? sch->getPayload(handle, ignored)
               : FailureOr<ArrayRef<transform::MappedValue>>(failure());
    if (failed(held) || held->size() != 1)
      return std::nullopt;
    value = dyn_cast<Attribute>(held->front());
  }
  if (auto integer = dyn_cast_if_present<IntegerAttr>(value))
    return integer.getInt();
  return std::nullopt;
}

/// The extent of the loop a Bind instruction binds to `axis`, as the loop
/// is now: std::nullopt when the instruction binds another axis; failure
/// when the schedule no longer holds one loop of a constant extent there.
FailureOr<std::optional<int64_t>> getBoundExtent(const Schedule &sch,
                                                 ScheduleSteps &steps,
                                                 const Instruction &inst,
                                                 StringRef axis) {
  if (getStringAttribute(inst, "thread_axis") != axis)
    return std::optional<int64_t>();
  Value loop = getOperandHandle(sch, inst, 0);
  ForOp op = loop ? steps.getForOp(loop) : ForOp();
  std::optional<int64_t> extent = op ? op.getConstantExtent() : std::nullopt;
  if (!extent)
    return failure();
  return extent;
}

/// The widest scalar (in bytes) that `block`'s body stores, loads or casts
/// to, its init left out (TVM's GetMaxUsedDtypeBytes of the block's body);
/// the fixed-point multiplies count as 8 (they multiply in 64 bits).
int64_t getMaxUsedDtypeBytes(BlockOp block) {
  int64_t maxBytes = 1;
  auto note = [&](Type type) {
    Type element = getElementTypeOrSelf(type);
    if (element.isIntOrFloat())
      maxBytes = std::max<int64_t>(
          maxBytes, llvm::divideCeil(element.getIntOrFloatBitWidth(), 8));
  };
  block->walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (isa<InitOp>(op) && op->getParentOp() == block)
      return WalkResult::skip();
    if (auto store = dyn_cast<StoreOp>(op))
      note(store.getValue().getType());
    else if (auto load = dyn_cast<LoadOp>(op))
      note(load.getResult().getType());
    else if (isa<CastOpInterface>(op) && op->getNumResults() == 1)
      note(op->getResult(0).getType());
    else if (auto call = dyn_cast<CallOp>(op)) {
      StringRef callee = call.getCallee();
      callee.consume_front("tir.");
      if (callee == "q_multiply_shift" || callee == "q_multiply_shift_per_axis")
        maxBytes = std::max<int64_t>(maxBytes, 8);
    }
    return WalkResult::advance();
  });
  return maxBytes;
}

class RewriteCooperativeFetch : public Postproc {
public:
  LogicalResult initializeWithTuneContext(const TuneContext &context,
                                          std::string &error) override {
    if (!context.target) {
      error = "RewriteCooperativeFetch needs the TuneContext's target";
      return failure();
    }
    if (std::optional<int64_t> warp =
            context.target->getInt("thread_warp_size"))
      threadWarpSize = *warp;
    else
      context.log(LogLevel::Info,
                  "'thread_warp_size' is not defined in the target");
    return success();
  }

  FailureOr<bool> apply(const Schedule &sch, std::string &) override {
    std::string refusal;
    ScheduleSteps steps(*sch, refusal);
    std::vector<FetchTask> tasks;
    int64_t threadX = -1, threadY = -1;
    for (const InstructionRef &inst :
         sch->getInstructions().getInstructions()) {
      if (isKind(*inst, "Bind")) {
        FailureOr<std::optional<int64_t>> x =
            getBoundExtent(sch, steps, *inst, "threadIdx.x");
        FailureOr<std::optional<int64_t>> y =
            getBoundExtent(sch, steps, *inst, "threadIdx.y");
        if (failed(x) || failed(y))
          return false;
        if (*x)
          threadX = **x;
        if (*y)
          threadY = **y;
        continue;
      }
      if (!isKind(*inst, "Annotate"))
        continue;
      StringRef key = getStringAttribute(*inst, "ann_key");
      if (key == kWarpExecution) {
        threadX = threadWarpSize;
        continue;
      }
      if (key != kCooperativeFetch)
        continue;
      std::optional<int64_t> lane = getAnnotationInteger(sch, *inst);
      Value block = getOperandHandle(sch, *inst, 0);
      if (!lane || !block)
        return false;
      tasks.push_back({block, threadX, threadY, *lane});
    }
    for (const FetchTask &task : tasks)
      if (failed(rewrite(steps, task)))
        return false;
    return true;
  }

  FailureOr<std::shared_ptr<Postproc>> clone(std::string &) const override {
    auto copy = std::make_shared<RewriteCooperativeFetch>();
    copy->threadWarpSize = threadWarpSize;
    return std::shared_ptr<Postproc>(copy);
  }

  std::string str() const override {
    return defaultRepr("RewriteCooperativeFetch", this);
  }

private:
  /// Spreads the copy of one annotated block over the tile's threads.
  static LogicalResult rewrite(ScheduleSteps &steps, const FetchTask &task) {
    if (failed(steps.unannotate(task.block, kCooperativeFetch)))
      return failure();
    FailureOr<SmallVector<Value>> loops = steps.getLoops(task.block);
    if (failed(loops) || loops->empty())
      return failure();
    Value fused = loops->back();
    ForOp fusedOp = steps.getForOp(fused);
    std::optional<int64_t> extent =
        fusedOp ? fusedOp.getConstantExtent() : std::nullopt;
    if (!extent)
      return success();
    int64_t lane = task.vectorLane;
    if (lane == 0 || *extent % lane != 0)
      lane = 1;
    BlockOp block = steps.getBlockOp(task.block);
    if (!block)
      return failure();
    if (getMaxUsedDtypeBytes(block) > 4)
      lane = 1;

    // [None, y?, x, lane?]: the parts bound or vectorized are counted from
    // the inside out.
    SmallVector<std::optional<int64_t>> factors = {std::nullopt};
    if (task.threadY != -1)
      factors.push_back(task.threadY);
    factors.push_back(task.threadX);
    if (lane > 1)
      factors.push_back(lane);
    FailureOr<SmallVector<Value>> parts = steps.split(fused, factors);
    if (failed(parts))
      return failure();
    size_t x = lane > 1 ? parts->size() - 2 : parts->size() - 1;
    if (lane > 1 && failed(steps.vectorize(parts->back())))
      return failure();
    if (failed(steps.bind((*parts)[x], "threadIdx.x")))
      return failure();
    if (task.threadY != -1 &&
        failed(steps.bind((*parts)[x - 1], "threadIdx.y")))
      return failure();
    return success();
  }

  int64_t threadWarpSize = -1;
};

} // namespace

std::shared_ptr<Postproc> mlir::tir::ms::createRewriteCooperativeFetch() {
  return std::make_shared<RewriteCooperativeFetch>();
}
