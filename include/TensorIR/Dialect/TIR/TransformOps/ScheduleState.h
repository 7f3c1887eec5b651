//===- ScheduleState.h - a module being scheduled step by step --*- C++ -*-===//
//
// TVM's ScheduleState for tir: it owns the module being scheduled and the
// trace of the steps applied so far, recorded as transform.tir IR (a
// `transform.named_sequence @__transform_main`), so that the trace printed
// with MLIR's printer is a transform script tir-opt replays, and the same
// ops print as TVM's Python. Each step is a transform.tir op built in the
// trace and applied through ScheduleOpInterface, the code the transform
// interpreter runs too; the Python Schedule reaches every primitive this
// way, through apply().
//
// Handles are the trace's SSA values. The state maps each to the payload it
// holds and notices erasures, so a handle to an erased loop is an error
// rather than a dangling pointer. Each step is also recorded in TVM's trace
// model (Trace.h): an instruction whose outputs are random variables, which
// the state maps to the handles, and the decision of a sampling step apart.
// Sampling steps without a decision draw from the state's random state
// (TVM's LinearCongruentialEngine, seeded and forked as TVM's).
//
//===----------------------------------------------------------------------===//

#ifndef TENSORIR_DIALECT_TIR_TRANSFORMOPS_SCHEDULESTATE_H
#define TENSORIR_DIALECT_TIR_TRANSFORMOPS_SCHEDULESTATE_H

#include "TensorIR/Dialect/TIR/Schedule/Sampling.h"
#include "TensorIR/Dialect/TIR/TransformOps/ScheduleOpInterface.h"
#include "TensorIR/Dialect/TIR/TransformOps/Trace.h"

#include "mlir/Dialect/Transform/IR/TransformOps.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OperationSupport.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

#include <functional>
#include <memory>
#include <optional>
#include <string>

namespace mlir::tir {

struct ScheduleOptions {
  /// Verify what each step changed (the subtrees of the loops and blocks it
  /// took and returned) after the step, so that a bug in a primitive shows
  /// where it happens. The transform interpreter does the same when its
  /// expensive checks are on (tir-opt's default).
  bool verifyEachStep = true;
  /// How a refusal reads (TVM's ScheduleErrorRenderLevel): Detail, the
  /// rule with the loop or block at fault and the ops it refers to; Fast,
  /// the rule alone, without rendering the program; None, "(not
  /// rendered)".
  enum class ErrorRendering { Detail, Fast, None };
  ErrorRendering errorRendering = ErrorRendering::Detail;
};

class ScheduleState {
public:
  /// Schedules `payload`, which the state owns from now on.
  explicit ScheduleState(OwningOpRef<ModuleOp> payload,
                         ScheduleOptions options = {});
  ~ScheduleState();
  ScheduleState(const ScheduleState &) = delete;
  ScheduleState &operator=(const ScheduleState &) = delete;

  MLIRContext *getContext() const;
  /// The module as scheduled so far.
  ModuleOp getPayload() const;
  /// The trace: a module holding `transform.named_sequence
  /// @__transform_main(%root)` with one op per step.
  ModuleOp getTrace() const;
  /// The handle of the whole payload module (the sequence's argument).
  Value getRoot() const;

  /// The payload `handle` holds. Fails (with `error`) when one of its ops
  /// was erased by an earlier step.
  FailureOr<ArrayRef<transform::MappedValue>>
  getPayload(Value handle, std::string &error) const;

  /// One step: creates `transform.tir.<mnemonic>` at the end of the trace
  /// with `operands` (handles of this state) and `attributes`, and applies
  /// it. `numResults` is the number of result handles; std::nullopt asks
  /// for one handle per payload op the step returns (for variadic queries
  /// such as get_loops, whose count is known only once applied). On a
  /// refusal, returns failure with `error` set, and neither the payload nor
  /// the trace changed.
  FailureOr<SmallVector<Value>> apply(StringRef mnemonic,
                                      ArrayRef<Value> operands,
                                      ArrayRef<NamedAttribute> attributes,
                                      std::optional<unsigned> numResults,
                                      std::string &error);

  /// Applies the steps of `trace` (a module holding a named sequence, as
  /// getTrace() returns) in order; its root stands for this state's root.
  LogicalResult replay(ModuleOp trace, std::string &error);

  /// The steps so far in TVM's trace model (instructions are shared with
  /// the copies a caller makes).
  const Trace &getInstructions() const { return record; }
  /// The random variable of a handle of this state (null for the root and
  /// values of other states), and the handle of a random variable (null
  /// for one this state does not know).
  RV getRandomVariable(Value handle) const { return rvOf.lookup(handle); }
  Value getHandle(const RV &rv) const {
    return rv ? valueOf.lookup(rv.get()) : Value();
  }

  /// TVM's remove_rv: this state forgets `rv` (its handle stays in the
  /// trace); false when it did not know it.
  bool forgetRandomVariable(const RV &rv) {
    return rv && valueOf.erase(rv.get());
  }

