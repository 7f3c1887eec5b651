//===- Schedule.cpp - the imperative schedule from Python -----------------===//
//
// _tensorir.Schedule over tir::ScheduleState: the Python Schedule reaches
// every primitive through apply() (a transform.tir op by mnemonic, built in
// the trace and applied); handles are the trace's values (TVM's BlockRV,
// LoopRV, ExprRV), traces print as Python and JSON, tensor intrinsics are
// registered by name.
//
//===----------------------------------------------------------------------===//

#include "Extension.h"

#include "TensorIR/Dialect/TIR/Analysis/AccessRegions.h"
#include "TensorIR/Dialect/TIR/IR/TIROps.h"
#include "TensorIR/Dialect/TIR/Schedule/Primitives.h"
#include "TensorIR/Dialect/TIR/TransformOps/ScheduleState.h"

#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Parser/Parser.h"

#include <pybind11/stl.h>

#include <map>

namespace py = pybind11;
using namespace mlir;
using namespace tirpy;

namespace {

//===----------------------------------------------------------------------===//
// Schedule
//===----------------------------------------------------------------------===//

/// A tir::ScheduleState: the Python Schedule reaches every primitive
/// through apply().
struct PySchedule;

/// A handle of a schedule (TVM's BlockRV, LoopRV or ExprRV): a value of the
/// schedule's trace.
struct PyHandle {
  std::shared_ptr<PySchedule> schedule;
  Value value;
};

/// A random variable (TVM's BlockRV, LoopRV, ExprRV), compared by identity;
/// each schedule that knows it has a handle for it.
struct PyRV {
  tir::RV rv;
};

/// An instruction of a trace (TVM's Instruction), compared by identity.
struct PyInstruction {
  tir::InstructionRef inst;
};

/// A decision as Python: an int (an index, a location) or a list of ints
/// (factors); None for none.
py::object decisionToPython(Attribute decision) {
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
Attribute decisionFromPython(py::handle value) {
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
py::object tvmValueToPython(const tir::TVMValue &v) {
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
tir::TVMValue tvmValueFromPython(py::handle value, const std::string &what) {
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

/// A snapshot of a schedule's trace in TVM's model (tir::Trace).
struct PyTraceModel {
  tir::Trace trace;
  /// The tensor intrinsics the schedule's trace carries (functions marked
  /// tir.tensor_intrin_desc / _impl), for the transform script.
  std::shared_ptr<OwningOpRef<ModuleOp>> carried;

  std::vector<std::string> asPython(bool removePostproc) const {
    std::string error;
    auto lines = trace.asPython(&context(), removePostproc, error);
    if (failed(lines))
      throw py::value_error(error);
    return *lines;
  }
  std::string asJSON(bool removePostproc) const {
    std::string error;
    FailureOr<std::string> text = trace.asJSON(removePostproc, error);
    if (failed(text))
      throw py::value_error(error);
    return *text;
  }
  std::string asTransformScript(bool removePostproc) const {
    std::string error;
    auto script = trace.render(&context(), removePostproc, error);
    if (failed(script))
      throw py::value_error(error);
    if (carried) {
      OpBuilder builder(&context());
      builder.setInsertionPointToStart(script->get().getBody());
      for (auto func : carried->get().getOps<func::FuncOp>())
        builder.clone(*func);
    }
    return print(script->get().getOperation());
  }
};

/// A snapshot of a trace (a module holding a transform.named_sequence).
struct PyTrace {
  std::shared_ptr<OwningOpRef<ModuleOp>> module;

  static PyTrace parse(const std::string &text) {
    DiagnosticCollector diags;
    OwningOpRef<ModuleOp> parsed =
        parseSourceString<ModuleOp>(text, ParserConfig(&context()), "<trace>");
    if (!parsed)
      throw py::value_error(diags.take());
    // Tensor intrinsics the script carries become known by name, as TVM's
    // registry makes them, for replays in other forms.
    tir::registerCarriedTensorIntrins(*parsed);
    return PyTrace{std::make_shared<OwningOpRef<ModuleOp>>(std::move(parsed))};
  }
  /// The script printed as TVM's Python.
  std::string asPython() const {
    std::string error;
    FailureOr<std::string> text = tir::printTraceAsPython(module->get(), error);
    if (failed(text))
      throw py::value_error(error);
    return *text;
  }
};

struct PySchedule : std::enable_shared_from_this<PySchedule> {
  std::unique_ptr<tir::ScheduleState> state;

  PySchedule(const PyModule &m, bool verifyEachStep, int64_t seed) {
    tir::ScheduleOptions options;
    options.verifyEachStep = verifyEachStep;
    state = std::make_unique<tir::ScheduleState>(
        OwningOpRef<ModuleOp>(m.get().clone()), options);
    reseed(seed);
  }
  explicit PySchedule(std::unique_ptr<tir::ScheduleState> state)
      : state(std::move(state)) {}

  void reseed(int64_t seed) {
    std::string error;
    if (failed(state->seed(seed, error)))
      throw py::value_error(error);
  }

  /// The handle of `rv` in this schedule.
  PyHandle handleOf(const PyRV &rv) {
    Value value = state->getHandle(rv.rv);
    if (!value)
      throw ScheduleError("the handle belongs to another schedule (its random "
                          "variable is not one of this schedule's, nor of a "
                          "schedule it was copied from)");
    return PyHandle{shared_from_this(), value};
  }

  /// Applies `trace` (TVM's Trace.apply_to_schedule); `provider`, when not
  /// None, is called as provider(instruction, inputs, attrs, decision) ->
  /// decision, with TVM's inputs (this schedule's random variables) and
  /// attrs.
  void applyTrace(const PyTraceModel &trace, bool removePostproc,
                  py::object provider) {
    tir::ScheduleState::DecisionProvider callback;
    // A Python exception is kept and raised once the C++ replay (built
    // without exceptions) has returned.
    std::exception_ptr raised;
    if (!provider.is_none())
      callback = [&](const tir::InstructionRef &inst,
                     const tir::Instruction &here, Attribute decision,
                     std::string &error) -> FailureOr<Attribute> {
        try {
          // TVM's inputs (translated to this schedule's random variables)
          // and attrs of the instruction.
          std::vector<tir::TVMValue> inputs, attrs;
          here.kind->getTVMLayout(here, inputs, attrs);
          py::object result =
              provider(PyInstruction{inst},
                       tvmValueToPython(tir::TVMValue::of(std::move(inputs))),
                       tvmValueToPython(tir::TVMValue::of(std::move(attrs))),
                       decisionToPython(decision));
          return decisionFromPython(result);
        } catch (...) {
          raised = std::current_exception();
          error = "the decision provider raised";
          return failure();
        }
      };
    std::string error;
    LogicalResult applied =
        state->applyTrace(trace.trace, removePostproc, callback, error);
    if (raised)
      std::rethrow_exception(raised);
    if (failed(applied))
      throw ScheduleError(error);
  }

  Value unwrap(const PyHandle &h) {
    if (h.schedule.get() != this)
      throw ScheduleError("the handle belongs to another schedule");
    return h.value;
  }

  ArrayRef<transform::MappedValue> payload(const PyHandle &h) {
    std::string error;
    auto values = state->getPayload(unwrap(h), error);
    if (failed(values))
      throw ScheduleError(error);
    return *values;
  }

  std::vector<PyHandle> apply(const std::string &mnemonic,
                              const std::vector<PyHandle> &operands,
                              const std::map<std::string, py::object> &attrs,
                              std::optional<unsigned> numResults) {
    SmallVector<Value> values;
    for (const PyHandle &h : operands)
      values.push_back(unwrap(h));
    SmallVector<NamedAttribute> attributes;
    for (const auto &[name, value] : attrs)
      attributes.emplace_back(
          StringAttr::get(&context(), name),
          attributeOf(value, mnemonic + ": attribute '" + name + "'"));
    std::string error;
    FailureOr<SmallVector<Value>> results =
        state->apply(mnemonic, values, attributes, numResults, error);
    if (failed(results))
      throw ScheduleError(error);
    std::vector<PyHandle> out;
    for (Value result : *results)
      out.push_back(PyHandle{shared_from_this(), result});
    return out;
  }
};

/// What a handle holds: "loop", "block", "param" or "other".
std::string kindOf(const PyHandle &h) {
  switch (tir::getHandleKind(h.value.getType())) {
  case tir::HandleKind::Loop:
    return "loop";
  case tir::HandleKind::Block:
    return "block";
  case tir::HandleKind::Param:
    return "param";
  case tir::HandleKind::Other:
    return "other";
  }
  llvm_unreachable("unknown handle kind");
}

/// The Python signature of primitive `mnemonic` (transform.tir.<mnemonic>),
/// or None: (operand names, attribute names, variadic operand, returns a
/// list, result count).
py::object primitiveSignature(const std::string &mnemonic) {
  std::optional<RegisteredOperationName> name =
      RegisteredOperationName::lookup("transform.tir." + mnemonic, &context());
  if (!name)
    return py::none();
  auto *model = name->getInterface<tir::ScheduleOpInterface>();
  if (!model)
    return py::none();
  std::vector<std::string> operands, attributes;
  for (StringRef n : model->getPythonOperandNames())
    operands.push_back(n.str());
  for (StringRef n : model->getPythonAttributeNames())
    attributes.push_back(n.str());
  return py::make_tuple(operands, attributes, model->hasVariadicOperand(),
                        model->returnsList(), model->getPythonResultCount());
}

} // namespace

/// The one block `h` holds, if it holds one.
static tir::BlockOp singleBlock(const PyHandle &h) {
  std::string error;
  auto values = h.schedule->state->getPayload(h.value, error);
  if (failed(values) || values->size() != 1)
    return {};
  return dyn_cast_if_present<tir::BlockOp>(
      dyn_cast_if_present<Operation *>(values->front()));
}

/// The ranks of the buffers the block reads or writes.
static std::optional<std::vector<int64_t>>
accessedBufferRanks(const PyHandle &h, bool reads) {
  tir::BlockOp block = singleBlock(h);
  if (!block)
    return std::nullopt;
  SmallVector<Value> read, written;
  tir::getAccessedBuffers(block, read, written);
  std::vector<int64_t> ranks;
  for (Value buffer : reads ? read : written)
    ranks.push_back(cast<MemRefType>(buffer.getType()).getRank());
  return ranks;
}

/// The shapes of the buffers the block reads or writes (-1: a runtime
/// dimension).
static std::optional<std::vector<std::vector<int64_t>>>
accessedBufferShapes(const PyHandle &h, bool reads) {
  tir::BlockOp block = singleBlock(h);
  if (!block)
    return std::nullopt;
  SmallVector<Value> read, written;
  tir::getAccessedBuffers(block, read, written);
  std::vector<std::vector<int64_t>> shapes;
  for (Value buffer : reads ? read : written) {
    std::vector<int64_t> shape;
    for (int64_t d : cast<MemRefType>(buffer.getType()).getShape())
      shape.push_back(ShapedType::isDynamic(d) ? -1 : d);
    shapes.push_back(shape);
  }
  return shapes;
}

/// The element types (MLIR's spelling: f32, i8, ...) of the buffers the
/// block reads or writes.
static std::optional<std::vector<std::string>>
accessedBufferElementTypes(const PyHandle &h, bool reads) {
  tir::BlockOp block = singleBlock(h);
  if (!block)
    return std::nullopt;
  SmallVector<Value> read, written;
  tir::getAccessedBuffers(block, read, written);
  std::vector<std::string> types;
  for (Value buffer : reads ? read : written) {
    std::string text;
    llvm::raw_string_ostream os(text);
    cast<MemRefType>(buffer.getType()).getElementType().print(os);
    types.push_back(text);
  }
  return types;
}

/// The names of the buffers the one block `h` holds reads (or writes), in
/// order; nullopt when it does not hold one block.
static std::optional<std::vector<std::string>>
accessedBufferNames(const PyHandle &h, bool reads) {
  tir::BlockOp block = singleBlock(h);
  if (!block)
    return std::nullopt;
  SmallVector<Value> read, written;
  tir::getAccessedBuffers(block, read, written);
  std::vector<std::string> names;
  for (Value buffer : reads ? read : written)
    names.push_back(tir::getBufferName(buffer));
  return names;
}

void tirpy::bindSchedule(py::module_ &m) {
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

  py::class_<PyHandle>(m, "Handle")
      .def_property_readonly("kind", &kindOf)
      .def("schedule_is",
           [](const PyHandle &h, const std::shared_ptr<PySchedule> &s) {
             return h.schedule == s;
           })
      .def_property_readonly(
          "rv",
          [](const PyHandle &h) -> std::optional<PyRV> {
            tir::RV rv = h.schedule->state->getRandomVariable(h.value);
            if (!rv)
              return std::nullopt;
            return PyRV{rv};
          })
      // The name of the one block the handle holds (TVM's Block.name_hint
      // through sch.get); None for anything else.
      // Where the one block or loop the handle holds is: (its function's
      // name, its index among the function's blocks -- or loops -- in
      // pre-order), which is where the IR's Python nodes have it; None for
      // anything else.
      .def_property_readonly(
          "position",
          [](const PyHandle &h) -> std::optional<std::pair<std::string, int>> {
            std::string error;
            auto values = h.schedule->state->getPayload(h.value, error);
            if (failed(values) || values->size() != 1)
              return std::nullopt;
            auto *op = dyn_cast_if_present<Operation *>(values->front());
            if (!op || !isa<tir::BlockOp, tir::ForOp>(op))
              return std::nullopt;
            auto func = op->getParentOfType<FunctionOpInterface>();
            if (!func)
              return std::nullopt;
            int index = -1, seen = 0;
            func->walk<WalkOrder::PreOrder>([&](Operation *other) {
              if (other->getName() != op->getName())
                return WalkResult::advance();
              if (other == op) {
                index = seen;
                return WalkResult::interrupt();
              }
              ++seen;
              return WalkResult::advance();
            });
            return std::make_pair(func.getName().str(), index);
          })
      .def_property_readonly(
          "block_name",
          [](const PyHandle &h) -> std::optional<std::string> {
            std::string error;
            auto values = h.schedule->state->getPayload(h.value, error);
            if (failed(values) || values->size() != 1)
              return std::nullopt;
            auto *op = dyn_cast_if_present<Operation *>(values->front());
            if (auto block = dyn_cast_if_present<tir::BlockOp>(op))
              return block.getBlockName().str();
            return std::nullopt;
          })
      // The names of the buffers the one block the handle holds reads or
      // writes, in the order of its reads / writes (TVM's buffer_index): an
      // allocation's name, a parameter's tir.name.
      .def_property_readonly(
          "read_buffer_names",
          [](const PyHandle &h) { return accessedBufferNames(h, true); })
      .def_property_readonly(
          "read_buffer_ranks",
          [](const PyHandle &h) { return accessedBufferRanks(h, true); })
      .def_property_readonly(
          "write_buffer_ranks",
          [](const PyHandle &h) { return accessedBufferRanks(h, false); })
      .def_property_readonly(
          "read_buffer_shapes",
          [](const PyHandle &h) { return accessedBufferShapes(h, true); })
      .def_property_readonly(
          "write_buffer_shapes",
          [](const PyHandle &h) { return accessedBufferShapes(h, false); })
      .def_property_readonly(
          "read_buffer_element_types",
          [](const PyHandle &h) { return accessedBufferElementTypes(h, true); })
      .def_property_readonly("write_buffer_element_types",
                             [](const PyHandle &h) {
                               return accessedBufferElementTypes(h, false);
                             })
      // The number of iteration variables of the one block the handle
      // holds.
      .def_property_readonly("num_iter_vars",
                             [](const PyHandle &h) -> std::optional<unsigned> {
                               tir::BlockOp block = singleBlock(h);
                               if (!block)
                                 return std::nullopt;
                               return block.getNumIterVars();
                             })
      // The annotations of the one block or loop the handle holds, as
      // (name, kind, value) with kind "bool", "int<bits>", "float", "str"
      // or "attr" (the value then the attribute's text).
      .def_property_readonly(
          "annotations",
          [](const PyHandle &h)
              -> std::optional<std::vector<
                  std::tuple<std::string, std::string, py::object>>> {
            std::string error;
            auto values = h.schedule->state->getPayload(h.value, error);
            if (failed(values) || values->size() != 1)
              return std::nullopt;
            auto *op = dyn_cast_if_present<Operation *>(values->front());
            if (!op)
              return std::nullopt;
            std::vector<std::tuple<std::string, std::string, py::object>> out;
            auto dict = op->getAttrOfType<DictionaryAttr>("annotations");
            for (NamedAttribute a :
                 dict ? dict.getValue() : ArrayRef<NamedAttribute>()) {
              std::string name = a.getName().str();
              Attribute v = a.getValue();
              if (auto b = dyn_cast<BoolAttr>(v))
                out.emplace_back(name, "bool", py::bool_(b.getValue()));
              else if (auto i = dyn_cast<IntegerAttr>(v);
                       i && i.getType().isSignlessInteger())
                out.emplace_back(
                    name,
                    "int" + std::to_string(i.getType().getIntOrFloatBitWidth()),
                    py::int_(i.getInt()));
              else if (auto f = dyn_cast<FloatAttr>(v))
                out.emplace_back(name, "float",
                                 py::float_(f.getValueAsDouble()));
              else if (auto s = dyn_cast<StringAttr>(v))
                out.emplace_back(name, "str", py::str(s.getValue().str()));
              else
                out.emplace_back(name, "attr", py::str(print(v)));
            }
            return out;
          })
      .def_property_readonly(
          "write_buffer_names",
          [](const PyHandle &h) { return accessedBufferNames(h, false); })
      .def_property_readonly(
          "params",
          [](const PyHandle &h) {
            std::vector<int64_t> ints;
            for (transform::MappedValue v : h.schedule->payload(h))
              if (auto attr = dyn_cast_if_present<IntegerAttr>(
                      dyn_cast_if_present<Attribute>(v)))
                ints.push_back(attr.getInt());
            return ints;
          })
      .def("exists",
           [](const PyHandle &h) {
             std::string error;
             return succeeded(h.schedule->state->getPayload(h.value, error));
           })
      .def("__str__",
           [](const PyHandle &h) {
             std::string error;
             auto values = h.schedule->state->getPayload(h.value, error);
             if (failed(values))
               return std::string("<erased>");
             std::string text;
             for (transform::MappedValue v : *values)
               if (auto *op = dyn_cast_if_present<Operation *>(v))
                 text += (text.empty() ? "" : "; ") + tir::describeOpHeader(op);
             return text;
           })
      // Two handles are equal when they hold the same blocks or loops (TVM
      // compares what random variables refer to, through sch.get).
      .def("__eq__",
           [](const PyHandle &a, const PyHandle &b) {
             if (a.schedule != b.schedule)
               return false;
             if (a.value == b.value)
               return true;
             std::string error;
             auto pa = a.schedule->state->getPayload(a.value, error);
             auto pb = b.schedule->state->getPayload(b.value, error);
             return succeeded(pa) && succeeded(pb) && llvm::equal(*pa, *pb);
           })
      .def("__hash__", [](const PyHandle &h) {
        std::string error;
        auto values = h.schedule->state->getPayload(h.value, error);
        if (succeeded(values) && !values->empty())
          return std::hash<void *>()(values->front().getOpaqueValue());
        return std::hash<void *>()(h.value.getAsOpaquePointer());
      });

  py::class_<PyTrace>(m, "Trace")
      .def_static("parse", &PyTrace::parse, py::arg("text"))
      .def("as_python", &PyTrace::asPython)
      .def("__str__", [](const PyTrace &t) { return print(t.module->get()); });

  using S = PySchedule;
  py::class_<S, std::shared_ptr<S>>(m, "Schedule")
      .def(py::init([](const PyModule &mod, bool verifyEachStep, int64_t seed) {
             return std::make_shared<S>(mod, verifyEachStep, seed);
           }),
           py::arg("module"), py::arg("verify_each_step") = true,
           py::arg("seed") = -1)
      .def("handle", &S::handleOf, py::arg("rv"))
      .def(
          "remove_rv",
          [](S &s, const PyRV &rv) {
            if (!s.state->forgetRandomVariable(rv.rv))
              throw ScheduleError(
                  "remove_rv: the random variable is not one of this "
                  "schedule's");
          },
          py::arg("rv"))
      .def("copy", [](S &s) { return std::make_shared<S>(s.state->copy()); })
      .def("seed", &S::reseed, py::arg("seed"))
      .def("fork_seed", [](S &s) { return s.state->forkSeed(); })
      .def_property_readonly("random_state",
                             [](S &s) { return s.state->getRandomState(); })
      .def("trace_model",
           [](S &s) {
             PyTraceModel model{s.state->getInstructions(), nullptr};
             ModuleOp trace = s.state->getTrace();
             if (!trace.getOps<func::FuncOp>().empty()) {
               OwningOpRef<ModuleOp> funcs =
                   ModuleOp::create(UnknownLoc::get(&context()));
               OpBuilder builder(&context());
               builder.setInsertionPointToEnd(funcs->getBody());
               for (auto func : trace.getOps<func::FuncOp>())
                 builder.clone(*func);
               model.carried =
                   std::make_shared<OwningOpRef<ModuleOp>>(std::move(funcs));
             }
             return model;
           })
      .def("apply_trace", &S::applyTrace, py::arg("trace"),
           py::arg("remove_postproc"), py::arg("decision_provider"))
      .def_property_readonly(
          "mod",
          [](S &s) { return PyModule::own(s.state->getPayload().clone()); })
      .def_property_readonly("root",
                             [](S &s) {
                               return PyHandle{s.shared_from_this(),
                                               s.state->getRoot()};
                             })
      .def("apply", &S::apply, py::arg("mnemonic"), py::arg("operands"),
           py::arg("attributes"), py::arg("num_results"))
      .def("trace",
           [](S &s) {
             return PyTrace{std::make_shared<OwningOpRef<ModuleOp>>(
                 s.state->getTrace().clone())};
           })
      .def("replay",
           [](S &s, const PyTrace &trace) {
             std::string error;
             if (failed(s.state->replay(trace.module->get(), error)))
               throw ScheduleError(error);
           })
      .def("can_decompose_padding",
           // TVM's can_decompose_padding: whether decompose_padding would
           // apply to the block at the loop (nothing is changed or traced).
           [](S &s, const PyHandle &block, const PyHandle &loop) {
             auto single = [&](const PyHandle &h) -> Operation * {
               ArrayRef<transform::MappedValue> values = s.payload(h);
               return values.size() == 1
                          ? dyn_cast_if_present<Operation *>(values[0])
                          : nullptr;
             };
             auto b = dyn_cast_if_present<tir::BlockOp>(single(block));
             auto l = dyn_cast_if_present<tir::ForOp>(single(loop));
             if (!b || !l)
               throw ScheduleError(
                   "can_decompose_padding takes a block and a loop");
             return tir::canDecomposePadding(b, l);
           })
      .def("loop_extent",
           // The extent of a loop that starts at 0 with a constant bound;
           // None otherwise.
           [](S &s, const PyHandle &h) -> std::optional<int64_t> {
             ArrayRef<transform::MappedValue> values = s.payload(h);
             auto *op = values.size() == 1
                            ? dyn_cast_if_present<Operation *>(values[0])
                            : nullptr;
             auto loop = dyn_cast_if_present<tir::ForOp>(op);
             if (!loop)
               throw ScheduleError("expected a loop");
             if (loop.getConstantLowerBound() != 0)
               return std::nullopt;
             return loop.getConstantUpperBound();
           });
  m.def("primitive_signature", &primitiveSignature, py::arg("mnemonic"));
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
  m.def(
      "register_tensor_intrin",
      [](const std::string &name, const PyModule &descModule,
         const std::string &descName, const PyModule &implModule,
         const std::string &implName, bool override) {
        auto desc = descModule.get().lookupSymbol<func::FuncOp>(descName);
        auto impl = implModule.get().lookupSymbol<func::FuncOp>(implName);
        if (!desc || !impl)
          throw py::value_error("tensor intrinsic '" + name +
                                "': no function @" +
                                (desc ? implName : descName));
        std::string error;
        if (failed(
                tir::registerTensorIntrin(name, desc, impl, override, error)))
          throw py::value_error(error);
      },
      py::arg("name"), py::arg("desc_module"), py::arg("desc"),
      py::arg("impl_module"), py::arg("impl"), py::arg("override") = false,
      "Registers tensor intrinsic `name`: function `desc` of desc_module "
      "and `impl` of impl_module.");
  m.def("tensor_intrin_registered", [](const std::string &name) {
    return tir::isTensorIntrinRegistered(name);
  });
  m.def("primitive_names", [] {
    // Every transform.tir op that is a schedule step, by mnemonic.
    std::vector<std::string> names;
    for (RegisteredOperationName name : context().getRegisteredOperations())
      if (name.getStringRef().starts_with("transform.tir.") &&
          name.hasInterface<tir::ScheduleOpInterface>())
        names.push_back(
            name.getStringRef().drop_front(strlen("transform.tir.")).str());
    return names;
  });
}
