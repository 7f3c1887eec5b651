//===- Measure.h - what is built and measured -------------------*- C++ -*-===//
//
// TVM's MeasureCandidate (a schedule the search sends for measurement,
// with the arguments to run it on), BuilderResult (where the built
// artifact is, or why it was not built) and RunnerResult (the run times,
// or why it did not run).
//
//===----------------------------------------------------------------------===//

#ifndef TENSORIR_METASCHEDULE_MEASURE_H
#define TENSORIR_METASCHEDULE_MEASURE_H

#include "TensorIR/MetaSchedule/ArgInfo.h"
#include "TensorIR/MetaSchedule/ScheduleRule.h"

namespace mlir::tir::ms {

struct MeasureCandidate {
  Schedule sch;
  std::vector<TensorInfo> argsInfo;
};

/// The candidate of `sch`: its arguments are those of the entry function
/// of its module (TVM's ArgInfo::FromEntryFunc).
FailureOr<MeasureCandidate> makeMeasureCandidate(const Schedule &sch,
                                                 std::string &error);

struct BuilderResult {
  std::optional<std::string> artifactPath;
  std::optional<std::string> errorMsg;
};

struct RunnerResult {
  std::optional<std::vector<double>> runSecs;
  std::optional<std::string> errorMsg;
};

} // namespace mlir::tir::ms

#endif // TENSORIR_METASCHEDULE_MEASURE_H
