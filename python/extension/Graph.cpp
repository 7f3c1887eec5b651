//===- Graph.cpp - graph functions built from Python ----------------------===//
//
// _tensorir.GraphBuilder: relax's BlockBuilder and @R.function parser build
// a graph function through TensorIR/Graph/GraphBuilder.h, one call per
// step. Values are handed to Python as handles (their index in the
// builder); tensor types come as (shape, dtype) and operator attributes as
// a dict of values (attributeOf; lists of integers as Attribute.i64_array).
//
//===----------------------------------------------------------------------===//

#include "Extension.h"

#include "TensorIR/Dialect/TIR/IR/TIRDialect.h"
#include "TensorIR/Dialect/TIR/IR/TIRTypes.h"
#include "TensorIR/Dialect/TIR/IR/TIRUtils.h"
#include "TensorIR/Graph/GraphBuilder.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"

#include "llvm/ADT/BitVector.h"

#include <pybind11/stl.h>

#include <cstring>
#include <map>
#include <optional>
#include <variant>

namespace py = pybind11;
using namespace mlir;
using namespace tirpy;

namespace {

/// A dimension as Python gives it: a size, or the name of the shape
/// variable that sizes it.
using PyDim = std::variant<int64_t, std::string>;

/// A tensor type from (shape, dtype), a named dimension dynamic; ValueError
/// naming `what` otherwise.
RankedTensorType tensorType(const std::vector<PyDim> &shape,
                            const std::string &dtype, const std::string &what) {
  Type elem = dtypeType(context(), dtype);
  if (!elem)
    throw py::value_error(what + ": dtype '" + dtype + "' has no tensor type");
  SmallVector<int64_t> dims;
  for (const PyDim &dim : shape) {
    if (const auto *name = std::get_if<std::string>(&dim)) {
      if (name->empty())
        throw py::value_error(what + ": a shape variable needs a name");
      dims.push_back(ShapedType::kDynamic);
      continue;
    }
    if (std::get<int64_t>(dim) < 0)
      throw py::value_error(what + ": a tensor's dimensions are sizes >= 0");
    dims.push_back(std::get<int64_t>(dim));
  }
  return RankedTensorType::get(dims, elem);
}

/// The shape variables of a shape, one per dimension ("" where static).
SmallVector<std::string> dimVarsOf(const std::vector<PyDim> &shape) {
  SmallVector<std::string> vars;
  for (const PyDim &dim : shape) {
    const auto *name = std::get_if<std::string>(&dim);
    vars.push_back(name ? *name : "");
  }
  return vars;
}

/// A dense attribute of `type` from the elements' little-endian bytes
/// (booleans one byte each, as NumPy lays them out); one repeated value is
/// stored once (a splat). ValueError naming `what` when the sizes differ.
DenseElementsAttr denseFromBytes(RankedTensorType type, const py::bytes &data,
                                 const std::string &what) {
  std::string_view raw = data;
  size_t count = type.getNumElements();
  Type elem = type.getElementType();
  if (elem.isInteger(1)) {
    if (raw.size() != count)
      throw py::value_error(
          what + ": the data is not one element per entry of its shape");
    SmallVector<bool> bits;
    for (char byte : raw)
      bits.push_back(byte != 0);
    return DenseElementsAttr::get(type, bits);
  }
  size_t width = elem.getIntOrFloatBitWidth() / 8;
  if (raw.size() != count * width)
    throw py::value_error(
        what + ": the data is not one element per entry of its shape");
  bool splat = count > 1;
  for (size_t k = 1; splat && k < count; ++k)
    splat = std::memcmp(raw.data(), raw.data() + k * width, width) == 0;
  return DenseElementsAttr::getFromRawBuffer(
      type, ArrayRef<char>(raw.data(), splat ? width : raw.size()));
}

std::string typeText(Type type) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << type;
  return text;
}

