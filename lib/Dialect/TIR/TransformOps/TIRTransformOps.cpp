//===- TIRTransformOps.cpp - transform.tir extension ----------------------===//
//
// Thin wrappers: each op reads its handles, calls the schedule library
// (lib/Schedule) and maps the results back to handles.
//
//===----------------------------------------------------------------------===//

#include "TensorIR/Dialect/TIR/TransformOps/TIRTransformOps.h"
#include "TensorIR/Dialect/TIR/IR/TIRDialect.h"
#include "TensorIR/Dialect/TIR/IR/TIROps.h"
#include "TensorIR/Schedule/Primitives.h"
#include "TensorIR/Schedule/Query.h"

#include "mlir/Dialect/Transform/IR/TransformDialect.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

using namespace mlir;
using namespace mlir::tir;

#define GET_OP_CLASSES
#include "TensorIR/Dialect/TIR/TransformOps/TIRTransformOps.cpp.inc"

//===----------------------------------------------------------------------===//
// GetBlockOp
//===----------------------------------------------------------------------===//

/// The name of the function enclosing `op`, for diagnostics.
static StringRef enclosingFunctionName(Operation *op) {
  if (auto func = op->getParentOfType<FunctionOpInterface>())
    return func.getName();
  return "<unknown>";
}

DiagnosedSilenceableFailure
tir::GetBlockOp::apply(transform::TransformRewriter &rewriter,
                             transform::TransformResults &results,
                             transform::TransformState &state) {
  SmallVector<Operation *> found;
  for (Operation *scope : state.getPayloadOps(getTarget()))
    for (BlockOp block : findBlocksByName(scope, getName()))
      found.push_back(block);
  if (found.empty())
    return emitSilenceableError()
           << "no tir.block named '" << getName() << "' in the target";
  if (found.size() > 1) {
    DiagnosedSilenceableFailure diag = emitSilenceableError()
                                       << "block name '" << getName()
                                       << "' is ambiguous: " << found.size()
                                       << " blocks have it";
    for (Operation *op : found)
      diag.attachNote(op->getLoc())
          << "in function '" << enclosingFunctionName(op) << "'";
    return diag;
  }
  results.set(cast<OpResult>(getResult()), found);
  return DiagnosedSilenceableFailure::success();
}

//===----------------------------------------------------------------------===//
// GetLoopsOp
//===----------------------------------------------------------------------===//

LogicalResult tir::GetLoopsOp::verify() {
  if (getLoops().empty())
    return emitOpError("expects at least one result");
  return success();
}

DiagnosedSilenceableFailure
tir::GetLoopsOp::apply(transform::TransformRewriter &rewriter,
                             transform::TransformResults &results,
                             transform::TransformState &state) {
  auto payload = llvm::to_vector(state.getPayloadOps(getTarget()));
  if (payload.size() != 1)
    return emitSilenceableError()
           << "expects a handle to exactly one tir.block, got "
           << payload.size() << " payload ops";
  auto block = dyn_cast<BlockOp>(payload.front());
  if (!block) {
    DiagnosedSilenceableFailure diag =
        emitSilenceableError() << "expects a handle to a tir.block";
    diag.attachNote(payload.front()->getLoc()) << "payload op";
    return diag;
  }
  SmallVector<ForOp> loops = tir::getLoops(block);
  SmallVector<Operation *> ops(loops.begin(), loops.end());
  if (getLoops().size() == 1) {
    results.set(cast<OpResult>(getLoops()[0]), ops);
    return DiagnosedSilenceableFailure::success();
  }
  if (getLoops().size() != ops.size()) {
    DiagnosedSilenceableFailure diag =
        emitSilenceableError()
        << "asks for " << getLoops().size() << " loops, but block '"
        << block.getBlockName() << "' is under " << ops.size();
    diag.attachNote(block.getLoc()) << "block";
    return diag;
  }
  for (auto [result, op] : llvm::zip(getLoops(), ops))
    results.set(cast<OpResult>(result), {op});
  return DiagnosedSilenceableFailure::success();
}

//===----------------------------------------------------------------------===//
// Shared helpers
//===----------------------------------------------------------------------===//

