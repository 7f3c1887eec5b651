//===- XGBModel.cpp - TVM's XGBoost cost model ----------------------------===//
//
// TVM's XGBModel through XGBoost's C API (Debian's libxgboost-dev):
//
//  - Each candidate is a matrix of features, one row per store (the
//    feature extractor's). XGBoost learns a score per row; a candidate's
//    score is the sum of its rows' (TVM's pack-sum), trained with the
//    squared error of that sum against the label, each row's gradient and
//    hessian weighted by its label (TVM's obj_square_error).
//  - A label is the candidate's throughput relative to the best measured
//    for its workload (min cost / cost; 0 for a failed run, whose cost is
//    1e10), so that workloads of any size share one model.
//  - Until `numWarmupSamples` candidates are measured, predictions are
//    random (a uniform draw per candidate), as TVM's.
//  - Retraining is adaptive: only once the data grew by a fifth since the
//    last training. Training boosts up to 10,000 rounds and stops when the
//    training rmse of the sums has not improved for `earlyStoppingRounds`
//    rounds (TVM's callback on "tr-p-rmse"), where an improvement is by a
//    ten-thousandth of the best rmse at least. TVM counts any decrease:
//    once its trees fit what they can, the rmse keeps falling by a
//    billionth a round and it boosts all 10,000 rounds (30 s a training on
//    a 1024^3 GEMM's 448 candidates here, the tuning's largest cost) for
//    predictions that move by less than that.
//  - TVM's hyper-parameters: max_depth 10, gamma 0.001, min_child_weight
//    0, eta 0.2, seed 43; one thread per physical core.
//
//===----------------------------------------------------------------------===//

#include "TensorIR/MetaSchedule/CostModel.h"
#include "TensorIR/MetaSchedule/FeatureExtractor.h"
#include "TensorIR/MetaSchedule/ModuleEquality.h"
#include "TensorIR/MetaSchedule/TuneContext.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Threading.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cmath>
#include <map>

#ifdef TIR_HAVE_XGBOOST
#include <xgboost/c_api.h>
#endif

using namespace mlir;
using namespace mlir::tir;
using namespace mlir::tir::ms;

#ifdef TIR_HAVE_XGBOOST

namespace {

/// XGBoost's last error as a failure.
LogicalResult xgbFailure(StringRef what, std::string &error) {
  error = ("XGBModel: " + what + ": " + XGBGetLastError()).str();
  return failure();
}

/// The rows of several candidates as one matrix, and which candidate each
/// row is of (TVM's PackSum).
struct PackSum {
  std::vector<float> rows;
  std::vector<int64_t> ids;
  int64_t cols = 0;
  int64_t groups = 0;

  PackSum(ArrayRef<const FeatureMatrix *> features) {
    groups = static_cast<int64_t>(features.size());
    for (auto [id, matrix] : llvm::enumerate(features)) {
      cols = std::max(cols, matrix->cols);
      for (int64_t r = 0; r < matrix->rows; ++r) {
        for (int64_t c = 0; c < matrix->cols; ++c)
          rows.push_back(
              static_cast<float>(matrix->data[r * matrix->cols + c]));
        ids.push_back(static_cast<int64_t>(id));
      }
    }
  }

  int64_t numRows() const { return static_cast<int64_t>(ids.size()); }

  /// The sum of the rows' scores per candidate.
  std::vector<double> sums(const float *rowScores) const {
    std::vector<double> out(groups, 0.0);
    for (int64_t r = 0; r < numRows(); ++r)
      out[ids[r]] += rowScores[r];
    return out;
  }
};

/// Fails unless every matrix holds rows x cols values and all have the
/// same number of columns (the features of one extractor).
LogicalResult checkMatrices(ArrayRef<const FeatureMatrix *> features,
                            std::string &error) {
  std::optional<int64_t> cols;
  for (const FeatureMatrix *matrix : features) {
    if (matrix->rows < 0 || matrix->cols < 0 ||
        static_cast<int64_t>(matrix->data.size()) !=
            matrix->rows * matrix->cols) {
      error = "XGBModel: a feature matrix of " + std::to_string(matrix->rows) +
              " x " + std::to_string(matrix->cols) + " holds " +
              std::to_string(matrix->data.size()) + " values";
      return failure();
    }
    if (matrix->rows == 0)
      continue;
    if (cols && *cols != matrix->cols) {
      error = "XGBModel: feature matrices of " + std::to_string(*cols) +
              " and " + std::to_string(matrix->cols) +
              " columns (features of different extractors?)";
      return failure();
    }
    cols = matrix->cols;
  }
  return success();
}

/// An owned DMatrix.
struct DMatrix {
  DMatrixHandle handle = nullptr;
  ~DMatrix() {
    if (handle)
      XGDMatrixFree(handle);
  }
};

/// One workload's measured candidates (TVM's FeatureGroup).
struct FeatureGroup {
  std::vector<FeatureMatrix> features;
  std::vector<double> costs;
  double minCost = 1e10;
};

class XGBModel : public CostModel {
public:
  XGBModel(std::shared_ptr<FeatureExtractor> extractor, XGBOptions options)
      : extractor(std::move(extractor)), options(options),
        randState(options.seed > 0 ? options.seed : 1) {}
  ~XGBModel() override {
    if (booster)
      XGBoosterFree(booster);
  }

