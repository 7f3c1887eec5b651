//===- SamplingTest.cpp - the random state and TVM's distributions --------===//
//
// A seed gives the draws TVM's schedule gives for it (the expected values
// were drawn with TVM's wheel, apache-tvm 0.27, by the same sequence of
// sample_perfect_tile / sample_categorical / fork_seed calls), and each
// distribution has the shape TVM's has: exact enumeration of the perfect
// tilings' probabilities, checked with a chi-square test on many draws.
//
//===----------------------------------------------------------------------===//

#include "TensorIR/Dialect/TIR/Schedule/Sampling.h"

#include "gtest/gtest.h"

#include <cmath>
#include <functional>
#include <map>

using namespace mlir;
using namespace mlir::tir;

namespace {

using Tiling = SmallVector<int64_t>;

struct TVMDraws {
  int64_t seed;
  std::vector<Tiling> tiles;
  std::vector<int64_t> categorical;
  int64_t forked;
};

// Per seed: perfect tiles of (extent, n, max innermost) = (128, 4, 16),
// (257, 4, 16), (1470, 4, 64), (1470, 2, none), (131074, 3, none),
// (131074, 2, none), (128, 3, 4); then eight draws of candidates
// [5, 2, 7, 1] with probabilities [0.15, 0.55, 0.05, 0.25]; then a forked
// seed.
const TVMDraws kTVM[] = {
    {1,
     {{1, 1, 16, 8},
      {257, 1, 1, 1},
      {1, 15, 14, 7},
      {210, 7},
      {1, 1, 131074},
      {2, 65537},
      {32, 4, 1}},
     {1, 1, 2, 2, 2, 1, 2, 5},
     1359249915},
    {42,
     {{1, 8, 2, 8},
      {1, 257, 1, 1},
      {7, 1, 10, 21},
      {6, 245},
      {1, 65537, 2},
      {2, 65537},
      {16, 8, 1}},
     {2, 2, 5, 2, 2, 2, 2, 1},
     525714802},
    {12345,
     {{2, 1, 16, 4},
      {1, 257, 1, 1},
      {7, 15, 2, 7},
      {3, 490},
      {131074, 1, 1},
      {65537, 2},
      {32, 2, 2}},
     {2, 2, 2, 1, 1, 1, 2, 2},
     1025560017},
};

TEST(SamplingTest, SeedsGiveTVMsDraws) {
  struct Request {
    int64_t extent, n, maxInnermost;
  };
  const Request requests[] = {{128, 4, 16},  {257, 4, 16},    {1470, 4, 64},
                              {1470, 2, -1}, {131074, 3, -1}, {131074, 2, -1},
                              {128, 3, 4}};
  const int64_t candidates[] = {5, 2, 7, 1};
  const double probs[] = {0.15, 0.55, 0.05, 0.25};
  for (const TVMDraws &expected : kTVM) {
    SCOPED_TRACE("seed " + std::to_string(expected.seed));
    RandomEngine::State state = *RandomEngine::normalizeSeed(expected.seed);
    for (auto [request, tiling] : llvm::zip(requests, expected.tiles))
      EXPECT_EQ(samplePerfectTile(state, request.extent, request.n,
                                  request.maxInnermost),
                tiling);
    for (int64_t value : expected.categorical)
      EXPECT_EQ(candidates[sampleDiscrete(state, probs)], value);
    EXPECT_EQ(RandomEngine(state).forkSeed(), expected.forked);
  }
}

TEST(SamplingTest, SeedsAreNormalizedAsTVMs) {
  EXPECT_EQ(RandomEngine::normalizeSeed(0), 1);
  EXPECT_EQ(RandomEngine::normalizeSeed(RandomEngine::kModulus), 1);
  EXPECT_EQ(RandomEngine::normalizeSeed(RandomEngine::kModulus + 5), 5);
  EXPECT_EQ(RandomEngine::normalizeSeed(-2), std::nullopt);
  std::optional<RandomEngine::State> device = RandomEngine::normalizeSeed(-1);
  ASSERT_TRUE(device.has_value());
  EXPECT_GE(*device, 1);
  EXPECT_LT(*device, RandomEngine::kModulus);
}

/// Pearson's statistic of `counts` against `expected` probabilities over
/// `draws` draws.
template <typename Key>
double chiSquare(const std::map<Key, int64_t> &counts,
                 const std::map<Key, double> &expected, int64_t draws) {
  double statistic = 0.0;
  for (const auto &[key, probability] : expected) {
    auto it = counts.find(key);
    double observed = it == counts.end() ? 0.0 : it->second;
    double mean = probability * draws;
    statistic += (observed - mean) * (observed - mean) / mean;
  }
  return statistic;
}

/// The number of ways to write `exponent` as an ordered sum of `parts`
/// non-negative integers.
static int64_t compositions(int64_t exponent, int64_t parts) {
  int64_t top = exponent + parts - 1, result = 1;
  for (int64_t k = 1; k < parts; ++k)
    result = result * (top - k + 1) / k;
  return result;
}

/// TVM's probability of each tiling of 2^a * 3^b into `n` factors: each
/// prime's exponent is split uniformly among the compositions.
static std::map<Tiling, double> expectedTilings(int64_t a, int64_t b,
                                                int64_t n) {
  std::map<Tiling, double> result;
  std::vector<Tiling> twos, threes;
  std::function<void(int64_t, int64_t, Tiling &, std::vector<Tiling> &)>
      collect = [&](int64_t left, int64_t slot, Tiling &parts,
                    std::vector<Tiling> &out) {
        if (slot + 1 == n) {
          parts[slot] = left;
          out.push_back(parts);
          return;
        }
        for (int64_t e = 0; e <= left; ++e) {
          parts[slot] = e;
          collect(left - e, slot + 1, parts, out);
        }
      };
  Tiling scratch(n, 0);
  collect(a, 0, scratch, twos);
  collect(b, 0, scratch, threes);
  double p = 1.0 / (compositions(a, n) * compositions(b, n));
  for (const Tiling &x : twos)
    for (const Tiling &y : threes) {
      Tiling tiling(n, 1);
      for (int64_t i = 0; i < n; ++i)
        for (int64_t k = 0; k < x[i]; ++k)
          tiling[i] *= 2;
      for (int64_t i = 0; i < n; ++i)
        for (int64_t k = 0; k < y[i]; ++k)
          tiling[i] *= 3;
      result[tiling] += p;
    }
  return result;
}

/// The 99.9th percentile of the chi-square distribution with `freedom`
/// degrees of freedom (Wilson and Hilferty's approximation, within a few
/// percent from 3 degrees up).
static double criticalValue(size_t freedom) {
  double k = static_cast<double>(freedom), z = 3.0902;
  double t = 1.0 - 2.0 / (9.0 * k) + z * std::sqrt(2.0 / (9.0 * k));
  return k * t * t * t;
}

TEST(SamplingTest, PerfectTileFollowsTVMsDistribution) {
  // 2^3 * 3 into 3 factors (10 * 3 = 30 tilings), 2^2 * 3^2 into 2 (3 * 3)
  // and 2^4 * 3 into 4 (35 * 4), with a fixed seed: the test is
  // deterministic, and a sampler with TVM's shape stays far below the 0.1%
  // critical value.
  struct Case {
    int64_t a, b, n;
  };
  for (Case c : {Case{3, 1, 3}, Case{2, 2, 2}, Case{4, 1, 4}}) {
    std::map<Tiling, double> expected = expectedTilings(c.a, c.b, c.n);
    int64_t extent = (1 << c.a);
    for (int64_t k = 0; k < c.b; ++k)
      extent *= 3;
    SCOPED_TRACE("extent " + std::to_string(extent) + " into " +
                 std::to_string(c.n));
    RandomEngine::State state = 7;
    std::map<Tiling, int64_t> counts;
    const int64_t draws = 40000;
    for (int64_t i = 0; i < draws; ++i) {
      Tiling t = samplePerfectTile(state, extent, c.n, -1);
      ASSERT_EQ(expected.count(t), 1u) << "not a tiling of the extent";
      ++counts[t];
    }
    EXPECT_LT(chiSquare(counts, expected, draws),
              criticalValue(expected.size() - 1));
  }
}

TEST(SamplingTest, InnermostBoundRejectsDraws) {
  RandomEngine::State state = 3;
  for (int i = 0; i < 2000; ++i) {
    Tiling t = samplePerfectTile(state, 4096, 3, 8);
    EXPECT_LE(t.back(), 8);
    EXPECT_EQ(t[0] * t[1] * t[2], 4096);
  }
  EXPECT_TRUE(hasPerfectTile(4096, 1, 0));
  EXPECT_FALSE(hasPerfectTile(4096, 1, 16));
  EXPECT_TRUE(hasPerfectTile(16, 1, 16));
}

TEST(SamplingTest, CategoricalFollowsItsWeights) {
  const double weights[] = {0.1, 0.2, 0.3, 0.4};
  std::map<int64_t, double> expected = {{0, 0.1}, {1, 0.2}, {2, 0.3}, {3, 0.4}};
  RandomEngine::State state = 11;
  std::map<int64_t, int64_t> counts;
  const int64_t draws = 50000;
  for (int64_t i = 0; i < draws; ++i)
    ++counts[sampleDiscrete(state, weights)];
  EXPECT_LT(chiSquare(counts, expected, draws), criticalValue(3));
  // One candidate takes no draw (the state does not move), as TVM's.
  RandomEngine::State before = state;
  EXPECT_EQ(sampleDiscrete(state, ArrayRef<double>{1.0}), 0);
  EXPECT_EQ(state, before);
}

TEST(SamplingTest, UniformIntegersAndDistinctDraws) {
  RandomEngine::State state = 5;
  std::map<int64_t, int64_t> counts;
  std::map<int64_t, double> expected;
  for (int64_t v = 3; v < 9; ++v)
    expected[v] = 1.0 / 6;
  const int64_t draws = 30000;
  for (int64_t i = 0; i < draws; ++i)
    ++counts[sampleInt(state, 3, 9)];
  EXPECT_LT(chiSquare(counts, expected, draws), criticalValue(5));
  for (int64_t k = 1; k <= 5; ++k) {
    SmallVector<int64_t> picked = sampleWithoutReplacement(state, 5, k);
    ASSERT_EQ(picked.size(), static_cast<size_t>(k));
    llvm::sort(picked);
    EXPECT_EQ(std::unique(picked.begin(), picked.end()), picked.end());
    EXPECT_GE(picked.front(), 0);
    EXPECT_LT(picked.back(), 5);
  }
}

TEST(SamplingTest, StaleDecisionsAreRepairedAsTVMs) {
  // Still a tiling: kept.
  EXPECT_EQ(repairPerfectTile(Tiling{3, 8}, 24), (Tiling{3, 8}));
  // The outer factor follows the inner ones.
  EXPECT_EQ(repairPerfectTile(Tiling{4, 8}, 24), (Tiling{3, 8}));
  // An inner factor that does not divide what is left takes all of it.
  EXPECT_EQ(repairPerfectTile(Tiling{2, 5}, 24), (Tiling{1, 24}));
  EXPECT_EQ(repairPerfectTile(Tiling{1, 4, 16, 2}, 96), (Tiling{1, 3, 16, 2}));
  EXPECT_EQ(repairPerfectTile(Tiling{1, 4, 7, 2}, 96), (Tiling{1, 1, 48, 2}));
}

} // namespace
