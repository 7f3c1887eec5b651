//===- Schedule.h - the imperative schedule from Python ---------*- C++ -*-===//
//
// The extension's Schedule (a tir::ScheduleState) and its handles, shared by
// the schedule's bindings (Schedule.cpp: steps, traces, seeds) and its
// queries (ScheduleAnalysis.cpp: statements by position, cached flags,
// block scopes, the analyses of auto-scheduling rules).
//
//===----------------------------------------------------------------------===//

#ifndef TENSORIR_PYTHON_EXTENSION_SCHEDULE_H
#define TENSORIR_PYTHON_EXTENSION_SCHEDULE_H

#include "Extension.h"
#include "Trace.h"

#include "TensorIR/Dialect/TIR/TransformOps/ScheduleState.h"

#include <map>
#include <memory>

namespace tirpy {

namespace py = pybind11;

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
  /// Shared with the MetaSchedule library, which hands the states it
  /// schedules to Python rules (each crossing wraps the state anew: two
  /// wrappers of one state are the same schedule).
  std::shared_ptr<tir::ScheduleState> state;

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
  explicit PySchedule(std::shared_ptr<tir::ScheduleState> state)
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
    if (h.schedule->state != state)
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

} // namespace tirpy

#endif // TENSORIR_PYTHON_EXTENSION_SCHEDULE_H