  LogicalResult update(const TuneContext &context,
                       const std::vector<MeasureCandidate> &candidates,
                       const std::vector<RunnerResult> &results,
                       std::string &error) override {
    if (candidates.size() != results.size()) {
      error = "XGBModel: as many results as candidates are needed";
      return failure();
    }
    if (candidates.empty())
      return success();
    FailureOr<std::vector<FeatureMatrix>> features =
        extractor->extractFrom(context, candidates, error);
    if (failed(features))
      return failure();
    std::vector<const FeatureMatrix *> all;
    for (auto &[key, group] : data)
      for (const FeatureMatrix &matrix : group.features)
        all.push_back(&matrix);
    for (const FeatureMatrix &matrix : *features)
      all.push_back(&matrix);
    if (failed(checkMatrices(all, error)))
      return failure();
    // Candidates are grouped by workload (their labels are relative to the
    // group's best); a context without a module is one group of its own,
    // as TVM hashes a missing module.
    std::string key =
        context.mod ? std::to_string(
                          hashModule(*context.mod, ModuleEquality::Structural))
                    : std::string("0");
    FeatureGroup &group = data[key];
    for (auto [matrix, result] : llvm::zip(*features, results)) {
      if (matrix.rows == 0)
        continue;
      group.features.push_back(matrix);
      group.costs.push_back(medianCost(result));
      group.minCost = std::min(group.minCost, group.costs.back());
      ++dataSize;
    }
    if (options.adaptiveTraining &&
        (dataSize - lastTrainSize) * 5 < lastTrainSize)
      return success();
    lastTrainSize = dataSize;
    return train(error);
  }

  FailureOr<std::vector<double>>
  predict(const TuneContext &context,
          const std::vector<MeasureCandidate> &candidates,
          std::string &error) override {
    std::vector<double> scores(candidates.size());
    if (dataSize < options.numWarmupSamples || !booster) {
      for (double &score : scores)
        score = sampleCanonical(randState);
      return scores;
    }
    FailureOr<std::vector<FeatureMatrix>> features =
        extractor->extractFrom(context, candidates, error);
    if (failed(features))
      return failure();
    std::vector<const FeatureMatrix *> all;
    for (const FeatureMatrix &matrix : *features)
      all.push_back(&matrix);
    if (failed(checkMatrices(all, error)))
      return failure();
    PackSum packed(all);
    if (packed.numRows() == 0)
      return scores;
    DMatrix matrix;
    if (failed(makeMatrix(packed, nullptr, matrix, error)))
      return failure();
    bst_ulong length = 0;
    const float *rowScores = nullptr;
    if (XGBoosterPredict(booster, matrix.handle, 0, 0, 0, &length,
                         &rowScores) != 0) {
      (void)xgbFailure("predict", error);
      return failure();
    }
    return packed.sums(rowScores);
  }

  LogicalResult save(StringRef path, std::string &error) override {
    // The booster (XGBoost's JSON) and the data it was trained on, so
    // that training goes on where it stopped.
    llvm::json::Array groups;
    for (auto &[key, group] : data) {
      llvm::json::Array features;
      for (const FeatureMatrix &matrix : group.features)
        features.push_back(
            llvm::json::Object{{"rows", matrix.rows},
                               {"cols", matrix.cols},
                               {"data", llvm::json::Array(matrix.data)}});
      groups.push_back(
          llvm::json::Object{{"workload", key},
                             {"costs", llvm::json::Array(group.costs)},
                             {"features", std::move(features)}});
    }
    llvm::json::Object saved{{"data", std::move(groups)},
                             {"data_size", dataSize},
                             {"last_train_size", lastTrainSize}};
    if (booster) {
      bst_ulong length = 0;
      const char *buffer = nullptr;
      if (XGBoosterSaveModelToBuffer(booster, "{\"format\": \"json\"}", &length,
                                     &buffer) != 0)
        return xgbFailure("save", error);
      saved["booster"] = std::string(buffer, length);
    }
    std::error_code ec;
    llvm::raw_fd_ostream os(path, ec);
    if (ec) {
      error = "XGBModel: cannot write " + path.str() + ": " + ec.message();
      return failure();
    }
    os << llvm::json::Value(std::move(saved));
    return success();
  }

