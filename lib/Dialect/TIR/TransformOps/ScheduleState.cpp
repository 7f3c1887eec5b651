//===- ScheduleState.cpp - a module being scheduled step by step ----------===//

#include "TensorIR/Dialect/TIR/TransformOps/ScheduleState.h"
#include "TensorIR/Dialect/TIR/IR/TIROps.h"
#include "TensorIR/Dialect/TIR/IR/TIRUtils.h"
#include "TensorIR/Dialect/TIR/IR/ThreadDiagnostics.h"
#include "TensorIR/Dialect/TIR/Schedule/TensorIntrin.h"

#include "mlir/Dialect/Transform/IR/TransformOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/IR/Verifier.h"

using namespace mlir;
using namespace mlir::tir;

/// Nulls the erased ops in the handles that hold them, and remembers what
/// the current step erased.
class ScheduleState::Listener : public RewriterBase::Listener {
public:
  explicit Listener(ScheduleState &state) : state(state) {}
  void notifyOperationErased(Operation *op) override {
    erased.insert(op);
    auto it = state.holders.find(op);
    if (it == state.holders.end())
      return;
    for (Value handle : it->second)
      for (transform::MappedValue &value : state.handles[handle])
        if (dyn_cast_if_present<Operation *>(value) == op)
          value = static_cast<Operation *>(nullptr);
    state.holders.erase(it);
  }
  ScheduleState &state;
  DenseSet<Operation *> erased;
};

ScheduleState::ScheduleState(OwningOpRef<ModuleOp> payloadModule,
                             ScheduleOptions options)
    : payload(std::move(payloadModule)), options(options),
      listener(std::make_unique<Listener>(*this)) {
  body = createTraceModule(getContext(), trace);
  map(getRoot(), {payload.get().getOperation()});
}

ScheduleState::ScheduleState(OwningOpRef<ModuleOp> payloadModule,
                             OwningOpRef<ModuleOp> traceModule,
                             ScheduleOptions options)
    : payload(std::move(payloadModule)), trace(std::move(traceModule)),
      options(options), listener(std::make_unique<Listener>(*this)) {
  std::string error;
  body = &getTraceSequence(*trace, error)->getBody().front();
}

ScheduleState::~ScheduleState() = default;

MLIRContext *ScheduleState::getContext() const {
  return payload.get()->getContext();
}
ModuleOp ScheduleState::getPayload() const { return *payload; }
ModuleOp ScheduleState::getTrace() const { return *trace; }
Value ScheduleState::getRoot() const { return body->getArgument(0); }

void ScheduleState::map(Value handle, ArrayRef<transform::MappedValue> values) {
  handles[handle].assign(values.begin(), values.end());
  for (transform::MappedValue value : values)
    if (auto *op = dyn_cast_if_present<Operation *>(value))
      holders[op].push_back(handle);
}

FailureOr<ArrayRef<transform::MappedValue>>
ScheduleState::getPayload(Value handle, std::string &error) const {
  auto it = handles.find(handle);
  if (it == handles.end()) {
    error = "the handle does not belong to this schedule";
    return failure();
  }
  for (transform::MappedValue value : it->second) {
    if (value.isNull()) {
      bool loop = getHandleKind(handle.getType()) == HandleKind::Loop;
      error = std::string("the ") + (loop ? "loop" : "block or loop") +
              " no longer exists: split and fuse replace the loops they "
              "transform; use the loops they return";
      return failure();
    }
  }
  return ArrayRef<transform::MappedValue>(it->second);
}

/// "at file:line:col: <the op's first line>".
static std::string describeOp(Operation *op) {
  return "at " + describeLocation(op->getLoc()) + ": " + describeOpHeader(op);
}