/// A primitive's refusal as a silenceable failure, with a note at the loop
/// or block at fault.
static DiagnosedSilenceableFailure
refusal(transform::TransformOpInterface op, const ScheduleError &error) {
  DiagnosedSilenceableFailure diag = op.emitSilenceableError()
                                     << error.message;
  if (error.culprit)
    diag.attachNote(error.culprit->getLoc())
        << (isa<ForOp>(error.culprit)     ? "loop"
            : isa<BlockOp>(error.culprit) ? "block"
                                          : "payload op");
  return diag;
}

/// Every primitive leaves IR that verifies; checked after each step so that
/// a bug shows where it happens rather than at the next parse.
static DiagnosedSilenceableFailure
verifiedAfter(transform::TransformOpInterface op, Operation *payload) {
  Operation *scope = payload->getParentOfType<FunctionOpInterface>();
  if (!scope)
    scope = payload;
  if (failed(mlir::verify(scope)))
    return DiagnosedSilenceableFailure::definiteFailure();
  return DiagnosedSilenceableFailure::success();
}

/// A handle with nothing in it: most often a loop that split or fuse
/// replaced.
static DiagnosedSilenceableFailure
emptyHandle(transform::TransformOpInterface op, StringRef what) {
  return op.emitSilenceableError()
         << "expects a handle to " << what
         << ", got an empty handle (split and fuse erase the loops they "
            "replace and empty their handles: use the loops they return)";
}

/// The one payload op of `handle`, of type OpTy.
template <typename OpTy>
static FailureOr<OpTy> onlyPayload(transform::TransformOpInterface op,
                                   Value handle,
                                   transform::TransformState &state,
                                   StringRef what,
                                   DiagnosedSilenceableFailure &diag) {
  auto payload = llvm::to_vector(state.getPayloadOps(handle));
  if (payload.empty()) {
    diag = emptyHandle(op, (Twine("one ") + what).str());
    return failure();
  }
  if (payload.size() != 1) {
    diag = op.emitSilenceableError()
           << "expects a handle to exactly one " << what << ", got "
           << payload.size() << " payload ops";
    return failure();
  }
  auto typed = dyn_cast<OpTy>(payload.front());
  if (!typed) {
    diag = op.emitSilenceableError() << "expects a handle to a " << what;
    diag.attachNote(payload.front()->getLoc()) << "payload op";
    return failure();
  }
  return typed;
}

/// The loops of several single-loop handles, in order.
static FailureOr<SmallVector<ForOp>>
loopsOf(transform::TransformOpInterface op, ValueRange handles,
        transform::TransformState &state, DiagnosedSilenceableFailure &diag) {
  SmallVector<ForOp> loops;
  for (Value handle : handles) {
    auto loop = onlyPayload<ForOp>(op, handle, state, "tir.for", diag);
    if (failed(loop))
      return failure();
    loops.push_back(*loop);
  }
  return loops;
}

static void setResults(transform::TransformResults &results,
                       ResultRange handles, ArrayRef<ForOp> loops) {
  if (handles.size() == 1 && loops.size() != 1) {
    SmallVector<Operation *> ops(loops.begin(), loops.end());
    results.set(cast<OpResult>(handles[0]), ops);
    return;
  }
  for (auto [handle, loop] : llvm::zip(handles, loops))
    results.set(cast<OpResult>(handle), {static_cast<Operation *>(loop)});
}

//===----------------------------------------------------------------------===//
// Queries
//===----------------------------------------------------------------------===//

DiagnosedSilenceableFailure tir::GetChildBlocksOp::apply(
    transform::TransformRewriter &rewriter,
    transform::TransformResults &results, transform::TransformState &state) {
  SmallVector<Operation *> found;
  for (Operation *parent : state.getPayloadOps(getTarget()))
    for (BlockOp block : getChildBlocks(parent))
      found.push_back(block);
  results.set(cast<OpResult>(getResult()), found);
  return DiagnosedSilenceableFailure::success();
}

template <typename QueryFn>
static DiagnosedSilenceableFailure
applyBlockQuery(transform::TransformOpInterface op, Value target,
                OpResult result, transform::TransformResults &results,
                transform::TransformState &state, QueryFn query) {
  DiagnosedSilenceableFailure diag = DiagnosedSilenceableFailure::success();
  auto block = onlyPayload<BlockOp>(op, target, state, "tir.block", diag);
  if (failed(block))
    return diag;
  SmallVector<Operation *> found;
  for (BlockOp b : query(*block))
    found.push_back(b);
  results.set(result, found);
  return DiagnosedSilenceableFailure::success();
}

