//===- Sampling.cpp - TVM's random state and sampling distributions -------===//

#include "TensorIR/Dialect/TIR/Schedule/Sampling.h"

#include <algorithm>
#include <cmath>
#include <random>

using namespace mlir;
using namespace mlir::tir;

std::optional<RandomEngine::State> RandomEngine::normalizeSeed(int64_t seed) {
  if (seed == -1)
    seed = std::random_device()() % kModulus;
  else if (seed < 0)
    return std::nullopt;
  else
    seed %= kModulus;
  return seed == 0 ? 1 : seed;
}

int64_t mlir::tir::sampleInt(RandomEngine::State &state, int64_t lo,
                             int64_t hi) {
  assert(lo < hi && "an empty range");
  if (lo + 1 == hi)
    return lo;
  // libstdc++'s uniform_int_distribution for an engine whose range is not a
  // power of two: draws past the last whole multiple of the range are
  // rejected, the rest scaled down.
  RandomEngine engine(state);
  uint64_t range = static_cast<uint64_t>(hi - lo);
  uint64_t scaling = (RandomEngine::max() - RandomEngine::min()) / range;
  uint64_t past = range * scaling;
  uint64_t drawn;
  do
    drawn = engine() - RandomEngine::min();
  while (drawn >= past);
  return lo + static_cast<int64_t>(drawn / scaling);
}

double mlir::tir::sampleCanonical(RandomEngine::State &state) {
  // std::generate_canonical<double, 53>: a 2^31 - 1 range holds 30 whole
  // bits, so two draws make the 53 bits of a double.
  RandomEngine engine(state);
  const double range =
      static_cast<double>(RandomEngine::max() - RandomEngine::min()) + 1.0;
  double sum = 0.0, scale = 1.0;
  for (int k = 0; k < 2; ++k) {
    sum += static_cast<double>(engine() - RandomEngine::min()) * scale;
    scale *= range;
  }
  double result = sum / scale;
  return result >= 1.0 ? std::nextafter(1.0, 0.0) : result;
}

int64_t mlir::tir::sampleDiscrete(RandomEngine::State &state,
                                  ArrayRef<double> weights) {
  // std::discrete_distribution: one weight needs no draw; otherwise the
  // normalized cumulative sums (the last exactly 1) are searched for a
  // canonical draw.
  if (weights.size() < 2)
    return 0;
  double total = 0.0;
  for (double w : weights)
    total += w;
  SmallVector<double> cumulative;
  double running = 0.0;
  for (double w : weights)
    cumulative.push_back(running += w / total);
  cumulative.back() = 1.0;
  double p = sampleCanonical(state);
  return std::lower_bound(cumulative.begin(), cumulative.end(), p) -
         cumulative.begin();
}

SmallVector<int64_t>
mlir::tir::sampleWithoutReplacement(RandomEngine::State &state, int64_t n,
                                    int64_t k) {
  if (k == 1)
    return {sampleInt(state, 0, n)};
  if (k == 2) {
    int64_t first = sampleInt(state, 0, n);
    int64_t second = sampleInt(state, 0, n - 1);
    if (second >= first)
      ++second;
    return {first, second};
  }
  SmallVector<int64_t> order;
  for (int64_t i = 0; i < n; ++i)
    order.push_back(i);
  for (int64_t i = 0; i < k; ++i) {
    int64_t j = sampleInt(state, i, n);
    std::swap(order[i], order[j]);
  }
  order.resize(k);
  return order;
}

namespace {
/// A prime factor and its exponent.
struct PrimePower {
  int64_t prime;
  int64_t exponent;
};
} // namespace

/// The prime factorization of `n`, smallest prime first.
static SmallVector<PrimePower> factorize(int64_t n) {
  SmallVector<PrimePower> factors;
  for (int64_t p = 2; p * p <= n; ++p) {
    int64_t e = 0;
    for (; n % p == 0; n /= p)
      ++e;
    if (e)
      factors.push_back({p, e});
  }
  if (n > 1)
    factors.push_back({n, 1});
  return factors;
}

static int64_t power(int64_t base, int64_t exponent) {
  int64_t result = 1;
  while (exponent-- > 0)
    result *= base;
  return result;
}

/// One draw of TVM's perfect tiling, without a bound on the innermost.
static SmallVector<int64_t> drawPerfectTile(RandomEngine::State &state,
                                            int64_t extent, int64_t n) {
  if (n == 1)
    return {extent};
  SmallVector<int64_t> result(n, 1);
  if (extent == 1)
    return result;
  // TVM factors with a table of the primes below 2^16: a prime above it
  // (at most one, with exponent 1) is placed with a draw of its own kind.
  constexpr int64_t kTablePrimes = 65536;
  for (PrimePower factor : factorize(extent)) {
    bool large = factor.prime >= kTablePrimes;
    if (n == 2) {
      if (large) {
        result[sampleInt(state, 0, 2) ? 1 : 0] *= factor.prime;
        continue;
      }
      int64_t outer = sampleInt(state, 0, factor.exponent + 1);
      result[0] *= power(factor.prime, outer);
      result[1] *= power(factor.prime, factor.exponent - outer);
      continue;
    }
    if (large || factor.exponent == 1) {
      result[sampleInt(state, 0, n)] *= factor.prime;
      continue;
    }
    // x_1 + ... + x_n = exponent, x_i >= 0, uniformly: n - 1 bars among
    // exponent + n - 1 places.
    SmallVector<int64_t> bars =
        sampleWithoutReplacement(state, factor.exponent + n - 1, n - 1);
    llvm::sort(bars);
    bars.push_back(factor.exponent + n - 1);
    for (int64_t i = 0, last = -1; i < n; ++i) {
      result[i] *= power(factor.prime, bars[i] - last - 1);
      last = bars[i];
    }
  }
  return result;
}

bool mlir::tir::hasPerfectTile(int64_t extent, int64_t n,
                               int64_t maxInnermostFactor) {
  return maxInnermostFactor <= 0 || n >= 2 || extent <= maxInnermostFactor;
}

SmallVector<int64_t> mlir::tir::samplePerfectTile(RandomEngine::State &state,
                                                  int64_t extent, int64_t n,
                                                  int64_t maxInnermostFactor) {
  assert(extent >= 1 && n >= 1 && "a tiling of a positive extent");
  assert(hasPerfectTile(extent, n, maxInnermostFactor));
  while (true) {
    SmallVector<int64_t> result = drawPerfectTile(state, extent, n);
    if (maxInnermostFactor <= 0 || result.back() <= maxInnermostFactor)
      return result;
  }
}

SmallVector<int64_t> mlir::tir::repairPerfectTile(ArrayRef<int64_t> decision,
                                                  int64_t extent) {
  SmallVector<int64_t> result(decision.begin(), decision.end());
  int64_t rest = extent;
  for (size_t i = result.size(); i-- > 1;) {
    if (result[i] <= 0 || rest % result[i] != 0)
      result[i] = rest;
    rest /= result[i];
  }
  if (!result.empty())
    result[0] = rest;
  return result;
}
