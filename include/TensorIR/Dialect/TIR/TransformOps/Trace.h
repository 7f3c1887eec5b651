//===- Trace.h - TVM's trace model: instructions and decisions --*- C++ -*-===//
//
// TVM's Trace for tir: a list of instructions, each an instruction kind
// (TVM's name: "Split", "SamplePerfectTile", ...) applied to random
// variables and attributes, giving random variables; and the decisions of
// its sampling instructions, kept apart, so that a search replays the same
// instructions with other decisions (withDecision, a decision provider).
//
// An instruction is held in the layout of its transform.tir op (the op's
// operands as random variables, its attributes but the decision): applying
// it builds the op, and a transform script is the trace rendered as ops,
// each sampling op with its decision as an attribute.
//
//===----------------------------------------------------------------------===//

#ifndef TENSORIR_DIALECT_TIR_TRANSFORMOPS_TRACE_H
#define TENSORIR_DIALECT_TIR_TRANSFORMOPS_TRACE_H

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"

#include <memory>
#include <string>
#include <vector>

namespace mlir::tir {

/// TVM's BlockRV, LoopRV and ExprRV: a value of a trace, compared by
/// identity. A schedule maps each it knows to what it holds; a copy of the
/// schedule maps the same ones.
struct RandomVariable {
  enum class Kind { Block, Loop, Expr };
  explicit RandomVariable(Kind kind) : kind(kind) {}
  Kind kind;
};
using RV = std::shared_ptr<RandomVariable>;

/// A value in TVM's layout of an instruction (InstructionKind): None, a
/// random variable, a constant (an integer, float, bool or string
/// attribute, or another attribute such as an index map) or a list.
struct TVMValue {
  enum class Tag { None, Variable, Constant, List };
  Tag tag = Tag::None;
  RV variable;
  Attribute constant;
  std::vector<TVMValue> list;

  static TVMValue none() { return {}; }
  static TVMValue of(RV rv) { return {Tag::Variable, std::move(rv), {}, {}}; }
  static TVMValue of(Attribute a) {
    if (!a)
      return none();
    return {Tag::Constant, nullptr, a, {}};
  }
  static TVMValue of(std::vector<TVMValue> l) {
    return {Tag::List, nullptr, {}, std::move(l)};
  }
};

class InstructionKind;

/// One instruction: its kind, its operands (one list of random variables
/// per operand of the kind's op; TVM's None is an empty list), the op's
/// attributes but the decision, and its outputs (null: TVM's None).
struct Instruction {
  const InstructionKind *kind = nullptr;
  std::vector<std::vector<RV>> operands;
  DictionaryAttr attributes;
  std::vector<RV> outputs;
};
using InstructionRef = std::shared_ptr<const Instruction>;

/// TVM's InstructionKind: a name, whether it is pure (no effect on the
/// program: queries and sampling, which simplification drops when their
/// outputs are unused), and its transform.tir op.
class InstructionKind {
public:
  /// The kind of TVM name `name` ("Split"), or null.
  static const InstructionKind *lookup(StringRef name);
  /// The kind of transform.tir op `mnemonic` ("split"), or null.
  static const InstructionKind *lookupByMnemonic(StringRef mnemonic);
  /// Every kind, in TVM's names' order.
  static ArrayRef<const InstructionKind *> all();

  StringRef getName() const { return name; }
  /// The transform.tir op's mnemonic ("split").
  StringRef getMnemonic() const { return mnemonic; }
  bool isPure() const { return pure; }
  bool isPostproc() const { return name == "EnterPostproc"; }
  /// Whether the op records a decision (a sampling instruction).
  bool hasDecision() const { return sampling; }

  /// TVM's inputs and attrs of `inst`, in TVM's order and types (its
  /// Instruction's inputs and attrs): e.g. Split's inputs are the loop then
  /// one per factor (None, an integer or a random variable), its attrs
  /// [preserve_unit_iters, disable_predication].
  void getTVMLayout(const Instruction &inst, std::vector<TVMValue> &inputs,
                    std::vector<TVMValue> &attrs) const;
  /// The instruction of this kind TVM's layout describes, with `outputs`;
  /// fails with `error` for inputs or attrs of another count or type.
  FailureOr<Instruction> fromTVMLayout(MLIRContext *ctx,
                                       ArrayRef<TVMValue> inputs,
                                       ArrayRef<TVMValue> attrs,
                                       std::vector<RV> outputs,
                                       std::string &error) const;

  /// The type of each of TVM's attrs, a letter each (InstructionKinds.cpp):
  /// 'p' and 'm' are attributes JSON writes as their MLIR text.
  std::string getAttrTypes() const;

