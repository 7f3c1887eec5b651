//===- Mutator.h - how the search varies a schedule -------------*- C++ -*-===//
//
// TVM's Mutator: from the trace of a measured schedule, a trace with one
// decision changed (a tile size, a compute location, an unroll depth, a
// parallel extent), or none when it finds nothing to change. The
// evolutionary search picks a mutator by its probability.
// FunctionMutator is one given as functions (TVM's PyMutator).
//
//===----------------------------------------------------------------------===//

#ifndef TENSORIR_METASCHEDULE_MUTATOR_H
#define TENSORIR_METASCHEDULE_MUTATOR_H

#include "TensorIR/MetaSchedule/ScheduleRule.h"

namespace mlir::tir::ms {

class Mutator {
public:
  virtual ~Mutator();

  virtual LogicalResult initializeWithTuneContext(const TuneContext &context,
                                                  std::string &error);
  /// A variation of `trace`, drawing from `randState`; std::nullopt when
  /// there is nothing to vary.
  virtual FailureOr<std::optional<Trace>> apply(const Trace &trace,
                                                RandomEngine::State &randState,
                                                std::string &error) = 0;
  virtual FailureOr<std::shared_ptr<Mutator>>
  clone(std::string &error) const = 0;
  virtual std::string str() const = 0;
  /// Whether apply may run on several threads at once, as the
  /// evolutionary search runs it: the library's own do; one given as
  /// functions (Python's, which need the interpreter) does not.
  virtual bool isThreadSafe() const { return true; }
};

/// A mutator given as functions (TVM's PyMutator).
class FunctionMutator : public Mutator {
public:
  std::string name = "PyMutator";
  std::function<LogicalResult(const TuneContext &, std::string &)> initializeFn;
  std::function<FailureOr<std::optional<Trace>>(
      const Trace &, RandomEngine::State &, std::string &)>
      applyFn;
  std::function<FailureOr<std::shared_ptr<Mutator>>(std::string &)> cloneFn;
  std::function<std::string()> strFn;

  LogicalResult initializeWithTuneContext(const TuneContext &context,
                                          std::string &error) override;
  FailureOr<std::optional<Trace>> apply(const Trace &trace,
                                        RandomEngine::State &randState,
                                        std::string &error) override;
  FailureOr<std::shared_ptr<Mutator>> clone(std::string &error) const override;
  std::string str() const override;
  bool isThreadSafe() const override { return false; }
};

} // namespace mlir::tir::ms

#endif // TENSORIR_METASCHEDULE_MUTATOR_H