/// Relax's BindParams on graph function `name` of `module`: each
/// parameter of `values` ({parameter name: little-endian bytes}) becomes a
/// constant of its type and leaves the signature. A copy of the module;
/// KeyError for a function or parameter the module lacks.
PyModule bindParams(
    const PyModule &module, const std::string &name,
    const std::map<std::string,
                   std::tuple<py::bytes, std::vector<int64_t>, std::string>>
        &values) {
  PyModule result = module.clone();
  auto func = result.get().lookupSymbol<func::FuncOp>(name);
  if (!func || func.isExternal())
    throw py::key_error("BindParams: the module has no graph function '" +
                        name + "'");
  std::map<std::string, unsigned> indices;
  for (unsigned k = 0, e = func.getNumArguments(); k < e; ++k)
    if (auto hint = func.getArgAttrOfType<StringAttr>(
            k, tir::TIRDialect::kNameAttrName))
      indices[hint.str()] = k;
  llvm::BitVector erase(func.getNumArguments());
  OpBuilder b = OpBuilder::atBlockBegin(&func.getBody().front());
  for (const auto &[param, value] : values) {
    const auto &[data, shape, dtype] = value;
    auto it = indices.find(param);
    if (it == indices.end())
      throw py::key_error("BindParams: '" + name + "' has no parameter '" +
                          param + "'");
    BlockArgument arg = func.getArgument(it->second);
    auto type = dyn_cast<RankedTensorType>(arg.getType());
    if (!type)
      throw py::value_error("BindParams: parameter '" + param +
                            "' is not a tensor");
    std::vector<PyDim> dims(shape.begin(), shape.end());
    RankedTensorType given =
        tensorType(dims, dtype, "BindParams: parameter '" + param + "'");
    if (given != type)
      throw py::value_error("BindParams: parameter '" + param + "' of '" +
                            name + "' is a " + typeText(type) +
                            ", the value given a " + typeText(given));
    Value constant = arith::ConstantOp::create(
        b, arg.getLoc(),
        denseFromBytes(type, data, "BindParams: parameter '" + param + "'"));
    arg.replaceAllUsesWith(constant);
    erase.set(it->second);
  }
  if (failed(func.eraseArguments(erase)))
    throw py::value_error("BindParams: the parameters of '" + name +
                          "' could not be removed");
  return result;
}

/// (line, column) of a step in the function's source.
using Place = std::pair<unsigned, unsigned>;

class PyGraphBuilder {
public:
  PyGraphBuilder(const std::string &name,
                 const std::vector<std::tuple<std::string, std::vector<PyDim>,
                                              std::string>> &params,
                 bool isPrivate, const std::string &filename, unsigned line)
      : filename(filename),
        loc(FileLineColLoc::get(&context(), filename, line, 1)),
        builder(&context(), name, graphParameters(name, params), isPrivate,
                loc) {
    for (unsigned k = 0; k < params.size(); ++k)
      values.push_back(builder.getParameter(k));
  }

  size_t constant(const py::bytes &data, const std::vector<int64_t> &shape,
                  const std::string &dtype, const std::optional<Place> &place) {
    checkOpen();
    RankedTensorType type = tensorType(
        std::vector<PyDim>(shape.begin(), shape.end()), dtype, "a constant");
    if (!type.hasStaticShape())
      throw py::value_error("a constant has a static shape");
    DenseElementsAttr value = denseFromBytes(type, data, "a constant");
    return add(builder.constant(value, at(place)));
  }

  using PyResults = std::vector<std::pair<std::vector<PyDim>, std::string>>;

  /// A destination-passing call (tir.call_tir of a prim_func, or of an
  /// external function's declaration with `external`) giving `results`.
  std::vector<size_t> callDps(const std::string &callee,
                              const std::vector<size_t> &inputs,
                              const PyResults &results,
                              const std::optional<Place> &place, bool external,
                              bool returns = false,
                              const std::vector<int64_t> &inplace = {}) {
    checkOpen();
    std::string what =
        external ? "call_dps_packed \"" + callee + "\"" : "call_tir @" + callee;
    SmallVector<Type> types;
    SmallVector<Value> dims;
    for (const auto &[shape, dtype] : results) {
      types.push_back(tensorType(shape, dtype, what));
      appendSizes(shape, what, dims);
    }
    ValueRange values =
        external ? builder.callExternal(callee, operands(inputs), types, dims,
                                        returns, at(place))
                 : builder.callTir(callee, operands(inputs), types, dims,
                                   at(place), inplace);
    std::vector<size_t> handles;
    for (Value result : values)
      handles.push_back(add(result));
    return handles;
  }

