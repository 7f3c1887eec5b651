//===- MutatorUtils.h - what TVM's mutators share ---------------*- C++ -*-===//
//
// Private to lib/MetaSchedule/Mutator: reading instructions of a trace as
// TVM's mutators read them, TVM's multinomial draw, and the replay of a
// trace on the task's module that some mutators inspect.
//
//===----------------------------------------------------------------------===//

#ifndef TENSORIR_LIB_METASCHEDULE_MUTATOR_MUTATORUTILS_H
#define TENSORIR_LIB_METASCHEDULE_MUTATOR_MUTATORUTILS_H

#include "TensorIR/MetaSchedule/SpaceGenerator.h"
#include "TensorIR/MetaSchedule/TuneContext.h"

#include <algorithm>

namespace mlir::tir::ms::mutator {

/// Whether `inst` is an instruction of TVM kind `name`.
inline bool isKind(const Instruction &inst, StringRef name) {
  return inst.kind && inst.kind->getName() == name;
}

/// The key of an Annotate instruction ("" for another kind).
inline StringRef getAnnotationKey(const Instruction &inst) {
  if (!isKind(inst, "Annotate") || !inst.attributes)
    return "";
  auto key = dyn_cast_if_present<StringAttr>(inst.attributes.get("ann_key"));
  return key ? key.getValue() : "";
}

/// The random variable an Annotate instruction takes its value from (TVM's
/// ExprRV ann_val: annotate's parameter, e.g. a SampleCategorical's
/// output), or null when the value is a constant.
inline RV getAnnotationVariable(const Instruction &inst) {
  std::vector<TVMValue> inputs, attrs;
  inst.kind->getTVMLayout(inst, inputs, attrs);
  if (inputs.size() == 2 && inputs[1].tag == TVMValue::Tag::Variable)
    return inputs[1].variable;
  return nullptr;
}

/// The probabilities of a SampleCategorical instruction.
inline SmallVector<double> getCategoricalProbs(const Instruction &inst) {
  auto probs = dyn_cast_if_present<DenseF64ArrayAttr>(
      inst.attributes ? inst.attributes.get("probs") : Attribute());
  return probs ? SmallVector<double>(probs.asArrayRef())
               : SmallVector<double>();
}

/// TVM's MakeMultinomialSampler, drawn once: a seed forked from `state`
/// (which advances once) drives a uniform real in [0, sum of `weights`),
/// and the index is the first whose running sum reaches it.
inline int64_t sampleMultinomial(RandomEngine::State &state,
                                 ArrayRef<double> weights) {
  SmallVector<double> sums;
  double sum = 0.0;
  for (double w : weights)
    sums.push_back(sum += w);
  RandomEngine::State forked = RandomEngine(state).forkSeed();
  // std::uniform_real_distribution(0, sum): a canonical draw scaled.
  double p = sampleCanonical(forked) * sum;
  int64_t index = std::lower_bound(sums.begin(), sums.end(), p) - sums.begin();
  int64_t n = sums.size();
  return index == n ? n - 1 : index;
}

/// Another index than `current` of the categorical distribution `probs`
/// (at least two), drawn as TVM's mutators draw it: `current` left out,
/// the rest by their probabilities.
inline int64_t sampleOtherCategory(RandomEngine::State &state,
                                   ArrayRef<double> probs, int64_t current) {
  SmallVector<double> rest(probs);
  rest.erase(rest.begin() + current);
  int64_t drawn = sampleMultinomial(state, rest);
  return drawn >= current ? drawn + 1 : drawn;
}

/// The integer decision of a sampling instruction of `trace`, if any.
inline std::optional<int64_t> getIntegerDecision(const Trace &trace,
                                                 const Instruction *inst) {
  if (auto d = dyn_cast_if_present<IntegerAttr>(trace.getDecision(inst)))
    return d.getInt();
  return std::nullopt;
}

/// A copy of the task's module, which `mutator` replays traces on (TVM's
/// mutators keep it as JSON); fails without one, as TVM's do.
inline LogicalResult copyTaskModule(const TuneContext &context,
                                    StringRef mutator,
                                    OwningOpRef<ModuleOp> &mod,
                                    std::string &error) {
  if (!context.mod) {
    error = (mutator + " needs the TuneContext's module").str();
    return failure();
  }
  mod = OwningOpRef<ModuleOp>(context.mod.get().clone());
  return success();
}

/// A traced schedule of a copy of `mod` seeded from `state` (TVM's
/// ForkSeed, which advances it), for replaying a trace to inspect.
inline FailureOr<Schedule> forkTracedSchedule(ModuleOp mod,
                                              RandomEngine::State &state,
                                              std::string &error) {
  RandomEngine::State seed = RandomEngine(state).forkSeed();
  return createTracedSchedule(mod, seed, error,
                              ScheduleOptions::ErrorRendering::Fast);
}

/// The op the handle of `rv` holds in `sch` (the first one), or null.
inline Operation *getPayloadOp(const Schedule &sch, const RV &rv) {
  Value handle = sch->getHandle(rv);
  if (!handle)
    return nullptr;
  std::string ignored;
  FailureOr<ArrayRef<transform::MappedValue>> payload =
      sch->getPayload(handle, ignored);
  if (failed(payload) || payload->empty())
    return nullptr;
  return dyn_cast_if_present<Operation *>(payload->front());
}

/// Whether the categorical sample `sample` has a decision another of at
/// least two categories could replace.
inline bool hasOtherCategory(const Trace &trace, const Instruction &sample) {
  std::optional<int64_t> decision = getIntegerDecision(trace, &sample);
  int64_t n = getCategoricalProbs(sample).size();
  return decision && n >= 2 && *decision >= 0 && *decision < n;
}

/// The trace with one of `candidates` (categorical samples with another
/// category, drawn uniformly) given another category, drawn by its
/// probability; std::nullopt without candidates.
inline std::optional<Trace>
withOtherCategory(const Trace &trace, ArrayRef<InstructionRef> candidates,
                  RandomEngine::State &randState) {
  if (candidates.empty())
    return std::nullopt;
  const InstructionRef &sample =
      candidates[sampleInt(randState, 0, candidates.size())];
  auto decision = cast<IntegerAttr>(trace.getDecision(sample.get()));
  int64_t index = sampleOtherCategory(randState, getCategoricalProbs(*sample),
                                      decision.getInt());
  return trace.withDecision(sample, IntegerAttr::get(decision.getType(), index),
                            /*removePostproc=*/true);
}

} // namespace mlir::tir::ms::mutator

#endif // TENSORIR_LIB_METASCHEDULE_MUTATOR_MUTATORUTILS_H
