//===- Attributes.cpp - attributes from Python values ---------------------===//
//
// What the schedule's steps and the graph builder's operators take as
// attributes, made from Python values without MLIR text: plain values
// (bool, int, float, str, lists and dicts of them) by attributeOf, and the
// typed ones Python asks for by name through _tensorir.Attribute (arrays of
// i64, index maps and split factors over expressions of the package's
// symbolic integers, numbers of a dtype).
//
//===----------------------------------------------------------------------===//

#include "Extension.h"
#include "FromNodes.h"

#include "TensorIR/Dialect/TIR/IR/TIRAttrs.h"

#include "mlir/IR/AffineMap.h"
#include "mlir/IR/Builders.h"

#include <pybind11/stl.h>

namespace py = pybind11;
using namespace mlir;
using namespace tirpy;

namespace {

/// An attribute Python holds (_tensorir.Attribute).
struct PyAttribute {
  Attribute value;
};

std::string pythonTypeName(py::handle value) {
  return py::str(py::type::of(value).attr("__name__")).cast<std::string>();
}

/// An integer expression of tvm.tir nodes (IntImm and Python ints, the
/// map's index Vars as its dimensions, T.vscale() as symbol 0 where
/// `vscale` allows it, other Vars as symbols in order of first use where
/// `freeVars` collects them, + - * // % and T.ceildiv) as an affine
/// expression; ValueError naming `what` when it is not affine.
AffineExpr affineExprOf(py::handle e, py::handle indices, bool vscale,
                        const std::string &what,
                        std::vector<py::object> *freeVars = nullptr) {
  MLIRContext *ctx = &context();
  if (py::isinstance<py::int_>(e) && !py::isinstance<py::bool_>(e))
    return getAffineConstantExpr(e.cast<int64_t>(), ctx);
  std::string kind = fromnodes::typeName(e);
  if (kind == "IntImm")
    return getAffineConstantExpr(fromnodes::intOf(e), ctx);
  auto text = [&] { return py::str(e).cast<std::string>(); };
  if (fromnodes::isa_(e, "Var")) {
    py::list dims = py::reinterpret_borrow<py::list>(indices);
    for (size_t k = 0; k < dims.size(); ++k)
      if (dims[k].ptr() == e.ptr())
        return getAffineDimExpr(k, ctx);
    if (freeVars) {
      for (size_t k = 0; k < freeVars->size(); ++k)
        if ((*freeVars)[k].ptr() == e.ptr())
          return getAffineSymbolExpr(k, ctx);
      freeVars->push_back(py::reinterpret_borrow<py::object>(e));
      return getAffineSymbolExpr(freeVars->size() - 1, ctx);
    }
    throw py::value_error(
        what + ": " + text() +
        (dims.size()
             ? " is not one of its " + std::to_string(dims.size()) + " indices"
             : " is an index, and it has none"));
  }
  if (kind == "Cast")
    return affineExprOf(e.attr("value"), indices, vscale, what, freeVars);
  std::string op = kind;
  py::object a, b;
  if (kind == "Call") {
    op = py::str(e.attr("op").attr("name")).cast<std::string>();
    py::list args = e.attr("args");
    if (op == "tir.vscale") {
      if (!vscale)
        throw py::value_error(what + ": T.vscale() has no place in it (its "
                                     "expressions are over the indices and "
                                     "integers)");
      return getAffineSymbolExpr(0, ctx);
    }
    if (op != "tir.ceildiv" || args.size() != 2)
      throw py::value_error(what + ": T." + op.substr(4) +
                            " is not an index expression");
    a = args[0];
    b = args[1];
  } else if (kind == "Add" || kind == "Sub" || kind == "Mul" ||
             kind == "FloorDiv" || kind == "FloorMod") {
    a = e.attr("a");
    b = e.attr("b");
  } else if (kind == "Min" || kind == "Max") {
    throw py::value_error(what + ": T." + StringRef(kind).lower() +
                          " is not an index expression");
  } else {
    throw py::value_error(what +
                          ": an index expression is over the indices, "
                          "T.vscale() and integers, got a " +
                          kind);
  }
  AffineExpr x = affineExprOf(a, indices, vscale, what, freeVars);
  AffineExpr y = affineExprOf(b, indices, vscale, what, freeVars);
  if (op == "Add")
    return x + y;
  if (op == "Sub")
    return x - y;
  // As MLIR's (semi-)affine maps: a product has a factor without indices,
  // a divisor has no indices and, when constant, is positive.
  if (op == "Mul") {
    if (!x.isSymbolicOrConstant() && !y.isSymbolicOrConstant())
      throw py::value_error(what + ": " + text() +
                            " multiplies two expressions of the indices, "
                            "which an affine map cannot hold");
    return x * y;
  }
  auto constant = dyn_cast<AffineConstantExpr>(y);
  if (!y.isSymbolicOrConstant() || (constant && constant.getValue() <= 0))
    throw py::value_error(what + ": " + text() +
                          " divides by an expression of the indices or a "
                          "constant below 1, which an affine map cannot "
                          "hold");
  if (op == "FloorDiv")
    return x.floorDiv(y);
  if (op == "FloorMod")
    return x % y;
  return x.ceilDiv(y);
}

AffineMap affineMapOf(py::handle indices, unsigned numSymbols,
                      const std::vector<py::object> &results,
                      const std::string &what) {
  SmallVector<AffineExpr> exprs;
  for (const py::object &result : results)
    exprs.push_back(affineExprOf(result, indices, numSymbols > 0, what));
  return AffineMap::get(py::len(indices), numSymbols, exprs, &context());
}

} // namespace

