//===- CostModel.h - how the search ranks candidates ------------*- C++ -*-===//
//
// TVM's CostModel: a score per candidate (higher: expected faster), which
// the evolutionary search ranks its population by, updated with measured
// results. FunctionCostModel is one given as functions (TVM's
// PyCostModel: its RandomModel is written so); XGBModel is TVM's learned
// model, in C++ over XGBoost's C API.
//
//===----------------------------------------------------------------------===//

#ifndef TENSORIR_METASCHEDULE_COSTMODEL_H
#define TENSORIR_METASCHEDULE_COSTMODEL_H

#include "TensorIR/MetaSchedule/FeatureExtractor.h"
#include "TensorIR/MetaSchedule/Measure.h"

namespace mlir::tir::ms {

class TuneContext;

class CostModel {
public:
  virtual ~CostModel();
  virtual LogicalResult load(StringRef path, std::string &error) = 0;
  virtual LogicalResult save(StringRef path, std::string &error) = 0;
  virtual LogicalResult update(const TuneContext &context,
                               const std::vector<MeasureCandidate> &candidates,
                               const std::vector<RunnerResult> &results,
                               std::string &error) = 0;
  virtual FailureOr<std::vector<double>>
  predict(const TuneContext &context,
          const std::vector<MeasureCandidate> &candidates,
          std::string &error) = 0;
  virtual std::string str() const = 0;
};

class FunctionCostModel : public CostModel {
public:
  std::string name = "PyCostModel";
  std::function<LogicalResult(StringRef, std::string &)> loadFn, saveFn;
  std::function<LogicalResult(const TuneContext &,
                              const std::vector<MeasureCandidate> &,
                              const std::vector<RunnerResult> &, std::string &)>
      updateFn;
  std::function<FailureOr<std::vector<double>>(
      const TuneContext &, const std::vector<MeasureCandidate> &,
      std::string &)>
      predictFn;
  std::function<std::string()> strFn;

  LogicalResult load(StringRef path, std::string &error) override;
  LogicalResult save(StringRef path, std::string &error) override;
  LogicalResult update(const TuneContext &context,
                       const std::vector<MeasureCandidate> &candidates,
                       const std::vector<RunnerResult> &results,
                       std::string &error) override;
  FailureOr<std::vector<double>>
  predict(const TuneContext &context,
          const std::vector<MeasureCandidate> &candidates,
          std::string &error) override;
  std::string str() const override;
};

/// TVM's XGBModel settings (XGBConfig and the model's own).
struct XGBOptions {
  int64_t maxDepth = 10;
  double gamma = 0.001;
  double minChildWeight = 0;
  double eta = 0.2;
  int64_t seed = 43;
  /// XGBoost's threads (0: one per physical core).
  int64_t numThreads = 0;
  /// Candidates measured before predictions stop being random.
  int64_t numWarmupSamples = 100;
  int64_t earlyStoppingRounds = 50;
  int64_t maxRounds = 10000;
  /// Retrain only once the data grew by a fifth.
  bool adaptiveTraining = true;
};

/// TVM's XGBoost cost model (CostModel/XGBModel.cpp) over the features of
/// `extractor`; fails when tir was built without XGBoost.
FailureOr<std::shared_ptr<CostModel>>
createXGBModel(std::shared_ptr<FeatureExtractor> extractor, XGBOptions options,
               std::string &error);

/// What an XGBModel has trained on (TVM's XGBModel.data): per workload
/// (its structural hash), the features and costs (mean run seconds) of
/// each measured candidate.
struct XGBModelGroup {
  std::string groupHash;
  std::vector<FeatureMatrix> features;
  std::vector<double> costs;
};
/// The data of `model`, an XGBModel, in the order of the workloads'
/// hashes, and how many candidates it holds; fails for another model.
FailureOr<std::pair<std::vector<XGBModelGroup>, int64_t>>
getXGBModelData(const CostModel &model, std::string &error);

} // namespace mlir::tir::ms

#endif // TENSORIR_METASCHEDULE_COSTMODEL_H
