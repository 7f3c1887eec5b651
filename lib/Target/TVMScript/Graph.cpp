//===- Graph.cpp - graph functions printed as TVMScript's @R.function -----===//
//
// A graph function (a func.func on tensors calling prim_funcs with
// tir.call_tir) as Relax prints it: R.Tensor parameters, one dataflow block
// of `lv = R.call_tir(cls.f, (args,), out_sinfo=...)` bindings, the output
// bound to `gv` and returned. Tensor constants are entries of the module's
// metadata (`metadata["relax.expr.Constant"][k]`), printed after the module
// on request; scalars print as R.const.
//
//===----------------------------------------------------------------------===//

#include "GraphPrinter.h"

#include "TensorIR/Dialect/TIR/IR/ShapeVars.h"
#include "TensorIR/Dialect/TIR/IR/TIRDialect.h"
#include "TensorIR/Dialect/TIR/IR/TIRTypes.h"
#include "TensorIR/Graph/GraphBuilder.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Matchers.h"

#include "llvm/ADT/StringSet.h"
#include "llvm/Support/Format.h"
#include <functional>

#include <cmath>

using namespace mlir;
using namespace mlir::tir;
using namespace mlir::tir::tvmscript;
using namespace mlir::tir::tvmscript::detail;

std::string GraphPrinter::structInfo(Value v, bool quoted) {
  if (isa<ObjectType>(v.getType()))
    return "R.Object";
  // A scalar parameter: the shape variable of its name.
  if (v.getType().isIndex()) {
    std::string var = getShapeVarName(v);
    return var.empty() ? "" : "R.Prim(value=\"" + var + "\")";
  }
  // A shape or an integer of shape variables (R.shape, R.prim_value).
  if (auto made = v.getDefiningOp<tensor::FromElementsOp>();
      made && made->hasAttr(TIRDialect::kShapeValueAttrName)) {
    SmallVector<std::string> dims;
    for (Value element : made.getElements()) {
      std::string text = getSizeExpressionText(element);
      if (text.empty())
        return "";
      std::optional<AffineSize> form = parseAffineSize(text);
      dims.push_back(form && form->terms.empty() ? text : "\"" + text + "\"");
    }
    if (made.getType().getRank() == 0)
      return "R.Prim(value=" + dims[0] + ")";
    return "R.Shape([" + llvm::join(dims, ", ") + "])";
  }
  auto tensor = dyn_cast<RankedTensorType>(v.getType());
  if (!tensor)
    return "";
  Printer scalar(error);
  std::string dtype = scalar.dtype(tensor.getElementType());
  if (dtype.empty())
    return "";
  SmallVector<std::string> dims;
  for (auto [d, size] : llvm::enumerate(tensor.getShape())) {
    if (!ShapedType::isDynamic(size)) {
      dims.push_back(std::to_string(size));
      continue;
    }
    std::string var = getShapeVarName(v, d);
    if (var.empty())
      return "";
    dims.push_back(quoted ? "\"" + var + "\"" : var);
  }
  return "R.Tensor(" + tuple(dims) + ", dtype=\"" + dtype + "\")";
}

bool GraphPrinter::value(Value v, std::string &out) {
  auto it = names.find(v);
  if (it != names.end()) {
    out = it->second;
    return true;
  }
  auto constant = v.getDefiningOp<arith::ConstantOp>();
  // A large weight is a resource blob: a metadata entry as any other.
  if (auto resource =
          constant ? dyn_cast<DenseResourceElementsAttr>(constant.getValue())
                   : DenseResourceElementsAttr()) {
    Printer scalar(error);
    std::string dtype = scalar.dtype(resource.getElementType());
    Type element = resource.getElementType();
    if (dtype.empty() || !element.isIntOrFloat() ||
        element.getIntOrFloatBitWidth() % 8 != 0 ||
        !resource.getRawHandle().getBlob())
      return fail(constant, "a resource constant without data or of an "
                            "element type TVMScript has no name for");
    out = "metadata[\"relax.expr.Constant\"][" +
          std::to_string(constants.add(resource, dtype)) + "]";
    return true;
  }
  auto dense = constant ? dyn_cast<DenseElementsAttr>(constant.getValue())
                        : DenseElementsAttr();
  if (!dense)
    return fail(v.getDefiningOp() ? v.getDefiningOp()
                                  : v.getParentBlock()->getParentOp(),
                "a value a graph function in TVMScript cannot name");
  Printer scalar(error);
  std::string dtype = scalar.dtype(dense.getElementType());
  Type element = dense.getElementType();
  // Metadata holds whole bytes per element (booleans one byte each).
  if (dtype.empty() || element.isIndex() || !element.isIntOrFloat() ||
      (element.getIntOrFloatBitWidth() % 8 != 0 && !element.isInteger(1)))
    return fail(constant,
                "a constant of an element type TVMScript has no name for");
  if (dense.getType().getRank() == 0) {
    std::string number;
    if (isa<FloatType>(dense.getElementType()))
      number = formatDouble(dense.getSplatValue<APFloat>().convertToDouble());
    else if (dense.getElementType().isInteger(1))
      number = dense.getSplatValue<bool>() ? "True" : "False";
    else
      number = std::to_string(dense.getSplatValue<APInt>().getSExtValue());
    out = "R.const(" + number + ", \"" + dtype + "\")";
    return true;
  }
  out = "metadata[\"relax.expr.Constant\"][" +
        std::to_string(constants.add(dense, dtype)) + "]";
  return true;
}