Attribute tirpy::attributeOf(py::handle value, const std::string &what) {
  Builder b(&context());
  if (py::isinstance<PyAttribute>(value))
    return value.cast<PyAttribute &>().value;
  if (py::isinstance<py::bool_>(value))
    return b.getBoolAttr(value.cast<bool>());
  if (py::isinstance<py::int_>(value))
    return b.getI64IntegerAttr(value.cast<int64_t>());
  if (py::isinstance<py::float_>(value))
    return b.getF64FloatAttr(value.cast<double>());
  if (py::isinstance<py::str>(value))
    return b.getStringAttr(value.cast<std::string>());
  if (py::isinstance<py::list>(value) || py::isinstance<py::tuple>(value)) {
    SmallVector<Attribute> items;
    for (py::handle item : value)
      items.push_back(attributeOf(item, what));
    return b.getArrayAttr(items);
  }
  if (py::isinstance<py::dict>(value)) {
    SmallVector<NamedAttribute> entries;
    for (auto [key, item] : value.cast<py::dict>()) {
      if (!py::isinstance<py::str>(key))
        throw py::type_error(what + ": dictionary keys are strings, got " +
                             pythonTypeName(key));
      entries.emplace_back(b.getStringAttr(key.cast<std::string>()),
                           attributeOf(item, what));
    }
    return b.getDictionaryAttr(entries);
  }
  // The IR's constants stand for their values (T.int32(4) in an
  // annotation).
  std::string kind = pythonTypeName(value);
  if (kind == "IntImm" &&
      py::str(value.attr("dtype")).cast<std::string>() == "bool")
    return b.getBoolAttr(value.attr("value").cast<int64_t>() != 0);
  if (kind == "IntImm")
    return b.getI64IntegerAttr(value.attr("value").cast<int64_t>());
  if (kind == "FloatImm")
    return b.getF64FloatAttr(value.attr("value").cast<double>());
  if (kind == "StringImm")
    return b.getStringAttr(value.attr("value").cast<std::string>());
  throw py::type_error(what +
                       ": values are bool, int, float, str, or lists and "
                       "dicts of them, got " +
                       kind);
}

py::object tirpy::wrapAttribute(Attribute value) {
  return py::cast(PyAttribute{value});
}