DiagnosedSilenceableFailure tir::GetProducersOp::apply(
    transform::TransformRewriter &rewriter,
    transform::TransformResults &results, transform::TransformState &state) {
  return applyBlockQuery(*this, getTarget(), cast<OpResult>(getResult()),
                         results, state, getProducers);
}

DiagnosedSilenceableFailure tir::GetConsumersOp::apply(
    transform::TransformRewriter &rewriter,
    transform::TransformResults &results, transform::TransformState &state) {
  return applyBlockQuery(*this, getTarget(), cast<OpResult>(getResult()),
                         results, state, getConsumers);
}

//===----------------------------------------------------------------------===//
// Loop transformations
//===----------------------------------------------------------------------===//

LogicalResult tir::SplitOp::verify() {
  if (getFactors().size() < 2)
    return emitOpError("expects at least two factors");
  if (getLoops().size() != getFactors().size())
    return emitOpError("expects one result per factor: ")
           << getFactors().size() << " factors, " << getLoops().size()
           << " results";
  return success();
}

// The loops a primitive replaces are erased, which empties their handles;
// handles are not consumed, so that handles to the blocks and loops nested
// in them stay valid (as TVM's block and loop references do).
void tir::SplitOp::getEffects(
    SmallVectorImpl<MemoryEffects::EffectInstance> &effects) {
  transform::onlyReadsHandle(getTargetMutable(), effects);
  transform::producesHandle(getOperation()->getOpResults(), effects);
  transform::modifiesPayload(effects);
}

DiagnosedSilenceableFailure
tir::SplitOp::apply(transform::TransformRewriter &rewriter,
                          transform::TransformResults &results,
                          transform::TransformState &state) {
  DiagnosedSilenceableFailure diag = DiagnosedSilenceableFailure::success();
  auto loop = onlyPayload<ForOp>(*this, getTarget(), state, "tir.for", diag);
  if (failed(loop))
    return diag;
  SmallVector<SplitFactor> factors;
  for (int64_t f : getFactors())
    factors.push_back(f == -1 ? SplitFactor::inferred() : SplitFactor::of(f));
  SplitOptions options;
  options.preserveUnitIters = getPreserveUnitIters();
  options.disablePredication = getDisablePredication();
  ScheduleError error;
  auto loops = split(rewriter, *loop, factors, options, error);
  if (failed(loops))
    return refusal(*this, error);
  setResults(results, getOperation()->getResults(), *loops);
  return verifiedAfter(*this, loops->front());
}

LogicalResult tir::FuseOp::verify() {
  if (getLoops().empty())
    return emitOpError("expects at least one loop");
  return success();
}

void tir::FuseOp::getEffects(
    SmallVectorImpl<MemoryEffects::EffectInstance> &effects) {
  transform::onlyReadsHandle(getLoopsMutable(), effects);
  transform::producesHandle(getOperation()->getOpResults(), effects);
  transform::modifiesPayload(effects);
}

DiagnosedSilenceableFailure
tir::FuseOp::apply(transform::TransformRewriter &rewriter,
                         transform::TransformResults &results,
                         transform::TransformState &state) {
  DiagnosedSilenceableFailure diag = DiagnosedSilenceableFailure::success();
  auto loops = loopsOf(*this, getLoops(), state, diag);
  if (failed(loops))
    return diag;
  ScheduleError error;
  auto fused = fuse(rewriter, *loops, error);
  if (failed(fused))
    return refusal(*this, error);
  results.set(cast<OpResult>(getFused()), {fused->getOperation()});
  return verifiedAfter(*this, *fused);
}

LogicalResult tir::ReorderOp::verify() {
  if (getLoops().empty())
    return emitOpError("expects at least one loop");
  if (getReordered().size() != getLoops().size())
    return emitOpError("expects one result per loop");
  return success();
}

void tir::ReorderOp::getEffects(
    SmallVectorImpl<MemoryEffects::EffectInstance> &effects) {
  transform::onlyReadsHandle(getLoopsMutable(), effects);
  transform::producesHandle(getOperation()->getOpResults(), effects);
  transform::modifiesPayload(effects);
}

DiagnosedSilenceableFailure
tir::ReorderOp::apply(transform::TransformRewriter &rewriter,
                            transform::TransformResults &results,
                            transform::TransformState &state) {
  DiagnosedSilenceableFailure diag = DiagnosedSilenceableFailure::success();
  auto loops = loopsOf(*this, getLoops(), state, diag);
  if (failed(loops))
    return diag;
  ScheduleError error;
  auto reordered = reorder(rewriter, *loops, error);
  if (failed(reordered))
    return refusal(*this, error);
  for (auto [handle, loop] : llvm::zip(getReordered(), *reordered))
    results.set(cast<OpResult>(handle), {loop.getOperation()});
  return verifiedAfter(*this, reordered->front());
}