std::string
ScheduleState::formatError(const ScheduleError &error,
                           ScheduleOptions::ErrorRendering rendering) {
  using Rendering = ScheduleOptions::ErrorRendering;
  if (rendering == Rendering::None)
    return "(not rendered)";
  if (rendering == Rendering::Fast)
    return "ScheduleError: " +
           (error.summary.empty() ? error.message : error.summary);
  std::string message = error.message;
  // TVM's own words, quoted as "(TVM: ...)", close the rendering (after the
  // op), where TVM's errors end with their message.
  std::string tvmWords;
  if (size_t start = message.find(" (TVM: "); start != std::string::npos) {
    // The matching parenthesis (the words may hold some).
    size_t end = std::string::npos;
    for (size_t i = start + 1, depth = 0; i < message.size(); ++i) {
      if (message[i] == '(')
        ++depth;
      else if (message[i] == ')' && --depth == 0) {
        end = i;
        break;
      }
    }
    size_t lineEnd = message.find('\n', start);
    if (end != std::string::npos &&
        (lineEnd == std::string::npos || end < lineEnd) &&
        (end + 1 == message.size() || message[end + 1] == '\n')) {
      tvmWords = message.substr(start + 7, end - start - 7);
      message.erase(start, end + 1 - start);
    }
  }
  if (error.culprit)
    message += "\n  " + describeOp(error.culprit);
  for (const auto &[op, note] : error.notes)
    message += "\n  " + note + ", " + describeOp(op);
  if (!tvmWords.empty())
    message += "\nTVM: " + tvmWords;
  return message;
}

/// The handle type a result gets once its payload is known: the payload's
/// op name when all its ops have the same one, else the type it has.
static Type refinedType(Type current, ArrayRef<transform::MappedValue> values) {
  if (!isa<transform::AnyOpType>(current) || values.empty())
    return current;
  std::optional<OperationName> name;
  for (transform::MappedValue value : values) {
    auto *op = dyn_cast_if_present<Operation *>(value);
    if (!op || (name && op->getName() != *name))
      return current;
    name = op->getName();
  }
  return transform::OperationType::get(current.getContext(),
                                       name->getStringRef());
}

LogicalResult ScheduleState::applyOp(Operation *op, std::string &error) {
  auto step = dyn_cast<ScheduleOpInterface>(op);
  if (!step) {
    error = "'" + op->getName().getStringRef().str() +
            "' is not a schedule step (a transform.tir op)";
    return failure();
  }
  SchedulePayload stepPayload;
  stepPayload.randomState = &randomState;
  for (Value operand : op->getOperands()) {
    FailureOr<ArrayRef<transform::MappedValue>> values =
        getPayload(operand, error);
    if (failed(values))
      return failure();
    stepPayload.operands.emplace_back(values->begin(), values->end());
  }
  stepPayload.results.resize(op->getNumResults());

  IRRewriter rewriter(getContext());
  rewriter.setListener(listener.get());
  listener->erased.clear();
  ScheduleError scheduleError;
  std::optional<PayloadSnapshot> before;
  if (options.verifyEachStep && !step.isQuery())
    before.emplace(stepPayload);
  if (failed(step.applyToPayload(rewriter, stepPayload, scheduleError))) {
    error = formatError(scheduleError, options.errorRendering);
    // TVM's report names the primitive first ("get-block", "compute-at").
    if (options.errorRendering == ScheduleOptions::ErrorRendering::Detail) {
      std::string primitive =
          op->getName().getStringRef().rsplit('.').second.str();
      std::replace(primitive.begin(), primitive.end(), '_', '-');
      error = "ScheduleError: An error occurred in the schedule primitive '" +
              primitive + "'.\n" + error;
    }
    if (before && before->changed())
      error = "internal error: " + op->getName().getStringRef().str() +
              " refused but changed the IR: " + error;
    return failure();
  }
  if (options.verifyEachStep && !step.isQuery()) {
    std::string diagnostics;
    ThreadDiagnosticHandler handler(getContext(), [&](Diagnostic &diag) {
      llvm::raw_string_ostream os(diagnostics);
      os << describeLocation(diag.getLocation()) << ": " << diag << "\n";
      return success();
    });
    if (failed(verifyChangedPayload(stepPayload, listener->erased))) {
      error = "internal error: " + op->getName().getStringRef().str() +
              " produced IR that does not verify:\n" + diagnostics;
      return failure();
    }
  }
  for (auto [result, values] :
       llvm::zip(op->getResults(), stepPayload.results)) {
    result.setType(refinedType(result.getType(), values));
    map(result, values);
  }
  for (NamedAttribute attr : stepPayload.resolved)
    op->setAttr(attr.getName(), attr.getValue());
  return success();
}

