//===- Schedule.cpp - the imperative schedule from Python -----------------===//
//
// _tensorir.Schedule over tir::ScheduleState: the Python Schedule reaches
// every primitive through apply() (a transform.tir op by mnemonic, built in
// the trace and applied); handles are the trace's values, each with its
// random variable (Trace.h); copies, seeds, replays of traces with a
// decision provider; tensor intrinsics are registered by name. What the
// schedule is asked without a change is in ScheduleAnalysis.cpp.
//
//===----------------------------------------------------------------------===//

#include "Schedule.h"

#include "TensorIR/Dialect/TIR/IR/TIROps.h"
#include "TensorIR/Dialect/TIR/Schedule/Primitives.h"
#include "TensorIR/Dialect/TIR/Schedule/Query.h"
#include "TensorIR/Dialect/TIR/TransformOps/ScheduleTransforms.h"

#include "mlir/Interfaces/FunctionInterfaces.h"

#include <pybind11/stl.h>

namespace py = pybind11;
using namespace mlir;
using namespace tirpy;

namespace {

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

void tirpy::bindSchedule(py::module_ &m) {
  py::class_<PyHandle>(m, "Handle")
      .def_property_readonly("kind", &kindOf)
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
            // A function is TVM's root block.
            if (isa_and_present<FunctionOpInterface>(op))
              return std::string("root");
            return std::nullopt;
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
            // A function's are its root block's, when written out.
            if (auto func = dyn_cast<FunctionOpInterface>(op))
              if (tir::BlockOp root = tir::getExplicitRootBlock(func))
                op = root;
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
             if (a.schedule->state != b.schedule->state)
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

  using S = PySchedule;
  py::class_<S, std::shared_ptr<S>>(m, "Schedule")
      .def(py::init([](const PyModule &mod, bool verifyEachStep, int64_t seed,
                       const std::string &errorRendering) {
             return std::make_shared<S>(mod, verifyEachStep, seed,
                                        errorRendering);
           }),
           py::arg("module"), py::arg("verify_each_step") = true,
           py::arg("seed") = -1, py::arg("error_render_level") = "detail")
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
      .def("copy",
           [](S &s) {
             return std::make_shared<S>(
                 std::shared_ptr<tir::ScheduleState>(s.state->copy()));
           })
      // What the Python Schedule keeps with the state and its copies (the
      // module's global symbols), as text.
      .def_property(
          "client_data", [](S &s) { return s.state->getClientData(); },
          [](S &s, std::string data) {
            s.state->setClientData(std::move(data));
          })
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
      .def(
          "tile_with_tensor_intrin",
          // TVM's tile_with_tensor_intrin: the handle of the outermost
          // loop tiled like the intrinsic's description, or None.
          [](S &s, const PyHandle &block, const std::string &intrin,
             bool allowPadding) -> py::object {
            std::string error;
            FailureOr<std::optional<Value>> loop = tir::tileWithTensorIntrin(
                *s.state, s.unwrap(block), intrin, allowPadding, error);
            if (failed(loop))
              throw ScheduleError(error);
            if (!*loop)
              return py::none();
            return py::cast(PyHandle{s.shared_from_this(), **loop});
          },
          py::arg("block"), py::arg("intrin"), py::arg("allow_padding"));
  m.def("primitive_signature", &primitiveSignature, py::arg("mnemonic"));
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