bool GraphPrinter::print(func::FuncOp func, llvm::raw_ostream &os) {
  if (func.isExternal())
    return fail(func, "a declaration has no body");
  if (!func.getBody().hasOneBlock())
    return fail(func,
                "a graph function of several blocks has no TVMScript form");
  SmallVector<std::string> argInfos;
  for (unsigned i = 0, e = func.getNumArguments(); i < e; ++i) {
    argInfos.push_back(structInfo(func.getArgument(i), /*quoted=*/true));
    if (argInfos.back().empty())
      return fail(func, "parameter " + Twine(i) +
                            " is not a tensor whose dimensions are sizes or "
                            "shape variables");
  }
  SmallVector<std::string> params;
  auto paramNesting =
      func->getAttrOfType<ArrayAttr>(TIRDialect::kParamNestingAttrName);
  if (!paramNesting) {
    for (unsigned i = 0, e = func.getNumArguments(); i < e; ++i)
      params.push_back(plainParam(func, i, argInfos[i]));
  } else if (!printTupleParams(func, paramNesting, argInfos, params)) {
    return false;
  }
  SmallVector<std::string> results;
  auto returned = cast<func::ReturnOp>(func.getBody().front().getTerminator());
  for (Value result : returned.getOperands()) {
    results.push_back(structInfo(result, /*quoted=*/true));
    if (results.back().empty())
      return fail(func, "a result is not a tensor whose dimensions are sizes "
                        "or shape variables");
  }
  // The shape variables, in the order the parameters name them.
  SmallVector<std::string> shapeVars;
  for (unsigned i = 0, e = func.getNumArguments(); i < e; ++i) {
    // A scalar's name (R.Prim(value="n"), a shape's "n * 2") and the
    // dimensions' names of a tensor.
    SmallVector<StringRef> named;
    if (func.getArgument(i).getType().isIndex()) {
      if (auto name =
              func.getArgAttrOfType<StringAttr>(i, TIRDialect::kNameAttrName))
        named.push_back(name.getValue());
    } else if (auto vars = func.getArgAttrOfType<ArrayAttr>(
                   i, TIRDialect::kDimVarsAttrName)) {
      for (auto var : vars.getAsValueRange<StringAttr>())
        named.push_back(var);
    }
    {
      for (StringRef var : named) {
        // The variables of an affine form ("n + 1") are declared, not it.
        std::optional<AffineSize> form = parseAffineSize(var);
        if (!form)
          continue;
        for (const auto &term : form->terms)
          if (!llvm::is_contained(shapeVars, term.first))
            shapeVars.push_back(term.first);
      }
    }
  }
  // A function marked as returning a tuple returns one even of one
  // tensor (Relax's R.Tuple); otherwise one result is the tensor itself.
  bool tupleResult = func->hasAttr(TIRDialect::kTupleResultAttrName);
  // A tuple of tuples: the nesting of the results (their indices).
  auto nesting =
      func->getAttrOfType<ArrayAttr>(TIRDialect::kResultNestingAttrName);
  // `items` (one per result) nested as `nesting` says, each tuple written
  // by `wrap`.
  std::function<std::string(ArrayAttr, ArrayRef<std::string>,
                            function_ref<std::string(ArrayRef<std::string>)>)>
      nest = [&](ArrayAttr level, ArrayRef<std::string> items,
                 function_ref<std::string(ArrayRef<std::string>)> wrap) {
        SmallVector<std::string> fields;
        for (Attribute entry : level) {
          if (auto inner = dyn_cast<ArrayAttr>(entry))
            fields.push_back(nest(inner, items, wrap));
          else if (auto index = dyn_cast<IntegerAttr>(entry);
                   index && index.getInt() >= 0 &&
                   index.getInt() < static_cast<int64_t>(items.size()))
            fields.push_back(items[index.getInt()]);
          else
            return std::string();
        }
        return wrap(fields);
      };
  auto tupleInfo = [](ArrayRef<std::string> infos) {
    return "R.Tuple(" + llvm::join(infos, ", ") + ")";
  };
  std::function<std::string(bool)> resultInfo = [&](bool quoted) {
    SmallVector<std::string> infos;
    for (Value result : returned.getOperands())
      infos.push_back(structInfo(result, quoted));
    if (nesting)
      return nest(nesting, infos, tupleInfo);
    return infos.size() == 1 && !tupleResult ? infos[0] : tupleInfo(infos);
  };
  // A function returning what a packed call returned (no result here).
  packedResult =
      func->getAttrOfType<DictionaryAttr>(TIRDialect::kPackedResultAttrName);
  if (packedResult) {
    auto sinfo = packedResult.getAs<StringAttr>("sinfo");
    if (!sinfo || returned.getNumOperands() != 0)
      return fail(func, "a malformed tir.packed_result");
    resultInfo = [sinfo](bool) { return sinfo.str(); };
  }
  std::string ret = resultInfo(/*quoted=*/true);
  os << "@R.function";
  if (func.isPrivate())
    os << "(private=True)";
  os << "\ndef " << func.getName() << "(" << llvm::join(params, ", ") << ") -> "
     << ret << ":\n";
  if (inModule)
    os << pad(1) << "cls = Module\n";
  if (auto attrs =
          func->getAttrOfType<DictionaryAttr>(TIRDialect::kFuncAttrsAttrName)) {
    std::string text = attrText(attrs);
    if (text.empty())
      return fail(func, "a function attribute TVMScript has no form for");
    os << pad(1) << "R.func_attr(" << text << ")\n";
  }
  for (const std::string &var : shapeVars) {
    used.insert(var);
    os << pad(1) << var << " = T.int64()\n";
  }
  os << pad(1) << "with R.dataflow():\n";
  for (Operation &op : func.getBody().front()) {
    if (isa<arith::ConstantOp>(op) || op.hasTrait<OpTrait::IsTerminator>() ||
        isOperand(op))
      continue; // Constants print where they are used.
    // Sizes are the shape variables the struct infos name.
    if (isa<tensor::DimOp>(op) && !getShapeVarName(op.getResult(0)).empty())
      continue;
    if (auto callOp = dyn_cast<func::CallOp>(op)) {
      if (!printFunctionCall(callOp, os))
        return false;
      continue;
    }
    // (And expressions of them: the affine forms of dimensions, "n + m",
    // and the sizes a shape value computes, "n * n".)
    if (op.getNumResults() == 1 && op.getResult(0).getType().isIntOrIndex() &&
        isa<arith::ArithDialect>(op.getDialect()) &&
        !getSizeExpressionText(op.getResult(0)).empty())
      continue;
    if (auto made = dyn_cast<tensor::FromElementsOp>(op);
        made && made->hasAttr(TIRDialect::kShapeValueAttrName)) {
      std::string info = structInfo(made.getResult());
      if (info.empty())
        return fail(&op, "a shape value of an expression TVMScript has no "
                         "form for");
      SmallVector<std::string> dims;
      for (Value element : made.getElements())
        dims.push_back(getSizeExpressionText(element));
      std::string name = nextBinding();
      names[made.getResult()] = name;
      os << pad(2) << name << ": " << info << " = "
         << (made.getType().getRank() == 0
                 ? "R.prim_value(" + dims[0] + ")"
                 : "R.shape([" + llvm::join(dims, ", ") + "])")
         << "\n";
      continue;
    }
    if (isa<NullValueOp>(op)) {
      std::string name = nextBinding();
      names[op.getResult(0)] = name;
      os << pad(2) << name << ": R.Object = R.null_value()\n";
      continue;
    }
    auto call = dyn_cast<CallTirOp>(op);
    if (!call) {
      std::string expr;
      // An operator's value: the op's one result, or the one result of
      // several that is used (argmax keeps the maximum beside the index).
      Value result = operatorResult(op);
      if (!result || !operatorCall(op, expr))
        return fail(&op, "an op TVMScript's @R.function has no form for");
      std::string name = nextBinding();
      names[result] = name;
      os << pad(2) << name << ": " << structInfo(result) << " = " << expr
         << "\n";
      continue;
    }
    SmallVector<std::string> args;
    for (Value input : call.getInputs()) {
      args.emplace_back();
      if (!value(input, args.back()))
        return false;
    }
    SmallVector<std::string> infos;
    for (Value result : call.getResults()) {
      infos.push_back(structInfo(result));
      if (infos.back().empty())
        return fail(call, "a result's dynamic dimension is no shape variable");
    }
    std::string name = nextBinding();
    if (call.getNumResults() == 1) {
      names[call.getResult(0)] = name;
    } else {
      for (auto [index, result] : llvm::enumerate(call.getResults()))
        names[result] = name + "[" + std::to_string(index) + "]";
    }
    std::string sinfo =
        infos.size() == 1 ? infos[0] : "[" + llvm::join(infos, ", ") + "]";
    auto callee = SymbolTable::lookupNearestSymbolFrom<func::FuncOp>(
        call, call.getCalleeAttr());
    // A packed function by name ("f@main.0": the call site of f whose
    // result the function returns).
    StringRef packedName = call.getCallee().split('@').first;
    if (callee && callee.isExternal() &&
        callee->hasAttr(TIRDialect::kPackedReturnsAttrName)) {
      // A packed function returning its result; one of no known shape (no
      // result here) is an object, or what the function returns.
      std::string resultInfo = infos.empty() ? "R.Object" : infos[0];
      if (packedResult && infos.empty() &&
          packedResult.getAs<StringAttr>("key") &&
          packedResult.getAs<StringAttr>("key").getValue() ==
              call.getCallee()) {
        auto sinfo = packedResult.getAs<StringAttr>("sinfo");
        resultInfo = sinfo ? sinfo.str() : "R.Object";
        returnedName = name;
      }
      os << pad(2) << name << " = R.call_pure_packed(\"" << packedName << "\"";
      for (const std::string &arg : args)
        os << ", " << arg;
      os << ", sinfo_args=" << resultInfo << ")\n";
      continue;
    }
    if (callee && callee.isExternal()) {
      // A function the module only declares: a packed function by name.
      os << pad(2) << name << " = R.call_dps_packed(\"" << packedName << "\", "
         << tuple(args) << ", out_sinfo=" << sinfo << ")\n";
      continue;
    }
    if (std::optional<ArrayRef<int64_t>> inplace = call.getInplaceIndices()) {
      SmallVector<std::string> indices;
      for (int64_t j : *inplace)
        indices.push_back(std::to_string(j));
      os << pad(2) << name << " = R.call_tir_inplace("
         << (inModule ? "cls." : "") << call.getCallee() << ", " << tuple(args)
         << ", out_sinfo=" << sinfo << ", inplace_indices=["
         << llvm::join(indices, ", ") << "])\n";
      continue;
    }
    os << pad(2) << name << " = R.call_tir(" << (inModule ? "cls." : "")
       << call.getCallee() << ", " << tuple(args) << ", out_sinfo=" << sinfo
       << ")\n";
  }
  auto returnOp = cast<func::ReturnOp>(func.getBody().front().getTerminator());
  SmallVector<std::string> outputs;
  for (Value v : returnOp.getOperands()) {
    outputs.emplace_back();
    if (!value(v, outputs.back()))
      return false;
  }
  if (packedResult) {
    if (returnedName.empty())
      return fail(func, "tir.packed_result names no packed call of the "
                        "function");
    os << pad(2) << "R.output(" << returnedName << ")\n";
    os << pad(1) << "return " << returnedName << "\n";
    return true;
  }
  std::string gv = fresh("gv");
  std::string bound =
      nesting ? nest(nesting, outputs,
                     [](ArrayRef<std::string> items) { return tuple(items); })
      : outputs.size() == 1 && !tupleResult ? outputs[0]
                                            : tuple(outputs);
  if (bound.empty() || (nesting && ret.empty()))
    return fail(func, "the results' nesting does not index them");
  os << pad(2) << gv << ": " << resultInfo(/*quoted=*/false) << " = " << bound
     << "\n";
  os << pad(2) << "R.output(" << gv << ")\n";
  os << pad(1) << "return " << gv << "\n";
  return true;
}