FailureOr<SmallVector<Value>>
ScheduleState::apply(StringRef mnemonic, ArrayRef<Value> operands,
                     ArrayRef<NamedAttribute> attributes,
                     std::optional<unsigned> numResults, std::string &error) {
  MLIRContext *ctx = getContext();
  std::string name = ("transform.tir." + mnemonic).str();
  std::optional<RegisteredOperationName> registered =
      RegisteredOperationName::lookup(name, ctx);
  if (!registered || !registered->hasInterface<ScheduleOpInterface>()) {
    error = "no schedule primitive named '" + mnemonic.str() + "'";
    return failure();
  }
  if (!InstructionKind::lookupByMnemonic(mnemonic)) {
    error = "internal error: primitive '" + mnemonic.str() +
            "' has no instruction kind (InstructionKinds.cpp), so the trace "
            "cannot record it";
    return failure();
  }
  for (Value operand : operands) {
    if (!handles.contains(operand)) {
      error = "the handle does not belong to this schedule";
      return failure();
    }
  }

  // The step is built and verified like any op of a transform script; its
  // results are handles, or parameters, as the op says.
  OpBuilder builder(ctx);
  builder.setInsertionPoint(body->getTerminator());
  Type resultType =
      registered->getInterface<ScheduleOpInterface>()->getScheduleResultType(
          ctx);
  auto withResults = [&](unsigned count) -> Operation * {
    OperationState state(UnknownLoc::get(ctx), *registered);
    state.addOperands(operands);
    state.addAttributes(attributes);
    state.addTypes(SmallVector<Type>(count, resultType));
    return builder.create(state);
  };
  Operation *op = withResults(numResults.value_or(1));
  {
    std::string diagnostics;
    ThreadDiagnosticHandler handler(ctx, [&](Diagnostic &diag) {
      llvm::raw_string_ostream os(diagnostics);
      os << mnemonic << ": " << diag;
      return success();
    });
    if (failed(mlir::verify(op))) {
      op->erase();
      error = diagnostics;
      return failure();
    }
  }
  if (failed(applyOp(op, error))) {
    op->erase();
    return failure();
  }
  // A variadic query asked for one handle per op: rebuild it with as many
  // results (the payload is already transformed; the op is the record).
  if (!numResults && op->getNumResults() == 1) {
    SmallVector<transform::MappedValue> values = handles[op->getResult(0)];
    if (values.size() != 1) {
      Operation *exact = withResults(values.size());
      for (auto [result, value] : llvm::zip(exact->getResults(), values)) {
        result.setType(refinedType(result.getType(), value));
        map(result, value);
      }
      handles.erase(op->getResult(0));
      for (transform::MappedValue value : values)
        if (auto *payloadOp = dyn_cast_if_present<Operation *>(value))
          llvm::erase(holders[payloadOp], op->getResult(0));
      op->erase();
      op = exact;
    }
  }
  recordStep(op);
  return SmallVector<Value>(op->getResults());
}

std::vector<RV> ScheduleState::recordStep(Operation *op) {
  Attribute decision;
  std::string error;
  FailureOr<Instruction> inst = instructionOf(
      op, getRoot(), [&](Value v) { return rvOf.lookup(v); }, &decision, error);
  assert(succeeded(inst) && "a step of this state is an instruction");
  for (Value result : op->getResults()) {
    RV rv = std::make_shared<RandomVariable>(getResultKind(*op, result));
    rvOf[result] = rv;
    valueOf[rv.get()] = result;
    inst->outputs.push_back(rv);
  }
  std::vector<RV> outputs = inst->outputs;
  record.append(std::make_shared<const Instruction>(std::move(*inst)),
                decision);
  return outputs;
}

