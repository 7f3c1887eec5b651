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

/// TVM's ScheduleRule::DefaultLLVM.
static FailureOr<std::vector<std::shared_ptr<ScheduleRule>>>
getLLVMRules(std::string &error) {
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
      createAutoInline(getDefaultAutoInlineOptions(/*gpu=*/false)),
      createAddRFactor(/*maxJobsPerCore=*/16, /*maxInnermostFactor=*/64),
      *multiLevelTiling,
      createParallelizeVectorizeUnroll(pvu),
      createRandomComputeLocation(),
  };
}

/// TVM's ScheduleRule::DefaultCUDA: tiles bound to blockIdx / vthread /
/// threadIdx with shared-memory read and local write caches, inlining in
/// both directions, cross-thread reductions, unrolling, and the remaining
/// blocks bound to threads.
static FailureOr<std::vector<std::shared_ptr<ScheduleRule>>>
getCUDARules(std::string &error) {
  MultiLevelTilingOptions tiling;
  tiling.structure = "SSSRRSRS";
  tiling.tileBinds = {"blockIdx.x", "vthread.x", "threadIdx.x"};
  tiling.maxInnermostFactor = 64;
  tiling.vectorLoadLens = {1, 2, 3, 4, 8, 16};
  tiling.reuseRead = {ReuseConfig::Kind::Must, {4}, "shared"};
  tiling.reuseWrite = {ReuseConfig::Kind::Must, {3}, "local"};
  FailureOr<std::shared_ptr<ScheduleRule>> multiLevelTiling =
      createMultiLevelTiling(tiling, error);
  if (failed(multiLevelTiling))
    return failure();
  FailureOr<std::shared_ptr<ScheduleRule>> crossThreadReduction =
      createCrossThreadReduction({4, 8, 16, 32, 64, 128, 256, 512}, error);
  if (failed(crossThreadReduction))
    return failure();
  ParallelizeVectorizeUnrollOptions pvu;
  pvu.maxJobsPerCore = -1;
  pvu.maxVectorizeExtent = -1;
  pvu.unrollMaxSteps = {0, 16, 64, 512, 1024};
  pvu.unrollExplicit = true;
  return std::vector<std::shared_ptr<ScheduleRule>>{
      createApplyCustomRule(),
      *multiLevelTiling,
      createInlineConstantScalars(),
      createAutoInline(getDefaultAutoInlineOptions(/*gpu=*/true)),
      *crossThreadReduction,
      createParallelizeVectorizeUnroll(pvu),
      createAutoBind(/*maxThreadblocks=*/256, {32, 64, 128, 256, 512, 1024}),
  };
}

/// TVM's DefaultCUDATensorCore: MultiLevelTilingTensorCore over the WMMA
/// intrinsic groups (f16 x f16 -> f32 or f16, s8 x s8 -> s32; B transposed
/// or not), then the cuda rules. Fails when the intrinsics are not
/// registered (tvm.tir.tensor_intrin.cuda).
static FailureOr<std::vector<std::shared_ptr<ScheduleRule>>>
getCUDATensorCoreRules(std::string &error) {
  std::vector<TensorCoreIntrinGroup> groups;
  for (auto [in, out] : {std::pair<StringRef, StringRef>{"f16", "f32"},
                         {"f16", "f16"},
                         {"s8", "s32"}})
    for (bool trans : {false, true}) {
      std::string suffix = trans ? "_trans" : "";
      groups.push_back(
          {("wmma_fill_16x16x16_" + out).str(),
           ("wmma_load_16x16x16_" + in + "_a_shared_dyn").str(),
           ("wmma_load_16x16x16_" + in + "_b").str() + suffix + "_shared_dyn",
           ("wmma_sync_16x16x16_" + in + in + out).str() + suffix,
           ("wmma_store_16x16x16_" + out + "_shared_dyn").str()});
    }
  MultiLevelTilingOptions tiling;
  tiling.structure = "SSSRRSRS";
  tiling.tileBinds = {"blockIdx.y", "blockIdx.x", "threadIdx.y"};
  tiling.maxInnermostFactor = 4;
  tiling.vectorLoadLens = {1, 2, 3, 4, 8, 16};
  tiling.reuseRead = {ReuseConfig::Kind::Must, {4}, "shared.dyn"};
  tiling.reuseWrite = {ReuseConfig::Kind::Must, {2}, "shared.dyn"};
  FailureOr<std::shared_ptr<ScheduleRule>> tensorCore =
      createMultiLevelTilingTensorCore(std::move(groups), tiling,
                                       /*useSoftwarePipeline=*/false, error);
  if (failed(tensorCore))
    return failure();
  FailureOr<std::vector<std::shared_ptr<ScheduleRule>>> rules =
      getCUDARules(error);
  if (failed(rules))
    return failure();
  rules->insert(rules->begin(), *tensorCore);
  return rules;
}

AutoInlineOptions mlir::tir::ms::getDefaultAutoInlineOptions(bool gpu) {
  AutoInlineOptions inlining;
  if (!gpu)
    return inlining;
  inlining.intoProducer = true;
  inlining.intoConsumer = true;
  inlining.inlineConstTensor = true;
  inlining.disallowIfThenElse = false;
  inlining.requireInjective = false;
  inlining.requireOrdered = false;
  inlining.disallowOps = {};
  return inlining;
}

FailureOr<std::vector<std::shared_ptr<ScheduleRule>>>
mlir::tir::ms::getDefaultScheduleRules(StringRef ruleKind, std::string &error) {
  if (ruleKind == "llvm")
    return getLLVMRules(error);
  if (ruleKind == "cuda")
    return getCUDARules(error);
  if (ruleKind == "cuda-tensorcore")
    return getCUDATensorCoreRules(error);
  error = "the default schedule rules of '" + ruleKind.str() +
          "' are not there yet";
  return failure();
}
