//===- MutateUnroll.cpp - another unroll depth ----------------------------===//
//
// TVM's MutateUnroll. The candidates are the "meta_schedule.unroll_explicit"
// and "meta_schedule.unroll_implicit" annotations whose value a
// SampleCategorical drew; one is drawn uniformly, and its sample takes
// another candidate, drawn by the others' probabilities.
//
// An annotation of a constant (not sampled) is no candidate; neither is a
// sample of one candidate. TVM aborts on both.
//
//===----------------------------------------------------------------------===//

#include "MutatorUtils.h"

#include "TensorIR/MetaSchedule/Mutators.h"

using namespace mlir;
using namespace mlir::tir;
using namespace mlir::tir::ms;
using namespace mlir::tir::ms::mutator;

namespace {

class MutateUnroll : public Mutator {
public:
  FailureOr<std::optional<Trace>> apply(const Trace &trace,
                                        RandomEngine::State &randState,
                                        std::string &error) override;
  FailureOr<std::shared_ptr<Mutator>> clone(std::string &) const override {
    return std::shared_ptr<Mutator>(std::make_shared<MutateUnroll>());
  }
  std::string str() const override { return defaultRepr("MutateUnroll", this); }
};

} // namespace

FailureOr<std::optional<Trace>>
MutateUnroll::apply(const Trace &trace, RandomEngine::State &randState,
                    std::string &) {
  // The samples by their output, then the unroll annotations of one.
  DenseMap<const RandomVariable *, InstructionRef> samples;
  std::vector<InstructionRef> candidates;
  for (const InstructionRef &inst : trace.getInstructions()) {
    if (isKind(*inst, "SampleCategorical")) {
      if (inst->outputs.size() == 1 && inst->outputs[0])
        samples[inst->outputs[0].get()] = inst;
      continue;
    }
    StringRef key = getAnnotationKey(*inst);
    if (key != "meta_schedule.unroll_explicit" &&
        key != "meta_schedule.unroll_implicit")
      continue;
    RV value = getAnnotationVariable(*inst);
    InstructionRef sample = value ? samples.lookup(value.get()) : nullptr;
    if (!sample)
      continue;
    if (hasOtherCategory(trace, *sample))
      candidates.push_back(sample);
  }
  return withOtherCategory(trace, candidates, randState);
}

std::shared_ptr<Mutator> mlir::tir::ms::createMutateUnroll() {
  return std::make_shared<MutateUnroll>();
}
