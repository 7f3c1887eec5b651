//===- CostModelTest.cpp - TVM's XGBoost cost model -----------------------===//
//
// XGBModel over features given as a function: random scores before the
// warm-up is measured; afterwards, trained on candidates whose speed is a
// function of their features, it ranks unseen candidates by that speed;
// saved and loaded, it predicts the same.
//
//===----------------------------------------------------------------------===//

#include "TIRTestUtils.h"

#include "TensorIR/MetaSchedule/CostModel.h"
#include "TensorIR/MetaSchedule/FeatureExtractor.h"
#include "TensorIR/MetaSchedule/TuneContext.h"

#include "llvm/Support/FileSystem.h"

using namespace mlir;
using namespace mlir::tir;
using namespace mlir::tir::ms;

namespace {

constexpr StringLiteral kModule = R"mlir(
func.func @main(%A: memref<4xf32>) {
  return
}
)mlir";

class CostModelTest : public test::TIRTest {};

/// Candidate k has two rows of features (k, 1) and (k / 2, 0): its speed
/// grows with k.
std::shared_ptr<FeatureExtractor> extractorOf(std::vector<double> &keys) {
  auto extractor = std::make_shared<FunctionFeatureExtractor>();
  extractor->extractFn =
      [&keys](const TuneContext &, const std::vector<MeasureCandidate> &c,
              std::string &) -> FailureOr<std::vector<FeatureMatrix>> {
    std::vector<FeatureMatrix> out;
    for (size_t i = 0; i < c.size(); ++i)
      out.push_back({2, 2, {keys[i], 1.0, keys[i] / 2, 0.0}});
    return out;
  };
  return extractor;
}

TEST_F(CostModelTest, XGBModelLearnsARanking) {
  TuneContext context;
  context.mod = parse(kModule);
  std::vector<double> keys;
  XGBOptions options;
  options.numWarmupSamples = 20;
  std::string error;
  FailureOr<std::shared_ptr<CostModel>> model =
      createXGBModel(extractorOf(keys), options, error);
  ASSERT_TRUE(succeeded(model)) << error;
  EXPECT_EQ((*model)->str().rfind("meta_schedule.XGBModel(0x", 0), 0u);

  // Before the warm-up: scores in [0, 1), not a ranking.
  std::vector<MeasureCandidate> candidates(8);
  keys = {1, 2, 3, 4, 5, 6, 7, 8};
  FailureOr<std::vector<double>> warm =
      (*model)->predict(context, candidates, error);
  ASSERT_TRUE(succeeded(warm)) << error;
  for (double score : *warm)
    EXPECT_TRUE(score >= 0 && score < 1);

  // Train on 40 candidates whose run time is 1 / key (a failed run: 1e10).
  std::vector<MeasureCandidate> measured(40);
  std::vector<RunnerResult> results(40);
  keys.clear();
  for (int i = 0; i < 40; ++i) {
    keys.push_back(1 + i % 20);
    results[i].runSecs = std::vector<double>{1.0 / keys.back()};
  }
  results[7].runSecs.reset();
  ASSERT_TRUE(succeeded((*model)->update(context, measured, results, error)))
      << error;

  keys = {2.5, 17.5, 9.5, 5.5};
  FailureOr<std::vector<double>> scores =
      (*model)->predict(context, std::vector<MeasureCandidate>(4), error);
  ASSERT_TRUE(succeeded(scores)) << error;
  EXPECT_LT((*scores)[0], (*scores)[3]);
  EXPECT_LT((*scores)[3], (*scores)[2]);
  EXPECT_LT((*scores)[2], (*scores)[1]);

  // Saved and loaded: the same predictions.
  SmallString<128> path;
  ASSERT_FALSE(llvm::sys::fs::createTemporaryFile("xgb", "json", path));
  ASSERT_TRUE(succeeded((*model)->save(path, error))) << error;
  FailureOr<std::shared_ptr<CostModel>> loaded =
      createXGBModel(extractorOf(keys), options, error);
  ASSERT_TRUE(succeeded(loaded)) << error;
  ASSERT_TRUE(succeeded((*loaded)->load(path, error))) << error;
  FailureOr<std::vector<double>> again =
      (*loaded)->predict(context, std::vector<MeasureCandidate>(4), error);
  ASSERT_TRUE(succeeded(again)) << error;
  for (auto [a, b] : llvm::zip(*scores, *again))
    EXPECT_NEAR(a, b, 1e-6);
  llvm::sys::fs::remove(path);
  EXPECT_TRUE(failed((*loaded)->load("/nonexistent/xgb.json", error)));
}

} // namespace
