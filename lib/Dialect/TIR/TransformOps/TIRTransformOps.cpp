//===- TIRTransformOps.cpp - transform.tir extension ----------------------===//
//
// The op classes, the extension that registers them, and the C++ of the ops
// of TIRTransformOps.td (queries, sampling, loop transformations, block
// placement, loop kinds and annotations): each op's applyToPayload (or
// applyToOne and getTargets), verifier and Python form. The ops of the
// other .td files have theirs in the .cpp of their family
// (BufferTransformOps.cpp, PaddingTransformOps.cpp, ...). What every op
// shares (the transform interpreter's apply, the effects) is
// ScheduleOpTrait, in lib/Dialect/TIR/TransformOps/ScheduleOpInterface.cpp.
//
//===----------------------------------------------------------------------===//

#include "TensorIR/Dialect/TIR/TransformOps/TIRTransformOps.h"
#include "FactorList.h"
#include "TensorIR/Dialect/TIR/IR/TIRDialect.h"
#include "TensorIR/Dialect/TIR/IR/TIROps.h"
#include "TensorIR/Dialect/TIR/Schedule/Primitives.h"
#include "TensorIR/Dialect/TIR/Schedule/Query.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Transform/IR/TransformDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/AffineExprVisitor.h"

using namespace mlir;
using namespace mlir::tir;

// custom<FactorList> (split, loop_partition) is in FactorList.h.
#define GET_OP_CLASSES
#include "TensorIR/Dialect/TIR/TransformOps/TIRTransformOps.cpp.inc"

//===----------------------------------------------------------------------===//
// Queries
//===----------------------------------------------------------------------===//

LogicalResult tir::GetBlockOp::applyToPayload(RewriterBase &,
                                              SchedulePayload &payload,
                                              ScheduleError &error) {
  FailureOr<Operation *> block =
      getBlockIn(payload.ops(0), getName(), getFuncName(), error);
  if (failed(block))
    return failure();
  payload.setResult(0, ArrayRef<Operation *>(*block));
  // The trace records the function, as TVM's does.
  auto func = dyn_cast<FunctionOpInterface>(*block);
  if (!func)
    func = (*block)->getParentOfType<FunctionOpInterface>();
  if (func)
    payload.resolved.set("func_name",
                         StringAttr::get(getContext(), func.getName()));
  return success();
}

// The queries that return blocks or loops (TIR_ListQueryOp) collect them in
// `found` and spread them over the results (setVariadicResults, whose error
// names the block they were found from): with one result, the handle holds
// them all; with several (or none), there must be exactly one result per op
// found.

/// The ops `query` finds from the one block of operand 0, spread over the
/// results (setVariadicResults, whose error names the block).
template <typename Query>
static LogicalResult queryFromBlock(SchedulePayload &payload, StringRef what,
                                    ScheduleError &error, Query query) {
  FailureOr<BlockOp> block = payload.single<BlockOp>(0, "tir.block", error);
  if (failed(block))
    return failure();
  SmallVector<Operation *> found;
  for (Operation *op : query(*block))
    found.push_back(op);
  return payload.setVariadicResults(found, what, *block, error);
}

LogicalResult tir::GetLoopsOp::applyToPayload(RewriterBase &,
                                              SchedulePayload &payload,
                                              ScheduleError &error) {
  return queryFromBlock(payload, "loop", error,
                        [](BlockOp block) { return getLoops(block); });
}

LogicalResult tir::GetChildBlocksOp::applyToPayload(RewriterBase &,
                                                    SchedulePayload &payload,
                                                    ScheduleError &error) {
  SmallVector<Operation *> found;
  for (Operation *parent : payload.ops(0))
    for (BlockOp block : getChildBlocks(parent))
      found.push_back(block);
  return payload.setVariadicResults(found, "block", /*at=*/nullptr, error);
}

LogicalResult tir::GetProducersOp::applyToPayload(RewriterBase &,
                                                  SchedulePayload &payload,
                                                  ScheduleError &error) {
  return queryFromBlock(payload, "block", error,
                        [](BlockOp block) { return getProducers(block); });
}

