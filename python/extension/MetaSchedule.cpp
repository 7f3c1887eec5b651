//===- MetaSchedule.cpp - tvm.meta_schedule's native objects -------------===//
//
// The MetaSchedule library (lib/MetaSchedule) as Python sees it:
// TensorInfo and the arguments of a function, the profiler.
//
//===----------------------------------------------------------------------===//

#include "MetaSchedule.h"

#include "TensorIR/MetaSchedule/ArgInfo.h"
#include "TensorIR/MetaSchedule/Profiler.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

#include <pybind11/stl.h>

namespace py = pybind11;
using namespace mlir;
using namespace tirpy;

thread_local std::exception_ptr tirpy::pendingError;

LogicalResult tirpy::callPythonVoid(std::string &error,
                                    const std::function<void()> &body) {
  return success(succeeded(callPython<bool>(error, [&] {
    body();
    return true;
  })));
}

std::function<void(ms::LogLevel, const std::string &)>
tirpy::pythonLogger(py::object logger, const char *what) {
  return [logger, what](ms::LogLevel level, const std::string &message) {
    try {
      logger(static_cast<int>(level), message);
    } catch (py::error_already_set &e) {
      if (e.matches(PyExc_KeyboardInterrupt))
        PyErr_SetInterrupt();
      else
        e.discard_as_unraisable(what);
    }
  };
}

void tirpy::check(LogicalResult result, const std::string &error) {
  FailureOr<bool> done = failure();
  if (succeeded(result))
    done = true;
  check<bool>(done, error);
}

std::shared_ptr<PySchedule> tirpy::wrap(const ms::Schedule &sch) {
  return std::make_shared<PySchedule>(sch);
}

std::vector<std::shared_ptr<PySchedule>>
tirpy::wrapAll(const std::vector<ms::Schedule> &schs) {
  std::vector<std::shared_ptr<PySchedule>> out;
  for (const ms::Schedule &sch : schs)
    out.push_back(wrap(sch));
  return out;
}

std::vector<ms::Schedule> tirpy::unwrapAll(py::handle list) {
  std::vector<ms::Schedule> out;
  for (py::handle item : list)
    out.push_back(item.cast<PySchedule &>().state);
  return out;
}

OwningOpRef<ModuleOp> tirpy::moduleOrNull(py::handle module) {
  if (module.is_none())
    return {};
  return OwningOpRef<ModuleOp>(moduleOf(module).clone());
}

py::object tirpy::contextObject(const ms::TuneContext &context) {
  if (std::shared_ptr<const ms::TuneContext> owned =
          context.weak_from_this().lock())
    return py::cast(std::const_pointer_cast<ms::TuneContext>(owned));
  return py::cast(&context, py::return_value_policy::reference);
}

llvm::json::Value tirpy::jsonFromPython(py::handle object) {
  std::string text =
      py::module_::import("json").attr("dumps")(object).cast<std::string>();
  llvm::Expected<llvm::json::Value> json = llvm::json::parse(text);
  if (!json)
    throw py::value_error(llvm::toString(json.takeError()));
  return std::move(*json);
}

py::object tirpy::jsonToPython(const llvm::json::Value &json) {
  std::string text;
  llvm::raw_string_ostream(text) << json;
  return py::module_::import("json").attr("loads")(text);
}

void tirpy::bindMetaSchedule(py::module_ &m) {
  bindMetaScheduleSpace(m);
  bindMetaScheduleComponents(m);
  bindMetaScheduleDatabase(m);
  bindMetaScheduleSearch(m);
  bindMetaScheduleTuning(m);
  py::class_<ms::Profiler>(m, "Profiler",
                           "TVM's meta_schedule.Profiler: seconds per named "
                           "scope while it is the thread's current one.")
      .def(py::init<>())
      .def("enter", &ms::Profiler::enter)
      .def("exit", &ms::Profiler::exit)
      .def("get", &ms::Profiler::get)
      .def("table", &ms::Profiler::table)
      .def_static("current", &ms::Profiler::current,
                  py::return_value_policy::reference);
  py::class_<ms::Profiler::TimedScope>(m, "ProfilerTimedScope")
      .def(py::init<std::string>(), py::arg("name"))
      .def("stop", &ms::Profiler::TimedScope::stop);

  py::class_<ms::TensorInfo>(m, "TensorInfo",
                             "TVM's TensorInfo: a buffer argument's dtype "
                             "and static shape.")
      .def(py::init([](std::string dtype, std::vector<int64_t> shape) {
             return ms::TensorInfo{std::move(dtype), std::move(shape)};
           }),
           py::arg("dtype"), py::arg("shape"))
      .def_readonly("dtype", &ms::TensorInfo::dtype)
      .def_readonly("shape", &ms::TensorInfo::shape)
      .def("__str__", &ms::TensorInfo::str)
      .def("__eq__", &ms::TensorInfo::operator==)
      .def("as_json",
           [](const ms::TensorInfo &info) {
             return jsonToPython(info.toJSON());
           })
      .def_static(
          "from_json",
          [](py::handle json) {
            std::string error;
            FailureOr<ms::TensorInfo> info =
                ms::TensorInfo::fromJSON(jsonFromPython(json), error);
            if (failed(info))
              throw py::value_error(error);
            return *info;
          },
          py::arg("json"));
  m.def(
      "arg_info",
      [](py::handle module, const std::string &name) {
        auto func = moduleOf(module).lookupSymbol<func::FuncOp>(name);
        if (!func)
          throw py::key_error("no function '" + name + "' in the module");
        std::string error;
        auto infos = ms::getArgInfo(func, error);
        if (failed(infos))
          throw py::value_error(error);
        return *infos;
      },
      py::arg("module"), py::arg("name"),
      "TVM's ArgInfo.from_prim_func: a TensorInfo per argument of function "
      "`name`; ValueError for one that is not a buffer of static shape.");
}