FailureOr<std::vector<RV>>
ScheduleState::applyInstruction(const Instruction &inst, Attribute decision,
                                std::string &error) {
  for (const std::vector<RV> &operand : inst.operands)
    for (const RV &rv : operand)
      if (!valueOf.count(rv.get())) {
        error = inst.kind->getName().str() +
                ": a random variable it takes does not belong to this "
                "schedule";
        return failure();
      }
  OpBuilder builder(getContext());
  builder.setInsertionPoint(body->getTerminator());
  FailureOr<Operation *> op = buildInstructionOp(
      builder, inst, decision, getRoot(),
      [&](const RV &rv) { return valueOf.lookup(rv.get()); }, error);
  if (failed(op))
    return failure();
  if (failed(applyOp(*op, error))) {
    (*op)->erase();
    return failure();
  }
  return recordStep(*op);
}

LogicalResult ScheduleState::applyTrace(const Trace &other, bool removePostproc,
                                        const DecisionProvider &provider,
                                        std::string &error) {
  DenseMap<const RandomVariable *, RV> translated;
  ArrayRef<InstructionRef> insts = other.getInstructions();
  size_t n = other.countUpToPostproc(removePostproc);
  for (size_t i = 0; i < n; ++i) {
    const InstructionRef &inst = insts[i];
    Instruction here = *inst;
    for (std::vector<RV> &operand : here.operands)
      for (RV &rv : operand) {
        RV mine = translated.lookup(rv.get());
        if (!mine) {
          error = inst->kind->getName().str() +
                  ": a random variable it takes is defined by no earlier "
                  "instruction of the trace";
          return failure();
        }
        rv = mine;
      }
    Attribute decision = other.getDecision(inst.get());
    if (provider) {
      FailureOr<Attribute> provided = provider(inst, here, decision, error);
      if (failed(provided))
        return failure();
      decision = *provided;
    }
    FailureOr<std::vector<RV>> outputs =
        applyInstruction(here, decision, error);
    if (failed(outputs))
      return failure();
    for (auto [old, fresh] : llvm::zip(inst->outputs, *outputs))
      if (old)
        translated[old.get()] = fresh;
  }
  return success();
}

LogicalResult ScheduleState::seed(int64_t value, std::string &error) {
  std::optional<RandomEngine::State> normalized =
      RandomEngine::normalizeSeed(value);
  if (!normalized) {
    error = "a seed is -1 (a random one) or at least 0, got " +
            std::to_string(value);
    return failure();
  }
  randomState = *normalized;
  return success();
}

int64_t ScheduleState::forkSeed() {
  return RandomEngine(randomState).forkSeed();
}

std::unique_ptr<ScheduleState> ScheduleState::copy() {
  // The payload and the trace are cloned; the handles, their payloads and
  // the random variables are carried over through the clones' mappings.
  IRMapping traceMapping;
  OwningOpRef<ModuleOp> traceCopy(
      cast<ModuleOp>(trace->getOperation()->clone(traceMapping)));
  DenseMap<Operation *, Operation *> payloadMapping;
  OwningOpRef<ModuleOp> payloadCopy = payload->clone();
  SmallVector<Operation *> before, after;
  payload->getOperation()->walk([&](Operation *op) { before.push_back(op); });
  payloadCopy->getOperation()->walk(
      [&](Operation *op) { after.push_back(op); });
  for (auto [from, to] : llvm::zip(before, after))
    payloadMapping[from] = to;
  std::unique_ptr<ScheduleState> copied(
      new ScheduleState(std::move(payloadCopy), std::move(traceCopy), options));
  for (const auto &[handle, values] : handles) {
    SmallVector<transform::MappedValue> mapped;
    for (transform::MappedValue value : values) {
      if (auto *op = dyn_cast_if_present<Operation *>(value))
        mapped.push_back(payloadMapping.lookup(op));
      else
        mapped.push_back(value);
    }
    copied->map(traceMapping.lookup(handle), mapped);
  }
  for (const auto &[handle, rv] : rvOf) {
    Value mapped = traceMapping.lookup(handle);
    copied->rvOf[mapped] = rv;
    // A random variable removed (remove_rv) stays removed in the copy.
    if (valueOf.count(rv.get()))
      copied->valueOf[rv.get()] = mapped;
  }
  copied->record = record;
  copied->clientData = clientData;
  copied->randomState = *RandomEngine::normalizeSeed(forkSeed());
  return copied;
}

