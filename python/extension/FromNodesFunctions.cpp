//===- FromNodesFunctions.cpp - functions and fragments from nodes --------===//
//
// The functions FromNodes' builder makes (FromNodes.h): a tir function
// from a PrimFunc's params, buffer_map and body (function_from_nodes), and
// a statement or expression on its own as a fragment
// (fragment_from_nodes), with their Python bindings. The statements and
// buffers are in FromNodes.cpp, the values in FromNodesValues.cpp.
//
//===----------------------------------------------------------------------===//

#include "FromNodes.h"

#include "TensorIR/Dialect/TIR/IR/ShapeVars.h"
#include "TensorIR/Dialect/TIR/IR/TIRDialect.h"
#include "TensorIR/Dialect/TIR/IR/TIRIndexExpr.h"
#include "TensorIR/Dialect/TIR/IR/TIROps.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Verifier.h"

#include <pybind11/stl.h>

using namespace tirpy;
using namespace tirpy::fromnodes;

/// The affine form of named variables a buffer dimension's expression is
/// (`n * 32`, `n + m - 1`): integers, variables `names` names, `+`, `-` and
/// multiplication by an integer; nullopt for anything else.
static std::optional<AffineSize>
dimensionForm(py::handle node, const DenseMap<PyObject *, std::string> &names) {
  std::string kind = typeName(node);
  AffineSize form;
  if (kind == "IntImm") {
    form.constant = intOf(node.attr("value"));
    return form;
  }
  if (isa_(node, "Var")) {
    auto it = names.find(node.ptr());
    if (it == names.end())
      return std::nullopt;
    form.terms.push_back({it->second, 1});
    return form;
  }
  if (kind == "Cast")
    return dimensionForm(node.attr("value"), names);
  if (kind != "Add" && kind != "Sub" && kind != "Mul")
    return std::nullopt;
  std::optional<AffineSize> l = dimensionForm(node.attr("a"), names);
  std::optional<AffineSize> r = dimensionForm(node.attr("b"), names);
  if (!l || !r)
    return std::nullopt;
  if (kind == "Mul") {
    if (!l->terms.empty() && !r->terms.empty())
      return std::nullopt;
    bool lNumber = l->terms.empty();
    form.add(lNumber ? *r : *l, lNumber ? l->constant : r->constant);
    return form;
  }
  form.add(*l);
  form.add(*r, kind == "Sub" ? -1 : 1);
  return form;
}

//===----------------------------------------------------------------------===//
// Functions
//===----------------------------------------------------------------------===//

