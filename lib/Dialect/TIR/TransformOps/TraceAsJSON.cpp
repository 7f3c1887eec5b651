//===- TraceAsJSON.cpp - a trace as JSON, and back ------------------------===//
//
// TVM's Trace.as_json / Trace.apply_json_to_schedule: a trace as data, for
// databases of schedules. TVM's form is [instructions, decisions]; here an
// instruction is [kind, inputs, attrs, outputs, types]:
//
//   ["transform.tir.split", ["v1"],
//    {"factors": "[#tir.split_factor<?>, #tir.split_factor<4>]"},
//    ["v2", "v3"], [["!transform.op<\"tir.for\">"],
//                   ["!transform.op<\"tir.for\">",
//                   "!transform.op<\"tir.for\">"]]]
//
// the op's name, its operands and results named "root" (the function) and
// "v<k>" in order of definition, its attributes in MLIR's syntax, and its
// operand and result types. Sampling decisions are attributes of the
// sampling steps, so the decisions list is empty.
//
//===----------------------------------------------------------------------===//

#include "TensorIR/Dialect/TIR/TransformOps/ScheduleState.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/Dialect/Transform/IR/TransformOps.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/JSON.h"

using namespace mlir;
using namespace mlir::tir;

template <typename T> static std::string printed(T value) {
  std::string text;
  llvm::raw_string_ostream os(text);
  value.print(os);
  return text;
}

FailureOr<std::string> mlir::tir::printTraceAsJSON(ModuleOp trace,
                                                   std::string &error) {
  FailureOr<transform::NamedSequenceOp> sequence =
      getTraceSequence(trace, error);
  if (failed(sequence))
    return failure();
  DenseMap<Value, std::string> names;
  names[sequence->getBody().front().getArgument(0)] = "root";
  llvm::json::Array insts;
  for (Operation &op : sequence->getBody().front().without_terminator()) {
    llvm::json::Array inputs, outputs, operandTypes, resultTypes;
    for (Value operand : op.getOperands()) {
      auto it = names.find(operand);
      if (it == names.end()) {
        error = "'" + op.getName().getStringRef().str() +
                "' uses a value the trace does not define";
        return failure();
      }
      inputs.push_back(it->second);
      operandTypes.push_back(printed(operand.getType()));
    }
    for (Value result : op.getResults()) {
      std::string name = "v" + std::to_string(names.size());
      names[result] = name;
      outputs.push_back(name);
      resultTypes.push_back(printed(result.getType()));
    }
    llvm::json::Object attrs;
    for (NamedAttribute attr : op.getAttrDictionary())
      attrs[attr.getName().getValue()] = printed(attr.getValue());
    insts.push_back(llvm::json::Array{
        op.getName().getStringRef(), std::move(inputs), std::move(attrs),
        std::move(outputs),
        llvm::json::Array{std::move(operandTypes), std::move(resultTypes)}});
  }
  std::string text;
  llvm::raw_string_ostream os(text);
  os << llvm::json::Value(
      llvm::json::Array{std::move(insts), llvm::json::Array()});
  return text;
}

/// The strings of a JSON array; failure when it is not one.
static FailureOr<SmallVector<std::string>>
getStrings(const llvm::json::Value *value) {
  const llvm::json::Array *array = value ? value->getAsArray() : nullptr;
  if (!array)
    return failure();
  SmallVector<std::string> strings;
  for (const llvm::json::Value &item : *array) {
    std::optional<StringRef> s = item.getAsString();
    if (!s)
      return failure();
    strings.push_back(s->str());
  }
  return strings;
}

FailureOr<OwningOpRef<ModuleOp>>
mlir::tir::parseTraceFromJSON(StringRef json, MLIRContext *ctx,
                              std::string &error) {
  llvm::Expected<llvm::json::Value> parsed = llvm::json::parse(json);
  if (!parsed) {
    error = "the trace is not JSON: " + llvm::toString(parsed.takeError());
    return failure();
  }
  const llvm::json::Array *top = parsed->getAsArray();
  const llvm::json::Array *insts =
      top && !top->empty() ? (*top)[0].getAsArray() : nullptr;
  if (!insts) {
    error = "a JSON trace is [instructions, decisions]";
    return failure();
  }
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(
      "module attributes {transform.with_named_sequence} {\n"
      "  transform.named_sequence @__transform_main(%root: !transform.any_op "
      "{transform.readonly}) {\n    transform.yield\n  }\n}\n",
      ParserConfig(ctx), "<trace>");
  FailureOr<transform::NamedSequenceOp> sequence =
      getTraceSequence(*module, error);
  if (failed(sequence))
    return failure();
  Block &body = sequence->getBody().front();
  llvm::StringMap<Value> values;
  values["root"] = body.getArgument(0);
  OpBuilder builder(body.getTerminator());
  for (auto [k, item] : llvm::enumerate(*insts)) {
    std::string where = "instruction " + std::to_string(k) + " of the trace";
    const llvm::json::Array *inst = item.getAsArray();
    if (!inst || inst->size() != 5 || !(*inst)[0].getAsString() ||
        !(*inst)[2].getAsObject() || !(*inst)[4].getAsArray() ||
        (*inst)[4].getAsArray()->size() != 2) {
      error = where + " is not [kind, inputs, attrs, outputs, types]";
      return failure();
    }
    StringRef kind = *(*inst)[0].getAsString();
    FailureOr<SmallVector<std::string>> inputs = getStrings(&(*inst)[1]);
    FailureOr<SmallVector<std::string>> outputs = getStrings(&(*inst)[3]);
    const llvm::json::Array &types = *(*inst)[4].getAsArray();
    FailureOr<SmallVector<std::string>> resultTypes = getStrings(&types[1]);
    if (failed(inputs) || failed(outputs) || failed(resultTypes) ||
        outputs->size() != resultTypes->size()) {
      error = where + " has malformed inputs, outputs or types";
      return failure();
    }
    std::optional<RegisteredOperationName> name =
        RegisteredOperationName::lookup(kind, ctx);
    if (!name || !kind.starts_with("transform.tir.")) {
      error = where + ": '" + kind.str() + "' is not a schedule step";
      return failure();
    }
    OperationState state(builder.getUnknownLoc(), *name);
    for (const std::string &input : *inputs) {
      auto it = values.find(input);
      if (it == values.end()) {
        error = where + " uses '" + input + "', which no earlier one defines";
        return failure();
      }
      state.operands.push_back(it->second);
    }
    for (const std::string &text : *resultTypes) {
      Type type = parseType(text, ctx);
      if (!type) {
        error = where + ": '" + text + "' is not a type";
        return failure();
      }
      state.types.push_back(type);
    }
    for (const auto &[key, value] : *(*inst)[2].getAsObject()) {
      std::optional<StringRef> text = value.getAsString();
      Attribute attr = text ? parseAttribute(*text, ctx) : Attribute();
      if (!attr) {
        error = where + ": attribute '" + key.str() + "' does not parse";
        return failure();
      }
      state.addAttribute(key.str(), attr);
    }
    Operation *op = builder.create(state);
    for (auto [result, output] : llvm::zip(op->getResults(), *outputs))
      values[output] = result;
  }
  if (failed(verify(*module))) {
    error = "the trace read from JSON does not verify";
    return failure();
  }
  return module;
}
