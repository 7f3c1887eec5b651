//===- ScheduleOpInterface.cpp - ops that are schedule steps --------------===//
//
// The transform-interpreter side of every transform.tir op, written once:
// payload in, applyToPayload, results and diagnostics out.
//
//===----------------------------------------------------------------------===//

#include "TensorIR/Dialect/TIR/TransformOps/ScheduleOpInterface.h"
#include "TensorIR/Dialect/TIR/IR/TIROps.h"
#include "TensorIR/Dialect/TIR/TransformOps/ScheduleState.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/Support/Format.h"

using namespace mlir;
using namespace mlir::tir;

#include "TensorIR/Dialect/TIR/TransformOps/ScheduleOpInterface.cpp.inc"

//===----------------------------------------------------------------------===//
// SchedulePayload
//===----------------------------------------------------------------------===//

SmallVector<Operation *> SchedulePayload::ops(unsigned index) const {
  SmallVector<Operation *> found;
  for (transform::MappedValue value : operands[index])
    if (auto *op = dyn_cast_if_present<Operation *>(value))
      found.push_back(op);
  return found;
}

std::string SchedulePayload::emptyHandleMessage(StringRef what) {
  return ("expects a handle to " + what +
          ", got an empty handle (split and fuse erase the loops they "
          "replace and empty their handles: use the loops they return)")
      .str();
}

FailureOr<Operation *> SchedulePayload::singleOp(unsigned index, StringRef what,
                                                 ScheduleError &error) const {
  SmallVector<Operation *> found = ops(index);
  if (found.empty()) {
    error = {emptyHandleMessage(("one " + what).str()), nullptr};
    return failure();
  }
  if (found.size() != 1) {
    error = {("expects a handle to exactly one " + what + ", got " +
              Twine(found.size()) + " payload ops")
                 .str(),
             nullptr};
    return failure();
  }
  return found.front();
}

LogicalResult SchedulePayload::setVariadicResults(ArrayRef<Operation *> ops,
                                                  StringRef what, Operation *at,
                                                  ScheduleError &error) {
  if (results.size() == 1) {
    setResult(0, ops);
    return success();
  }
  if (results.size() != ops.size()) {
    error = {("asks for one handle per " + what + ": " + Twine(results.size()) +
              " handles, but there " + (ops.size() == 1 ? "is " : "are ") +
              Twine(ops.size()))
                 .str(),
             at};
    return failure();
  }
  for (auto [index, op] : llvm::enumerate(ops))
    setResult(index, ArrayRef<Operation *>(op));
  return success();
}

//===----------------------------------------------------------------------===//
// Python values
//===----------------------------------------------------------------------===//

/// A string as a Python literal, in double quotes as TVM prints them.
static void printPythonString(StringRef text, llvm::raw_ostream &os) {
  os << '"';
  for (char c : text) {
    if (c == '"' || c == '\\')
      os << '\\' << c;
    else if (c == '\n')
      os << "\\n";
    else
      os << c;
  }
  os << '"';
}

void mlir::tir::printPythonExpr(AffineExpr expr, llvm::raw_ostream &os,
                                ArrayRef<StringRef> symbolNames) {
  if (auto symbol = dyn_cast<AffineSymbolExpr>(expr)) {
    if (symbol.getPosition() < symbolNames.size())
      os << symbolNames[symbol.getPosition()];
    else
      os << "T.vscale()";
  } else if (auto dim = dyn_cast<AffineDimExpr>(expr)) {
    os << "d" << dim.getPosition();
  } else if (auto constant = dyn_cast<AffineConstantExpr>(expr)) {
    os << constant.getValue();
  } else if (auto binary = dyn_cast<AffineBinaryOpExpr>(expr)) {
    if (binary.getKind() == AffineExprKind::CeilDiv) {
      os << "T.ceildiv(";
      printPythonExpr(binary.getLHS(), os, symbolNames);
      os << ", ";
      printPythonExpr(binary.getRHS(), os, symbolNames);
      os << ")";
      return;
    }
    StringRef op = binary.getKind() == AffineExprKind::Add   ? " + "
                   : binary.getKind() == AffineExprKind::Mul ? " * "
                   : binary.getKind() == AffineExprKind::Mod ? " % "
                                                             : " // ";
    os << "(";
    printPythonExpr(binary.getLHS(), os, symbolNames);
    os << op;
    printPythonExpr(binary.getRHS(), os, symbolNames);
    os << ")";
  }
}

void mlir::tir::printPythonIndexMap(AffineMap map, llvm::raw_ostream &os,
                                    ArrayRef<StringRef> symbolNames) {
  os << "lambda ";
  for (unsigned d = 0; d < map.getNumDims(); ++d)
    os << (d ? ", " : "") << "d" << d;
  os << ": (";
  for (AffineExpr e : map.getResults()) {
    printPythonExpr(e, os, symbolNames);
    os << ", ";
  }
  os << ")";
}