  std::vector<size_t> callTir(const std::string &callee,
                              const std::vector<size_t> &inputs,
                              const PyResults &results,
                              const std::optional<Place> &place,
                              const std::vector<int64_t> &inplace) {
    return callDps(callee, inputs, results, place, /*external=*/false,
                   /*returns=*/false, inplace);
  }

  std::vector<size_t> callExternal(const std::string &callee,
                                   const std::vector<size_t> &inputs,
                                   const PyResults &results,
                                   const std::optional<Place> &place,
                                   bool returns) {
    return callDps(callee, inputs, results, place, /*external=*/true, returns);
  }

  size_t callOperator(const std::string &name, const std::vector<size_t> &args,
                      const std::vector<PyDim> &shape, const std::string &dtype,
                      const py::dict &attrs,
                      const std::optional<Place> &place) {
    checkOpen();
    if (!tir::isGraphOperator(name)) {
      std::string known;
      for (StringRef op : tir::getGraphOperatorNames())
        known += (known.empty() ? "" : ", ") + op.str();
      PyErr_SetString(PyExc_NotImplementedError,
                      ("operator relax." + name +
                       " has no graph form (operators with one: " + known + ")")
                          .c_str());
      throw py::error_already_set();
    }
    SmallVector<Value> dims;
    appendSizes(shape, "relax." + name, dims);
    DiagnosticCollector diags;
    FailureOr<Value> result = builder.callOperator(
        name, operands(args), tensorType(shape, dtype, "relax." + name), dims,
        operatorAttrs(name, attrs), at(place));
    if (failed(result))
      throw py::value_error(diags.take());
    return add(*result);
  }

  /// Starts operator `name` kept whole (a tir.composite giving
  /// `results`): the handles of the values standing for `args` inside it,
  /// on which the steps until endComposite build its parts.
  std::vector<size_t> beginComposite(const std::string &name,
                                     const std::vector<size_t> &args,
                                     const PyResults &results,
                                     const py::dict &attrs,
                                     const std::optional<Place> &place) {
    checkOpen();
    SmallVector<Type> types;
    for (const auto &[shape, dtype] : results)
      types.push_back(tensorType(shape, dtype, "relax." + name));
    std::vector<size_t> handles;
    for (Value arg :
         builder.beginComposite(name, operands(args), types,
                                operatorAttrs(name, attrs), at(place)))
      handles.push_back(add(arg));
    return handles;
  }

  /// Ends the composite begun last, its parts giving `results`: the
  /// handles of its results.
  std::vector<size_t> endComposite(const std::vector<size_t> &results,
                                   const std::optional<Place> &place) {
    checkOpen();
    DiagnosticCollector diags;
    FailureOr<ValueRange> values =
        builder.endComposite(operands(results), at(place));
    if (failed(values))
      throw py::value_error(diags.take());
    std::vector<size_t> handles;
    for (Value value : *values)
      handles.push_back(add(value));
    return handles;
  }

  /// An operator's attributes ({name: Python value}) as MLIR attributes.
  DictionaryAttr operatorAttrs(const std::string &name, const py::dict &attrs) {
    SmallVector<NamedAttribute> named;
    Builder b(&context());
    for (auto [key, value] : attrs)
      named.emplace_back(b.getStringAttr(key.cast<std::string>()),
                         attributeOf(value, "relax." + name + ": attribute '" +
                                                key.cast<std::string>() + "'"));
    return b.getDictionaryAttr(named);
  }