//===----------------------------------------------------------------------===//
// Block placement
//===----------------------------------------------------------------------===//

template <typename OpTy, typename Fn>
static DiagnosedSilenceableFailure
applyComputeAt(OpTy op, transform::TransformRewriter &rewriter,
               transform::TransformState &state, Fn primitive) {
  DiagnosedSilenceableFailure diag = DiagnosedSilenceableFailure::success();
  auto block = onlyPayload<BlockOp>(op, op.getBlock(), state, "tir.block", diag);
  if (failed(block))
    return diag;
  auto loop = onlyPayload<ForOp>(op, op.getLoop(), state, "tir.for", diag);
  if (failed(loop))
    return diag;
  ScheduleError error;
  if (failed(primitive(rewriter, *block, *loop, op.getPreserveUnitLoops(),
                       op.getIndex(), error)))
    return refusal(op, error);
  return verifiedAfter(op, *block);
}

void tir::ComputeAtOp::getEffects(
    SmallVectorImpl<MemoryEffects::EffectInstance> &effects) {
  transform::onlyReadsHandle(getBlockMutable(), effects);
  transform::onlyReadsHandle(getLoopMutable(), effects);
  transform::modifiesPayload(effects);
}

DiagnosedSilenceableFailure
tir::ComputeAtOp::apply(transform::TransformRewriter &rewriter,
                        transform::TransformResults &results,
                        transform::TransformState &state) {
  return applyComputeAt(*this, rewriter, state, computeAt);
}

void tir::ReverseComputeAtOp::getEffects(
    SmallVectorImpl<MemoryEffects::EffectInstance> &effects) {
  transform::onlyReadsHandle(getBlockMutable(), effects);
  transform::onlyReadsHandle(getLoopMutable(), effects);
  transform::modifiesPayload(effects);
}

DiagnosedSilenceableFailure
tir::ReverseComputeAtOp::apply(transform::TransformRewriter &rewriter,
                               transform::TransformResults &results,
                               transform::TransformState &state) {
  return applyComputeAt(*this, rewriter, state, reverseComputeAt);
}

void tir::AddUnitLoopOp::getEffects(
    SmallVectorImpl<MemoryEffects::EffectInstance> &effects) {
  transform::onlyReadsHandle(getTargetMutable(), effects);
  transform::producesHandle(getOperation()->getOpResults(), effects);
  transform::modifiesPayload(effects);
}

DiagnosedSilenceableFailure
tir::AddUnitLoopOp::apply(transform::TransformRewriter &rewriter,
                                transform::TransformResults &results,
                                transform::TransformState &state) {
  SmallVector<Operation *> created;
  if (state.getPayloadOps(getTarget()).empty())
    return emptyHandle(*this, "tir.for or tir.block ops");
  for (Operation *target : state.getPayloadOps(getTarget())) {
    ScheduleError error;
    auto loop = addUnitLoop(rewriter, target, error);
    if (failed(loop))
      return refusal(*this, error);
    created.push_back(*loop);
    DiagnosedSilenceableFailure verified = verifiedAfter(*this, *loop);
    if (!verified.succeeded())
      return verified;
  }
  results.set(cast<OpResult>(getLoop()), created);
  return DiagnosedSilenceableFailure::success();
}

//===----------------------------------------------------------------------===//
// Loop kinds and annotations
//===----------------------------------------------------------------------===//

/// Applies `apply` to every payload op of `target`, which must all be
/// OpTys (tir.for or tir.block). Each call checks its rules before it
/// changes anything.
template <typename... OpTys, typename ApplyFn>
static DiagnosedSilenceableFailure
applyToEach(transform::TransformOpInterface op, Value target,
            transform::TransformState &state, StringRef what,
            ApplyFn apply) {
  SmallVector<Operation *> targets;
  if (state.getPayloadOps(target).empty())
    return emptyHandle(op, what);
  for (Operation *payload : state.getPayloadOps(target)) {
    if (!isa<OpTys...>(payload)) {
      DiagnosedSilenceableFailure diag =
          op.emitSilenceableError() << "expects handles to " << what;
      diag.attachNote(payload->getLoc()) << "payload op";
      return diag;
    }
    targets.push_back(payload);
  }
  for (Operation *payload : targets) {
    ScheduleError error;
    if (failed(apply(payload, error)))
      return refusal(op, error);
    DiagnosedSilenceableFailure verified = verifiedAfter(op, payload);
    if (!verified.succeeded())
      return verified;
  }
  return DiagnosedSilenceableFailure::success();
}

