//===- TVMScript.cpp - tir functions and modules printed as TVMScript -----===//
//
// A function's parameters (T.Buffer, or T.handle + T.match_buffer for a
// buffer with a dynamic dimension; index scalars as T.int32) and body; a
// module of several functions as an @I.ir_module class. A dynamic dimension
// prints as the variable its tir.dim_vars names (a scalar parameter, or a
// shape variable declared with T.int32() and read in the body where the IR
// has memref.dim of it), else as the function's only scalar parameter.
//
//===----------------------------------------------------------------------===//

#include "TensorIR/Target/TVMScript.h"

#include "Printer.h"

#include "TensorIR/Dialect/TIR/IR/ShapeVars.h"
#include "TensorIR/Dialect/TIR/IR/TIRDialect.h"
#include "TensorIR/Dialect/TIR/IR/TIRUtils.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringMap.h"

#include <map>

using namespace mlir;
using namespace mlir::tir;
using namespace mlir::tir::tvmscript;

bool Printer::function(func::FuncOp func, llvm::raw_ostream &os) {
  if (func.isExternal())
    return fail(func, "a declaration has no body");
  SmallVector<std::string> params, matches;
  SmallVector<std::string> scalars;
  // tir.dim_vars names -> printed names: scalar parameters, then shape
  // variables (declared with T.int32() before the T.match_buffer calls).
  llvm::StringMap<std::string> dimVars;
  SmallVector<std::string> shapeVars;
  for (unsigned i = 0; i < func.getNumArguments(); ++i) {
    Value arg = func.getArgument(i);
    std::string n = "arg" + std::to_string(i);
    auto a = func.getArgAttrOfType<StringAttr>(i, TIRDialect::kNameAttrName);
    if (a)
      n = a.str();
    n = fresh(n);
    names[arg] = n;
    if (arg.getType().isIndex()) {
      scalars.push_back(n);
      if (a)
        dimVars.try_emplace(a.getValue(), n);
    }
  }
  // A dimension named by an affine form of variables the function names
  // elsewhere ("32 * n") is printed as that expression (`n * 32`); the
  // forms of other variables, which TVMScript could not bind, stay shape
  // variables of their own.
  auto isForm = [&](StringRef var) {
    std::optional<AffineSize> form = parseAffineSize(var);
    return form && !form->isVariable();
  };
  for (unsigned i = 0; i < func.getNumArguments(); ++i)
    for (StringRef var : getDimVarNames(func, i))
      if (!var.empty() && !isForm(var) && !dimVars.count(var)) {
        std::string n = fresh(var);
        dimVars[var] = n;
        shapeVars.push_back(n);
      }
  auto formText = [&](StringRef var) -> std::optional<std::string> {
    std::optional<AffineSize> form = parseAffineSize(var);
    if (!form || form->isVariable())
      return std::nullopt;
    std::string text;
    for (auto &[name, coeff] : form->terms) {
      auto it = dimVars.find(name);
      if (it == dimVars.end())
        return std::nullopt;
      int64_t magnitude = coeff < 0 && !text.empty() ? -coeff : coeff;
      if (!text.empty())
        text += coeff < 0 ? " - " : " + ";
      text += it->second;
      if (magnitude != 1)
        text += " * " + std::to_string(magnitude);
    }
    if (form->constant)
      text += (form->constant < 0 ? " - " : " + ") +
              std::to_string(std::abs(form->constant));
    return text;
  };
  for (unsigned i = 0; i < func.getNumArguments(); ++i)
    for (StringRef var : getDimVarNames(func, i))
      if (isForm(var) && !formText(var) && !dimVars.count(var)) {
        std::string n = fresh(var);
        dimVars[var] = n;
        shapeVars.push_back(n);
      }
  // The body reads a shape variable as memref.dim of a dimension it names.
  llvm::SmallPtrSet<Operation *, 4> shapeVarReads;
  for (auto dim : func.getBody().front().getOps<memref::DimOp>()) {
    StringRef var = getShapeVarRead(dim);
    if (var.empty())
      continue;
    std::optional<std::string> text = formText(var);
    names[dim.getResult()] = text ? "(" + *text + ")" : dimVars[var];
    shapeVarReads.insert(dim);
  }
  // Dimensions with a shape variable of their own (below), by parameter
  // and dimension: the body reads them as memref.dim too.
  std::map<std::pair<unsigned, unsigned>, std::string> ownDims;
  for (unsigned i = 0; i < func.getNumArguments(); ++i) {
    Value arg = func.getArgument(i);
    std::string n = names[arg];
    if (arg.getType().isIndex()) {
      params.push_back(n + ": T.int32");
      continue;
    }
    auto type = dyn_cast<MemRefType>(arg.getType());
    bool offset = type && tvmscript::hasDynamicOffsetLayout(type);
    if (!type || !(type.getLayout().isIdentity() || offset))
      return fail(func, "parameter " + n +
                            " is not a row-major buffer (with or without "
                            "an offset_factor) or an index");
    SmallVector<std::string> dims;
    bool dynamic = false;
    SmallVector<StringRef> vars = getDimVarNames(func, i);
    for (auto [k, d] : llvm::enumerate(type.getShape())) {
      if (ShapedType::isDynamic(d) && k < vars.size() && !vars[k].empty()) {
        std::optional<std::string> text = formText(vars[k]);
        dims.push_back(text ? *text : dimVars[vars[k]]);
        dynamic = true;
      } else if (ShapedType::isDynamic(d) && k < vars.size()) {
        // tir.dim_vars says the dimension has no variable (TVMScript sized
        // it with an expression such as n * 4): a shape variable of its
        // own, which the buffer's size at run time defines.
        std::string n = fresh("v");
        shapeVars.push_back(n);
        dims.push_back(n);
        ownDims[{i, k}] = n;
        dynamic = true;
      } else if (ShapedType::isDynamic(d)) {
        // MLIR does not record which parameter a dimension is; with one
        // scalar parameter there is only one choice.
        if (scalars.size() != 1)
          return fail(func, "buffer " + n +
                                " has a dynamic dimension and the function "
                                "has no single scalar parameter to name it");
        dims.push_back(scalars.front());
        dynamic = true;
      } else {
        dims.push_back(std::to_string(d));
      }
    }
    std::string shape = tuple(dims);
    std::string dt = dtype(type.getElementType());
    if (StringAttr unsignedType = getUnsignedDtype(func.getArgument(i)))
      dt = unsignedType.str();
    // TVM's axis_separators, kept on the parameter.
    std::string options;
    if (auto scope = dyn_cast_or_null<StringAttr>(type.getMemorySpace()))
      options += ", scope=\"" + scope.str() + "\"";
    if (auto seps = func.getArgAttrOfType<DenseI64ArrayAttr>(
            i, TIRDialect::kAxisSeparatorsAttrName)) {
      options += ", axis_separators=[";
      for (auto [k, x] : llvm::enumerate(seps.asArrayRef()))
        options += (k ? ", " : "") + std::to_string(x);
      options += "]";
    }
    if (offset)
      options += ", offset_factor=1";
    if (dynamic || offset) {
      std::string handle = fresh(StringRef(n).lower());
      params.push_back(handle + ": T.handle");
      matches.push_back(n + " = T.match_buffer(" + handle + ", " + shape +
                        ", \"" + dt + "\"" + options + ")");
    } else {
      params.push_back(n + ": T.Buffer(" + shape + ", \"" + dt + "\"" +
                       options + ")");
    }
  }
  for (auto dim : func.getBody().front().getOps<memref::DimOp>()) {
    auto source = dyn_cast<BlockArgument>(dim.getSource());
    std::optional<int64_t> index = dim.getConstantIndex();
    if (!source || source.getOwner() != &func.getBody().front() || !index ||
        shapeVarReads.contains(dim))
      continue;
    auto it = ownDims.find({source.getArgNumber(), *index});
    if (it == ownDims.end())
      continue;
    names[dim.getResult()] = it->second;
    shapeVarReads.insert(dim);
  }
  os << (func.isPrivate() ? "@T.prim_func(private=True)" : "@T.prim_func")
     << "\ndef " << func.getName() << "(";
  for (auto [i, p] : llvm::enumerate(params))
    os << (i ? ", " : "") << p;
  os << "):\n";
  for (const std::string &v : shapeVars)
    os << pad(1) << v << " = T.int32()\n";
  for (const std::string &m : matches)
    os << pad(1) << m << "\n";
  if (shapeVarReads.empty())
    return blockBody(func.getBody().front(), 1, os);
  // As blockBody, without the reads of shape variables (their name is the
  // T.int32() above).
  bool empty = true;
  for (Operation &op : func.getBody().front()) {
    if (op.hasTrait<OpTrait::IsTerminator>() || shapeVarReads.contains(&op))
      continue;
    std::string text;
    llvm::raw_string_ostream inner(text);
    if (!statement(op, 1, inner))
      return false;
    os << text;
    empty = empty && text.empty();
  }
  if (empty)
    os << pad(1) << "T.evaluate(0)\n";
  return true;
}