void mlir::tir::printPythonValue(Attribute value, llvm::raw_ostream &os) {
  if (auto b = dyn_cast<BoolAttr>(value)) {
    os << (b.getValue() ? "True" : "False");
  } else if (auto i = dyn_cast<IntegerAttr>(value)) {
    if (i.getType().isInteger(1))
      os << (i.getValue().isZero() ? "False" : "True");
    else
      os << i.getValue().getSExtValue();
  } else if (auto f = dyn_cast<FloatAttr>(value)) {
    SmallString<32> text;
    f.getValue().toString(text);
    os << text;
    if (!StringRef(text).contains_insensitive('.') &&
        !StringRef(text).contains_insensitive('e') &&
        !StringRef(text).contains_insensitive("n"))
      os << ".0";
  } else if (auto s = dyn_cast<StringAttr>(value)) {
    printPythonString(s.getValue(), os);
  } else if (auto array = dyn_cast<DenseI64ArrayAttr>(value)) {
    os << "[";
    llvm::interleaveComma(array.asArrayRef(), os);
    os << "]";
  } else if (auto array = dyn_cast<DenseF64ArrayAttr>(value)) {
    os << "[";
    // As TVM prints a FloatImm in a trace: 17 significant digits, the
    // shortest form (1.0 prints 1).
    llvm::interleaveComma(array.asArrayRef(), os,
                          [&](double d) { os << llvm::format("%.17g", d); });
    os << "]";
  } else if (auto map = dyn_cast<AffineMapAttr>(value)) {
    printPythonIndexMap(map.getValue(), os);
  } else if (auto array = dyn_cast<ArrayAttr>(value)) {
    os << "[";
    llvm::interleaveComma(array, os,
                          [&](Attribute a) { printPythonValue(a, os); });
    os << "]";
  } else if (auto dict = dyn_cast<DictionaryAttr>(value)) {
    os << "{";
    llvm::interleaveComma(dict, os, [&](NamedAttribute entry) {
      printPythonString(entry.getName().getValue(), os);
      os << ": ";
      printPythonValue(entry.getValue(), os);
    });
    os << "}";
  } else {
    // No Python value: the MLIR form, as a string.
    std::string text;
    llvm::raw_string_ostream textOs(text);
    value.print(textOs);
    printPythonString(text, os);
  }
}

//===----------------------------------------------------------------------===//
// The transform-interpreter side
//===----------------------------------------------------------------------===//

/// What the diagnostic's note calls the op at fault.
static StringRef culpritKind(Operation *op) {
  return isa<ForOp>(op) ? "loop" : isa<BlockOp>(op) ? "block" : "payload op";
}

DiagnosedSilenceableFailure mlir::tir::detail::applyScheduleOp(
    Operation *op, transform::TransformRewriter &rewriter,
    transform::TransformResults &results, transform::TransformState &state) {
  auto step = cast<ScheduleOpInterface>(op);
  SchedulePayload payload;
  for (Value operand : op->getOperands()) {
    SmallVector<transform::MappedValue> &values =
        payload.operands.emplace_back();
    if (isa<transform::TransformParamTypeInterface>(operand.getType())) {
      for (Attribute param : state.getParams(operand))
        values.push_back(param);
    } else {
      for (Operation *payloadOp : state.getPayloadOps(operand))
        values.push_back(payloadOp);
    }
  }
  payload.results.resize(op->getNumResults());

  // The interpreter's listener keeps its handles up to date; this one also
  // notes what the step erased, for the verification below.
  struct ErasureListener : RewriterBase::ForwardingListener {
    using ForwardingListener::ForwardingListener;
    void notifyOperationErased(Operation *op) override {
      erased.insert(op);
      ForwardingListener::notifyOperationErased(op);
    }
    DenseSet<Operation *> erased;
  } listener(rewriter.getListener());
  OpBuilder::Listener *previous = rewriter.getListener();
  rewriter.setListener(&listener);
  ScheduleError error;
  bool checked =
      !step.isQuery() && state.getOptions().getExpensiveChecksEnabled();
  std::optional<PayloadSnapshot> before;
  if (checked)
    before.emplace(payload);
  LogicalResult applied = step.applyToPayload(rewriter, payload, error);
  rewriter.setListener(previous);
  if (failed(applied) && before && before->changed())
    return emitDefiniteFailure(op)
           << "internal error: refused but changed the IR: " << error.message;
  if (failed(applied)) {
    DiagnosedSilenceableFailure diag = emitSilenceableFailure(op)
                                       << error.message;
    if (error.culprit)
      diag.attachNote(error.culprit->getLoc()) << culpritKind(error.culprit);
    for (const auto &[at, note] : error.notes)
      diag.attachNote(at->getLoc()) << note;
    return diag;
  }
  for (auto [result, values] : llvm::zip(op->getResults(), payload.results))
    results.setMappedValues(cast<OpResult>(result), values);
  // What the step resolved goes on the op, as a ScheduleState records it:
  // later steps read it (compute_at reads the place sample_compute_location
  // took, repaired or not).
  for (NamedAttribute attr : payload.resolved)
    op->setAttr(attr.getName(), attr.getValue());
  if (checked && failed(verifyChangedPayload(payload, listener.erased)))
    return DiagnosedSilenceableFailure::definiteFailure();
  return DiagnosedSilenceableFailure::success();
}

void mlir::tir::detail::getScheduleOpEffects(
    Operation *op, bool isQuery,
    SmallVectorImpl<MemoryEffects::EffectInstance> &effects) {
  transform::onlyReadsHandle(op->getOpOperands(), effects);
  transform::producesHandle(op->getOpResults(), effects);
  if (isQuery)
    transform::onlyReadsPayload(effects);
  else
    transform::modifiesPayload(effects);
}

LogicalResult mlir::tir::detail::applyToEachPayloadOp(
    Operation *op, SchedulePayload &payload, ScheduleError &error,
    function_ref<LogicalResult(Operation *, ScheduleError &)> applyToOne,
    function_ref<FailureOr<SmallVector<Operation *>>(const SchedulePayload &,
                                                     ScheduleError &)>
        targets) {
  FailureOr<SmallVector<Operation *>> found = targets(payload, error);
  if (failed(found))
    return failure();
  for (Operation *target : *found)
    if (failed(applyToOne(target, error)))
      return failure();
  return success();
}
