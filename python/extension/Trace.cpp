//===- Trace.cpp - traces, instructions and random variables from Python --===//
//
// _tensorir.RandomVariable (TVM's BlockRV / LoopRV / ExprRV), Instruction,
// TraceModel (TVM's Trace: instructions, decisions apart) and Trace (a
// transform script), and TVM's instruction kinds by name.
//
//===----------------------------------------------------------------------===//

#include "Trace.h"

#include "TensorIR/Dialect/TIR/Schedule/TensorIntrin.h"

#include "mlir/Parser/Parser.h"

#include <pybind11/stl.h>

namespace py = pybind11;
using namespace mlir;
using namespace tirpy;

/// A decision as Python: an int (an index, a location) or a list of ints
/// (factors); None for none.
py::object tirpy::decisionToPython(Attribute decision) {
  if (!decision)
    return py::none();
  if (auto i = dyn_cast<IntegerAttr>(decision))
    return py::int_(i.getInt());
  if (auto a = dyn_cast<DenseI64ArrayAttr>(decision)) {
    py::list out;
    for (int64_t v : a.asArrayRef())
      out.append(v);
    return std::move(out);
  }
  return py::str(print(decision));
}

/// A decision from Python: None, an int or a list of ints.
Attribute tirpy::decisionFromPython(py::handle value) {
  Builder b(&context());
  if (value.is_none())
    return {};
  if (py::isinstance<py::int_>(value) && !py::isinstance<py::bool_>(value))
    return b.getI64IntegerAttr(value.cast<int64_t>());
  if (py::isinstance<py::list>(value) || py::isinstance<py::tuple>(value)) {
    SmallVector<int64_t> ints;
    for (py::handle v : value) {
      if (!py::isinstance<py::int_>(v) || py::isinstance<py::bool_>(v))
        throw py::type_error("a decision is an int or a list of ints");
      ints.push_back(v.cast<int64_t>());
    }
    return b.getDenseI64ArrayAttr(ints);
  }
  throw py::type_error("a decision is an int or a list of ints, got " +
                       py::str(py::type::of(value)).cast<std::string>());
}

/// A value of TVM's layout as Python: None, a RandomVariable, a bool, int,
/// float or str, a _tensorir.Attribute (an index map, ...), or a list.
py::object tirpy::tvmValueToPython(const tir::TVMValue &v) {
  switch (v.tag) {
  case tir::TVMValue::Tag::None:
    return py::none();
  case tir::TVMValue::Tag::Variable:
    return py::cast(PyRV{v.variable});
  case tir::TVMValue::Tag::Constant: {
    Attribute a = v.constant;
    if (auto b = dyn_cast<BoolAttr>(a))
      return py::bool_(b.getValue());
    if (auto i = dyn_cast<IntegerAttr>(a)) {
      if (i.getType().isInteger(1))
        return py::bool_(i.getValue().getBoolValue());
      return py::int_(i.getValue().getSExtValue());
    }
    if (auto f = dyn_cast<FloatAttr>(a))
      return py::float_(f.getValueAsDouble());
    if (auto s = dyn_cast<StringAttr>(a))
      return py::str(s.getValue().str());
    return wrapAttribute(a);
  }
  case tir::TVMValue::Tag::List: {
    py::list out;
    for (const tir::TVMValue &item : v.list)
      out.append(tvmValueToPython(item));
    return std::move(out);
  }
  }
  llvm_unreachable("unknown value tag");
}

/// A Python value of TVM's layout: None, a random variable (anything with
/// a RandomVariable as `_rv`), a list or tuple, an IndexMap (through its
/// attribute), or a constant attributeOf takes.
tir::TVMValue tirpy::tvmValueFromPython(py::handle value,
                                        const std::string &what) {
  if (value.is_none())
    return tir::TVMValue::none();
  if (py::isinstance<PyRV>(value))
    return tir::TVMValue::of(value.cast<PyRV>().rv);
  if (py::hasattr(value, "_rv") && py::isinstance<PyRV>(value.attr("_rv")))
    return tir::TVMValue::of(value.attr("_rv").cast<PyRV>().rv);
  if (py::isinstance<py::list>(value) || py::isinstance<py::tuple>(value)) {
    std::vector<tir::TVMValue> list;
    for (py::handle item : value)
      list.push_back(tvmValueFromPython(item, what));
    return tir::TVMValue::of(std::move(list));
  }
  if (py::hasattr(value, "_attribute") &&
      py::type::of(value).attr("__name__").cast<std::string>() == "IndexMap")
    return tir::TVMValue::of(attributeOf(value.attr("_attribute")(), what));
  return tir::TVMValue::of(attributeOf(value, what));
}