LogicalResult tir::GetOutputBlocksOp::applyToPayload(RewriterBase &,
                                                     SchedulePayload &payload,
                                                     ScheduleError &error) {
  FailureOr<Operation *> scope = payload.singleOp(0, "tir.block", error);
  if (failed(scope))
    return failure();
  if (!isa<BlockOp, FunctionOpInterface>(*scope)) {
    error = {"get_output_blocks expects a block (or a function, TVM's root "
             "block)",
             *scope};
    return failure();
  }
  SmallVector<Operation *> found;
  for (BlockOp block : getOutputBlocks(*scope))
    found.push_back(block);
  return payload.setVariadicResults(found, "block", *scope, error);
}

LogicalResult tir::GetConsumersOp::applyToPayload(RewriterBase &,
                                                  SchedulePayload &payload,
                                                  ScheduleError &error) {
  return queryFromBlock(payload, "block", error,
                        [](BlockOp block) { return getConsumers(block); });
}

LogicalResult tir::SamplePerfectTileOp::verify() {
  if (getN() < 1)
    return emitOpError("expects n to be at least 1");
  if (getDecision() && getDecision()->size() != static_cast<size_t>(getN()))
    return emitOpError("expects a decision of n = ") << getN() << " factors";
  if (getFactors().size() != static_cast<size_t>(getN()))
    return emitOpError("expects one result per factor");
  return success();
}

Type tir::SamplePerfectTileOp::getScheduleResultType(MLIRContext *context) {
  return transform::ParamType::get(context, IntegerType::get(context, 64));
}

/// The random state a sampling step without a decision draws from.
static FailureOr<RandomEngine::State *> randomStateFor(SchedulePayload &payload,
                                                       StringRef primitive,
                                                       ScheduleError &error) {
  if (payload.randomState)
    return payload.randomState;
  error = {(primitive +
            " needs a decision here: the transform interpreter has no random "
            "state to draw one from")
               .str(),
           nullptr};
  return failure();
}

LogicalResult tir::SamplePerfectTileOp::applyToPayload(RewriterBase &,
                                                       SchedulePayload &payload,
                                                       ScheduleError &error) {
  FailureOr<ForOp> loop = payload.single<ForOp>(0, "tir.for", error);
  if (failed(loop))
    return failure();
  if (loop->getConstantLowerBound() != 0) {
    error = {"sample_perfect_tile needs a loop that starts at 0", *loop};
    return failure();
  }
  int64_t n = getN();
  SmallVector<int64_t> factors;
  std::optional<int64_t> extent = loop->getConstantUpperBound();
  if (!extent) {
    // TVM's tiling of a runtime extent: inferred, then 1s.
    factors.assign(n, 1);
    factors[0] = -1;
  } else if (*extent < 1) {
    error = {"sample_perfect_tile needs a loop of positive extent", *loop};
    return failure();
  } else if (std::optional<ArrayRef<int64_t>> decision = getDecision()) {
    factors = repairPerfectTile(*decision, *extent);
  } else {
    if (!hasPerfectTile(*extent, n, getMaxInnermostFactor())) {
      error = {"sample_perfect_tile: one factor of " + std::to_string(*extent) +
                   " cannot be at most max_innermost_factor = " +
                   std::to_string(getMaxInnermostFactor()),
               *loop};
      return failure();
    }
    FailureOr<RandomEngine::State *> state =
        randomStateFor(payload, "sample_perfect_tile", error);
    if (failed(state))
      return failure();
    factors = samplePerfectTile(**state, *extent, n, getMaxInnermostFactor());
  }
  Builder builder(getContext());
  for (auto [index, factor] : llvm::enumerate(factors))
    payload.results[index].push_back(builder.getI64IntegerAttr(factor));
  payload.resolved.set("decision", builder.getDenseI64ArrayAttr(factors));
  return success();
}

//===----------------------------------------------------------------------===//
// SampleCategoricalOp
//===----------------------------------------------------------------------===//

