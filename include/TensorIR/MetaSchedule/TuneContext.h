//===- TuneContext.h - one task of tuning -----------------------*- C++ -*-===//
//
// TVM's TuneContext: what tuning one module needs, the module, the
// target, the space generator (and, through it, the rules, postprocessors
// and mutators), the task's name, its threads and its random state, and
// where it logs. initialize() hands the context to its components, which
// read the target from it.
//
//===----------------------------------------------------------------------===//

#ifndef TENSORIR_METASCHEDULE_TUNECONTEXT_H
#define TENSORIR_METASCHEDULE_TUNECONTEXT_H

#include "TensorIR/MetaSchedule/SearchStrategy.h"
#include "TensorIR/MetaSchedule/SpaceGenerator.h"
#include "TensorIR/MetaSchedule/Target.h"

namespace mlir::tir::ms {

/// Python's logging levels, which TVM's loggers take.
enum class LogLevel : int { Debug = 10, Info = 20, Warning = 30, Error = 40 };

class TuneContext : public std::enable_shared_from_this<TuneContext> {
public:
  /// The module tuned (null: none yet).
  OwningOpRef<ModuleOp> mod;
  std::optional<Target> target;
  std::shared_ptr<SpaceGenerator> spaceGenerator;
  std::shared_ptr<SearchStrategy> searchStrategy;
  std::string taskName = "main";
  int numThreads = 1;
  /// The random state; each component initialized with the context forks
  /// its own from it (forkSeed), which advances it.
  mutable RandomEngine::State randState = 1;
  /// Where log() writes; null: nowhere.
  std::function<void(LogLevel, const std::string &)> logger;

  /// Seeds the random state (TVM's rand_state: -1 draws a seed); fails
  /// for other negative seeds.
  LogicalResult seed(int64_t seed, std::string &error);
  /// TVM's TuneContext.initialize: the space generator, then the search
  /// strategy, initialized with this context.
  LogicalResult initialize(std::string &error);
  /// The design space of the module (fails without a module or a space
  /// generator).
  FailureOr<std::vector<Schedule>> generateDesignSpace(std::string &error);
  /// TVM's TuneContext.clone: a context of a copy of the module with
  /// clones of the components, its random state forked from this one's
  /// (which advances), initialized.
  FailureOr<std::shared_ptr<TuneContext>> clone(std::string &error);

  /// TVM's ForkSeed(&rand_state): a seed for a component, derived from the
  /// context's random state, which advances.
  RandomEngine::State forkSeed() const {
    return *RandomEngine::normalizeSeed(RandomEngine(randState).forkSeed());
  }

  void log(LogLevel level, const std::string &message) const {
    if (logger)
      logger(level, message);
  }
};

} // namespace mlir::tir::ms

#endif // TENSORIR_METASCHEDULE_TUNECONTEXT_H
