//===- FeatureExtractor.h - what a cost model sees of a candidate -*- C++
//-*-===//
//
// TVM's FeatureExtractor: for each candidate, a matrix of features (one row
// per store or block, the same columns for all), which a learned cost
// model (XGBoost) is trained on. FunctionFeatureExtractor is one given as
// functions (TVM's PyFeatureExtractor).
//
//===----------------------------------------------------------------------===//

#ifndef TENSORIR_METASCHEDULE_FEATUREEXTRACTOR_H
#define TENSORIR_METASCHEDULE_FEATUREEXTRACTOR_H

#include "TensorIR/MetaSchedule/Measure.h"

namespace mlir::tir::ms {

class TuneContext;

/// A row-major matrix of features.
struct FeatureMatrix {
  int64_t rows = 0, cols = 0;
  std::vector<double> data;
};

class FeatureExtractor {
public:
  virtual ~FeatureExtractor();
  /// One matrix per candidate, in order.
  virtual FailureOr<std::vector<FeatureMatrix>>
  extractFrom(const TuneContext &context,
              const std::vector<MeasureCandidate> &candidates,
              std::string &error) = 0;
  virtual std::string str() const = 0;
};

class FunctionFeatureExtractor : public FeatureExtractor {
public:
  std::string name = "PyFeatureExtractor";
  std::function<FailureOr<std::vector<FeatureMatrix>>(
      const TuneContext &, const std::vector<MeasureCandidate> &,
      std::string &)>
      extractFn;
  std::function<std::string()> strFn;

  FailureOr<std::vector<FeatureMatrix>>
  extractFrom(const TuneContext &context,
              const std::vector<MeasureCandidate> &candidates,
              std::string &error) override;
  std::string str() const override;
};

} // namespace mlir::tir::ms

#endif // TENSORIR_METASCHEDULE_FEATUREEXTRACTOR_H