LogicalResult tir::SampleCategoricalOp::verify() {
  if (getCandidates().empty())
    return emitOpError("expects at least one candidate");
  if (getProbs().size() != getCandidates().size())
    return emitOpError("expects one probability per candidate: ")
           << getCandidates().size() << " candidates, " << getProbs().size()
           << " probabilities";
  if (llvm::any_of(getProbs(), [](double p) { return !(p >= 0.0); }) ||
      llvm::all_of(getProbs(), [](double p) { return p == 0.0; }))
    return emitOpError(
        "expects probabilities that are at least 0 and not all 0");
  if (std::optional<int64_t> d = getDecision();
      d && (*d < 0 || *d >= static_cast<int64_t>(getCandidates().size())))
    return emitOpError("expects a decision in [0, ")
           << getCandidates().size() << "), got " << *d;
  return success();
}

Type tir::SampleCategoricalOp::getScheduleResultType(MLIRContext *context) {
  return transform::ParamType::get(context, IntegerType::get(context, 64));
}

LogicalResult tir::SampleCategoricalOp::applyToPayload(RewriterBase &,
                                                       SchedulePayload &payload,
                                                       ScheduleError &error) {
  int64_t index;
  if (std::optional<int64_t> decision = getDecision()) {
    index = *decision;
  } else {
    FailureOr<RandomEngine::State *> state =
        randomStateFor(payload, "sample_categorical", error);
    if (failed(state))
      return failure();
    index = sampleDiscrete(**state, getProbs());
  }
  Builder builder(getContext());
  payload.results[0].push_back(
      builder.getI64IntegerAttr(getCandidates()[index]));
  payload.resolved.set("decision", builder.getI64IntegerAttr(index));
  return success();
}

LogicalResult tir::SampleComputeLocationOp::applyToPayload(
    RewriterBase &, SchedulePayload &payload, ScheduleError &error) {
  FailureOr<BlockOp> block = payload.single<BlockOp>(0, "tir.block", error);
  if (failed(block))
    return failure();
  SmallVector<ComputeLocation> places = collectComputeLocations(*block);
  size_t chosen;
  if (std::optional<int64_t> decision = getDecision()) {
    // TVM's repair: the place itself, else the nearest one before it, else
    // the root.
    auto it = llvm::lower_bound(places, *decision,
                                [](const ComputeLocation &place, int64_t d) {
                                  return place.index < d;
                                });
    if (it != places.end() && it->index == *decision)
      chosen = it - places.begin();
    else if (it != places.begin())
      chosen = it - places.begin() - 1;
    else
      chosen = llvm::find_if(places,
                             [](const ComputeLocation &place) {
                               return place.index == -1;
                             }) -
               places.begin();
  } else {
    FailureOr<RandomEngine::State *> state =
        randomStateFor(payload, "sample_compute_location", error);
    if (failed(state))
      return failure();
    chosen = sampleInt(**state, 0, places.size());
  }
  // The root and the inline place are not loops: the handle is empty, and
  // compute_at tells them apart by the decision of this op.
  const ComputeLocation &place = places[chosen];
  if (place.loop)
    payload.setResult(0, ArrayRef<Operation *>(place.loop));
  payload.resolved.set("decision",
                       Builder(getContext()).getI64IntegerAttr(place.index));
  return success();
}

LogicalResult tir::EnterPostprocOp::applyToPayload(RewriterBase &,
                                                   SchedulePayload &,
                                                   ScheduleError &) {
  return success();
}

//===----------------------------------------------------------------------===//
// SplitOp
//===----------------------------------------------------------------------===//

LogicalResult tir::SplitOp::verify() {
  if (getFactors().size() < 2)
    return emitOpError("expects at least two factors");
  if (getLoops().size() != getFactors().size())
    return emitOpError("expects one result per factor: ")
           << getFactors().size() << " factors, " << getLoops().size()
           << " results";
  return verifyFactorList(*this, getFactors(), getFactorParams().size());
}

