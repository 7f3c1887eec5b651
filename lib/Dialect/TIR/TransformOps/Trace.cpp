//===- Trace.cpp - TVM's trace model: instructions and decisions ----------===//

#include "TensorIR/Dialect/TIR/TransformOps/Trace.h"
#include "TensorIR/Dialect/TIR/IR/TIROps.h"
#include "TensorIR/Dialect/TIR/IR/ThreadDiagnostics.h"
#include "TensorIR/Dialect/TIR/TransformOps/ScheduleState.h"

#include "mlir/Dialect/Transform/IR/TransformDialect.h"
#include "mlir/Dialect/Transform/IR/TransformOps.h"
#include "mlir/Dialect/Transform/IR/TransformTypes.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Verifier.h"
#include "llvm/ADT/DenseSet.h"

using namespace mlir;
using namespace mlir::tir;

//===----------------------------------------------------------------------===//
// Trace
//===----------------------------------------------------------------------===//

Attribute Trace::getDecision(const Instruction *inst) const {
  auto it = decisions.find(inst);
  return it == decisions.end() ? Attribute() : it->second.second;
}

std::vector<std::pair<InstructionRef, Attribute>> Trace::getDecisions() const {
  std::vector<std::pair<InstructionRef, Attribute>> out;
  for (const InstructionRef &inst : insts)
    if (Attribute d = getDecision(inst.get()))
      out.emplace_back(inst, d);
  return out;
}

void Trace::append(InstructionRef inst, Attribute decision) {
  if (decision)
    decisions[inst.get()] = {inst, decision};
  insts.push_back(std::move(inst));
}

InstructionRef Trace::pop() {
  if (insts.empty())
    return nullptr;
  InstructionRef last = insts.back();
  insts.pop_back();
  decisions.erase(last.get());
  return last;
}

void Trace::setDecision(const InstructionRef &inst, Attribute decision) {
  if (decision)
    decisions[inst.get()] = {inst, decision};
  else
    decisions.erase(inst.get());
}

size_t Trace::countUpToPostproc(bool removePostproc) const {
  if (!removePostproc)
    return insts.size();
  size_t n = 0;
  while (n < insts.size() && !insts[n]->kind->isPostproc())
    ++n;
  return n;
}

Trace Trace::simplified(bool removePostproc) const {
  size_t n = countUpToPostproc(removePostproc);
  DenseSet<const RandomVariable *> used;
  std::vector<InstructionRef> kept;
  for (size_t i = n; i-- > 0;) {
    const InstructionRef &inst = insts[i];
    bool dead =
        inst->kind->isPure() && llvm::none_of(inst->outputs, [&](const RV &rv) {
          return rv && used.contains(rv.get());
        });
    if (dead)
      continue;
    kept.push_back(inst);
    for (const std::vector<RV> &operand : inst->operands)
      for (const RV &rv : operand)
        used.insert(rv.get());
  }
  Trace result;
  for (auto it = kept.rbegin(); it != kept.rend(); ++it)
    result.append(*it, getDecision(it->get()));
  return result;
}

Trace Trace::withDecision(const InstructionRef &inst, Attribute decision,
                          bool removePostproc) const {
  Trace result;
  size_t n = countUpToPostproc(removePostproc);
  for (size_t i = 0; i < n; ++i)
    result.append(insts[i], getDecision(insts[i].get()));
  result.setDecision(inst, decision);
  return result;
}

//===----------------------------------------------------------------------===//
// Transform scripts
//===----------------------------------------------------------------------===//

Block *mlir::tir::createTraceModule(MLIRContext *ctx,
                                    OwningOpRef<ModuleOp> &module) {
  Location loc = UnknownLoc::get(ctx);
  module = ModuleOp::create(loc);
  module->getOperation()->setAttr(
      transform::TransformDialect::kWithNamedSequenceAttrName,
      UnitAttr::get(ctx));
  OpBuilder builder(ctx);
  builder.setInsertionPointToEnd(module->getBody());
  Type anyOp = transform::AnyOpType::get(ctx);
  auto readOnly = DictionaryAttr::get(
      ctx, {NamedAttribute(
               StringAttr::get(
                   ctx, transform::TransformDialect::kArgReadOnlyAttrName),
               UnitAttr::get(ctx))});
  auto sequence = transform::NamedSequenceOp::create(
      builder, loc, "__transform_main", anyOp, TypeRange(),
      [](OpBuilder &b, Location bodyLoc, BlockArgument) {
        transform::YieldOp::create(b, bodyLoc);
      },
      /*attrs=*/{}, /*argAttrs=*/{readOnly});
  return &sequence.getBody().front();
}

Type mlir::tir::getHandleType(MLIRContext *ctx, RandomVariable::Kind kind) {
  switch (kind) {
  case RandomVariable::Kind::Loop:
    return transform::OperationType::get(ctx, ForOp::getOperationName());
  case RandomVariable::Kind::Block:
    return transform::OperationType::get(ctx, BlockOp::getOperationName());
  case RandomVariable::Kind::Expr:
    return transform::ParamType::get(ctx, IntegerType::get(ctx, 64));
  }
  llvm_unreachable("unknown random variable kind");
}

