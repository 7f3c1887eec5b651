//===- Schedule.cpp - the imperative schedule from Python -----------------===//
//
// _tensorir.Schedule over tir::ScheduleState: the Python Schedule reaches
// every primitive through apply() (a transform.tir op by mnemonic, built in
// the trace and applied); handles are the trace's values, each with its
// random variable (Trace.h); copies, seeds, replays of traces with a
// decision provider; tensor intrinsics are registered by name.
//
//===----------------------------------------------------------------------===//

#include "Extension.h"
#include "Nodes.h"
#include "Trace.h"

#include "TensorIR/Dialect/TIR/Analysis/AccessRegions.h"
#include "TensorIR/Dialect/TIR/Analysis/BlockScope.h"
#include "TensorIR/Dialect/TIR/IR/TIROps.h"
#include "TensorIR/Dialect/TIR/Schedule/Analysis.h"
#include "TensorIR/Dialect/TIR/Schedule/Primitives.h"
#include "TensorIR/Dialect/TIR/Schedule/Query.h"
#include "TensorIR/Dialect/TIR/TransformOps/ScheduleState.h"
#include "TensorIR/Dialect/TIR/TransformOps/ScheduleTransforms.h"

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

struct PySchedule : std::enable_shared_from_this<PySchedule> {
  std::unique_ptr<tir::ScheduleState> state;

