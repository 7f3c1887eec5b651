//===- DefaultRules.cpp - TVM's default schedule rules per target ---------===//

#include "TensorIR/MetaSchedule/ScheduleRules.h"
#include "TensorIR/MetaSchedule/TuneContext.h"

#include "llvm/Support/Threading.h"

using namespace mlir;
using namespace mlir::tir;
using namespace mlir::tir::ms;

FailureOr<int64_t> mlir::tir::ms::getTargetNumCores(const TuneContext &context,
                                                    std::string &error) {
  std::optional<int64_t> cores =
      context.target ? context.target->getInt("num-cores") : std::nullopt;
  // A CPU target that does not say: this machine's physical cores (TVM
  // refuses such a target).
  if (!cores && context.target && context.target->getKind() == "llvm" &&
      llvm::get_physical_cores() > 0)
    cores = llvm::get_physical_cores();
  if (!cores) {
    // TVM's words.
    error = "Target does not have attribute \"num-cores\", physical core "
            "number must be defined! For example, on the local machine, the "
            "target must be \"llvm -num-cores <number of cores>\"";
    return failure();
  }
  return *cores;
}

FailureOr<std::vector<std::shared_ptr<ScheduleRule>>>
mlir::tir::ms::getDefaultScheduleRules(StringRef ruleKind, std::string &error) {
  if (ruleKind != "llvm") {
    error = "the default schedule rules of '" + ruleKind.str() +
            "' are not there yet";
    return failure();
  }
  MultiLevelTilingOptions tiling;
  tiling.structure = "SSRSRS";
  tiling.maxInnermostFactor = 64;
  tiling.reuseWrite = {ReuseConfig::Kind::May, {1, 2}, "global"};
  FailureOr<std::shared_ptr<ScheduleRule>> multiLevelTiling =
      createMultiLevelTiling(tiling, error);
  if (failed(multiLevelTiling))
    return failure();
  ParallelizeVectorizeUnrollOptions pvu;
  pvu.maxJobsPerCore = 16;
  pvu.maxVectorizeExtent = 64;
  pvu.unrollMaxSteps = {0, 16, 64, 512};
  pvu.unrollExplicit = true;
  return std::vector<std::shared_ptr<ScheduleRule>>{
      createApplyCustomRule(),
      createInlineConstantScalars(),
      createAutoInline(AutoInlineOptions()),
      createAddRFactor(/*maxJobsPerCore=*/16, /*maxInnermostFactor=*/64),
      *multiLevelTiling,
      createParallelizeVectorizeUnroll(pvu),
      createRandomComputeLocation(),
  };
}