bool GraphPrinter::printFunctionCall(func::CallOp call, llvm::raw_ostream &os) {
  SmallVector<std::string> args;
  for (Value input : call.getOperands()) {
    args.emplace_back();
    if (!value(input, args.back()))
      return false;
  }
  // A callee returning a tuple (even of one value) gives its items.
  auto callee = SymbolTable::lookupNearestSymbolFrom<func::FuncOp>(
      call, call.getCalleeAttr());
  if (callee && callee->hasAttr(TIRDialect::kResultNestingAttrName))
    return fail(call, "a call of a function returning a tuple of tuples");
  // A callee returning what a packed call returned: the caller's result
  // when the caller returns it too.
  auto kept = callee ? callee->getAttrOfType<DictionaryAttr>(
                           TIRDialect::kPackedResultAttrName)
                     : DictionaryAttr();
  if (kept && call.getNumResults() == 0) {
    auto sinfo = kept.getAs<StringAttr>("sinfo");
    std::string name = nextBinding();
    if (packedResult && packedResult.get("key") == kept.get("key"))
      returnedName = name;
    os << pad(2) << name << ": " << (sinfo ? sinfo.str() : "R.Object") << " = "
       << (inModule ? "cls." : "") << call.getCallee() << "("
       << llvm::join(args, ", ") << ")\n";
    return true;
  }
  bool tuple = call.getNumResults() != 1 ||
               (callee && callee->hasAttr(TIRDialect::kTupleResultAttrName));
  SmallVector<std::string> infos;
  for (Value result : call.getResults()) {
    infos.push_back(structInfo(result));
    if (infos.back().empty())
      return fail(call, "a result is not a tensor of static shape");
  }
  std::string name = nextBinding();
  if (!tuple) {
    names[call.getResult(0)] = name;
  } else {
    for (auto [index, result] : llvm::enumerate(call.getResults()))
      names[result] = name + "[" + std::to_string(index) + "]";
  }
  std::string info =
      tuple ? "R.Tuple(" + llvm::join(infos, ", ") + ")" : infos[0];
  os << pad(2) << name << ": " << info << " = " << (inModule ? "cls." : "")
     << call.getCallee() << "(" << llvm::join(args, ", ") << ")\n";
  return true;
}