  PySchedule(const PyModule &m, bool verifyEachStep, int64_t seed,
             const std::string &errorRendering) {
    tir::ScheduleOptions options;
    options.verifyEachStep = verifyEachStep;
    using Rendering = tir::ScheduleOptions::ErrorRendering;
    if (errorRendering == "detail")
      options.errorRendering = Rendering::Detail;
    else if (errorRendering == "fast")
      options.errorRendering = Rendering::Fast;
    else if (errorRendering == "none")
      options.errorRendering = Rendering::None;
    else
      throw py::value_error("error_render_level is \"detail\", \"fast\" or "
                            "\"none\", got '" +
                            errorRendering + "'");
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
//===----------------------------------------------------------------------===//
// Statements by position (TVM's StmtSRef: a block or loop of a function)
//===----------------------------------------------------------------------===//

/// A statement's position: its kind ("block" or "loop") and index among
/// the function's ops of that kind in pre-order (a block's index -1: the
/// function itself, TVM's root block), as the Python nodes number them.
using StmtPosition = std::pair<std::string, int>;

static StringRef opNameOf(const std::string &kind) {
  return kind == "block" ? tir::BlockOp::getOperationName()
                         : tir::ForOp::getOperationName();
}

/// The function `name` of the schedule's module.
static FunctionOpInterface functionNamed(ModuleOp module,
                                         const std::string &name) {
  for (auto func : module.getOps<FunctionOpInterface>())
    if (func.getName() == name)
      return func;
  throw py::index_error("no function named '" + name + "' in the module");
}

/// The op at `position` in `func`.
static Operation *opAt(FunctionOpInterface func, const StmtPosition &position) {
  auto &[kind, index] = position;
  if (kind == "block" && index == -1)
    return func;
  StringRef name = opNameOf(kind);
  Operation *found = nullptr;
  int seen = 0;
  func->walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (op->getName().getStringRef() != name)
      return WalkResult::advance();
    if (seen++ == index) {
      found = op;
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  if (!found)
    throw py::index_error("no " + kind + " at index " + std::to_string(index) +
                          " of function '" + func.getName().str() + "'");
  return found;
}

/// The position of `op` (a block, a loop or the function).
static StmtPosition positionOf(Operation *op) {
  if (isa<FunctionOpInterface>(op))
    return {"block", -1};
  auto func = op->getParentOfType<FunctionOpInterface>();
  int index = 0, found = -1;
  func->walk<WalkOrder::PreOrder>([&](Operation *other) {
    if (other == op) {
      found = index;
      return WalkResult::interrupt();
    }
    if (other->getName() == op->getName())
      ++index;
    return WalkResult::advance();
  });
  return {isa<tir::BlockOp>(op) ? "block" : "loop", found};
}

static tir::BlockOp singleBlock(const PyHandle &h) {
  std::string error;
  auto values = h.schedule->state->getPayload(h.value, error);
  if (failed(values) || values->size() != 1)
    return {};
  return dyn_cast_if_present<tir::BlockOp>(
      dyn_cast_if_present<Operation *>(values->front()));
}

/// The one block `h` holds, for `primitive` (ScheduleError otherwise).
static tir::BlockOp oneBlock(const PyHandle &h, const char *primitive) {
  tir::BlockOp block = singleBlock(h);
  if (!block)
    throw ScheduleError(std::string(primitive) + " takes one block");
  return block;
}

/// Function `name` of a tensor intrinsic's description module.
static func::FuncOp descriptionFunction(const PyModule &desc,
                                        const std::string &name) {
  auto func = dyn_cast_if_present<func::FuncOp>(
      SymbolTable::lookupSymbolIn(desc.get(), name));
  if (!func)
    throw py::value_error("no function named '" + name +
                          "' in the description's module");
  return func;
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
      // Where the one block or loop the handle holds is: (its function's
      // name, its index among the function's blocks -- or loops -- in
      // pre-order; -1 for the function, get_block("root")), which is where
      // the IR's Python nodes have it; None for anything else.
      .def_property_readonly(
          "position",
          [](const PyHandle &h) -> std::optional<std::pair<std::string, int>> {
            std::string error;
            auto values = h.schedule->state->getPayload(h.value, error);
            if (failed(values) || values->size() != 1)
              return std::nullopt;
            auto *op = dyn_cast_if_present<Operation *>(values->front());
            if (auto root = dyn_cast_if_present<FunctionOpInterface>(op))
              return std::make_pair(root.getName().str(), -1);
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
      .def(
          "block_flags",
          // TVM's cached flags of the block at `index` of function
          // `func_name` (-1: the root): (affine_binding, region_cover,
          // stage_pipeline).
          [](S &s, const std::string &funcName, int index) {
            Operation *op = opAt(functionNamed(s.state->getPayload(), funcName),
                                 {"block", index});
            tir::BlockFlags flags = tir::getBlockFlags(op);
            return std::make_tuple(flags.affineBinding, flags.regionCover,
                                   flags.stagePipeline);
          },
          py::arg("func_name"), py::arg("index"))
      .def(
          "block_dependences",
          // TVM's BlockScope of the block at `index` (-1: the root): the
          // dependences among its child blocks, as (src, dst, kind) with
          // blocks by index and kind 0 RAW, 1 WAW, 2 WAR, in program order of
          // the later block, then of the earlier.
          [](S &s, const std::string &funcName, int index) {
            Operation *root =
                opAt(functionNamed(s.state->getPayload(), funcName),
                     {"block", index});
            tir::BlockDependences scope(tir::getScopeBlocks(root));
            std::vector<std::tuple<int, int, int>> deps;
            for (tir::BlockOp dst : scope.getBlocks())
              for (const tir::Dependence &d : scope.getDependences(dst))
                deps.emplace_back(positionOf(d.src).second,
                                  positionOf(d.dst).second,
                                  static_cast<int>(d.kind));
            return deps;
          },
          py::arg("func_name"), py::arg("index"))
      .def(
          "stmt_parent",
          // The position of the block or loop enclosing the statement at
          // `position` (TVM's StmtSRef.parent); None for the root.
          [](S &s, const std::string &funcName,
             const StmtPosition &position) -> std::optional<StmtPosition> {
            Operation *op =
                opAt(functionNamed(s.state->getPayload(), funcName), position);
            if (isa<FunctionOpInterface>(op))
              return std::nullopt;
            for (Operation *p = op->getParentOp(); p; p = p->getParentOp())
              if (isa<tir::BlockOp, tir::ForOp, FunctionOpInterface>(p))
                return positionOf(p);
            return std::nullopt;
          },
          py::arg("func_name"), py::arg("position"))
      .def(
          "tensorize_loop_mapping",
          // TVM's get_tensorize_loop_mapping of the block `block` holds
          // against function `desc_name` of `desc`: None, or (pairs of the
          // position of a loop of the block's function and the index of the
          // description loop it stands for (outermost first), the paddings
          // per iteration variable or None).
          [](S &s, const PyHandle &block, const PyModule &desc,
             const std::string &descName, bool allowPadding) -> py::object {
            tir::BlockOp blockOp =
                oneBlock(block, "get_tensorize_loop_mapping");
            func::FuncOp descFunc = descriptionFunction(desc, descName);
            tir::Refusal why;
            FailureOr<tir::TensorizeLoopMapping> mapping =
                tir::getTensorizeLoopMapping(blockOp, descFunc, allowPadding,
                                             why);
            if (failed(mapping))
              return py::none();
            std::vector<std::pair<int, unsigned>> pairs;
            for (auto [loop, index] : mapping->loopMap)
              pairs.emplace_back(positionOf(loop).second, index);
            py::object paddings = py::none();
            if (mapping->blockIterPaddings)
              paddings = py::cast(
                  std::vector<int64_t>(mapping->blockIterPaddings->begin(),
                                       mapping->blockIterPaddings->end()));
            return py::make_tuple(pairs, paddings);
          },
          py::arg("block"), py::arg("desc"), py::arg("desc_name"),
          py::arg("allow_padding"))
      .def(
          "auto_tensorize_mapping",
          // TVM's get_auto_tensorize_mapping_info of the block `block`
          // holds against function `desc_name` of `desc`: None, or (the
          // mapping's final indices over `vars` (one node variable per
          // iteration variable of the block), pairs of a buffer's name in
          // the block and the position of the description parameter it
          // stands for).
          [](S &s, const PyHandle &block, const PyModule &desc,
             const std::string &descName, const std::vector<py::object> &vars,
             py::object classes) -> py::object {
            tir::BlockOp blockOp =
                oneBlock(block, "get_auto_tensorize_mapping_info");
            func::FuncOp descFunc = descriptionFunction(desc, descName);
            if (vars.size() != blockOp.getNumIterVars())
              throw py::value_error("one variable per iteration variable");
            tir::Refusal why;
            FailureOr<tir::AutoTensorizeMapping> mapping =
                tir::getAutoTensorizeMapping(blockOp, descFunc, why);
            if (failed(mapping))
              return py::none();
            nodes::NodeBuilder builder(std::move(classes));
            py::list finals;
            for (AffineExpr e : mapping->mapping.getResults())
              finals.append(builder.indexExpr(e, vars));
            py::list buffers;
            for (auto [lhs, rhs] : mapping->bufferMap) {
              // A description buffer that is not a parameter (allocated
              // inside it) has no place in TVM's lhs_buffer_map.
              auto param = dyn_cast<BlockArgument>(rhs);
              if (param &&
                  isa<FunctionOpInterface>(param.getOwner()->getParentOp()))
                buffers.append(py::make_tuple(tir::getBufferName(lhs),
                                              param.getArgNumber()));
            }
            return py::make_tuple(finals, buffers);
          },
          py::arg("block"), py::arg("desc"), py::arg("desc_name"),
          py::arg("vars"), py::arg("classes"))
      .def(
          "is_output_block",
          // TVM's is_output_block of the one block `block` holds.
          [](S &s, const PyHandle &block) {
            return tir::isOutputBlock(oneBlock(block, "is_output_block"));
          },
          py::arg("block"))
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
          py::arg("block"), py::arg("intrin"), py::arg("allow_padding"))
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