LogicalResult tir::SplitOp::applyToPayload(RewriterBase &rewriter,
                                           SchedulePayload &payload,
                                           ScheduleError &error) {
  FailureOr<ForOp> loop = payload.single<ForOp>(0, "tir.for", error);
  if (failed(loop))
    return failure();
  // Operand 0 is the loop, the parameters follow.
  FailureOr<SmallVector<SplitFactor>> factors =
      resolveFactorList(getFactors(), payload, 1, "split", error);
  if (failed(factors))
    return failure();
  SplitOptions options;
  options.preserveUnitIters = getPreserveUnitIters();
  options.disablePredication = getDisablePredication();
  if (std::optional<ArrayRef<int64_t>> values = getVscaleValues())
    options.vscaleValues.assign(values->begin(), values->end());
  FailureOr<SmallVector<ForOp>> loops =
      split(rewriter, *loop, *factors, options, error);
  if (failed(loops))
    return failure();
  for (auto [index, newLoop] : llvm::enumerate(*loops))
    payload.setResult(index, ArrayRef<Operation *>(newLoop));
  return success();
}

void tir::SplitOp::printPythonArgument(StringRef name, Attribute value,
                                       ArrayRef<std::string> operands,
                                       raw_ostream &os) {
  // vscale's values come from the target in Python.
  if (!value || name == "vscale_values")
    return;
  if (name != "factors") {
    os << name << "=";
    printPythonValue(value, os);
    return;
  }
  printPythonFactorList(getFactors(), operands, 1, os);
}

//===----------------------------------------------------------------------===//
// Other loop transformations
//===----------------------------------------------------------------------===//

LogicalResult tir::FuseOp::verify() {
  if (getLoops().empty())
    return emitOpError("expects at least one loop");
  return success();
}

LogicalResult tir::FuseOp::applyToPayload(RewriterBase &rewriter,
                                          SchedulePayload &payload,
                                          ScheduleError &error) {
  FailureOr<SmallVector<ForOp>> loops =
      payload.singles<ForOp>("tir.for", error);
  if (failed(loops))
    return failure();
  FailureOr<ForOp> fused = fuse(rewriter, *loops, error);
  if (failed(fused))
    return failure();
  payload.setResult(0, ArrayRef<Operation *>(*fused));
  return success();
}

LogicalResult tir::ReorderOp::verify() {
  if (getOrderedLoops().empty())
    return emitOpError("expects at least one loop");
  return success();
}

LogicalResult tir::ReorderOp::applyToPayload(RewriterBase &rewriter,
                                             SchedulePayload &payload,
                                             ScheduleError &error) {
  FailureOr<SmallVector<ForOp>> loops =
      payload.singles<ForOp>("tir.for", error);
  if (failed(loops))
    return failure();
  return reorder(rewriter, *loops, error);
}

LogicalResult tir::AddUnitLoopOp::applyToPayload(RewriterBase &rewriter,
                                                 SchedulePayload &payload,
                                                 ScheduleError &error) {
  FailureOr<Operation *> target =
      payload.singleOp(0, "tir.for or tir.block", error);
  if (failed(target))
    return failure();
  FailureOr<ForOp> loop = addUnitLoop(rewriter, *target, error);
  if (failed(loop))
    return failure();
  payload.setResult(0, ArrayRef<Operation *>(*loop));
  return success();
}

//===----------------------------------------------------------------------===//
// Block placement
//===----------------------------------------------------------------------===//

/// compute_inline and reverse_compute_inline (TIR_InlineOpBase): `primitive`
/// applied to the one block of the handle.
static LogicalResult applyInline(
    RewriterBase &rewriter, SchedulePayload &payload, ScheduleError &error,
    LogicalResult (*primitive)(RewriterBase &, BlockOp, ScheduleError &)) {
  FailureOr<BlockOp> block = payload.single<BlockOp>(0, "tir.block", error);
  if (failed(block))
    return failure();
  return primitive(rewriter, *block, error);
}

LogicalResult tir::ComputeInlineOp::applyToPayload(RewriterBase &rewriter,
                                                   SchedulePayload &payload,
                                                   ScheduleError &error) {
  return applyInline(rewriter, payload, error, computeInline);
}

LogicalResult tir::ReverseComputeInlineOp::applyToPayload(
    RewriterBase &rewriter, SchedulePayload &payload, ScheduleError &error) {
  return applyInline(rewriter, payload, error, reverseComputeInline);
}

