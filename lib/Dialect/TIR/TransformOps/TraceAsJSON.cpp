//===- TraceAsJSON.cpp - a trace as TVM's JSON, and back ------------------===//
//
// TVM's Trace.as_json / Trace.apply_json_to_schedule: a trace as data, for
// databases of schedules, in TVM's layout:
//
//   [[["GetBlock", [], ["C", "main"], ["b0"]],
//     ["GetLoops", ["b0"], [], ["l1", "l2"]],
//     ["SamplePerfectTile", ["l1"], [2, 16], ["v3", "v4"]],
//     ["Split", ["l1", "v3", "v4"], [true, false], ["l5", "l6"]]],
//    [[2, [32, 4]]]]
//
// Each instruction is [kind, inputs, attrs, outputs] with TVM's inputs and
// attrs (InstructionKinds.cpp); random variables are named as TVM's Python
// names them (b / l / v and a running number, `_` for None), an input None
// is "None" and a string input is quoted inside the string, as TVM writes
// them. Decisions are [instruction index, decision]. An index map, which
// TVM writes as its own JSON, is its MLIR text ("affine_map<...>").
//
//===----------------------------------------------------------------------===//

#include "TensorIR/Dialect/TIR/TransformOps/Trace.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/IR/Builders.h"
#include "llvm/Support/JSON.h"

using namespace mlir;
using namespace mlir::tir;

static std::string printed(Attribute value) {
  std::string text;
  llvm::raw_string_ostream os(text);
  value.print(os);
  return text;
}

/// A constant as JSON (strings as they are, other attributes as text).
static llvm::json::Value constantToJSON(Attribute a) {
  if (auto b = dyn_cast<BoolAttr>(a))
    return b.getValue();
  if (auto i = dyn_cast<IntegerAttr>(a)) {
    if (i.getType().isInteger(1))
      return i.getValue().getBoolValue();
    return i.getValue().getSExtValue();
  }
  if (auto f = dyn_cast<FloatAttr>(a))
    return f.getValueAsDouble();
  if (auto s = dyn_cast<StringAttr>(a))
    return s.getValue().str();
  if (auto array = dyn_cast<ArrayAttr>(a)) {
    llvm::json::Array items;
    for (Attribute item : array)
      items.push_back(constantToJSON(item));
    return llvm::json::Value(std::move(items));
  }
  if (auto dict = dyn_cast<DictionaryAttr>(a)) {
    // A map, as TVM writes one: its entries as they are.
    llvm::json::Object object;
    for (NamedAttribute entry : dict)
      object[entry.getName().getValue()] = constantToJSON(entry.getValue());
    return llvm::json::Value(std::move(object));
  }
  return printed(a);
}

namespace {
/// Names random variables as TVM's AsJSON and AsPython do.
struct Namer {
  DenseMap<const RandomVariable *, std::string> names;
  unsigned count = 0;
  bool noneNamed = false;
  std::string define(const RV &rv) {
    unsigned index = count++;
    if (!rv) {
      noneNamed = true;
      return "_";
    }
    char prefix = rv->kind == RandomVariable::Kind::Block  ? 'b'
                  : rv->kind == RandomVariable::Kind::Loop ? 'l'
                                                           : 'v';
    return names[rv.get()] = prefix + std::to_string(index);
  }
};
} // namespace

/// An input as JSON: a random variable by name, None as "None", a string
/// quoted inside the string, lists item by item.
static FailureOr<llvm::json::Value> inputToJSON(const TVMValue &v, Namer &namer,
                                                std::string &error) {
  switch (v.tag) {
  case TVMValue::Tag::None:
    return llvm::json::Value("None");
  case TVMValue::Tag::Variable: {
    auto it = namer.names.find(v.variable.get());
    if (it == namer.names.end()) {
      error = "a random variable is used before an instruction defines it";
      return failure();
    }
    return llvm::json::Value(it->second);
  }
  case TVMValue::Tag::Constant:
    if (auto s = dyn_cast<StringAttr>(v.constant))
      return llvm::json::Value("\"" + s.getValue().str() + "\"");
    return constantToJSON(v.constant);
  case TVMValue::Tag::List: {
    llvm::json::Array items;
    for (const TVMValue &item : v.list) {
      FailureOr<llvm::json::Value> json = inputToJSON(item, namer, error);
      if (failed(json))
        return failure();
      items.push_back(std::move(*json));
    }
    return llvm::json::Value(std::move(items));
  }
  }
  llvm_unreachable("unknown value tag");
}