  LogicalResult load(StringRef path, std::string &error) override {
    auto buffer = llvm::MemoryBuffer::getFile(path);
    if (!buffer) {
      error = "XGBModel: cannot read " + path.str();
      return failure();
    }
    llvm::Expected<llvm::json::Value> parsed =
        llvm::json::parse((*buffer)->getBuffer());
    const llvm::json::Object *saved = parsed ? parsed->getAsObject() : nullptr;
    if (!saved) {
      if (!parsed)
        llvm::consumeError(parsed.takeError());
      error = "XGBModel: " + path.str() + " is not a saved XGBModel";
      return failure();
    }
    data.clear();
    if (const llvm::json::Array *groups = saved->getArray("data")) {
      for (const llvm::json::Value &g : *groups) {
        const llvm::json::Object *object = g.getAsObject();
        if (!object)
          continue;
        FeatureGroup &group =
            data[object->getString("workload").value_or("").str()];
        if (const llvm::json::Array *costs = object->getArray("costs"))
          for (const llvm::json::Value &cost : *costs) {
            group.costs.push_back(cost.getAsNumber().value_or(1e10));
            group.minCost = std::min(group.minCost, group.costs.back());
          }
        if (const llvm::json::Array *features = object->getArray("features"))
          for (const llvm::json::Value &f : *features) {
            const llvm::json::Object *m = f.getAsObject();
            if (!m)
              continue;
            FeatureMatrix matrix;
            matrix.rows = m->getInteger("rows").value_or(0);
            matrix.cols = m->getInteger("cols").value_or(0);
            if (const llvm::json::Array *values = m->getArray("data"))
              for (const llvm::json::Value &v : *values)
                matrix.data.push_back(v.getAsNumber().value_or(0));
            group.features.push_back(std::move(matrix));
          }
      }
    }
    std::vector<const FeatureMatrix *> loaded;
    for (auto &[key, group] : data) {
      if (group.features.size() != group.costs.size()) {
        error = "XGBModel: " + path.str() +
                " holds a workload of another number of costs than of "
                "feature matrices";
        data.clear();
        return failure();
      }
      for (const FeatureMatrix &matrix : group.features)
        loaded.push_back(&matrix);
    }
    if (failed(checkMatrices(loaded, error))) {
      error += " in " + path.str();
      data.clear();
      return failure();
    }
    dataSize = saved->getInteger("data_size").value_or(0);
    lastTrainSize = saved->getInteger("last_train_size").value_or(0);
    if (std::optional<StringRef> model = saved->getString("booster")) {
      if (failed(createBooster(nullptr, error)))
        return failure();
      if (XGBoosterLoadModelFromBuffer(booster, model->data(), model->size()) !=
          0)
        return xgbFailure("load", error);
    }
    return success();
  }

  std::string str() const override { return defaultRepr("XGBModel", this); }

private:
  static double medianCost(const RunnerResult &result) {
    if (!result.runSecs || result.runSecs->empty())
      return 1e10;
    std::vector<double> secs = *result.runSecs;
    std::sort(secs.begin(), secs.end());
    size_t n = secs.size();
    return n % 2 ? secs[n / 2] : (secs[n / 2 - 1] + secs[n / 2]) / 2;
  }

  LogicalResult makeMatrix(const PackSum &packed,
                           const std::vector<float> *labels, DMatrix &out,
                           std::string &error) const {
    if (XGDMatrixCreateFromMat(packed.rows.data(), packed.numRows(),
                               packed.cols, NAN, &out.handle) != 0)
      return xgbFailure("features", error);
    if (labels && XGDMatrixSetFloatInfo(out.handle, "label", labels->data(),
                                        labels->size()) != 0)
      return xgbFailure("labels", error);
    return success();
  }

  LogicalResult createBooster(DMatrixHandle train, std::string &error) {
    if (booster)
      XGBoosterFree(booster);
    booster = nullptr;
    DMatrixHandle dmats[] = {train};
    if (XGBoosterCreate(train ? dmats : nullptr, train ? 1 : 0, &booster) != 0)
      return xgbFailure("create", error);
    int threads = options.numThreads > 0 ? options.numThreads
                                         : llvm::get_physical_cores();
    std::pair<std::string, std::string> params[] = {
        {"max_depth", std::to_string(options.maxDepth)},
        {"gamma", std::to_string(options.gamma)},
        {"min_child_weight", std::to_string(options.minChildWeight)},
        {"eta", std::to_string(options.eta)},
        {"seed", std::to_string(options.seed)},
        {"nthread", std::to_string(std::max(threads, 1))},
        {"verbosity", "0"},
        {"disable_default_eval_metric", "1"},
    };
    for (auto &[name, value] : params)
      if (XGBoosterSetParam(booster, name.c_str(), value.c_str()) != 0)
        return xgbFailure("parameter " + name, error);
    return success();
  }