PyTrace PyTrace::parse(const std::string &text) {
  DiagnosticCollector diags;
  OwningOpRef<ModuleOp> parsed =
      parseSourceString<ModuleOp>(text, ParserConfig(&context()), "<trace>");
  if (!parsed)
    throw pybind11::value_error(diags.take());
  // Tensor intrinsics the script carries become known by name, as TVM's
  // registry makes them, for replays in other forms.
  tir::registerCarriedTensorIntrins(*parsed);
  return PyTrace{std::make_shared<OwningOpRef<ModuleOp>>(std::move(parsed))};
}

void tirpy::bindTrace(py::module_ &m) {
  py::class_<PyRV>(m, "RandomVariable")
      .def_property_readonly("kind",
                             [](const PyRV &r) {
                               switch (r.rv->kind) {
                               case tir::RandomVariable::Kind::Block:
                                 return "block";
                               case tir::RandomVariable::Kind::Loop:
                                 return "loop";
                               case tir::RandomVariable::Kind::Expr:
                                 return "expr";
                               }
                               llvm_unreachable("unknown kind");
                             })
      .def(py::init([](const std::string &kind) {
             tir::RandomVariable::Kind k =
                 kind == "block"  ? tir::RandomVariable::Kind::Block
                 : kind == "loop" ? tir::RandomVariable::Kind::Loop
                 : kind == "expr"
                     ? tir::RandomVariable::Kind::Expr
                     : throw py::value_error("a random variable is a "
                                             "block, loop or expr");
             return PyRV{std::make_shared<tir::RandomVariable>(k)};
           }),
           py::arg("kind"))
      .def("__eq__", [](const PyRV &a, const PyRV &b) { return a.rv == b.rv; })
      .def("__hash__",
           [](const PyRV &r) { return std::hash<void *>()(r.rv.get()); });

  py::class_<PyInstruction>(m, "Instruction")
      .def(py::init([](const std::string &kindName, py::list inputs,
                       py::list attrs, py::list outputs) {
             const tir::InstructionKind *kind =
                 tir::InstructionKind::lookup(kindName);
             if (!kind)
               throw py::value_error("no instruction kind named '" + kindName +
                                     "'");
             std::vector<tir::TVMValue> in, at;
             for (py::handle v : inputs)
               in.push_back(tvmValueFromPython(v, kindName + ": an input"));
             for (py::handle v : attrs)
               at.push_back(tvmValueFromPython(v, kindName + ": an attr"));
             std::vector<tir::RV> out;
             for (py::handle v : outputs) {
               tir::TVMValue rv = tvmValueFromPython(v, kindName);
               if (rv.tag != tir::TVMValue::Tag::Variable &&
                   rv.tag != tir::TVMValue::Tag::None)
                 throw py::type_error(kindName +
                                      ": outputs are random variables or None");
               out.push_back(rv.variable);
             }
             std::string error;
             FailureOr<tir::Instruction> inst =
                 kind->fromTVMLayout(&context(), in, at, out, error);
             if (failed(inst))
               throw py::value_error(error);
             return PyInstruction{
                 std::make_shared<const tir::Instruction>(std::move(*inst))};
           }),
           py::arg("kind"), py::arg("inputs"), py::arg("attrs"),
           py::arg("outputs"))
      .def_property_readonly("inputs",
                             [](const PyInstruction &i) {
                               std::vector<tir::TVMValue> in, at;
                               i.inst->kind->getTVMLayout(*i.inst, in, at);
                               return tvmValueToPython(tir::TVMValue::of(in));
                             })
      .def_property_readonly("attrs",
                             [](const PyInstruction &i) {
                               std::vector<tir::TVMValue> in, at;
                               i.inst->kind->getTVMLayout(*i.inst, in, at);
                               return tvmValueToPython(tir::TVMValue::of(at));
                             })
      .def_property_readonly(
          "kind_name",
          [](const PyInstruction &i) { return i.inst->kind->getName().str(); })
      .def_property_readonly(
          "is_pure",
          [](const PyInstruction &i) { return i.inst->kind->isPure(); })
      .def_property_readonly("outputs",
                             [](const PyInstruction &i) {
                               py::list out;
                               for (const tir::RV &rv : i.inst->outputs)
                                 if (rv)
                                   out.append(PyRV{rv});
                                 else
                                   out.append(py::none());
                               return out;
                             })
      .def_property_readonly("operands",
                             [](const PyInstruction &i) {
                               py::list out;
                               for (const auto &operand : i.inst->operands) {
                                 py::list group;
                                 for (const tir::RV &rv : operand)
                                   group.append(PyRV{rv});
                                 out.append(group);
                               }
                               return out;
                             })
      .def_property_readonly(
          "attributes",
          [](const PyInstruction &i) { return print(i.inst->attributes); })
      .def("as_python_anonymous",
           // The instruction as TVM's Python, every random variable `_`.
           [](const PyInstruction &i) {
             tir::Trace single;
             single.append(i.inst);
             std::string error;
             auto lines = single.asPython(&context(), false, error,
                                          /*anonymous=*/true);
             if (failed(lines))
               throw py::value_error(error);
             return lines->empty() ? std::string() : lines->front();
           })
      .def("__eq__", [](const PyInstruction &a,
                        const PyInstruction &b) { return a.inst == b.inst; })
      .def("__hash__", [](const PyInstruction &i) {
        return std::hash<const void *>()(i.inst.get());
      });

  py::class_<PyTraceModel>(m, "TraceModel")
      .def(py::init(
               [](const std::vector<PyInstruction> &insts, py::list decisions) {
                 PyTraceModel model;
                 for (const PyInstruction &i : insts)
                   model.trace.append(i.inst);
                 for (py::handle pair : decisions) {
                   auto t = pair.cast<py::tuple>();
                   model.trace.setDecision(t[0].cast<PyInstruction>().inst,
                                           decisionFromPython(t[1]));
                 }
                 return model;
               }),
           py::arg("insts"), py::arg("decisions"))
      .def("as_json", &PyTraceModel::asJSON, py::arg("remove_postproc"))
      .def_static("from_json",
                  [](const std::string &text) {
                    std::string error;
                    DiagnosticCollector diags;
                    auto trace = tir::Trace::fromJSON(&context(), text, error);
                    if (failed(trace))
                      throw py::value_error(error);
                    return PyTraceModel{std::move(*trace), nullptr};
                  })
      .def_property_readonly("instructions",
                             [](const PyTraceModel &t) {
                               std::vector<PyInstruction> out;
                               for (const auto &inst :
                                    t.trace.getInstructions())
                                 out.push_back(PyInstruction{inst});
                               return out;
                             })
      .def_property_readonly(
          "decisions",
          [](const PyTraceModel &t) {
            py::list out;
            for (const auto &[inst, d] : t.trace.getDecisions())
              out.append(
                  py::make_tuple(PyInstruction{inst}, decisionToPython(d)));
            return out;
          })
      .def("get_decision",
           [](const PyTraceModel &t, const PyInstruction &i) {
             return decisionToPython(t.trace.getDecision(i.inst.get()));
           })
      .def(
          "append",
          [](PyTraceModel &t, const PyInstruction &i, py::object decision) {
            t.trace.append(i.inst, decisionFromPython(decision));
          },
          py::arg("inst"), py::arg("decision") = py::none())
      .def("pop",
           [](PyTraceModel &t) -> std::optional<PyInstruction> {
             tir::InstructionRef last = t.trace.pop();
             if (!last)
               return std::nullopt;
             return PyInstruction{last};
           })
      .def("simplified",
           [](const PyTraceModel &t, bool removePostproc) {
             return PyTraceModel{t.trace.simplified(removePostproc), t.carried};
           })
      .def("with_decision",
           [](const PyTraceModel &t, const PyInstruction &i, py::object d,
              bool removePostproc) {
             return PyTraceModel{t.trace.withDecision(i.inst,
                                                      decisionFromPython(d),
                                                      removePostproc),
                                 t.carried};
           })
      .def("as_python", &PyTraceModel::asPython, py::arg("remove_postproc"))
      .def("as_transform_script", &PyTraceModel::asTransformScript,
           py::arg("remove_postproc"))
      .def_static("from_transform_script", [](const PyTrace &script) {
        std::string error;
        auto trace = tir::Trace::fromScript(script.module->get(), error);
        if (failed(trace))
          throw py::value_error(error);
        return PyTraceModel{std::move(*trace), script.module};
      });

  py::class_<PyTrace>(m, "Trace")
      .def_static("parse", &PyTrace::parse, py::arg("text"))
      .def("as_python", &PyTrace::asPython)
      .def("__str__", [](const PyTrace &t) { return print(t.module->get()); });

  m.def(
      "instruction_kind",
      [](const std::string &name) -> std::optional<py::tuple> {
        const tir::InstructionKind *kind = tir::InstructionKind::lookup(name);
        if (!kind)
          return std::nullopt;
        return py::make_tuple(kind->getName().str(), kind->isPure(),
                              kind->getMnemonic().str());
      },
      py::arg("name"),
      "TVM's instruction kind `name`: (name, is_pure, mnemonic), or None.");
  m.def("instruction_kinds", [] {
    // Every kind, as (name, is_pure, mnemonic).
    std::vector<py::tuple> kinds;
    for (const tir::InstructionKind *kind : tir::InstructionKind::all())
      kinds.push_back(py::make_tuple(kind->getName().str(), kind->isPure(),
                                     kind->getMnemonic().str()));
    return kinds;
  });
}