  /// A call of graph function `callee` giving `results` ([(shape,
  /// dtype)], dtype "object" for an R.Object).
  std::vector<size_t> callFunction(const std::string &callee,
                                   const std::vector<size_t> &args,
                                   const PyResults &results,
                                   const std::optional<Place> &place) {
    checkOpen();
    SmallVector<Type> types;
    for (const auto &[shape, dtype] : results) {
      if (dtype == "object") {
        types.push_back(tir::ObjectType::get(&context()));
        continue;
      }
      // A result sized by shape variables is sized as the callee sizes it
      // from its arguments (getShapeVarName follows the call).
      types.push_back(tensorType(shape, dtype, "a call of @" + callee));
    }
    std::vector<size_t> handles;
    for (Value result :
         builder.callFunction(callee, operands(args), types, at(place)))
      handles.push_back(add(result));
    return handles;
  }

  size_t shapeValue(const std::vector<std::string> &dims, bool scalar,
                    const std::optional<Place> &place) {
    checkOpen();
    DiagnosticCollector diags;
    SmallVector<std::string> texts(dims.begin(), dims.end());
    FailureOr<Value> value = builder.shapeValue(texts, scalar, at(place));
    if (failed(value))
      throw py::value_error(diags.take());
    return add(*value);
  }

  size_t nullValue(const std::optional<Place> &place) {
    checkOpen();
    return add(builder.nullValue(at(place)));
  }

  PyModule finish(
      const std::vector<size_t> &outputs, bool tuple, const py::dict &attrs,
      const py::object &nesting, const py::object &paramNesting,
      const std::vector<std::string> &resultKinds,
      const std::map<std::string, std::string> &paramNotes,
      const std::optional<std::pair<std::string, std::string>> &packedResult) {
    checkOpen();
    SmallVector<Value> results = operands(outputs);
    Attribute funcAttrs;
    if (!attrs.empty())
      funcAttrs = attributeOf(attrs, "R.func_attr");
    DiagnosticCollector diags;
    OwningOpRef<ModuleOp> module = builder.finish(results, loc);
    if (!module)
      throw py::value_error(diags.take());
    finished = true;
    for (auto func : module->getOps<func::FuncOp>()) {
      if (!tir::isGraphFunction(func))
        continue;
      if (tuple)
        func->setAttr(tir::TIRDialect::kTupleResultAttrName,
                      UnitAttr::get(&context()));
      if (!nesting.is_none())
        func->setAttr(tir::TIRDialect::kResultNestingAttrName,
                      attributeOf(nesting, "the result's nesting"));
      if (!paramNesting.is_none())
        func->setAttr(tir::TIRDialect::kParamNestingAttrName,
                      attributeOf(paramNesting, "the parameters' nesting"));
      if (funcAttrs)
        func->setAttr(tir::TIRDialect::kFuncAttrsAttrName, funcAttrs);
      if (packedResult) {
        Builder b(&context());
        func->setAttr(
            tir::TIRDialect::kPackedResultAttrName,
            b.getDictionaryAttr(
                {b.getNamedAttr("key", b.getStringAttr(packedResult->first)),
                 b.getNamedAttr("sinfo",
                                b.getStringAttr(packedResult->second))}));
      }
      if (!paramNotes.empty()) {
        SmallVector<NamedAttribute> notes;
        Builder b(&context());
        for (const auto &[index, note] : paramNotes)
          notes.emplace_back(b.getStringAttr(index), b.getStringAttr(note));
        func->setAttr(tir::TIRDialect::kParamNotesAttrName,
                      b.getDictionaryAttr(notes));
      }
      if (llvm::any_of(resultKinds,
                       [](const std::string &k) { return k != "tensor"; })) {
        SmallVector<StringRef> kinds(resultKinds.begin(), resultKinds.end());
        func->setAttr(tir::TIRDialect::kResultKindsAttrName,
                      Builder(&context()).getStrArrayAttr(kinds));
      }
    }
    return PyModule::own(std::move(module));
  }

private:
  /// Where a step is: (line, column) in the function's file, else the
  /// function's location.
  Location at(const std::optional<Place> &place) const {
    if (!place)
      return loc;
    return FileLineColLoc::get(&context(), filename, place->first,
                               place->second);
  }