OwningOpRef<ModuleOp> FunctionBuilder::build(const std::string &name,
                                             py::handle params,
                                             py::handle bufferMap,
                                             py::handle body, bool isPrivate) {
  OwningOpRef<ModuleOp> module = ModuleOp::create(loc);
  b.setInsertionPointToEnd(module->getBody());
  py::dict map = py::reinterpret_borrow<py::dict>(bufferMap);
  SmallVector<Type> argTypes;
  SmallVector<py::object> paramList;
  for (py::handle p : params) {
    if (!isa_(p, "Var"))
      fail("params are tir.Vars (a buffer parameter is a handle Var mapped "
           "to its Buffer in buffer_map), got a " +
           typeName(p));
    paramList.push_back(py::reinterpret_borrow<py::object>(p));
    if (map.contains(p)) {
      argTypes.push_back(memrefType(map[p], /*isParam=*/true, nullptr));
      continue;
    }
    std::string dtype = dtypeOf(p);
    // Signed or unsigned, an integer parameter is an index, as the
    // TVMScript parser reads `n: T.uint32`.
    if (!StringRef(dtype).starts_with("int") &&
        !StringRef(dtype).starts_with("uint"))
      fail("a parameter that is not a buffer is an integer (an index), but " +
           py::str(p.attr("name")).cast<std::string>() + " is a " + dtype +
           (dtype == "handle" ? " with no Buffer in buffer_map" : ""));
    argTypes.push_back(b.getIndexType());
  }
  auto func =
      func::FuncOp::create(b, loc, name, b.getFunctionType(argTypes, {}));
  if (isPrivate)
    func.setPrivate();
  entry = func.addEntryBlock();
  b.setInsertionPointToStart(entry);
  // Scalars, then the buffers; a dimension that is a variable names it
  // (tir.dim_vars); a shape variable no scalar parameter defines is read
  // from the first dimension it sizes.
  for (auto [i, p] : llvm::enumerate(paramList)) {
    std::string pname = py::str(p.attr("name")).cast<std::string>();
    if (!map.contains(p)) {
      vars[p.ptr()] = func.getArgument(i);
      dimVarNames[p.ptr()] = pname;
      usedDimVarNames.insert(pname);
      func.setArgAttr(i, TIRDialect::kNameAttrName, b.getStringAttr(pname));
    }
  }
  DenseMap<unsigned, SmallVector<Attribute>> argDimVars;
  llvm::SetVector<unsigned> anyDynamic;
  SmallVector<std::tuple<unsigned, unsigned, py::object>> expressionDims;
  for (auto [i, p] : llvm::enumerate(paramList)) {
    if (!map.contains(p))
      continue;
    py::object buf = map[p];
    Value arg = func.getArgument(i);
    std::string bname = py::str(buf.attr("name")).cast<std::string>();
    func.setArgAttr(i, TIRDialect::kNameAttrName, b.getStringAttr(bname));
    buffers[buf.ptr()] = arg;
    bufferNodes[buf.ptr()] = buf;
    std::string dtype = py::str(buf.attr("dtype")).cast<std::string>();
    if (isUnsignedDtype(dtype))
      func.setArgAttr(i, TIRDialect::kDtypeAttrName, b.getStringAttr(dtype));
    if (py::hasattr(buf, "axis_separators")) {
      SmallVector<int64_t> seps;
      for (py::handle x : buf.attr("axis_separators"))
        seps.push_back(intOf(x));
      if (!seps.empty())
        func.setArgAttr(i, TIRDialect::kAxisSeparatorsAttrName,
                        b.getDenseI64ArrayAttr(seps));
    }
    SmallVector<Attribute> &dimVars = argDimVars[i];
    for (auto [k, d] : llvm::enumerate(py::list(buf.attr("shape")))) {
      if (typeName(d) == "IntImm") {
        dimVars.push_back(b.getStringAttr(""));
        continue;
      }
      anyDynamic.insert(i);
      if (!isa_(d, "Var")) {
        // An expression (n * 32): its affine form once every variable has
        // its name (below).
        dimVars.push_back(b.getStringAttr(""));
        expressionDims.push_back({static_cast<unsigned>(i),
                                  static_cast<unsigned>(k),
                                  py::reinterpret_borrow<py::object>(d)});
        continue;
      }
      // One name per variable: distinct variables of one name are told
      // apart (v, v_1, ...).
      auto named = dimVarNames.find(d.ptr());
      if (named == dimVarNames.end()) {
        std::string base = py::str(d.attr("name")).cast<std::string>();
        std::string unique = base;
        for (int n = 1; usedDimVarNames.count(unique); ++n)
          unique = base + "_" + std::to_string(n);
        usedDimVarNames.insert(unique);
        named = dimVarNames.try_emplace(d.ptr(), unique).first;
      }
      dimVars.push_back(b.getStringAttr(named->second));
      if (!vars.count(d.ptr()))
        vars[d.ptr()] = memref::DimOp::create(b, loc, arg, k);
    }
  }
  // A dimension sized by an affine form of named variables is named by
  // the form ("32 * n"): the runtime checks the size, and the function's
  // code can compute it.
  for (auto &[i, k, d] : expressionDims)
    if (std::optional<AffineSize> form = dimensionForm(d, dimVarNames);
        form && !form->terms.empty())
      argDimVars[i][k] = b.getStringAttr(form->str());
  for (unsigned i : anyDynamic)
    func.setArgAttr(i, TIRDialect::kDimVarsAttrName,
                    b.getArrayAttr(argDimVars[i]));
  // The root block's buffers are the function's, its body the function's
  // (TVM's implicit root), unless it says more than a root block does.
  py::object stmts = py::reinterpret_borrow<py::object>(body);
  if (typeName(body) == "BlockRealize") {
    py::object root = body.attr("block");
    if (py::len(body.attr("iter_values")) == 0 &&
        py::str(root.attr("name_hint")).cast<std::string>() == "root" &&
        py::len(root.attr("reads")) == 0 && py::len(root.attr("writes")) == 0 &&
        root.attr("init").is_none() &&
        py::len(root.attr("match_buffers")) == 0 &&
        py::len(root.attr("annotations")) == 0) {
      for (py::handle buf : root.attr("alloc_buffers"))
        declareBuffer(buf);
      stmts = root.attr("body");
    }
  }
  stmt(stmts);
  func::ReturnOp::create(b, loc);
  return module;
}