LogicalResult ScheduleState::replay(ModuleOp other, std::string &error) {
  FailureOr<transform::NamedSequenceOp> sequence =
      getTraceSequence(other, error);
  if (failed(sequence))
    return failure();
  // The tensor intrinsics the other trace carries come along (those this
  // trace lacks), so that its tensorize steps find them here.
  for (auto func : other.getOps<func::FuncOp>()) {
    for (StringLiteral attr : {kTensorIntrinDescAttr, kTensorIntrinImplAttr}) {
      auto name = func->getAttrOfType<StringAttr>(attr);
      if (!name || llvm::any_of(trace->getOps<func::FuncOp>(), [&](auto f) {
            return f->getAttr(attr) == name;
          }))
        continue;
      SymbolTable(*trace).insert(func.clone());
    }
  }
  FailureOr<Trace> steps = Trace::fromScript(other, error);
  if (failed(steps))
    return failure();
  return applyTrace(*steps, /*removePostproc=*/false, nullptr, error);
}

//===----------------------------------------------------------------------===//
// Traces and handles
//===----------------------------------------------------------------------===//

FailureOr<transform::NamedSequenceOp>
mlir::tir::getTraceSequence(ModuleOp trace, std::string &error) {
  transform::NamedSequenceOp sequence;
  trace->walk([&](transform::NamedSequenceOp op) {
    if (!sequence)
      sequence = op;
  });
  if (!sequence || sequence.getBody().empty() ||
      sequence.getBody().front().getNumArguments() < 1) {
    error = "the trace has no transform.named_sequence taking the root";
    return failure();
  }
  return sequence;
}

HandleKind mlir::tir::getHandleKind(Type handleType) {
  if (isa<transform::TransformParamTypeInterface>(handleType))
    return HandleKind::Param;
  if (auto op = dyn_cast<transform::OperationType>(handleType)) {
    if (op.getOperationName() == ForOp::getOperationName())
      return HandleKind::Loop;
    if (op.getOperationName() == BlockOp::getOperationName())
      return HandleKind::Block;
  }
  return HandleKind::Other;
}

//===----------------------------------------------------------------------===//
// Verification after a step
//===----------------------------------------------------------------------===//

LogicalResult
mlir::tir::verifyChangedPayload(const SchedulePayload &payload,
                                const DenseSet<Operation *> &erased) {
  SetVector<Operation *> changed;
  auto add = [&](ArrayRef<transform::MappedValue> values) {
    for (transform::MappedValue value : values)
      if (auto *op = dyn_cast_if_present<Operation *>(value))
        if (!erased.contains(op) && isa<ForOp, BlockOp>(op))
          changed.insert(op);
  };
  for (const auto &values : payload.operands)
    add(values);
  for (const auto &values : payload.results)
    add(values);
  for (Operation *op : changed) {
    // Only the outermost: verify() checks the nested ops too.
    bool nested = llvm::any_of(changed, [&](Operation *other) {
      return other != op && other->isProperAncestor(op);
    });
    if (!nested && failed(mlir::verify(op)))
      return failure();
  }
  return success();
}

PayloadSnapshot::PayloadSnapshot(const SchedulePayload &payload) {
  for (const auto &values : payload.operands)
    for (transform::MappedValue value : values)
      if (auto *op = dyn_cast_if_present<Operation *>(value)) {
        root = op;
        break;
      }
  if (!root)
    return;
  while (Operation *parent = root->getParentOp())
    root = parent;
  fingerprint.emplace(root);
}

bool PayloadSnapshot::changed() const {
  return root && OperationFingerPrint(root) != *fingerprint;
}