std::string mlir::tir::printTVMScriptFragment(func::FuncOp func,
                                              std::string &error) {
  std::string result;
  llvm::raw_string_ostream os(result);
  Printer printer(error);
  if (!printer.fragment(func, os))
    return "";
  return result;
}

bool tvmscript::hasDynamicOffsetLayout(MemRefType type) {
  auto strided = dyn_cast<StridedLayoutAttr>(type.getLayout());
  if (!strided || !type.hasStaticShape() ||
      !ShapedType::isDynamic(strided.getOffset()))
    return false;
  int64_t stride = 1;
  for (int64_t k = type.getRank() - 1; k >= 0; --k) {
    if (strided.getStrides()[k] != stride)
      return false;
    stride *= type.getDimSize(k);
  }
  return true;
}

std::string mlir::tir::printTVMScript(ModuleOp module, std::string &error,
                                      bool asModule, bool showMeta) {
  std::string result;
  llvm::raw_string_ostream os(result);
  auto funcs = llvm::to_vector(module.getOps<func::FuncOp>());
  bool graph =
      llvm::any_of(funcs, [](func::FuncOp f) { return isGraphFunction(f); });
  // The external functions graph functions call (R.call_dps_packed) are
  // named where they are called, not printed.
  if (graph)
    llvm::erase_if(funcs, [](func::FuncOp f) { return f.isExternal(); });
  bool many = asModule || funcs.size() > 1;
  os << "# from tensorir.script import tir as T\n";
  if (graph)
    os << "# from tensorir.script import relax as R\n";
  if (many)
    os << "# from tensorir.script import ir as I\n\n@I.ir_module\nclass "
          "Module:\n";
  GraphConstants constants;
  for (func::FuncOp func : funcs) {
    std::string text;
    llvm::raw_string_ostream f(text);
    if (isGraphFunction(func)) {
      if (!printGraphFunction(func, constants, many, error, f))
        return "";
    } else {
      Printer printer(error);
      if (!printer.function(func, f))
        return "";
    }
    if (many) {
      // Every line of the function one level into the class.
      SmallVector<StringRef> lines;
      StringRef(text).split(lines, '\n');
      if (!lines.empty() && lines.back().empty())
        lines.pop_back(); // After the last newline.
      std::string indented;
      for (StringRef line : lines)
        indented += (line.empty() ? "" : "    ") + line.str() + "\n";
      text = indented;
    }
    os << "\n" << text;
  }
  if (!constants.empty()) {
    os << "\n";
    if (showMeta)
      constants.print(os);
    else
      os << "# Metadata omitted. Use show_meta=True in script() method to show "
            "it.\n";
  }
  return result;
}
