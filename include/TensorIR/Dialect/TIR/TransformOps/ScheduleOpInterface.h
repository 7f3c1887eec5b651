//===- ScheduleOpInterface.h - ops that are schedule steps ------*- C++ -*-===//
//
// Every transform.tir op is a step of a schedule (ScheduleOpInterface): it
// applies to the payload of its operands without the transform state, so
// the transform interpreter and ScheduleState run the same code. The traits
// below give the ops their TransformOpInterface `apply` and their effects.
//
// The handle contract, for every transform.tir op: operands are only read
// (never consumed), results are new handles, and the payload is modified
// unless the op is a query. A loop that a primitive replaces is erased,
// which empties every handle to it; blocks are never replaced, so handles
// to blocks, and to loops a primitive keeps, stay valid (as TVM's BlockRV
// and LoopRV do).
//
//===----------------------------------------------------------------------===//

#ifndef TENSORIR_DIALECT_TIR_TRANSFORMOPS_SCHEDULEOPINTERFACE_H
#define TENSORIR_DIALECT_TIR_TRANSFORMOPS_SCHEDULEOPINTERFACE_H

#include "TensorIR/Dialect/TIR/Schedule/Sampling.h"
#include "TensorIR/Dialect/TIR/Schedule/ScheduleError.h"

#include "mlir/Dialect/Transform/IR/TransformTypes.h"
#include "mlir/Dialect/Transform/Interfaces/TransformInterfaces.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/Support/raw_ostream.h"

namespace mlir::tir {

/// What a step applies to: for each operand, the payload ops (or
/// parameters) its handle holds, and for each result, what it will hold.
struct SchedulePayload {
  SmallVector<SmallVector<transform::MappedValue>> operands;
  SmallVector<SmallVector<transform::MappedValue>> results;
  /// The schedule's random state, which sampling steps without a decision
  /// draw from; null in the transform interpreter, which has none.
  RandomEngine::State *randomState = nullptr;

  /// What the step resolved, for the schedule to record as attributes of
  /// its op (so that its trace replays the same way): a sampling step's
  /// decision (its own, repaired, or drawn), the function get_block found
  /// its block in.
  NamedAttrList resolved;

  /// The payload ops of operand `index`.
  SmallVector<Operation *> ops(unsigned index) const;

  /// The one payload op of operand `index`, which must be an OpTy (`what`
  /// names it in the error, e.g. "tir.for").
  template <typename OpTy>
  FailureOr<OpTy> single(unsigned index, StringRef what,
                         ScheduleError &error) const {
    FailureOr<Operation *> op = singleOp(index, what, error);
    if (failed(op))
      return failure();
    if (auto typed = dyn_cast<OpTy>(*op))
      return typed;
    error = {("expects a handle to a " + what).str(), *op};
    return failure();
  }

  /// The payload ops of operand `index`: at least one, all of `OpTys`
  /// (`what` names them in the error).
  template <typename... OpTys>
  FailureOr<SmallVector<Operation *>> each(unsigned index, StringRef what,
                                           ScheduleError &error) const {
    SmallVector<Operation *> found = ops(index);
    if (found.empty()) {
      error = {emptyHandleMessage(what), nullptr};
      return failure();
    }
    for (Operation *op : found) {
      if (!isa<OpTys...>(op)) {
        error = {("expects handles to " + what).str(), op};
        return failure();
      }
    }
    return found;
  }

  /// The one payload op of operand `index` (`what` names it in the error).
  FailureOr<Operation *> singleOp(unsigned index, StringRef what,
                                  ScheduleError &error) const;

  /// The one payload op of each operand, all OpTys (for a variadic operand
  /// such as fuse's loops).
  template <typename OpTy>
  FailureOr<SmallVector<OpTy>> singles(StringRef what,
                                       ScheduleError &error) const {
    SmallVector<OpTy> found;
    for (unsigned index = 0; index < operands.size(); ++index) {
      FailureOr<OpTy> op = single<OpTy>(index, what, error);
      if (failed(op))
        return failure();
      found.push_back(*op);
    }
    return found;
  }

  /// Sets result `index` to `ops`.
  template <typename Range> void setResult(unsigned index, Range &&ops) {
    results[index].clear();
    for (auto op : ops)
      results[index].push_back(static_cast<Operation *>(op));
  }