RandomVariable::Kind mlir::tir::getRandomVariableKind(Type handleType) {
  switch (getHandleKind(handleType)) {
  case HandleKind::Loop:
    return RandomVariable::Kind::Loop;
  case HandleKind::Param:
    return RandomVariable::Kind::Expr;
  case HandleKind::Block:
  case HandleKind::Other:
    return RandomVariable::Kind::Block;
  }
  llvm_unreachable("unknown handle kind");
}

FailureOr<Operation *> mlir::tir::buildInstructionOp(
    OpBuilder &builder, const Instruction &inst, Attribute decision, Value root,
    function_ref<Value(const RV &)> valueOf, std::string &error) {
  MLIRContext *ctx = builder.getContext();
  std::string opName = ("transform.tir." + inst.kind->getMnemonic()).str();
  std::optional<RegisteredOperationName> registered =
      RegisteredOperationName::lookup(opName, ctx);
  if (!registered) {
    error =
        "no op '" + opName + "' for instruction " + inst.kind->getName().str();
    return failure();
  }
  OperationState state(UnknownLoc::get(ctx), *registered);
  SmallVector<int32_t> segments;
  auto *model = registered->getInterface<ScheduleOpInterface>();
  std::optional<size_t> variadic;
  if (model && model->hasVariadicOperand())
    variadic = model->getPythonOperandNames().size() - 1;
  for (auto [index, operand] : llvm::enumerate(inst.operands)) {
    // A single operand given no random variable is the root (get_block's
    // target); a variadic one may be empty.
    if (operand.empty() && index != variadic) {
      state.addOperands(root);
      segments.push_back(1);
      continue;
    }
    for (const RV &rv : operand)
      state.addOperands(valueOf(rv));
    segments.push_back(operand.size());
  }
  NamedAttrList attributes(inst.attributes);
  if (decision) {
    // A decision of the type the sampling op takes (an index, a place: an
    // integer; a tiling: a list of integers).
    bool tiling = inst.kind->getMnemonic() == "sample_perfect_tile";
    bool fits =
        inst.kind->hasDecision() && (tiling ? isa<DenseI64ArrayAttr>(decision)
                                            : isa<IntegerAttr>(decision));
    if (!fits) {
      error = inst.kind->getName().str() + ": " +
              (inst.kind->hasDecision()
                   ? std::string(tiling ? "a decision is a list of integers"
                                        : "a decision is an integer")
                   : std::string("takes no decision (it does not sample)"));
      return failure();
    }
    attributes.set("decision", decision);
  }
  state.addAttributes(attributes);
  if (registered->hasTrait<OpTrait::AttrSizedOperandSegments>())
    state.addAttribute("operandSegmentSizes",
                       builder.getDenseI32ArrayAttr(segments));
  // TVM's root block is the function: its handle holds any op.
  auto blockName = inst.attributes ? inst.attributes.getAs<StringAttr>("name")
                                   : StringAttr();
  bool rootBlock = inst.kind->getMnemonic() == "get_block" && blockName &&
                   blockName.getValue() == "root";
  for (const RV &rv : inst.outputs)
    state.addTypes(
        rootBlock
            ? transform::AnyOpType::get(ctx)
            : getHandleType(ctx, rv ? rv->kind : RandomVariable::Kind::Expr));
  Operation *op = builder.create(state);
  std::string diagnostics;
  ThreadDiagnosticHandler handler(ctx, [&](Diagnostic &diag) {
    llvm::raw_string_ostream os(diagnostics);
    os << inst.kind->getMnemonic() << ": " << diag;
    return success();
  });
  if (failed(mlir::verify(op))) {
    op->erase();
    error = diagnostics;
    return failure();
  }
  return op;
}

FailureOr<Instruction> mlir::tir::instructionOf(Operation *op, Value root,
                                                function_ref<RV(Value)> rvOf,
                                                Attribute *decision,
                                                std::string &error) {
  StringRef name = op->getName().getStringRef();
  const InstructionKind *kind = name.consume_front("transform.tir.")
                                    ? InstructionKind::lookupByMnemonic(name)
                                    : nullptr;
  if (!kind) {
    error = "'" + op->getName().getStringRef().str() +
            "' is not an instruction of a trace (a transform.tir op)";
    return failure();
  }
  Instruction inst;
  inst.kind = kind;
  // One list per operand group of the op.
  unsigned groups = op->getNumOperands();
  SmallVector<unsigned> sizes(groups, 1);
  if (auto segments =
          op->getAttrOfType<DenseI32ArrayAttr>("operandSegmentSizes")) {
    sizes.assign(segments.asArrayRef().begin(), segments.asArrayRef().end());
  } else if (auto schedule = dyn_cast<ScheduleOpInterface>(op);
             schedule && schedule.hasVariadicOperand()) {
    // One variadic group, after the fixed operands.
    unsigned fixed = schedule.getPythonOperandNames().size() - 1;
    sizes.assign(fixed, 1);
    sizes.push_back(op->getNumOperands() - fixed);
  }
  unsigned next = 0;
  for (unsigned size : sizes) {
    std::vector<RV> group;
    for (unsigned k = 0; k < size; ++k) {
      Value operand = op->getOperand(next++);
      if (operand == root)
        continue;
      RV rv = rvOf(operand);
      if (!rv) {
        error = "an operand of '" + op->getName().getStringRef().str() +
                "' is defined nowhere in the trace";
        return failure();
      }
      group.push_back(std::move(rv));
    }
    inst.operands.push_back(std::move(group));
  }
  NamedAttrList attributes(op->getAttrDictionary());
  attributes.erase("operandSegmentSizes");
  if (decision)
    *decision = attributes.erase("decision");
  inst.attributes = attributes.getDictionary(op->getContext());
  return inst;
}