OwningOpRef<ModuleOp> FunctionBuilder::buildFragment(py::handle node,
                                                     bool isExpr,
                                                     py::handle freeVars,
                                                     py::handle freeBuffers) {
  anyLayout = true;
  OwningOpRef<ModuleOp> module = ModuleOp::create(loc);
  b.setInsertionPointToEnd(module->getBody());
  SmallVector<Type> argTypes;
  SmallVector<std::string> argNames;
  SmallVector<py::handle> scalars, bufs;
  for (py::handle v : freeVars) {
    std::string dtype = dtypeOf(v);
    if (dtype == "handle")
      continue; // a free buffer's data: the buffer is an argument
    bool isInt = StringRef(dtype).starts_with("int") ||
                 StringRef(dtype).starts_with("uint");
    argTypes.push_back(isInt ? b.getIndexType() : scalarType(dtype));
    argNames.push_back(py::str(v.attr("name")).cast<std::string>());
    scalars.push_back(v);
  }
  for (py::handle buf : freeBuffers) {
    argTypes.push_back(memrefType(buf, /*isParam=*/true, nullptr));
    argNames.push_back(py::str(buf.attr("name")).cast<std::string>());
    bufs.push_back(buf);
  }
  auto func =
      func::FuncOp::create(b, loc, "fragment", b.getFunctionType(argTypes, {}));
  entry = func.addEntryBlock();
  b.setInsertionPointToStart(entry);
  for (auto [i, name] : llvm::enumerate(argNames))
    func.setArgAttr(i, TIRDialect::kNameAttrName, b.getStringAttr(name));
  for (auto [i, v] : llvm::enumerate(scalars))
    vars[v.ptr()] = func.getArgument(i);
  for (auto [i, buf] : llvm::enumerate(bufs)) {
    buffers[buf.ptr()] = func.getArgument(scalars.size() + i);
    bufferNodes[buf.ptr()] = py::reinterpret_borrow<py::object>(buf);
  }
  if (isExpr) {
    // An index expression as one affine.apply (printed as TVMScript writes
    // an index: `i // 16`, `i % 16`, bare integers); other values as built.
    Value v;
    if (isIndexExpr(node)) {
      SmallVector<Value> inputs;
      AffineExpr e = knownIndexExpr(node, inputs);
      v = affine::AffineApplyOp::create(
          b, loc, makeInputMap(inputs.size(), {e}, ctx()), inputs);
    } else {
      v = value(node);
    }
    if (!v)
      fail("the expression has no value (a call with no dtype)");
    func::ReturnOp::create(b, loc, v);
    func.setType(b.getFunctionType(argTypes, {v.getType()}));
    return module;
  }
  stmt(node);
  func::ReturnOp::create(b, loc);
  return module;
}

void tirpy::bindFromNodes(py::module_ &m) {
  m.def(
      "function_from_nodes",
      [](const std::string &name, py::object params, py::object bufferMap,
         py::object body, bool isPrivate) {
        Location loc =
            FileLineColLoc::get(&context(), "<PrimFunc " + name + ">", 0, 0);
        OwningOpRef<ModuleOp> module;
        try {
          module = FunctionBuilder(loc).build(name, params, bufferMap, body,
                                              isPrivate);
        } catch (const BadNodes &e) {
          throw py::value_error(e.what());
        }
        DiagnosticCollector diags;
        if (failed(verify(*module)))
          throw py::value_error(diags.take());
        return PyModule::own(std::move(module));
      },
      py::arg("name"), py::arg("params"), py::arg("buffer_map"),
      py::arg("body"), py::arg("private") = false,
      "A module of one tir function built from tvm.tir nodes (its params, "
      "{param: Buffer} and body), checked by the verifier.");
  m.def(
      "fragment_from_nodes",
      [](py::object node, bool isExpr, py::object freeVars,
         py::object freeBuffers) {
        Location loc = FileLineColLoc::get(&context(), "<fragment>", 0, 0);
        try {
          return PyModule::own(FunctionBuilder(loc).buildFragment(
              node, isExpr, freeVars, freeBuffers));
        } catch (const BadNodes &e) {
          throw py::value_error(e.what());
        }
      },
      py::arg("node"), py::arg("is_expr"), py::arg("free_vars"),
      py::arg("free_buffers"),
      "A statement or expression on its own as function @fragment of a "
      "module: its free variables and buffers are the arguments, an "
      "expression's value the result (for printing and comparing nodes).");
}
