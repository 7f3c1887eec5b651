//===- Sampling.h - TVM's random state and sampling distributions -*- C++
//-*-===//
//
// The random state of a schedule and the distributions TVM's sampling
// primitives draw from, so that a search explores what TVM's explores and a
// seed gives TVM's draws:
//
// - RandomEngine is TVM's LinearCongruentialEngine (minstd: state * 48271
//   mod 2^31 - 1) over a state owned by the schedule; forkSeed derives the
//   seed of a copy's state.
// - The integer, real and discrete distributions are written out here
//   (libstdc++'s algorithms, which TVM's wheels use), so that draws do not
//   depend on the standard library this is built with.
// - samplePerfectTile splits each prime's exponent among the factors
//   uniformly and independently (stars and bars), as TVM does: every
//   tiling is equally likely, and the draws are TVM's. repairPerfectTile is
//   TVM's repair of a recorded decision that no longer divides the loop.
//
//===----------------------------------------------------------------------===//

#ifndef TENSORIR_DIALECT_TIR_SCHEDULE_SAMPLING_H
#define TENSORIR_DIALECT_TIR_SCHEDULE_SAMPLING_H

#include "mlir/Support/LLVM.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"

#include <cstdint>
#include <optional>

namespace mlir::tir {

/// TVM's LinearCongruentialEngine: a uniform random bit generator over a
/// state held elsewhere (a schedule's), in [1, 2^31 - 2].
class RandomEngine {
public:
  using State = int64_t;
  using result_type = uint64_t;
  static constexpr State kMultiplier = 48271;
  static constexpr State kModulus = 2147483647;
  static constexpr result_type min() { return 0; }
  static constexpr result_type max() { return kModulus - 1; }

  explicit RandomEngine(State &state) : state(state) {}

  /// The next state, which is also the draw.
  result_type operator()() {
    state = (state * kMultiplier) % kModulus;
    return state;
  }

  /// A seed as a state: -1 draws one from the device, others are taken
  /// modulo 2^31 - 1, and 0 becomes 1. Negative seeds other than -1 are
  /// refused (nullopt).
  static std::optional<State> normalizeSeed(int64_t seed);

  /// A seed for another state, derived from this one (which advances):
  /// TVM's ForkSeed, so that a copied schedule draws other values.
  State forkSeed() {
    return static_cast<State>((*this)() * 32767) % 1999999973;
  }

private:
  State &state;
};

/// A uniform integer in [lo, hi) (hi > lo; no draw when hi == lo + 1).
int64_t sampleInt(RandomEngine::State &state, int64_t lo, int64_t hi);

/// A uniform real in [0, 1) from two draws (std::generate_canonical).
double sampleCanonical(RandomEngine::State &state);

/// An index drawn with probability proportional to `weights` (each >= 0,
/// not all 0), as std::discrete_distribution draws it.
int64_t sampleDiscrete(RandomEngine::State &state, ArrayRef<double> weights);

/// `k` distinct integers of [0, n), in the order drawn.
SmallVector<int64_t> sampleWithoutReplacement(RandomEngine::State &state,
                                              int64_t n, int64_t k);

/// `n` factors whose product is `extent` (>= 1), each prime's exponent
/// split uniformly among them; with `maxInnermostFactor` > 0, drawn again
/// until the last is at most that (the caller makes sure one exists).
SmallVector<int64_t> samplePerfectTile(RandomEngine::State &state,
                                       int64_t extent, int64_t n,
                                       int64_t maxInnermostFactor);

/// Whether some tiling of `extent` into `n` factors has the last at most
/// `maxInnermostFactor` (always, unless that is positive and `n` is 1 and
/// the extent is larger).
bool hasPerfectTile(int64_t extent, int64_t n, int64_t maxInnermostFactor);

/// TVM's repair of a recorded perfect-tile decision for a loop of `extent`:
/// from the innermost factor out, a factor that does not divide what is
/// left becomes all of it, and the outermost takes the rest. A valid
/// decision is returned as it is.
SmallVector<int64_t> repairPerfectTile(ArrayRef<int64_t> decision,
                                       int64_t extent);

} // namespace mlir::tir

#endif // TENSORIR_DIALECT_TIR_SCHEDULE_SAMPLING_H
