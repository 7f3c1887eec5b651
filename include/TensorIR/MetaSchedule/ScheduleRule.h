//===- ScheduleRule.h - how a block is scheduled ----------------*- C++ -*-===//
//
// TVM's ScheduleRule: applied to one block of a schedule, a rule returns
// the schedules it makes of it (none, the schedule unchanged, or several
// alternatives, each a copy with its own steps). Post-order application
// (SpaceGenerator.h) applies each rule to every block, which is how a
// design space is built. FunctionScheduleRule is a rule given as
// functions (TVM's PyScheduleRule, which Python rules are).
//
//===----------------------------------------------------------------------===//

#ifndef TENSORIR_METASCHEDULE_SCHEDULERULE_H
#define TENSORIR_METASCHEDULE_SCHEDULERULE_H

#include "TensorIR/Dialect/TIR/TransformOps/ScheduleState.h"

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace mlir::tir::ms {

class TuneContext;

/// A schedule being built by the search: shared by the design spaces and
/// the rules (and the Python Schedules that wrap it).
using Schedule = std::shared_ptr<ScheduleState>;

class ScheduleRule {
public:
  virtual ~ScheduleRule();

  /// Reads what the rule needs from the task (the target's limits).
  virtual LogicalResult initializeWithTuneContext(const TuneContext &context,
                                                  std::string &error);
  /// The schedules the rule makes of `block` (a block handle of `sch`;
  /// the function itself is TVM's root block).
  virtual FailureOr<std::vector<Schedule>>
  apply(const Schedule &sch, Value block, std::string &error) = 0;
  /// A rule of the same settings, sharing nothing with this one.
  virtual FailureOr<std::shared_ptr<ScheduleRule>>
  clone(std::string &error) const = 0;
  /// TVM's repr: `meta_schedule.<Name>(0x...)` unless the rule says more.
  virtual std::string str() const = 0;

  /// Whether post-order application gives it the blocks annotated
  /// "schedule_rule" too, which all other rules leave alone (TVM's
  /// ApplyCustomRule).
  virtual bool isApplyCustomRule() const { return false; }
};

/// A rule given as functions (TVM's PyScheduleRule). A function not given
/// makes its method fail with "<name>'s <Method> method not implemented!",
/// as TVM's.
class FunctionScheduleRule : public ScheduleRule {
public:
  std::string name = "PyScheduleRule";
  std::function<LogicalResult(const TuneContext &, std::string &)> initializeFn;
  std::function<FailureOr<std::vector<Schedule>>(const Schedule &, Value,
                                                 std::string &)>
      applyFn;
  std::function<FailureOr<std::shared_ptr<ScheduleRule>>(std::string &)>
      cloneFn;
  std::function<std::string()> strFn;

  LogicalResult initializeWithTuneContext(const TuneContext &context,
                                          std::string &error) override;
  FailureOr<std::vector<Schedule>> apply(const Schedule &sch, Value block,
                                         std::string &error) override;
  FailureOr<std::shared_ptr<ScheduleRule>>
  clone(std::string &error) const override;
  std::string str() const override;
};

/// "<name>'s <method> method not implemented!" (TVM's words).
std::string notImplemented(StringRef name, StringRef method);

/// `fn(args..., error)`, the function of a Function* class, or a failure
/// saying `name`'s `method` is not implemented when it was not given.
template <typename Fn, typename... Args>
auto callGiven(const Fn &fn, StringRef name, StringRef method,
               std::string &error, Args &&...args)
    -> decltype(fn(std::forward<Args>(args)..., error)) {
  if (!fn) {
    error = notImplemented(name, method);
    return failure();
  }
  return fn(std::forward<Args>(args)..., error);
}

/// TVM's repr of an object without one of its own:
/// `meta_schedule.<name>(0x<address>)`.
std::string defaultRepr(StringRef name, const void *object);

} // namespace mlir::tir::ms

#endif // TENSORIR_METASCHEDULE_SCHEDULERULE_H