  /// Spreads `ops` over the results: with one result it holds them all,
  /// otherwise there must be exactly one result per op (`what` names the
  /// ops in the error, `at` is the op they were found from).
  LogicalResult setVariadicResults(ArrayRef<Operation *> ops, StringRef what,
                                   Operation *at, ScheduleError &error);

  /// The message for an operand whose handle is empty.
  static std::string emptyHandleMessage(StringRef what);
};

/// Prints an attribute as a Python value: bools as True/False, integers,
/// floats, strings quoted, arrays as lists, affine maps as index maps
/// (printPythonIndexMap).
void printPythonValue(Attribute value, llvm::raw_ostream &os);

/// An index expression as Python: d<k> for dimension k (an index map's
/// index), symbol k as `symbolNames[k]` (a shape variable of an index map)
/// or, past them, T.vscale() (a scalable split factor).
void printPythonExpr(AffineExpr expr, llvm::raw_ostream &os,
                     ArrayRef<StringRef> symbolNames = {});

/// An index map as TVM's Python: `lambda d0, d1: (e0, e1, )`.
void printPythonIndexMap(AffineMap map, llvm::raw_ostream &os,
                         ArrayRef<StringRef> symbolNames = {});

/// The shared parts of the traits.
namespace detail {
DiagnosedSilenceableFailure
applyScheduleOp(Operation *op, transform::TransformRewriter &rewriter,
                transform::TransformResults &results,
                transform::TransformState &state);
void getScheduleOpEffects(Operation *op, bool isQuery,
                          SmallVectorImpl<MemoryEffects::EffectInstance> &);
LogicalResult applyToEachPayloadOp(
    Operation *op, SchedulePayload &payload, ScheduleError &error,
    function_ref<LogicalResult(Operation *, ScheduleError &)> applyToOne,
    function_ref<FailureOr<SmallVector<Operation *>>(const SchedulePayload &,
                                                     ScheduleError &)>
        targets);
} // namespace detail

} // namespace mlir::tir

#include "TensorIR/Dialect/TIR/TransformOps/ScheduleOpInterface.h.inc"

namespace mlir::tir {

/// TransformOpInterface and MemoryEffectsOpInterface for a schedule op:
/// `apply` gathers the payload of each operand from the transform state,
/// runs applyToPayload, maps the results, turns a refusal into a
/// silenceable failure with a note at the loop or block at fault, and
/// (with the interpreter's expensive checks) verifies what the step
/// changed. The effects are the handle contract above.
template <typename ConcreteOp>
class ScheduleOpTrait : public OpTrait::TraitBase<ConcreteOp, ScheduleOpTrait> {
public:
  DiagnosedSilenceableFailure apply(transform::TransformRewriter &rewriter,
                                    transform::TransformResults &results,
                                    transform::TransformState &state) {
    return detail::applyScheduleOp(this->getOperation(), rewriter, results,
                                   state);
  }
  void getEffects(SmallVectorImpl<MemoryEffects::EffectInstance> &effects) {
    detail::getScheduleOpEffects(this->getOperation(), ConcreteOp::isQuery(),
                                 effects);
  }
};

/// applyToPayload for a step that applies to each payload op of its first
/// operand in turn (upstream's TransformEachOpTrait, without the transform
/// state): the op defines `applyToOne(RewriterBase &, Operation *,
/// ScheduleError &)` and `getTargets(const SchedulePayload &,
/// ScheduleError &)`, which checks the handle's ops.
template <typename ConcreteOp>
class ScheduleEachOpTrait
    : public OpTrait::TraitBase<ConcreteOp, ScheduleEachOpTrait> {
public:
  LogicalResult applyToPayload(RewriterBase &rewriter, SchedulePayload &payload,
                               ScheduleError &error) {
    auto op = cast<ConcreteOp>(this->getOperation());
    return detail::applyToEachPayloadOp(
        op, payload, error,
        [&](Operation *target, ScheduleError &err) {
          return op.applyToOne(rewriter, target, err);
        },
        [&](const SchedulePayload &p, ScheduleError &err) {
          return op.getTargets(p, err);
        });
  }
};

} // namespace mlir::tir

#endif // TENSORIR_DIALECT_TIR_TRANSFORMOPS_SCHEDULEOPINTERFACE_H
