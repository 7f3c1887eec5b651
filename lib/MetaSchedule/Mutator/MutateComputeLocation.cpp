//===- MutateComputeLocation.cpp - another place for a compute_at ---------===//
//
// TVM's MutateComputeLocation. The trace is replayed on the task's module
// (a schedule seeded from the random state); at each SampleComputeLocation
// the places its block may go are listed as sampling lists them
// (collectComputeLocations, TVM's CollectComputeLocation), and a sample
// with a place other than its decision is a candidate. One candidate is
// drawn uniformly, then one of its other places.
//
//===----------------------------------------------------------------------===//

#include "MutatorUtils.h"

#include "TensorIR/Dialect/TIR/Schedule/Primitives.h"
#include "TensorIR/MetaSchedule/Mutators.h"

using namespace mlir;
using namespace mlir::tir;
using namespace mlir::tir::ms;
using namespace mlir::tir::ms::mutator;

namespace {

class MutateComputeLocation : public Mutator {
public:
  LogicalResult initializeWithTuneContext(const TuneContext &context,
                                          std::string &error) override {
    return copyTaskModule(context, "MutateComputeLocation", mod, error);
  }
  FailureOr<std::optional<Trace>> apply(const Trace &trace,
                                        RandomEngine::State &randState,
                                        std::string &error) override;
  FailureOr<std::shared_ptr<Mutator>> clone(std::string &) const override {
    auto copy = std::make_shared<MutateComputeLocation>();
    if (mod)
      copy->mod = OwningOpRef<ModuleOp>(mod.get().clone());
    return std::shared_ptr<Mutator>(copy);
  }
  std::string str() const override {
    return defaultRepr("MutateComputeLocation", this);
  }

private:
  /// A sample and the places other than its decision.
  struct Candidate {
    InstructionRef inst;
    SmallVector<int64_t> places;
  };

  FailureOr<std::vector<Candidate>> findCandidates(const Trace &trace,
                                                   RandomEngine::State &state,
                                                   std::string &error);

  /// The task's module (null until initialized with a context).
  OwningOpRef<ModuleOp> mod;
};

} // namespace

FailureOr<std::vector<MutateComputeLocation::Candidate>>
MutateComputeLocation::findCandidates(const Trace &trace,
                                      RandomEngine::State &state,
                                      std::string &error) {
  if (!mod) {
    error = "MutateComputeLocation is not initialized with a TuneContext";
    return failure();
  }
  FailureOr<Schedule> sch = forkTracedSchedule(*mod, state, error);
  if (failed(sch))
    return failure();
  std::vector<Candidate> candidates;
  // Before each sample is applied: its block's places, the decision kept.
  auto provider = [&](const InstructionRef &recorded, const Instruction &here,
                      Attribute decision,
                      std::string &) -> FailureOr<Attribute> {
    if (!isKind(here, "SampleComputeLocation") || here.operands.empty() ||
        here.operands[0].size() != 1)
      return decision;
    auto block = dyn_cast_if_present<BlockOp>(
        getPayloadOp(*sch, here.operands[0].front()));
    auto current = dyn_cast_if_present<IntegerAttr>(decision);
    if (!block || !current)
      return decision;
    Candidate candidate{recorded, {}};
    for (const ComputeLocation &place : collectComputeLocations(block))
      if (place.index != current.getInt())
        candidate.places.push_back(place.index);
    if (!candidate.places.empty())
      candidates.push_back(std::move(candidate));
    return decision;
  };
  if (failed((*sch)->applyTrace(trace, /*removePostproc=*/true, provider,
                                error))) {
    error = "MutateComputeLocation: the trace does not replay on the task's "
            "module: " +
            error;
    return failure();
  }
  return candidates;
}

FailureOr<std::optional<Trace>>
MutateComputeLocation::apply(const Trace &trace, RandomEngine::State &randState,
                             std::string &error) {
  FailureOr<std::vector<Candidate>> candidates =
      findCandidates(trace, randState, error);
  if (failed(candidates))
    return failure();
  if (candidates->empty())
    return std::optional<Trace>();
  const Candidate &candidate =
      (*candidates)[sampleInt(randState, 0, candidates->size())];
  int64_t place =
      candidate.places[sampleInt(randState, 0, candidate.places.size())];
  auto decision = cast<IntegerAttr>(trace.getDecision(candidate.inst.get()));
  return std::optional<Trace>(trace.withDecision(
      candidate.inst, IntegerAttr::get(decision.getType(), place),
      /*removePostproc=*/true));
}

std::shared_ptr<Mutator> mlir::tir::ms::createMutateComputeLocation() {
  return std::make_shared<MutateComputeLocation>();
}