  /// Applies `inst`, whose random variables are this state's, with
  /// `decision` for a sampling step; returns the new outputs.
  FailureOr<std::vector<RV>> applyInstruction(const Instruction &inst,
                                              Attribute decision,
                                              std::string &error);

  /// What replaying a trace asks for each instruction's decision:
  /// (the instruction as recorded, as translated to this state, the
  /// recorded decision) -> the decision to take (null: none, sample).
  using DecisionProvider = std::function<FailureOr<Attribute>(
      const InstructionRef &, const Instruction &, Attribute, std::string &)>;

  /// TVM's Trace.apply_to_schedule: the instructions of `trace` (up to
  /// postprocessing when `removePostproc`), their random variables
  /// translated to new ones of this state, each with its decision or what
  /// `provider` gives.
  LogicalResult applyTrace(const Trace &trace, bool removePostproc,
                           const DecisionProvider &provider,
                           std::string &error);

  /// Seeds the random state (TVM's Seed: -1 draws a seed from the
  /// device); fails for other negative seeds.
  LogicalResult seed(int64_t seed, std::string &error);
  /// TVM's ForkSeed: a seed derived from the random state, which advances.
  int64_t forkSeed();
  RandomEngine::State getRandomState() const { return randomState; }

  /// Text a client keeps with the state; copies keep it too (the Python
  /// Schedule keeps the module's global symbols there, so that a state
  /// copied by a C++ caller still knows them).
  const std::string &getClientData() const { return clientData; }
  void setClientData(std::string data) { clientData = std::move(data); }

  /// TVM's Schedule.copy: a state of a copy of the payload with the same
  /// trace and random variables, its random state forked from this one's.
  std::unique_ptr<ScheduleState> copy();

  /// A refusal as text: the rule, then the location and first line of the
  /// loop or block at fault (as `rendering` says).
  static std::string formatError(const ScheduleError &error,
                                 ScheduleOptions::ErrorRendering rendering =
                                     ScheduleOptions::ErrorRendering::Detail);

private:
  class Listener;
  ScheduleState(OwningOpRef<ModuleOp> payload, OwningOpRef<ModuleOp> trace,
                ScheduleOptions options);
  LogicalResult applyOp(Operation *op, std::string &error);
  void map(Value handle, ArrayRef<transform::MappedValue> values);
  /// Records the applied `op` as an instruction with new outputs.
  std::vector<RV> recordStep(Operation *op);

  OwningOpRef<ModuleOp> payload;
  OwningOpRef<ModuleOp> trace;
  Block *body = nullptr;
  ScheduleOptions options;
  std::unique_ptr<Listener> listener;
  /// What each handle holds; an erased op becomes null.
  DenseMap<Value, SmallVector<transform::MappedValue>> handles;
  /// The handles each payload op is in.
  DenseMap<Operation *, SmallVector<Value>> holders;
  Trace record;
  DenseMap<Value, RV> rvOf;
  DenseMap<const RandomVariable *, Value> valueOf;
  RandomEngine::State randomState = 1;
  std::string clientData;
};

/// The named sequence of a trace (its first `transform.named_sequence`,
/// which must take one argument, the root); fails with `error` otherwise.
FailureOr<transform::NamedSequenceOp> getTraceSequence(ModuleOp trace,
                                                       std::string &error);

/// What a handle of a trace holds, as its type says.
enum class HandleKind { Loop, Block, Param, Other };
HandleKind getHandleKind(Type handleType);

/// The trace (as ScheduleState::getTrace returns, or a transform script of
/// transform.tir ops) as TVM's Python: `l1, l2 = sch.split(loop=l0, ...)`.
/// Handles are named b (blocks), l (loops) and v (parameters) after their
/// types, numbered in order as TVM does. Fails for ops that are not
/// schedule steps. A list query is printed with one name per result: a
/// script whose list query has one result holding several ops (which the
/// Python Schedule never builds) has no TVM Python form.
/// With `anonymous`, every random variable prints as `_` (TVM's form of
/// an instruction on its own).
FailureOr<std::string> printTraceAsPython(ModuleOp trace, std::string &error,
                                          bool anonymous = false);

/// Verifies the subtrees of the ops a step took and returned that are not
/// in `erased` (the outermost of them only).
LogicalResult verifyChangedPayload(const SchedulePayload &payload,
                                   const DenseSet<Operation *> &erased);

/// The IR a step works on (everything under the outermost op above its
/// payload), fingerprinted before the step: a step that refuses must leave
/// it exactly as it was, so its rules are all checked before it rewrites.
class PayloadSnapshot {
public:
  explicit PayloadSnapshot(const SchedulePayload &payload);
  /// Whether the IR differs from what it was when the snapshot was taken.
  bool changed() const;

private:
  Operation *root = nullptr;
  std::optional<OperationFingerPrint> fingerprint;
};

} // namespace mlir::tir

#endif // TENSORIR_DIALECT_TIR_TRANSFORMOPS_SCHEDULESTATE_H
