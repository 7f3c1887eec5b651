//===- CostModel.h - how the search ranks candidates ------------*- C++ -*-===//
//
// TVM's CostModel: a score per candidate (higher: expected faster), which
// the evolutionary search ranks its population by, updated with measured
// results. FunctionCostModel is one given as functions (TVM's
// PyCostModel: RandomModel and XGBModel are written so).
//
//===----------------------------------------------------------------------===//

#ifndef TENSORIR_METASCHEDULE_COSTMODEL_H
#define TENSORIR_METASCHEDULE_COSTMODEL_H

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

} // namespace mlir::tir::ms

#endif // TENSORIR_METASCHEDULE_COSTMODEL_H
