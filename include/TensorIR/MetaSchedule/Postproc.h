//===- Postproc.h - what completes a sampled schedule -----------*- C++ -*-===//
//
// TVM's Postproc: applied to each schedule the search samples, after the
// design space's steps (from EnterPostproc on), it turns annotations into
// steps (parallel, vectorize, unroll), rewrites what the rules left for
// later, or rejects a schedule that cannot be built (false).
// FunctionPostproc is one given as functions (TVM's PyPostproc).
//
//===----------------------------------------------------------------------===//

#ifndef TENSORIR_METASCHEDULE_POSTPROC_H
#define TENSORIR_METASCHEDULE_POSTPROC_H

#include "TensorIR/MetaSchedule/ScheduleRule.h"

namespace mlir::tir::ms {

class Postproc {
public:
  virtual ~Postproc();

  virtual LogicalResult initializeWithTuneContext(const TuneContext &context,
                                                  std::string &error);
  /// Completes `sch` in place; false rejects it.
  virtual FailureOr<bool> apply(const Schedule &sch, std::string &error) = 0;
  virtual FailureOr<std::shared_ptr<Postproc>>
  clone(std::string &error) const = 0;
  virtual std::string str() const = 0;
  /// Whether apply may run on several threads at once, as the
  /// evolutionary search runs it: the library's own do; one given as
  /// functions (Python's, which need the interpreter) does not.
  virtual bool isThreadSafe() const { return true; }
};

/// A postprocessor given as functions (TVM's PyPostproc).
class FunctionPostproc : public Postproc {
public:
  std::string name = "PyPostproc";
  std::function<LogicalResult(const TuneContext &, std::string &)> initializeFn;
  std::function<FailureOr<bool>(const Schedule &, std::string &)> applyFn;
  std::function<FailureOr<std::shared_ptr<Postproc>>(std::string &)> cloneFn;
  std::function<std::string()> strFn;

  LogicalResult initializeWithTuneContext(const TuneContext &context,
                                          std::string &error) override;
  FailureOr<bool> apply(const Schedule &sch, std::string &error) override;
  FailureOr<std::shared_ptr<Postproc>> clone(std::string &error) const override;
  std::string str() const override;
  bool isThreadSafe() const override { return false; }
};

} // namespace mlir::tir::ms

#endif // TENSORIR_METASCHEDULE_POSTPROC_H
