//===- ScheduleRule.cpp - how a block is scheduled ------------------------===//

#include "TensorIR/MetaSchedule/ScheduleRule.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::tir::ms;

std::string mlir::tir::ms::notImplemented(StringRef name, StringRef method) {
  return (name + "'s " + method + " method not implemented!").str();
}

std::string mlir::tir::ms::defaultRepr(StringRef name, const void *object) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "meta_schedule." << name << "(0x"
     << llvm::format_hex_no_prefix(reinterpret_cast<uintptr_t>(object), 12)
     << ")";
  return text;
}

ScheduleRule::~ScheduleRule() = default;

LogicalResult ScheduleRule::initializeWithTuneContext(const TuneContext &,
                                                      std::string &) {
  return success();
}

LogicalResult
FunctionScheduleRule::initializeWithTuneContext(const TuneContext &context,
                                                std::string &error) {
  return callGiven(initializeFn, name, "InitializeWithTuneContext", error,
                   context);
}

FailureOr<std::vector<Schedule>>
FunctionScheduleRule::apply(const Schedule &sch, Value block,
                            std::string &error) {
  return callGiven(applyFn, name, "Apply", error, sch, block);
}

FailureOr<std::shared_ptr<ScheduleRule>>
FunctionScheduleRule::clone(std::string &error) const {
  return callGiven(cloneFn, name, "Clone", error);
}

std::string FunctionScheduleRule::str() const {
  return strFn ? strFn() : defaultRepr(name, this);
}