LogicalResult tir::FuseReductionEpilogueOp::applyToPayload(
    RewriterBase &rewriter, SchedulePayload &payload, ScheduleError &error) {
  FailureOr<BlockOp> reduction = payload.single<BlockOp>(0, "tir.block", error);
  if (failed(reduction))
    return failure();
  FailureOr<BlockOp> epilogue = payload.single<BlockOp>(1, "tir.block", error);
  if (failed(epilogue))
    return failure();
  return fuseReductionEpilogue(rewriter, *reduction, *epilogue, error);
}

LogicalResult tir::ReorderBlockIterVarOp::applyToPayload(
    RewriterBase &rewriter, SchedulePayload &payload, ScheduleError &error) {
  FailureOr<BlockOp> block = payload.single<BlockOp>(0, "tir.block", error);
  if (failed(block))
    return failure();
  return reorderBlockIterVar(rewriter, *block, getNewOrder(), error);
}

/// The place sample_compute_location chose for `loopHandle` when it is not
/// a loop (-1: the root, -2: inlined; the handle is then empty), else
/// nullopt. The op that made the handle says which.
static std::optional<int64_t> sampledPlace(Value loopHandle) {
  auto sampled = loopHandle.getDefiningOp<SampleComputeLocationOp>();
  std::optional<int64_t> decision =
      sampled ? sampled.getDecision() : std::nullopt;
  if (decision && *decision < 0)
    return decision;
  return std::nullopt;
}

/// compute_at and reverse_compute_at (TIR_ComputeAtOpBase): `primitive`
/// applied to the block and the loop of the handles, with the op's
/// preserve_unit_loops and index. sample_compute_location's places that
/// are not loops act as TVM's: the root leaves the block where it is, the
/// inline place inlines it.
static LogicalResult applyComputeAt(
    RewriterBase &rewriter, SchedulePayload &payload, ScheduleError &error,
    Value loopHandle, bool preserveUnitLoops, int64_t index,
    FailureOr<BlockOp> (*primitive)(RewriterBase &, BlockOp, ForOp, bool,
                                    int64_t, ScheduleError &)) {
  FailureOr<BlockOp> block = payload.single<BlockOp>(0, "tir.block", error);
  if (failed(block))
    return failure();
  if (std::optional<int64_t> place = sampledPlace(loopHandle)) {
    if (*place == -1)
      return success();
    return primitive == computeAt
               ? computeInline(rewriter, *block, error)
               : reverseComputeInline(rewriter, *block, error);
  }
  FailureOr<ForOp> loop = payload.single<ForOp>(1, "tir.for", error);
  if (failed(loop))
    return failure();
  return primitive(rewriter, *block, *loop, preserveUnitLoops, index, error);
}

LogicalResult tir::ComputeAtOp::applyToPayload(RewriterBase &rewriter,
                                               SchedulePayload &payload,
                                               ScheduleError &error) {
  return applyComputeAt(rewriter, payload, error, getLoop(),
                        getPreserveUnitLoops(), getIndex(), computeAt);
}

LogicalResult tir::ReverseComputeAtOp::applyToPayload(RewriterBase &rewriter,
                                                      SchedulePayload &payload,
                                                      ScheduleError &error) {
  return applyComputeAt(rewriter, payload, error, getLoop(),
                        getPreserveUnitLoops(), getIndex(), reverseComputeAt);
}

//===----------------------------------------------------------------------===//
// Loop kinds and annotations
//===----------------------------------------------------------------------===//

// Steps applied to each op of the first handle in turn (TIR_EachOp):
// getTargets checks what the handle must hold, applyToOne applies the step
// to one of them (`target`).

/// The targets of a step on loops: every op of the handle a tir.for.
static FailureOr<SmallVector<Operation *>>
eachLoop(const SchedulePayload &payload, ScheduleError &error) {
  return payload.each<ForOp>(0, "tir.for ops", error);
}

/// Loops, blocks, or functions: TVM's root block, which annotations write
/// out.
static FailureOr<SmallVector<Operation *>>
eachLoopBlockOrFunction(const SchedulePayload &payload, ScheduleError &error) {
  return payload.each<ForOp, BlockOp, FunctionOpInterface>(
      0, "tir.for or tir.block ops or functions", error);
}