void tirpy::bindAttributes(py::module_ &m) {
  py::class_<PyAttribute>(
      m, "Attribute",
      "An attribute for a schedule step or a graph operator, of a type a "
      "plain Python value does not say.")
      .def("__str__", [](const PyAttribute &self) { return print(self.value); })
      .def_static(
          "i64_array",
          [](const std::vector<int64_t> &values) {
            return PyAttribute{
                Builder(&context()).getDenseI64ArrayAttr(values)};
          },
          py::arg("values"), "array<i64: ...>")
      .def_static(
          "f64_array",
          [](const std::vector<double> &values) {
            return PyAttribute{
                Builder(&context()).getDenseF64ArrayAttr(values)};
          },
          py::arg("values"), "array<f64: ...>")
      .def_static(
          "index_map",
          [](py::list indices, const std::vector<py::object> &results,
             const std::string &what) {
            return PyAttribute{
                AffineMapAttr::get(affineMapOf(indices, 0, results, what))};
          },
          py::arg("indices"), py::arg("results"), py::arg("what") = "index map",
          "The affine map from `indices` (tir.Vars, its dimensions in order) "
          "to `results` (integer expressions of them, and ints); ValueError "
          "when one is not affine.")
      .def_static(
          "symbolic_index_map",
          [](py::list indices, const std::vector<py::object> &results,
             const std::string &what, const std::vector<py::object> &leading) {
            // The leading Vars are the first symbols, used or not.
            std::vector<py::object> freeVars(leading);
            SmallVector<AffineExpr> exprs;
            for (const py::object &result : results)
              exprs.push_back(
                  affineExprOf(result, indices, false, what, &freeVars));
            std::vector<std::string> names;
            for (const py::object &v : freeVars)
              names.push_back(py::str(v.attr("name")).cast<std::string>());
            AffineMap map = AffineMap::get(py::len(indices), freeVars.size(),
                                           exprs, &context());
            return py::make_tuple(PyAttribute{AffineMapAttr::get(map)}, names);
          },
          py::arg("indices"), py::arg("results"), py::arg("what") = "index map",
          py::arg("leading") = std::vector<py::object>(),
          "(map, names): as index_map, with the Vars that are not indices "
          "(a function's shape variables and scalar parameters) as the map's "
          "symbols, `leading` first, the others in order of first use; "
          "`names` are theirs.")
      .def_static(
          "split_factors",
          [](const std::vector<py::object> &factors) {
            MLIRContext *ctx = &context();
            SmallVector<Attribute> items;
            for (const py::object &factor : factors) {
              if (factor.is_none())
                items.push_back(tir::SplitFactorAttr::getInferred(ctx));
              else if (py::isinstance<py::tuple>(factor))
                // ("param", k): the k-th parameter operand (a factor a
                // sampling step drew).
                items.push_back(tir::SplitFactorAttr::getParam(
                    ctx, py::tuple(factor)[1].cast<int64_t>()));
              else if (py::isinstance<py::int_>(factor) ||
                       pythonTypeName(factor) == "IntImm")
                items.push_back(tir::SplitFactorAttr::getConstant(
                    ctx, py::int_(factor).cast<int64_t>()));
              else
                items.push_back(tir::SplitFactorAttr::getScalable(affineMapOf(
                    py::list(), 1, {factor}, "a scalable split factor")));
            }
            return PyAttribute{ArrayAttr::get(ctx, items)};
          },
          py::arg("factors"),
          "The factors of a split or a partition: None (inferred), ints, "
          "(\"param\", k) for the k-th parameter operand, or expressions "
          "of T.vscale() (scalable).")
      .def_static(
          "number",
          [](py::object value, const std::string &dtype) {
            Type type = dtypeType(context(), dtype);
            if (!type)
              throw py::value_error("dtype '" + dtype + "' has no tir type");
            Builder b(&context());
            std::string text = py::repr(value).cast<std::string>();
            if (auto floatType = dyn_cast<FloatType>(type)) {
              if (!py::isinstance<py::float_>(value) &&
                  !py::isinstance<py::int_>(value))
                throw py::value_error(text + " is not a number");
              return PyAttribute{
                  b.getFloatAttr(floatType, value.cast<double>())};
            }
            // An integer of the dtype's width, signed or unsigned.
            unsigned width = type.getIntOrFloatBitWidth();
            py::int_ lowest = -(py::int_(1) << py::int_(width - 1));
            py::int_ highest = (py::int_(1) << py::int_(width)) - py::int_(1);
            if (!py::isinstance<py::int_>(value) || value < lowest ||
                value > highest)
              throw py::value_error(text + " is not a " + dtype);
            return PyAttribute{b.getIntegerAttr(
                type, APInt(width, value.cast<int64_t>(), /*isSigned=*/true,
                            /*implicitTrunc=*/true))};
          },
          py::arg("value"), py::arg("dtype"),
          "A number of a dtype (a pad value).");
}