std::string GraphPrinter::plainParam(func::FuncOp func, unsigned index,
                                     StringRef info) {
  std::string hint = "arg" + std::to_string(index);
  if (auto name =
          func.getArgAttrOfType<StringAttr>(index, TIRDialect::kNameAttrName))
    hint = name.str();
  std::string name = fresh(hint);
  names[func.getArgument(index)] = name;
  return name + ": " + info.str();
}

bool GraphPrinter::printTupleParams(func::FuncOp func, ArrayAttr nesting,
                                    ArrayRef<std::string> argInfos,
                                    SmallVectorImpl<std::string> &params) {
  unsigned numArgs = func.getNumArguments();
  // A tuple's fields: each argument named by its path in the tuple
  // (x[0], x[1][0]); the struct info R.Tuple(...) of the fields'.
  std::function<std::string(ArrayAttr, const std::string &)> fields =
      [&](ArrayAttr level, const std::string &path) -> std::string {
    SmallVector<std::string> infos;
    for (auto [k, entry] : llvm::enumerate(level)) {
      std::string item = path + "[" + std::to_string(k) + "]";
      if (auto inner = dyn_cast<ArrayAttr>(entry)) {
        infos.push_back(fields(inner, item));
      } else if (auto index = dyn_cast<IntegerAttr>(entry);
                 index && index.getInt() >= 0 &&
                 index.getInt() < static_cast<int64_t>(numArgs)) {
        names[func.getArgument(index.getInt())] = item;
        infos.push_back(argInfos[index.getInt()]);
      } else {
        return std::string();
      }
      if (infos.back().empty())
        return std::string();
    }
    return "R.Tuple(" + llvm::join(infos, ", ") + ")";
  };
  for (Attribute entry : nesting) {
    if (auto index = dyn_cast<IntegerAttr>(entry);
        index && index.getInt() >= 0 &&
        index.getInt() < static_cast<int64_t>(numArgs)) {
      unsigned i = index.getInt();
      params.push_back(plainParam(func, i, argInfos[i]));
      continue;
    }
    auto tuple = dyn_cast<DictionaryAttr>(entry);
    auto hint = tuple ? tuple.getAs<StringAttr>("name") : StringAttr();
    auto level = tuple ? tuple.getAs<ArrayAttr>("fields") : ArrayAttr();
    std::string name = hint ? fresh(hint.str()) : "";
    if (auto shape = tuple ? tuple.getAs<ArrayAttr>("shape") : ArrayAttr()) {
      // A shape whose dimensions are scalars: R.Shape(["m", "n"]), the
      // scalars named by what they are.
      SmallVector<std::string> dims;
      for (Attribute dim : shape) {
        auto index = dyn_cast<IntegerAttr>(dim);
        auto text = index && index.getInt() >= 0 &&
                            index.getInt() < static_cast<int64_t>(numArgs)
                        ? func.getArgAttrOfType<StringAttr>(
                              index.getInt(), TIRDialect::kNameAttrName)
                        : StringAttr();
        if (!text || name.empty())
          return fail(func, "the parameters' nesting does not index them");
        names[func.getArgument(index.getInt())] = text.str();
        std::optional<AffineSize> form = parseAffineSize(text.getValue());
        dims.push_back(form && form->terms.empty() ? text.str()
                                                   : "\"" + text.str() + "\"");
      }
      params.push_back(name + ": R.Shape([" + llvm::join(dims, ", ") + "])");
      continue;
    }
    std::string info = level ? fields(level, name) : "";
    if (info.empty())
      return fail(func, "the parameters' nesting does not index them");
    params.push_back(name + ": " + info);
  }
  return true;
}