  /// How TVM lays the kind's instructions out (InstructionKinds.cpp).
  struct Spec;
  explicit InstructionKind(const Spec &spec);

private:
  std::string name, mnemonic;
  bool pure = false, sampling = false;
  const Spec *spec;
};

/// TVM's Trace: instructions in order and the decisions of some of them.
class Trace {
public:
  ArrayRef<InstructionRef> getInstructions() const { return insts; }
  /// The decision recorded for `inst`, or null.
  Attribute getDecision(const Instruction *inst) const;
  /// The (instruction, decision) pairs, in the instructions' order.
  std::vector<std::pair<InstructionRef, Attribute>> getDecisions() const;

  void append(InstructionRef inst, Attribute decision = {});
  /// Removes the last instruction and its decision; null when empty.
  InstructionRef pop();
  void setDecision(const InstructionRef &inst, Attribute decision);

  /// The instructions before the first EnterPostproc (all of them unless
  /// `removePostproc`).
  size_t countUpToPostproc(bool removePostproc) const;
  /// TVM's Simplified: pure instructions whose outputs nothing later uses
  /// are dropped (from the last instruction back), and with
  /// `removePostproc` everything from EnterPostproc on.
  Trace simplified(bool removePostproc) const;
  /// TVM's WithDecision: this trace (up to postprocessing when
  /// `removePostproc`) with `decision` for `inst`.
  Trace withDecision(const InstructionRef &inst, Attribute decision,
                     bool removePostproc) const;

  /// The trace as a transform script: a module with
  /// `transform.named_sequence @__transform_main(%root)`, one op per
  /// instruction (a decision as the op's `decision` attribute), up to
  /// postprocessing when `removePostproc`. Random variables used before
  /// any instruction defines them (an instruction built by hand) are
  /// arguments of the sequence after the root. Fails for an instruction
  /// the op refuses to be built from.
  FailureOr<OwningOpRef<ModuleOp>> render(MLIRContext *ctx, bool removePostproc,
                                          std::string &error) const;

  /// The trace a transform script describes (one instruction per op of its
  /// named sequence, a sampling op's decision apart).
  static FailureOr<Trace> fromScript(ModuleOp script, std::string &error);

  /// TVM's AsPython: one line per instruction, random variables named b
  /// (blocks), l (loops) and v (expressions) with a running number, as TVM
  /// names them; one defined nowhere in the trace prints as `_`.
  /// With `anonymous`, every random variable prints as `_`.
  FailureOr<std::vector<std::string>> asPython(MLIRContext *ctx,
                                               bool removePostproc,
                                               std::string &error,
                                               bool anonymous = false) const;

  /// TVM's AsJSON: [[[kind, inputs, attrs, outputs], ...], [[index,
  /// decision], ...]] as JSON text, in TVM's layout (TraceAsJSON.cpp).
  FailureOr<std::string> asJSON(bool removePostproc, std::string &error) const;
  /// The trace TVM's JSON describes, with new random variables.
  static FailureOr<Trace> fromJSON(MLIRContext *ctx, StringRef json,
                                   std::string &error);

private:
  std::vector<InstructionRef> insts;
  llvm::DenseMap<const Instruction *, std::pair<InstructionRef, Attribute>>
      decisions;
};

/// An empty trace module: `transform.named_sequence @__transform_main`
/// taking the root, whose body (returned) holds only its yield.
Block *createTraceModule(MLIRContext *ctx, OwningOpRef<ModuleOp> &module);

/// The handle type of a random variable of `kind` in a transform script.
Type getHandleType(MLIRContext *ctx, RandomVariable::Kind kind);
/// The kind of random variable a handle of `handleType` is (a handle of
/// any op: a block).
RandomVariable::Kind getRandomVariableKind(Type handleType);

/// The kind of random variable `result` of `op` is: as its type says, or,
/// for a handle of any op, as the step's results are (loops from the steps
/// that make or find loops, blocks from the others).
RandomVariable::Kind getResultKind(Operation &op, Value result);

/// Builds (at `builder`'s point) and verifies the op of `inst`, with
/// `decision` as its attribute when there is one; `root` stands for an
/// operand given no random variable, `valueOf` gives the value of each
/// random variable. Fails, erasing the op, when it does not verify.
FailureOr<Operation *>
buildInstructionOp(OpBuilder &builder, const Instruction &inst,
                   Attribute decision, Value root,
                   function_ref<Value(const RV &)> valueOf, std::string &error);

/// The instruction op `op` is, without outputs (the caller gives them);
/// `rvOf` gives the random variable of each operand but `root` (null: not
/// defined). A `decision` attribute goes to `decision`.
FailureOr<Instruction> instructionOf(Operation *op, Value root,
                                     function_ref<RV(Value)> rvOf,
                                     Attribute *decision, std::string &error);

} // namespace mlir::tir

#endif // TENSORIR_DIALECT_TIR_TRANSFORMOPS_TRACE_H