  /// The share of the best training rmse a round must improve it by to
  /// count as an improvement for early stopping.
  static constexpr double kMinImprovement = 1e-4;

  /// TVM's _train: pack-sum square error, early stopping on the rmse of
  /// the sums.
  LogicalResult train(std::string &error) {
    std::vector<const FeatureMatrix *> all;
    std::vector<float> groupLabels;
    for (auto &[key, group] : data)
      for (auto [matrix, cost] : llvm::zip(group.features, group.costs)) {
        all.push_back(&matrix);
        groupLabels.push_back(
            cost != 0 ? static_cast<float>(group.minCost / cost) : 0.0f);
      }
    PackSum packed(all);
    if (packed.numRows() == 0)
      return success();
    std::vector<float> labels(packed.numRows());
    for (int64_t r = 0; r < packed.numRows(); ++r)
      labels[r] = groupLabels[packed.ids[r]];
    DMatrix matrix;
    if (failed(makeMatrix(packed, &labels, matrix, error)) ||
        failed(createBooster(matrix.handle, error)))
      return failure();
    std::vector<float> grad(packed.numRows()), hess(packed.numRows());
    double bestRmse = INFINITY;
    int64_t bestRound = 0;
    for (int64_t round = 0; round < options.maxRounds; ++round) {
      bst_ulong length = 0;
      const float *margins = nullptr;
      if (XGBoosterPredict(booster, matrix.handle, /*margin=*/1, 0,
                           /*training=*/1, &length, &margins) != 0)
        return xgbFailure("predict", error);
      std::vector<double> sums = packed.sums(margins);
      double squares = 0;
      for (int64_t r = 0; r < packed.numRows(); ++r) {
        double diff = sums[packed.ids[r]] - labels[r];
        squares += diff * diff;
        grad[r] = static_cast<float>(diff * labels[r]);
        hess[r] = labels[r];
      }
      // The rmse of the model so far (TVM's "tr-p-rmse", evaluated after
      // each round: here before the next, the same sequence).
      double rmse = std::sqrt(squares / packed.numRows());
      if (rmse < bestRmse * (1 - kMinImprovement)) {
        bestRmse = rmse;
        bestRound = round;
      } else if (round - bestRound >= options.earlyStoppingRounds) {
        break;
      }
      if (XGBoosterBoostOneIter(booster, matrix.handle, grad.data(),
                                hess.data(), grad.size()) != 0)
        return xgbFailure("train", error);
    }
    return success();
  }

public:
  std::shared_ptr<FeatureExtractor> extractor;
  XGBOptions options;
  RandomEngine::State randState;
  std::map<std::string, FeatureGroup> data;
  int64_t dataSize = 0, lastTrainSize = 0;
  BoosterHandle booster = nullptr;
};

} // namespace

FailureOr<std::shared_ptr<CostModel>>
mlir::tir::ms::createXGBModel(std::shared_ptr<FeatureExtractor> extractor,
                              XGBOptions options, std::string &error) {
  if (!extractor) {
    error = "XGBModel needs a feature extractor";
    return failure();
  }
  return std::shared_ptr<CostModel>(
      std::make_shared<XGBModel>(std::move(extractor), options));
}

FailureOr<std::pair<std::vector<XGBModelGroup>, int64_t>>
mlir::tir::ms::getXGBModelData(const CostModel &model, std::string &error) {
  auto *xgb = dynamic_cast<const XGBModel *>(&model);
  if (!xgb) {
    error = "the cost model is not an XGBModel";
    return failure();
  }
  std::vector<XGBModelGroup> groups;
  for (const auto &[hash, group] : xgb->data)
    groups.push_back({hash, group.features, group.costs});
  return std::make_pair(std::move(groups), xgb->dataSize);
}

#else

FailureOr<std::pair<std::vector<XGBModelGroup>, int64_t>>
mlir::tir::ms::getXGBModelData(const CostModel &, std::string &error) {
  error = "XGBModel: tir was built without XGBoost";
  return failure();
}

FailureOr<std::shared_ptr<CostModel>>
mlir::tir::ms::createXGBModel(std::shared_ptr<FeatureExtractor>, XGBOptions,
                              std::string &error) {
  error = "XGBModel: tir was built without XGBoost (install Debian's "
          "libxgboost-dev and configure again)";
  return failure();
}

#endif