  static SmallVector<tir::GraphParameter> graphParameters(
      const std::string &name,
      const std::vector<
          std::tuple<std::string, std::vector<PyDim>, std::string>> &params) {
    SmallVector<tir::GraphParameter> result;
    for (const auto &[paramName, shape, dtype] : params) {
      if (dtype == "object") { // R.Object
        result.push_back(tir::GraphParameter{paramName, {}, {}});
        continue;
      }
      if (dtype == "<scalar>") {
        // R.Prim(value="n"): an integer, the shape variable n (its one
        // dimension names it), named so.
        if (shape.size() != 1 || !std::holds_alternative<std::string>(shape[0]))
          throw py::value_error("function '" + name + "', parameter '" +
                                paramName + "': a scalar names its variable");
        tir::GraphParameter scalar{std::get<std::string>(shape[0]), {}, {}};
        scalar.scalar = true;
        result.push_back(scalar);
        continue;
      }
      result.push_back(tir::GraphParameter{
          paramName,
          tensorType(shape, dtype,
                     "function '" + name + "', parameter '" + paramName + "'"),
          dimVarsOf(shape)});
    }
    return result;
  }

  /// Appends the sizes of the named dimensions of `shape` (the shape
  /// variables' values); ValueError naming `what` for a variable no
  /// parameter has.
  void appendSizes(const std::vector<PyDim> &shape, const std::string &what,
                   SmallVectorImpl<Value> &sizes) {
    for (const std::string &var : dimVarsOf(shape)) {
      if (var.empty())
        continue;
      FailureOr<Value> size = builder.getShapeVar(var);
      if (failed(size))
        throw py::value_error(what + ": the shape variable '" + var +
                              "' sizes no parameter's dimension (nor is it "
                              "an affine form of ones that do); a graph "
                              "function's shape variables come from its "
                              "parameters");
      sizes.push_back(*size);
    }
  }

  /// Steps build into the function until finish() hands it out.
  void checkOpen() const {
    if (finished)
      throw py::value_error("the graph function is already finished");
  }

  size_t add(Value value) {
    values.push_back(value);
    return values.size() - 1;
  }

  SmallVector<Value> operands(const std::vector<size_t> &handles) const {
    SmallVector<Value> result;
    for (size_t handle : handles) {
      if (handle >= values.size())
        throw py::index_error("no graph value has handle " +
                              std::to_string(handle));
      result.push_back(values[handle]);
    }
    return result;
  }

  std::string filename;
  Location loc;
  tir::GraphBuilder builder;
  std::vector<Value> values;
  bool finished = false;
};

} // namespace