FailureOr<OwningOpRef<ModuleOp>>
Trace::render(MLIRContext *ctx, bool removePostproc, std::string &error) const {
  OwningOpRef<ModuleOp> module;
  Block *body = createTraceModule(ctx, module);
  OpBuilder builder(ctx);
  DenseMap<const RandomVariable *, Value> values;
  auto valueOf = [&](const RV &rv) -> Value {
    if (Value v = values.lookup(rv.get()))
      return v;
    // Used before any instruction defines it: an argument of the sequence.
    auto sequence = cast<transform::NamedSequenceOp>(body->getParentOp());
    Type type = getHandleType(ctx, rv->kind);
    SmallVector<Type> inputs(sequence.getFunctionType().getInputs());
    inputs.push_back(type);
    sequence.setFunctionTypeAttr(
        TypeAttr::get(FunctionType::get(ctx, inputs, {})));
    Value arg = body->addArgument(type, UnknownLoc::get(ctx));
    values[rv.get()] = arg;
    return arg;
  };
  size_t n = countUpToPostproc(removePostproc);
  for (size_t i = 0; i < n; ++i) {
    const Instruction &inst = *insts[i];
    builder.setInsertionPoint(body->getTerminator());
    FailureOr<Operation *> op =
        buildInstructionOp(builder, inst, getDecision(&inst),
                           body->getArgument(0), valueOf, error);
    if (failed(op))
      return failure();
    for (auto [rv, result] : llvm::zip(inst.outputs, (*op)->getResults()))
      if (rv)
        values[rv.get()] = result;
  }
  return std::move(module);
}

RandomVariable::Kind mlir::tir::getResultKind(Operation &op, Value result) {
  if (getHandleKind(result.getType()) != HandleKind::Other)
    return getRandomVariableKind(result.getType());
  StringRef mnemonic = op.getName().getStringRef();
  mnemonic.consume_front("transform.tir.");
  bool loops = llvm::is_contained({"get_loops", "split", "fuse", "merge",
                                   "loop_partition", "add_unit_loop",
                                   "sample_compute_location"},
                                  mnemonic);
  return loops ? RandomVariable::Kind::Loop : RandomVariable::Kind::Block;
}

FailureOr<Trace> Trace::fromScript(ModuleOp script, std::string &error) {
  FailureOr<transform::NamedSequenceOp> sequence =
      getTraceSequence(script, error);
  if (failed(sequence))
    return failure();
  Block &body = sequence->getBody().front();
  DenseMap<Value, RV> rvs;
  auto rvOf = [&](Value v) -> RV {
    auto it = rvs.find(v);
    if (it != rvs.end())
      return it->second;
    if (auto arg = dyn_cast<BlockArgument>(v); arg && arg.getOwner() == &body)
      return rvs[v] = std::make_shared<RandomVariable>(
                 getRandomVariableKind(v.getType()));
    return nullptr;
  };
  Trace trace;
  for (Operation &op : body.without_terminator()) {
    Attribute decision;
    FailureOr<Instruction> inst =
        instructionOf(&op, body.getArgument(0), rvOf, &decision, error);
    if (failed(inst))
      return failure();
    for (Value result : op.getResults()) {
      RV rv = std::make_shared<RandomVariable>(getResultKind(op, result));
      rvs[result] = rv;
      inst->outputs.push_back(rv);
    }
    trace.append(std::make_shared<const Instruction>(std::move(*inst)),
                 decision);
  }
  return trace;
}

FailureOr<std::vector<std::string>> Trace::asPython(MLIRContext *ctx,
                                                    bool removePostproc,
                                                    std::string &error,
                                                    bool anonymous) const {
  FailureOr<OwningOpRef<ModuleOp>> script = render(ctx, removePostproc, error);
  if (failed(script))
    return failure();
  FailureOr<std::string> text =
      printTraceAsPython(script->get(), error, anonymous);
  if (failed(text))
    return failure();
  std::vector<std::string> lines;
  for (StringRef rest = *text; !rest.empty();) {
    auto [line, tail] = rest.split('\n');
    lines.push_back(line.str());
    rest = tail;
  }
  return lines;
}
