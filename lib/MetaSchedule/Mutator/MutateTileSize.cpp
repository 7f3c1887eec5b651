//===- MutateTileSize.cpp - another tiling or fetch vector length ---------===//
//
// TVM's MutateTileSize. The candidates are the perfect tilings of the
// trace (SamplePerfectTile decisions of two factors or more whose product
// is at least 2) and the vector lengths of cooperative fetches (the
// SampleCategorical decisions, of two candidates or more, that a
// "meta_schedule.cooperative_fetch" annotation takes its value from); one
// is drawn uniformly. A tiling moves a divisor d > 1 of one factor to
// another (the product stays), the innermost never growing past
// max_innermost_factor; a vector length becomes another candidate, drawn
// by the others' probabilities.
//
// As TVM's, the candidates come in the order of the trace's decisions:
// here the instructions' order (TVM iterates its decision map).
//
//===----------------------------------------------------------------------===//

#include "MutatorUtils.h"

#include "TensorIR/MetaSchedule/Mutators.h"

using namespace mlir;
using namespace mlir::tir;
using namespace mlir::tir::ms;
using namespace mlir::tir::ms::mutator;

namespace {

class MutateTileSize : public Mutator {
public:
  FailureOr<std::optional<Trace>> apply(const Trace &trace,
                                        RandomEngine::State &randState,
                                        std::string &error) override;
  FailureOr<std::shared_ptr<Mutator>> clone(std::string &) const override {
    return std::shared_ptr<Mutator>(std::make_shared<MutateTileSize>());
  }
  std::string str() const override {
    return defaultRepr("MutateTileSize", this);
  }
};

struct TilingCandidate {
  InstructionRef inst;
  DenseI64ArrayAttr decision;
};

struct VectorLengthCandidate {
  InstructionRef inst;
  IntegerAttr decision;
};

} // namespace

/// The divisors of `n` (>= 1), ascending.
static SmallVector<int64_t> getDivisors(int64_t n) {
  SmallVector<int64_t> small, large;
  for (int64_t d = 1; d * d <= n; ++d) {
    if (n % d)
      continue;
    small.push_back(d);
    if (d * d != n)
      large.push_back(n / d);
  }
  small.append(large.rbegin(), large.rend());
  return small;
}

static std::vector<TilingCandidate> findTilings(const Trace &trace) {
  std::vector<TilingCandidate> found;
  for (const auto &[inst, decision] : trace.getDecisions()) {
    if (!isKind(*inst, "SamplePerfectTile"))
      continue;
    auto tiles = dyn_cast<DenseI64ArrayAttr>(decision);
    if (!tiles || tiles.size() < 2)
      continue;
    int64_t product = 1;
    for (int64_t t : tiles.asArrayRef())
      product *= t;
    if (product >= 2)
      found.push_back({inst, tiles});
  }
  return found;
}

static std::vector<VectorLengthCandidate>
findVectorLengths(const Trace &trace) {
  DenseSet<const RandomVariable *> fetched;
  for (const InstructionRef &inst : trace.getInstructions())
    if (getAnnotationKey(*inst) == "meta_schedule.cooperative_fetch")
      if (RV value = getAnnotationVariable(*inst))
        fetched.insert(value.get());
  std::vector<VectorLengthCandidate> found;
  for (const auto &[inst, decision] : trace.getDecisions()) {
    if (!isKind(*inst, "SampleCategorical") || inst->outputs.size() != 1 ||
        !inst->outputs[0] || !fetched.contains(inst->outputs[0].get()))
      continue;
    auto index = dyn_cast<IntegerAttr>(decision);
    int64_t n = getCategoricalProbs(*inst).size();
    // A single candidate has nothing to change to.
    if (!index || n < 2 || index.getInt() < 0 || index.getInt() >= n)
      continue;
    found.push_back({inst, index});
  }
  return found;
}

/// A divisor of one factor moved to another: TVM's draws, in its order.
static std::optional<Trace> mutateTiling(const Trace &trace,
                                         const TilingCandidate &candidate,
                                         RandomEngine::State &state) {
  SmallVector<int64_t> tiles(candidate.decision.asArrayRef());
  int64_t n = tiles.size();
  std::vector<TVMValue> inputs, attrs;
  candidate.inst->kind->getTVMLayout(*candidate.inst, inputs, attrs);
  int64_t limit = 0;
  if (attrs.size() == 2 && attrs[1].tag == TVMValue::Tag::Constant)
    if (auto a = dyn_cast<IntegerAttr>(attrs[1].constant))
      limit = a.getInt();
  while (true) {
    int64_t from = sampleInt(state, 0, n);
    if (tiles[from] <= 1)
      continue;
    int64_t to = sampleInt(state, 0, n - 1);
    if (to >= from)
      ++to;
    SmallVector<int64_t> divisors = getDivisors(tiles[from]);
    int64_t moved;
    if (to != n - 1) {
      moved = divisors[sampleInt(state, 1, divisors.size())];
    } else {
      // The innermost factor stays within max_innermost_factor (as TVM's,
      // a limit of 0 or less lets nothing move there).
      int64_t top = static_cast<int64_t>(divisors.size()) - 1;
      while (top >= 1 && divisors[top] * tiles[to] > limit)
        --top;
      if (top == 0) {
        if (n <= 2)
          return std::nullopt;
        continue;
      }
      moved = divisors[sampleInt(state, 1, top + 1)];
    }
    tiles[from] /= moved;
    tiles[to] *= moved;
    return trace.withDecision(
        candidate.inst,
        DenseI64ArrayAttr::get(candidate.decision.getContext(), tiles),
        /*removePostproc=*/true);
  }
}

FailureOr<std::optional<Trace>>
MutateTileSize::apply(const Trace &trace, RandomEngine::State &randState,
                      std::string &) {
  std::vector<TilingCandidate> tilings = findTilings(trace);
  std::vector<VectorLengthCandidate> lengths = findVectorLengths(trace);
  int64_t numTilings = tilings.size();
  int64_t total = numTilings + static_cast<int64_t>(lengths.size());
  if (total == 0)
    return std::optional<Trace>();
  int64_t chosen = sampleInt(randState, 0, total);
  if (chosen < numTilings)
    return mutateTiling(trace, tilings[chosen], randState);
  const VectorLengthCandidate &length = lengths[chosen - numTilings];
  int64_t index = sampleOtherCategory(
      randState, getCategoricalProbs(*length.inst), length.decision.getInt());
  return std::optional<Trace>(trace.withDecision(
      length.inst, IntegerAttr::get(length.decision.getType(), index),
      /*removePostproc=*/true));
}

std::shared_ptr<Mutator> mlir::tir::ms::createMutateTileSize() {
  return std::make_shared<MutateTileSize>();
}