void tirpy::bindGraph(py::module_ &m) {
  m.def(
      "graph_operator_takes_dynamic_shapes",
      [](const std::string &name) {
        return tir::graphOperatorTakesDynamicShapes(name);
      },
      py::arg("name"),
      "Whether graph operator `name` takes tensors with dynamic "
      "dimensions.");
  py::class_<PyGraphBuilder>(
      m, "GraphBuilder",
      "Builds one graph function step by step (TensorIR/Graph/"
      "GraphBuilder.h); values are integer handles, parameters first; a "
      "step's place, (line, column) in the function's file, locates its "
      "ops.")
      .def(
          py::init<const std::string &,
                   const std::vector<std::tuple<std::string, std::vector<PyDim>,
                                                std::string>> &,
                   bool, const std::string &, unsigned>(),
          py::arg("name"), py::arg("params"), py::arg("private") = false,
          py::arg("filename") = "<relax>", py::arg("line") = 1,
          "Starts function `name` taking params [(name, shape, dtype)]; a "
          "dimension is a size or the name of a shape variable.")
      .def("constant", &PyGraphBuilder::constant, py::arg("data"),
           py::arg("shape"), py::arg("dtype"), py::arg("place") = py::none(),
           "A constant tensor from its little-endian bytes.")
      .def("call_tir", &PyGraphBuilder::callTir, py::arg("callee"),
           py::arg("inputs"), py::arg("results"), py::arg("place") = py::none(),
           py::arg("inplace") = std::vector<int64_t>(),
           "A tir.call_tir of prim_func `callee`; results [(shape, dtype)]; "
           "`inplace`: per result the input it is written into, or -1 "
           "(R.call_tir_inplace).")
      .def("call_external", &PyGraphBuilder::callExternal, py::arg("callee"),
           py::arg("inputs"), py::arg("results"), py::arg("place") = py::none(),
           py::arg("returns") = false,
           "A call of the packed function `callee` in destination-passing "
           "style (R.call_dps_packed), or with `returns` of one returning "
           "its result (R.call_pure_packed).")
      .def("call_function", &PyGraphBuilder::callFunction, py::arg("callee"),
           py::arg("args"), py::arg("results"), py::arg("place") = py::none(),
           "A call of graph function `callee` (Relax's cls.f(x)); results "
           "[(shape, dtype)], dtype 'object' for an R.Object.")
      .def("shape_value", &PyGraphBuilder::shapeValue, py::arg("dims"),
           py::arg("scalar") = false, py::arg("place") = py::none(),
           "A shape (R.shape) or with `scalar` an integer (R.prim_value) "
           "of the shape variables: `dims` are expressions of them as text "
           "(\"n * 2\"); ValueError naming an expression it cannot build.")
      .def("null_value", &PyGraphBuilder::nullValue,
           py::arg("place") = py::none(),
           "An R.Object holding nothing (R.null_value()).")
      .def("call_operator", &PyGraphBuilder::callOperator, py::arg("name"),
           py::arg("args"), py::arg("shape"), py::arg("dtype"),
           py::arg("attrs"), py::arg("place") = py::none(),
           "High-level operator `name` (relax's, without 'relax.'), as "
           "linalg ops; ValueError with the operator's rule when it does "
           "not fit.")
      .def("begin_composite", &PyGraphBuilder::beginComposite, py::arg("name"),
           py::arg("args"), py::arg("results"), py::arg("attrs"),
           py::arg("place") = py::none(),
           "Starts operator `name` kept whole (a tir.composite giving "
           "results [(shape, dtype)]): the handles standing for `args` "
           "inside it, on which the following steps build its parts until "
           "end_composite.")
      .def("end_composite", &PyGraphBuilder::endComposite, py::arg("results"),
           py::arg("place") = py::none(),
           "Ends the composite begun last, its parts giving `results`: the "
           "handles of its results.")
      .def_static(
          "bind_params", &bindParams, py::arg("module"), py::arg("name"),
          py::arg("values"),
          "Relax's BindParams: parameters of graph function `name` "
          "({name: (little-endian bytes, shape, dtype)}) as constants; a "
          "new Module.")
      .def("finish", &PyGraphBuilder::finish, py::arg("outputs"),
           py::arg("tuple") = false, py::arg("attrs") = py::dict(),
           py::arg("nesting") = py::none(),
           py::arg("param_nesting") = py::none(),
           py::arg("result_kinds") = std::vector<std::string>(),
           py::arg("param_notes") = std::map<std::string, std::string>(),
           py::arg("packed_result") = py::none(),
           "Ends the function returning `outputs`: a Module holding it (not "
           "verified: its call_tir callees are in another module). "
           "`nesting`: nested lists of the outputs' indices when the tuple "
           "holds tuples; `param_nesting`: per parameter as written, its "
           "argument's index or {'name': ..., 'fields': nested indices} for "
           "a tuple of tensors taken one by one, {'name': ..., 'shape': "
           "[indices]} for a shape taken as scalars; `result_kinds`: per "
           "output 'tensor', 'shape' or 'prim'; `param_notes`: per argument "
           "index (a string), what its checks come from (R.match_cast); "
           "`packed_result`: (call site, struct info) of the packed call of "
           "no known result shape whose result the function returns.");
}
