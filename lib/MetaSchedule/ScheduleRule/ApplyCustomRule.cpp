//===- ApplyCustomRule.cpp - TVM's ApplyCustomRule ------------------------===//
//
// A block annotated "schedule_rule" = NAME is scheduled by the function a
// program registered as "meta_schedule.<target key>.<NAME>" (the first key
// of the target's that has one), which returns the schedules it makes; the
// other rules leave such blocks alone. Where no key has one, a warning
// names the functions looked for and the annotation is removed (the block
// is then the other rules' again), as TVM does. The functions live in the
// registry of whoever embeds the library (the Python package's global
// functions), reached through setCustomRuleLookup.
//
//===----------------------------------------------------------------------===//

#include "TensorIR/MetaSchedule/Analysis.h"
#include "TensorIR/MetaSchedule/ScheduleRules.h"
#include "TensorIR/MetaSchedule/ScheduleSteps.h"
#include "TensorIR/MetaSchedule/TuneContext.h"

#include <mutex>

using namespace mlir;
using namespace mlir::tir;
using namespace mlir::tir::ms;

namespace {

std::mutex lookupMutex;
std::function<CustomRule(StringRef)> &customRuleLookup() {
  static std::function<CustomRule(StringRef)> lookup;
  return lookup;
}

CustomRule findCustomRule(StringRef name) {
  std::function<CustomRule(StringRef)> lookup;
  {
    std::lock_guard<std::mutex> lock(lookupMutex);
    lookup = customRuleLookup();
  }
  return lookup ? lookup(name) : CustomRule();
}

class ApplyCustomRule : public ScheduleRule {
public:
  LogicalResult initializeWithTuneContext(const TuneContext &context,
                                          std::string &error) override {
    if (!context.target) {
      error = "ValueError: Target is not defined in the tune context.";
      return failure();
    }
    keys.clear();
    if (const llvm::json::Array *list =
            context.target->getOptions().getArray("keys"))
      for (const llvm::json::Value &key : *list)
        if (std::optional<StringRef> s = key.getAsString())
          keys.push_back(s->str());
    logger = context.logger;
    initialized = true;
    return success();
  }

  FailureOr<std::vector<Schedule>> apply(const Schedule &sch, Value block,
                                         std::string &error) override {
    if (!initialized) {
      error = "ValueError: ApplyCustomRule is not initialized with "
              "TuneContext that has a Target.";
      return failure();
    }
    ScheduleSteps steps(*sch, error);
    BlockOp op = steps.getBlockOp(block);
    auto name =
        op ? dyn_cast_if_present<StringAttr>(getAnnotation(op, "schedule_rule"))
           : StringAttr();
    if (!name || name.getValue() == "None")
      return std::vector<Schedule>{sch};
    std::string checked;
    for (const std::string &key : keys) {
      std::string function =
          ("meta_schedule." + key + "." + name.getValue()).str();
      if (CustomRule rule = findCustomRule(function))
        return rule(sch, block, error);
      checked += "\n  " + function;
    }
    if (logger)
      logger(LogLevel::Warning,
             "Unknown schedule rule \"" + name.getValue().str() +
                 "\" for target keys \"" + llvm::join(keys, ", ") +
                 "\". Checked functions:" + checked);
    if (failed(steps.unannotate(block, "schedule_rule")))
      return failure();
    return std::vector<Schedule>{sch};
  }

  FailureOr<std::shared_ptr<ScheduleRule>> clone(std::string &) const override {
    return std::shared_ptr<ScheduleRule>(
        std::make_shared<ApplyCustomRule>(*this));
  }
  std::string str() const override {
    return defaultRepr("ApplyCustomRule", this);
  }
  bool isApplyCustomRule() const override { return true; }

private:
  std::vector<std::string> keys;
  std::function<void(LogLevel, const std::string &)> logger;
  bool initialized = false;
};

} // namespace

void mlir::tir::ms::setCustomRuleLookup(
    std::function<CustomRule(StringRef)> lookup) {
  std::lock_guard<std::mutex> lock(lookupMutex);
  customRuleLookup() = std::move(lookup);
}

std::shared_ptr<ScheduleRule> mlir::tir::ms::createApplyCustomRule() {
  return std::make_shared<ApplyCustomRule>();
}