static llvm::json::Value attrToJSON(const TVMValue &v) {
  switch (v.tag) {
  case TVMValue::Tag::None:
  case TVMValue::Tag::Variable:
    return nullptr;
  case TVMValue::Tag::Constant:
    return constantToJSON(v.constant);
  case TVMValue::Tag::List: {
    llvm::json::Array items;
    for (const TVMValue &item : v.list)
      items.push_back(attrToJSON(item));
    return llvm::json::Value(std::move(items));
  }
  }
  llvm_unreachable("unknown value tag");
}

static llvm::json::Value decisionToJSON(Attribute decision) {
  if (auto a = dyn_cast<DenseI64ArrayAttr>(decision)) {
    llvm::json::Array items;
    for (int64_t v : a.asArrayRef())
      items.push_back(v);
    return llvm::json::Value(std::move(items));
  }
  return constantToJSON(decision);
}

FailureOr<std::string> Trace::asJSON(bool removePostproc,
                                     std::string &error) const {
  Namer namer;
  llvm::json::Array jsonInsts, jsonDecisions;
  size_t n = countUpToPostproc(removePostproc);
  for (size_t i = 0; i < n; ++i) {
    const Instruction &inst = *insts[i];
    std::vector<TVMValue> inputs, attrs;
    inst.kind->getTVMLayout(inst, inputs, attrs);
    llvm::json::Array jsonInputs, jsonAttrs, jsonOutputs;
    for (const TVMValue &input : inputs) {
      FailureOr<llvm::json::Value> json = inputToJSON(input, namer, error);
      if (failed(json)) {
        error = inst.kind->getName().str() + ": " + error;
        return failure();
      }
      jsonInputs.push_back(std::move(*json));
    }
    std::string types = inst.kind->getAttrTypes();
    for (auto [attr, type] : llvm::zip(attrs, types)) {
      // A typed attribute or an index map: its MLIR text.
      if ((type == 'p' || type == 'm') && attr.tag == TVMValue::Tag::Constant)
        jsonAttrs.push_back(printed(attr.constant));
      else
        jsonAttrs.push_back(attrToJSON(attr));
    }
    for (const RV &rv : inst.outputs)
      jsonOutputs.push_back(namer.define(rv));
    jsonInsts.push_back(
        llvm::json::Array{inst.kind->getName().str(), std::move(jsonInputs),
                          std::move(jsonAttrs), std::move(jsonOutputs)});
    if (Attribute decision = getDecision(&inst))
      jsonDecisions.push_back(
          llvm::json::Array{static_cast<int64_t>(i), decisionToJSON(decision)});
  }
  std::string text;
  llvm::raw_string_ostream os(text);
  os << llvm::json::Value(
      llvm::json::Array{std::move(jsonInsts), std::move(jsonDecisions)});
  return text;
}