/// `fn` on loops, for applyToEach.
template <typename Fn> static auto onLoops(Fn fn) {
  return [fn](Operation *op, ScheduleError &error) {
    return fn(cast<ForOp>(op), error);
  };
}

#define TIR_TARGET_ONLY_EFFECTS(OP)                                            \
  void tir::OP::getEffects(                                              \
      SmallVectorImpl<MemoryEffects::EffectInstance> &effects) {               \
    transform::onlyReadsHandle(getTargetMutable(), effects);                              \
    transform::modifiesPayload(effects);                                                  \
  }
TIR_TARGET_ONLY_EFFECTS(ParallelOp)
TIR_TARGET_ONLY_EFFECTS(VectorizeOp)
TIR_TARGET_ONLY_EFFECTS(UnrollOp)
TIR_TARGET_ONLY_EFFECTS(BindOp)
TIR_TARGET_ONLY_EFFECTS(AnnotateOp)
TIR_TARGET_ONLY_EFFECTS(UnannotateOp)
#undef TIR_TARGET_ONLY_EFFECTS

DiagnosedSilenceableFailure
tir::ParallelOp::apply(transform::TransformRewriter &rewriter,
                             transform::TransformResults &results,
                             transform::TransformState &state) {
  return applyToEach<ForOp>(*this, getTarget(), state, "tir.for ops",
                            onLoops(parallel));
}

DiagnosedSilenceableFailure
tir::VectorizeOp::apply(transform::TransformRewriter &rewriter,
                              transform::TransformResults &results,
                              transform::TransformState &state) {
  return applyToEach<ForOp>(*this, getTarget(), state, "tir.for ops",
                            onLoops(vectorize));
}

DiagnosedSilenceableFailure
tir::UnrollOp::apply(transform::TransformRewriter &rewriter,
                           transform::TransformResults &results,
                           transform::TransformState &state) {
  return applyToEach<ForOp>(*this, getTarget(), state, "tir.for ops",
                            onLoops(unroll));
}

DiagnosedSilenceableFailure
tir::BindOp::apply(transform::TransformRewriter &rewriter,
                         transform::TransformResults &results,
                         transform::TransformState &state) {
  StringRef thread = getThread();
  return applyToEach<ForOp>(*this, getTarget(), state, "tir.for ops",
                            onLoops([thread](ForOp loop, ScheduleError &error) {
                              return bind(loop, thread, error);
                            }));
}

DiagnosedSilenceableFailure
tir::AnnotateOp::apply(transform::TransformRewriter &rewriter,
                             transform::TransformResults &results,
                             transform::TransformState &state) {
  return applyToEach<ForOp, BlockOp>(
      *this, getTarget(), state, "tir.for or tir.block ops",
      [&](Operation *op, ScheduleError &error) {
        return annotate(op, getKey(), getValue(), error);
      });
}

DiagnosedSilenceableFailure
tir::UnannotateOp::apply(transform::TransformRewriter &rewriter,
                               transform::TransformResults &results,
                               transform::TransformState &state) {
  return applyToEach<ForOp, BlockOp>(
      *this, getTarget(), state, "tir.for or tir.block ops",
      [&](Operation *op, ScheduleError &error) {
        return unannotate(op, getKey(), error);
      });
}

//===----------------------------------------------------------------------===//
// Extension
//===----------------------------------------------------------------------===//

namespace {
class TIRTransformDialectExtension
    : public transform::TransformDialectExtension<
          TIRTransformDialectExtension> {
public:
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(TIRTransformDialectExtension)

  TIRTransformDialectExtension() {
    declareDependentDialect<TIRDialect>();
    registerTransformOps<
#define GET_OP_LIST
#include "TensorIR/Dialect/TIR/TransformOps/TIRTransformOps.cpp.inc"
        >();
  }
};
} // namespace

void mlir::tir::registerTransformDialectExtension(DialectRegistry &registry) {
  registry.addExtensions<TIRTransformDialectExtension>();
}