bool tvmscript::printGraphFunction(func::FuncOp func, GraphConstants &constants,
                                   bool inModule, std::string &error,
                                   llvm::raw_ostream &os) {
  GraphPrinter printer(constants, inModule, error);
  return printer.print(func, os);
}

unsigned GraphConstants::add(ElementsAttr value, StringRef dtype) {
  for (auto [index, entry] : llvm::enumerate(entries))
    if (entry.first == value)
      return index;
  entries.emplace_back(value, dtype.str());
  return entries.size() - 1;
}

void GraphConstants::print(llvm::raw_ostream &os) const {
  // Each entry: (dtype, shape, data), data one number for a splat, else
  // the elements' bytes (little-endian) in hex.
  os << "metadata = {\"relax.expr.Constant\": [\n";
  for (const auto &[attr, dtype] : entries) {
    SmallVector<std::string> dims;
    for (int64_t d : attr.getShapedType().getShape())
      dims.push_back(std::to_string(d));
    os << pad(1) << "(\"" << dtype << "\", " << tuple(dims) << ", ";
    if (auto resource = dyn_cast<DenseResourceElementsAttr>(attr)) {
      // The blob's bytes (its alignment is not part of the data).
      os << "\"0x";
      for (char c : resource.getRawHandle().getBlob()->getData())
        os << llvm::format_hex_no_prefix(static_cast<uint8_t>(c), 2, true);
      os << "\"),\n";
      continue;
    }
    auto value = cast<DenseElementsAttr>(attr);
    if (value.isSplat() && isa<FloatType>(value.getElementType()))
      os << formatDouble(value.getSplatValue<APFloat>().convertToDouble());
    else if (value.isSplat() && !value.getElementType().isInteger(1))
      os << value.getSplatValue<APInt>().getSExtValue();
    else {
      os << "\"0x";
      int64_t count = value.getNumElements();
      unsigned width = value.getElementType().getIntOrFloatBitWidth();
      ArrayRef<char> raw = value.getRawData();
      if (width == 1) {
        // Booleans as one byte each.
        for (bool b : value.getValues<bool>())
          os << (b ? "01" : "00");
      } else {
        size_t bytes = count * (width / 8);
        for (size_t i = 0; i < bytes; ++i) {
          // A splat keeps one element: repeat it.
          char c = raw[value.isSplat() ? i % raw.size() : i];
          os << llvm::format_hex_no_prefix(static_cast<uint8_t>(c), 2, true);
        }
      }
      os << "\"";
    }
    os << "),\n";
  }
  os << "]}\n";
}