/// A JSON value as a constant (an object as a dictionary, a list as an
/// array).
static Attribute constantFromJSON(MLIRContext *ctx,
                                  const llvm::json::Value &v) {
  Builder b(ctx);
  if (const llvm::json::Object *object = v.getAsObject()) {
    SmallVector<NamedAttribute> entries;
    for (const auto &[key, item] : *object) {
      Attribute a = constantFromJSON(ctx, item);
      if (!a)
        return {};
      entries.emplace_back(b.getStringAttr(key.str()), a);
    }
    return b.getDictionaryAttr(entries);
  }
  if (const llvm::json::Array *items = v.getAsArray()) {
    SmallVector<Attribute> array;
    for (const llvm::json::Value &item : *items) {
      Attribute a = constantFromJSON(ctx, item);
      if (!a)
        return {};
      array.push_back(a);
    }
    return b.getArrayAttr(array);
  }
  if (std::optional<bool> flag = v.getAsBoolean())
    return b.getBoolAttr(*flag);
  if (std::optional<int64_t> i = v.getAsInteger())
    return b.getI64IntegerAttr(*i);
  if (std::optional<double> f = v.getAsNumber())
    return b.getF64FloatAttr(*f);
  if (std::optional<StringRef> s = v.getAsString())
    return b.getStringAttr(*s);
  return {};
}

static FailureOr<TVMValue> inputFromJSON(MLIRContext *ctx,
                                         const llvm::json::Value &v,
                                         const llvm::StringMap<RV> &named,
                                         std::string &error) {
  if (const llvm::json::Array *items = v.getAsArray()) {
    std::vector<TVMValue> list;
    for (const llvm::json::Value &item : *items) {
      FailureOr<TVMValue> value = inputFromJSON(ctx, item, named, error);
      if (failed(value))
        return failure();
      list.push_back(std::move(*value));
    }
    return TVMValue::of(std::move(list));
  }
  if (std::optional<StringRef> s = v.getAsString()) {
    if (*s == "None")
      return TVMValue::none();
    if (s->size() >= 2 && s->starts_with("\"") && s->ends_with("\""))
      return TVMValue::of(
          Builder(ctx).getStringAttr(s->drop_front().drop_back()));
    if (s->starts_with("affine_map<") || s->starts_with("#tir.")) {
      Attribute parsed = parseAttribute(*s, ctx);
      if (!parsed) {
        error = "'" + s->str() + "' does not parse as an attribute";
        return failure();
      }
      return TVMValue::of(parsed);
    }
    auto it = named.find(*s);
    if (it == named.end()) {
      error = "the random variable '" + s->str() +
              "' is used before an instruction defines it";
      return failure();
    }
    return TVMValue::of(it->second);
  }
  if (Attribute a = constantFromJSON(ctx, v))
    return TVMValue::of(a);
  error = "an input is a name, a string, a number, a bool or a list";
  return failure();
}

static TVMValue attrFromJSON(MLIRContext *ctx, const llvm::json::Value &v) {
  if (const llvm::json::Array *items = v.getAsArray()) {
    std::vector<TVMValue> list;
    for (const llvm::json::Value &item : *items)
      list.push_back(attrFromJSON(ctx, item));
    return TVMValue::of(std::move(list));
  }
  if (v.kind() == llvm::json::Value::Null)
    return TVMValue::none();
  return TVMValue::of(constantFromJSON(ctx, v));
}

static Attribute decisionFromJSON(MLIRContext *ctx,
                                  const llvm::json::Value &v) {
  Builder b(ctx);
  if (std::optional<int64_t> i = v.getAsInteger())
    return b.getI64IntegerAttr(*i);
  if (const llvm::json::Array *items = v.getAsArray()) {
    SmallVector<int64_t> ints;
    for (const llvm::json::Value &item : *items) {
      std::optional<int64_t> i = item.getAsInteger();
      if (!i)
        return {};
      ints.push_back(*i);
    }
    return b.getDenseI64ArrayAttr(ints);
  }
  return {};
}