FailureOr<SmallVector<Operation *>>
tir::ParallelOp::getTargets(const SchedulePayload &payload,
                            ScheduleError &error) {
  return eachLoop(payload, error);
}

LogicalResult tir::ParallelOp::applyToOne(RewriterBase &, Operation *target,
                                          ScheduleError &error) {
  return parallel(cast<ForOp>(target), error);
}

FailureOr<SmallVector<Operation *>>
tir::VectorizeOp::getTargets(const SchedulePayload &payload,
                             ScheduleError &error) {
  return eachLoop(payload, error);
}

LogicalResult tir::VectorizeOp::applyToOne(RewriterBase &, Operation *target,
                                           ScheduleError &error) {
  return vectorize(cast<ForOp>(target), error);
}

FailureOr<SmallVector<Operation *>>
tir::UnrollOp::getTargets(const SchedulePayload &payload,
                          ScheduleError &error) {
  return eachLoop(payload, error);
}

LogicalResult tir::UnrollOp::applyToOne(RewriterBase &, Operation *target,
                                        ScheduleError &error) {
  return unroll(cast<ForOp>(target), error);
}

FailureOr<SmallVector<Operation *>>
tir::BindOp::getTargets(const SchedulePayload &payload, ScheduleError &error) {
  return eachLoop(payload, error);
}

LogicalResult tir::BindOp::applyToOne(RewriterBase &, Operation *target,
                                      ScheduleError &error) {
  return bind(cast<ForOp>(target), getThreadAxis(), error);
}

LogicalResult tir::AnnotateOp::verify() {
  if (getAnnParam().size() > 1)
    return emitOpError("expects at most one parameter as the value");
  if (getAnnParam().empty() == !getAnnVal())
    return emitOpError(
        "expects either a value or a parameter as the annotation's value");
  return success();
}

LogicalResult tir::AnnotateOp::applyToPayload(RewriterBase &rewriter,
                                              SchedulePayload &payload,
                                              ScheduleError &error) {
  FailureOr<SmallVector<Operation *>> targets =
      eachLoopBlockOrFunction(payload, error);
  if (failed(targets))
    return failure();
  Attribute value = getAnnValAttr();
  if (!value) {
    // The integer the parameter holds (a sampled value).
    ArrayRef<transform::MappedValue> held = payload.operands[1];
    auto param = held.size() == 1 ? dyn_cast_if_present<IntegerAttr>(
                                        dyn_cast<Attribute>(held.front()))
                                  : IntegerAttr();
    if (!param) {
      error = {"expects the parameter of the annotation's value to hold one "
               "integer",
               nullptr};
      return failure();
    }
    value = param;
  }
  for (Operation *target : *targets)
    if (failed(annotate(target, getAnnKey(), value, error, &rewriter)))
      return failure();
  return success();
}

void tir::AnnotateOp::printPythonArgument(StringRef name, Attribute value,
                                          ArrayRef<std::string> operands,
                                          raw_ostream &os) {
  if (name == "ann_val" && !value) {
    // The parameter given as the value.
    if (operands.size() > 1)
      os << "ann_val=" << operands[1];
    return;
  }
  if (!value)
    return;
  os << name << "=";
  printPythonValue(value, os);
}

FailureOr<SmallVector<Operation *>>
tir::UnannotateOp::getTargets(const SchedulePayload &payload,
                              ScheduleError &error) {
  return eachLoopBlockOrFunction(payload, error);
}

LogicalResult tir::UnannotateOp::applyToOne(RewriterBase &rewriter,
                                            Operation *target,
                                            ScheduleError &error) {
  return unannotate(target, getAnnKey(), error, &rewriter);
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
    // What the primitives create besides tir: index arithmetic, runtime
    // sizes, guarded copies (pad_einsum), vscale (scalable splits).
    declareGeneratedDialect<arith::ArithDialect>();
    declareGeneratedDialect<affine::AffineDialect>();
    declareGeneratedDialect<memref::MemRefDialect>();
    declareGeneratedDialect<scf::SCFDialect>();
    declareGeneratedDialect<vector::VectorDialect>();
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
