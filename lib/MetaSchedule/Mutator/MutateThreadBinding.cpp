//===- MutateThreadBinding.cpp - another thread count ---------------------===//
//
// TVM's MutateThreadBinding. The candidates are the loops split as
//
//   v = sample_categorical(...)
//   l1, l2 = split(l0, [None, v])
//   bind(l2, "threadIdx.x")
//
// (the split of two factors, the first inferred, the second sampled); one
// is drawn uniformly, and its sample takes another candidate, drawn by the
// others' probabilities. TVM aborts on a sample of one candidate, which is
// left out here; and TVM's mutator keeps the task's module without using
// it, which this one does not.
//
//===----------------------------------------------------------------------===//

#include "MutatorUtils.h"

#include "TensorIR/MetaSchedule/Mutators.h"

using namespace mlir;
using namespace mlir::tir;
using namespace mlir::tir::ms;
using namespace mlir::tir::ms::mutator;

namespace {

class MutateThreadBinding : public Mutator {
public:
  FailureOr<std::optional<Trace>> apply(const Trace &trace,
                                        RandomEngine::State &randState,
                                        std::string &error) override;
  FailureOr<std::shared_ptr<Mutator>> clone(std::string &) const override {
    return std::shared_ptr<Mutator>(std::make_shared<MutateThreadBinding>());
  }
  std::string str() const override {
    return defaultRepr("MutateThreadBinding", this);
  }
};

} // namespace

/// The sampled factor of a split of `[None, v]`, or null.
static RV getSampledInnerFactor(const Instruction &split) {
  std::vector<TVMValue> inputs, attrs;
  split.kind->getTVMLayout(split, inputs, attrs);
  if (inputs.size() != 3 || inputs[1].tag != TVMValue::Tag::None ||
      inputs[2].tag != TVMValue::Tag::Variable)
    return nullptr;
  return inputs[2].variable;
}

/// Whether `bind` binds its loop to threadIdx.x.
static bool bindsThreadIdxX(const Instruction &bind) {
  auto axis = dyn_cast_if_present<StringAttr>(
      bind.attributes ? bind.attributes.get("thread_axis") : Attribute());
  return axis && axis.getValue() == "threadIdx.x";
}

FailureOr<std::optional<Trace>>
MutateThreadBinding::apply(const Trace &trace, RandomEngine::State &randState,
                           std::string &) {
  DenseMap<const RandomVariable *, InstructionRef> samples;
  // The inner loop of each split by a sample, to the sample.
  DenseMap<const RandomVariable *, InstructionRef> sampledLoops;
  std::vector<InstructionRef> candidates;
  for (const InstructionRef &inst : trace.getInstructions()) {
    if (isKind(*inst, "SampleCategorical")) {
      if (inst->outputs.size() == 1 && inst->outputs[0])
        samples[inst->outputs[0].get()] = inst;
    } else if (isKind(*inst, "Split")) {
      RV factor = getSampledInnerFactor(*inst);
      InstructionRef sample = factor ? samples.lookup(factor.get()) : nullptr;
      if (sample && inst->outputs.size() == 2 && inst->outputs[1])
        sampledLoops[inst->outputs[1].get()] = sample;
    } else if (isKind(*inst, "Bind") && bindsThreadIdxX(*inst)) {
      if (inst->operands.empty() || inst->operands[0].size() != 1)
        continue;
      InstructionRef sample = sampledLoops.lookup(inst->operands[0][0].get());
      if (!sample)
        continue;
      if (hasOtherCategory(trace, *sample))
        candidates.push_back(sample);
    }
  }
  return withOtherCategory(trace, candidates, randState);
}

std::shared_ptr<Mutator> mlir::tir::ms::createMutateThreadBinding() {
  return std::make_shared<MutateThreadBinding>();
}