FailureOr<Trace> Trace::fromJSON(MLIRContext *ctx, StringRef text,
                                 std::string &error) {
  llvm::Expected<llvm::json::Value> parsed = llvm::json::parse(text);
  if (!parsed) {
    error = "the trace is not JSON: " + llvm::toString(parsed.takeError());
    return failure();
  }
  const llvm::json::Array *top = parsed->getAsArray();
  const llvm::json::Array *jsonInsts =
      top && top->size() == 2 ? (*top)[0].getAsArray() : nullptr;
  const llvm::json::Array *jsonDecisions =
      top && top->size() == 2 ? (*top)[1].getAsArray() : nullptr;
  if (!jsonInsts || !jsonDecisions) {
    error = "a trace's JSON is [instructions, decisions], two lists";
    return failure();
  }
  std::vector<Attribute> decisions(jsonInsts->size());
  for (const llvm::json::Value &entry : *jsonDecisions) {
    const llvm::json::Array *pair = entry.getAsArray();
    std::optional<int64_t> index =
        pair && pair->size() == 2 ? (*pair)[0].getAsInteger() : std::nullopt;
    Attribute decision =
        index ? decisionFromJSON(ctx, (*pair)[1]) : Attribute();
    if (!index || *index < 0 ||
        *index >= static_cast<int64_t>(decisions.size()) || !decision) {
      error = "a decision is [instruction index, an integer or a list of "
              "integers]";
      return failure();
    }
    decisions[*index] = decision;
  }
  llvm::StringMap<RV> named;
  Trace trace;
  for (auto [index, entry] : llvm::enumerate(*jsonInsts)) {
    const llvm::json::Array *fields = entry.getAsArray();
    std::optional<StringRef> kindName = fields && fields->size() == 4
                                            ? (*fields)[0].getAsString()
                                            : std::nullopt;
    const llvm::json::Array *jsonInputs =
        kindName ? (*fields)[1].getAsArray() : nullptr;
    const llvm::json::Array *jsonAttrs =
        kindName ? (*fields)[2].getAsArray() : nullptr;
    const llvm::json::Array *jsonOutputs =
        kindName ? (*fields)[3].getAsArray() : nullptr;
    if (!jsonInputs || !jsonAttrs || !jsonOutputs) {
      error = "instruction " + std::to_string(index) +
              " is not [kind, inputs, attrs, outputs]";
      return failure();
    }
    const InstructionKind *kind = InstructionKind::lookup(*kindName);
    if (!kind) {
      error = "instruction " + std::to_string(index) +
              ": no instruction kind '" + kindName->str() + "'";
      return failure();
    }
    std::vector<TVMValue> inputs, attrs;
    for (const llvm::json::Value &v : *jsonInputs) {
      FailureOr<TVMValue> input = inputFromJSON(ctx, v, named, error);
      if (failed(input)) {
        error = kind->getName().str() + ": " + error;
        return failure();
      }
      inputs.push_back(std::move(*input));
    }
    for (const llvm::json::Value &v : *jsonAttrs)
      attrs.push_back(attrFromJSON(ctx, v));
    std::vector<RV> outputs;
    std::vector<std::string> outputNames;
    for (const llvm::json::Value &v : *jsonOutputs) {
      std::optional<StringRef> outputName = v.getAsString();
      if (!outputName || outputName->empty()) {
        error = kind->getName().str() + ": outputs are names";
        return failure();
      }
      if (*outputName == "_") {
        outputs.push_back(nullptr);
        outputNames.emplace_back();
        continue;
      }
      RandomVariable::Kind rvKind =
          outputName->starts_with("b")   ? RandomVariable::Kind::Block
          : outputName->starts_with("l") ? RandomVariable::Kind::Loop
                                         : RandomVariable::Kind::Expr;
      outputs.push_back(std::make_shared<RandomVariable>(rvKind));
      outputNames.push_back(outputName->str());
    }
    FailureOr<Instruction> inst =
        kind->fromTVMLayout(ctx, inputs, attrs, outputs, error);
    if (failed(inst))
      return failure();
    for (auto [outputName, rv] : llvm::zip(outputNames, outputs))
      if (rv)
        named[outputName] = rv;
    trace.append(std::make_shared<const Instruction>(std::move(*inst)),
                 decisions[index]);
  }
  return trace;
}
