//===- SpaceGenerator.h - design spaces of a task ---------------*- C++ -*-===//
//
// TVM's SpaceGenerator: the design space of a module, as schedules whose
// sampling steps the search later replays with other decisions. A space
// generator also carries what completes and varies the samples: the
// schedule rules, the postprocessors and the mutators with their
// probabilities; those not given take the defaults of the target when a
// TuneContext initializes it.
//
//  - PostOrderApply: each rule applied to every block, innermost first
//    (TVM's default).
//  - ScheduleFn: a function that schedules a copy of the module.
//  - SpaceGeneratorUnion: the spaces of several generators together.
//  - FunctionSpaceGenerator: one given as functions (TVM's
//    PySpaceGenerator).
//
//===----------------------------------------------------------------------===//

#ifndef TENSORIR_METASCHEDULE_SPACEGENERATOR_H
#define TENSORIR_METASCHEDULE_SPACEGENERATOR_H

#include "TensorIR/MetaSchedule/Mutator.h"
#include "TensorIR/MetaSchedule/Postproc.h"
#include "TensorIR/MetaSchedule/ScheduleRule.h"

namespace mlir::tir::ms {

using MutatorProbs = std::vector<std::pair<std::shared_ptr<Mutator>, double>>;

class SpaceGenerator {
public:
  virtual ~SpaceGenerator();

  /// Rules, postprocessors and mutators not given take the defaults of the
  /// context's target (TVM's rule kinds; a warning is logged for defaults
  /// the library does not have yet); then each is initialized.
  virtual LogicalResult initializeWithTuneContext(const TuneContext &context,
                                                  std::string &error);
  /// The design space of `mod` (which stays as it is).
  virtual FailureOr<std::vector<Schedule>>
  generateDesignSpace(ModuleOp mod, std::string &error) = 0;
  virtual FailureOr<std::shared_ptr<SpaceGenerator>>
  clone(std::string &error) const = 0;

  std::optional<std::vector<std::shared_ptr<ScheduleRule>>> scheduleRules;
  std::optional<std::vector<std::shared_ptr<Postproc>>> postprocs;
  std::optional<MutatorProbs> mutatorProbs;

protected:
  /// The generator's random state, forked from the context's when it
  /// initializes the generator; each design space forks its own from it.
  RandomEngine::State randState = 1;
  /// Why the rules stayed unset when a context initialized the generator
  /// (the target's defaults are missing), for the error of a generator
  /// that needs them.
  std::string missingDefaults;

  /// Gives `other` clones of this generator's rules, postprocessors and
  /// mutators (TVM's CloneRules).
  LogicalResult cloneComponentsInto(SpaceGenerator &other,
                                    std::string &error) const;
};

/// The schedule design spaces start from: `mod` cloned, the random state
/// seeded with `seed` (-1: a random seed), refusals rendered as
/// `rendering` says (the search, which only counts them, renders none).
FailureOr<Schedule>
createTracedSchedule(ModuleOp mod, int64_t seed, std::string &error,
                     ScheduleOptions::ErrorRendering rendering =
                         ScheduleOptions::ErrorRendering::Detail);

/// TVM's PostOrderApply: for each rule in order, every schedule so far is
/// given to the rule once per block, blocks visited in post-order (TVM's
/// order: the last block of the function first), a block a rule removed
/// skipped, a block annotated "schedule_rule" left to ApplyCustomRule.
class PostOrderApply : public SpaceGenerator {
public:
  /// Which blocks get design spaces: `block` is a tir.block op or the
  /// function (TVM's root block) of the payload of `sch`. Null: all of
  /// them.
  using BlockFilter = std::function<FailureOr<bool>(
      const Schedule &sch, Operation *block, std::string &error)>;
  BlockFilter blockFilter;

  FailureOr<std::vector<Schedule>>
  generateDesignSpace(ModuleOp mod, std::string &error) override;
  FailureOr<std::shared_ptr<SpaceGenerator>>
  clone(std::string &error) const override;
};

/// TVM's ScheduleFn: the space is what `function` makes of a schedule of
/// the module (the schedule itself, changed, or the schedules it returns).
class ScheduleFn : public SpaceGenerator {
public:
  using Function = std::function<FailureOr<std::vector<Schedule>>(
      const Schedule &, std::string &)>;
  explicit ScheduleFn(Function function) : function(std::move(function)) {}

  FailureOr<std::vector<Schedule>>
  generateDesignSpace(ModuleOp mod, std::string &error) override;
  FailureOr<std::shared_ptr<SpaceGenerator>>
  clone(std::string &error) const override;

private:
  Function function;
};

/// TVM's SpaceGeneratorUnion: the spaces of `generators` in order.
class SpaceGeneratorUnion : public SpaceGenerator {
public:
  std::vector<std::shared_ptr<SpaceGenerator>> generators;

  LogicalResult initializeWithTuneContext(const TuneContext &context,
                                          std::string &error) override;
  FailureOr<std::vector<Schedule>>
  generateDesignSpace(ModuleOp mod, std::string &error) override;
  FailureOr<std::shared_ptr<SpaceGenerator>>
  clone(std::string &error) const override;
};

/// A space generator given as functions (TVM's PySpaceGenerator): its
/// initialization is the function's alone.
class FunctionSpaceGenerator : public SpaceGenerator {
public:
  std::string name = "PySpaceGenerator";
  std::function<LogicalResult(const TuneContext &, std::string &)> initializeFn;
  std::function<FailureOr<std::vector<Schedule>>(ModuleOp, std::string &)>
      generateFn;
  std::function<FailureOr<std::shared_ptr<SpaceGenerator>>(std::string &)>
      cloneFn;

  LogicalResult initializeWithTuneContext(const TuneContext &context,
                                          std::string &error) override;
  FailureOr<std::vector<Schedule>>
  generateDesignSpace(ModuleOp mod, std::string &error) override;
  FailureOr<std::shared_ptr<SpaceGenerator>>
  clone(std::string &error) const override;
};

/// The default rules, postprocessors and mutators of a rule kind
/// (Target::getRuleKind), each unset where the library does not have it
/// yet; `missing` says what is missing (empty: nothing).
struct DefaultComponents {
  std::optional<std::vector<std::shared_ptr<ScheduleRule>>> scheduleRules;
  std::optional<std::vector<std::shared_ptr<Postproc>>> postprocs;
  std::optional<MutatorProbs> mutatorProbs;
  std::string missing;
};
DefaultComponents getDefaultComponents(StringRef ruleKind,
                                       const TuneContext &context);

} // namespace mlir::tir::ms

#endif // TENSORIR_METASCHEDULE_SPACEGENERATOR_H
