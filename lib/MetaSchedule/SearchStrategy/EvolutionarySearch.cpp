//===- EvolutionarySearch.cpp - TVM's genetic search ----------------------===//
//
// Each batch, as TVM's EvolutionarySearch:
//  1. the initial population: the database's best records of the task
//     (init_measured_ratio of the population) and fresh samples of the
//     design spaces (at least init_min_unmeasured, else the search ends);
//  2. genetic_num_iters rounds: the cost model scores the population, each
//     schedule not measured or seen yet enters a heap of the best; the next
//     population is drawn by score and mutated with genetic_mutate_prob (a
//     mutator drawn by its probability; a mutation the postprocessors
//     reject is retried, then the parent is kept);
//  3. the batch: the heap's best, and an eps_greedy share of the fresh
//     samples, none measured before (in this search, or recorded in the
//     database when it began: TVM measures those again on resume); five batches
//     with nothing new (in all, as TVM counts them) end the search. Beyond
//     TVM, when asked, the first batch also measures the program as it is
//     (measureUnscheduled): a space whose every sample is slower than no
//     schedule at all (a softmax whose exponentials it inlines into three
//     reductions) then still returns the faster program.
// The samples of step 1 and the mutations of step 2 are replayed on up to
// TuneContext.num_threads threads of the MLIR context's pool (TVM's on its
// own pool), unless a mutator or postprocessor is given as Python
// functions. Every random draw is made beforehand, in order, so that the
// candidates do not depend on the number of threads.
//
//===----------------------------------------------------------------------===//

#include "TensorIR/MetaSchedule/Profiler.h"
#include "TensorIR/MetaSchedule/ScheduleSteps.h"
#include "TensorIR/MetaSchedule/SearchStrategy.h"
#include "TensorIR/MetaSchedule/TuneContext.h"

#include "TensorIR/Dialect/TIR/Analysis/StructuralEqual.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Threading.h"

#include "llvm/ADT/StringSet.h"

#include <atomic>
#include <unordered_map>

using namespace mlir;
using namespace mlir::tir;
using namespace mlir::tir::ms;

namespace {

/// Modules seen (TVM's IRModuleSet): by structural hash, then equality.
class ModuleSet {
public:
  explicit ModuleSet(ModuleEquality equality) : equality(equality) {}
  /// Adds the module of `sch`; false when an equal one is in.
  bool insert(const Schedule &sch) {
    ModuleOp mod = sch->getPayload();
    uint64_t hash = hashModule(mod, equality);
    auto [begin, end] = modules.equal_range(hash);
    for (auto it = begin; it != end; ++it)
      if (equalModules(it->second->get(), mod, equality))
        return false;
    // A copy: the schedule is shared with cost models and callbacks, which
    // may change it.
    modules.emplace(hash, std::make_shared<OwningOpRef<ModuleOp>>(mod.clone()));
    return true;
  }

private:
  ModuleEquality equality;
  std::unordered_multimap<uint64_t, std::shared_ptr<OwningOpRef<ModuleOp>>>
      modules;
};

/// TVM's MakeMultinomialSampler: an index drawn with probability
/// proportional to its weight.
int64_t drawByWeight(RandomEngine::State &state, ArrayRef<double> weights) {
  double total = 0;
  for (double w : weights)
    total += w;
  if (total <= 0)
    return sampleInt(state, 0, static_cast<int64_t>(weights.size()));
  return sampleDiscrete(state, weights);
}

/// One trace replayed on a worker thread: its schedule (null when the
/// postprocessors rejected it or the trace did not apply), the rejections
/// counted, and the error that ends the search.
struct Replay {
  Schedule sch;
  std::vector<int64_t> failures;
  std::string error;
  bool failed = false;
};

/// Runs `task(i)` for each i in [0, n) on up to `threads` threads of `ctx`'s
/// pool, each taking the next index when done with one; in order on this
/// thread when `parallel` is false, the context runs single-threaded or
/// `threads` is 1. Every draw of randomness is made before, so the results
/// do not depend on the threads.
void forEachIndex(MLIRContext *ctx, int64_t n, int threads, bool parallel,
                  llvm::function_ref<void(int64_t)> task) {
  int64_t workers = std::min<int64_t>(threads, n);
  if (!parallel || workers <= 1 || !ctx->isMultithreadingEnabled()) {
    for (int64_t i = 0; i < n; ++i)
      task(i);
    return;
  }
  std::atomic<int64_t> next{0};
  parallelFor(ctx, 0, workers, [&](size_t) {
    for (int64_t i = next++; i < n; i = next++)
      task(i);
  });
}

/// Adds the rejections of `replays` to `failures`; the first error (in
/// index order) into `error`, failing.
LogicalResult merge(ArrayRef<Replay> replays, std::vector<int64_t> &failures,
                    std::string &error) {
  for (const Replay &replay : replays)
    for (auto [total, count] : llvm::zip(failures, replay.failures))
      total += count;
  for (const Replay &replay : replays) {
    if (replay.failed) {
      error = replay.error;
      return failure();
    }
  }
  return success();
}

} // namespace

struct EvolutionarySearch::State {
  std::vector<Trace> designSpaces;
  std::shared_ptr<Database> database;
  std::shared_ptr<CostModel> costModel;
  WorkloadRef workload;
  /// The programs sent for measurement in this search.
  ModuleSet measured;
  /// The traces (TVM's JSON, up to postprocessing) of the workload's
  /// records in the database when the search began: a resumed search does
  /// not measure them again (TVM's does).
  llvm::StringSet<> recorded;
  int64_t numEmptyIters = 0;
  State(ModuleEquality equality) : measured(equality) {}

  /// Whether `sch` was recorded before the search began.
  bool wasRecorded(const Schedule &sch) const {
    if (recorded.empty())
      return false;
    std::string ignored;
    FailureOr<std::string> key = sch->getInstructions().asJSON(true, ignored);
    return succeeded(key) && recorded.contains(*key);
  }
};

LogicalResult EvolutionarySearch::verifyParameters(std::string &error) const {
  auto fail = [&](const char *what) {
    error = std::string("EvolutionarySearch: ") + what;
    return failure();
  };
  if (populationSize < 1)
    return fail("population_size is positive");
  if (initMeasuredRatio < 0 || initMeasuredRatio > 1)
    return fail("init_measured_ratio is in [0, 1]");
  if (initMinUnmeasured < 0)
    return fail("init_min_unmeasured is non-negative");
  if (geneticNumIters < 0)
    return fail("genetic_num_iters is non-negative");
  if (geneticMutateProb < 0 || geneticMutateProb > 1)
    return fail("genetic_mutate_prob is in [0, 1]");
  if (geneticMaxFailCount < 0 || maxFailCount < 0)
    return fail("max_fail_count and genetic_max_fail_count are non-negative");
  if (epsGreedy < 0 || epsGreedy > 1)
    return fail("eps_greedy is in [0, 1]");
  return success();
}

LogicalResult
EvolutionarySearch::initializeWithTuneContext(const TuneContext &ctx,
                                              std::string &error) {
  if (failed(verifyParameters(error)))
    return failure();
  if (ctx.numThreads < 1) {
    error = "EvolutionarySearch: TuneContext.num_threads must be > 0";
    return failure();
  }
  if (!ctx.spaceGenerator) {
    error = "EvolutionarySearch: TuneContext.space_generator must be defined";
    return failure();
  }
  if (!ctx.spaceGenerator->postprocs) {
    error = "EvolutionarySearch: TuneContext.space_generator.postprocs must "
            "be defined";
    return failure();
  }
  if (!ctx.spaceGenerator->mutatorProbs) {
    error = "EvolutionarySearch: TuneContext.space_generator.mutator_probs "
            "must be defined";
    return failure();
  }
  state.reset();
  return ReplayStrategyBase::initializeWithTuneContext(ctx, error);
}

LogicalResult EvolutionarySearch::preTuning(
    int64_t trials, int64_t trialsPerIter, const std::vector<Schedule> &spaces,
    std::shared_ptr<Database> database, std::shared_ptr<CostModel> costModel,
    std::string &error) {
  if (spaces.empty()) {
    error = "EvolutionarySearch needs at least one design space";
    return failure();
  }
  if (!database) {
    error = "EvolutionarySearch needs a database, to draw from what was "
            "measured (a MemoryDatabase keeps nothing on disk)";
    return failure();
  }
  if (!costModel) {
    error = "EvolutionarySearch needs a cost model to rank candidates "
            "(cost_model.RandomModel ranks at random)";
    return failure();
  }
  if (failed(startTuning(trials, trialsPerIter, error)))
    return failure();
  auto fresh = std::make_shared<State>(database->getModuleEquality());
  for (const Schedule &space : spaces)
    fresh->designSpaces.push_back(space->getInstructions());
  fresh->database = std::move(database);
  fresh->costModel = std::move(costModel);
  FailureOr<WorkloadRef> workload =
      fresh->database->commitWorkload(context->mod.get(), error);
  if (failed(workload)) {
    tuning = false;
    return failure();
  }
  fresh->workload = *workload;
  // A database that cannot list its records (one given as functions
  // without that one) only loses this check.
  std::string ignored;
  FailureOr<std::vector<TuningRecord>> records =
      fresh->database->getAllTuningRecords(ignored);
  if (failed(records))
    records = std::vector<TuningRecord>();
  for (const TuningRecord &record : *records) {
    if (record.workload != fresh->workload &&
        !(record.workload->shash == fresh->workload->shash &&
          equalModules(*record.workload->mod, *fresh->workload->mod,
                       fresh->database->getModuleEquality())))
      continue;
    FailureOr<std::string> key = record.trace.asJSON(true, ignored);
    if (succeeded(key))
      fresh->recorded.insert(*key);
  }
  state = std::move(fresh);
  return success();
}

LogicalResult EvolutionarySearch::postTuning(std::string &error) {
  state.reset();
  return ReplayStrategyBase::postTuning(error);
}

/// The program as it is, as a candidate: a get_block of its first named
/// block (a record counts only with an instruction before postprocessing,
/// as TVM's), then the postprocessors. Null when it has no named block or
/// a postprocessor rejects it.
static FailureOr<Schedule>
unscheduledCandidate(ModuleOp mod, RandomEngine::State &randState,
                     ArrayRef<std::shared_ptr<Postproc>> postprocs,
                     std::vector<int64_t> &failures, std::string &error) {
  std::string name, funcName;
  mod.walk([&](BlockOp block) {
    if (!name.empty() || block.getBlockName().empty() ||
        block.getBlockName() == "root")
      return;
    name = block.getBlockName().str();
    if (auto owner = block->getParentOfType<func::FuncOp>())
      funcName = owner.getSymName().str();
  });
  if (name.empty())
    return Schedule();
  return buildCandidate(
      mod, randState, postprocs, failures, error, [&](ScheduleState &state) {
        std::string ignored;
        return succeeded(
            ScheduleSteps(state, ignored).getBlock(name, funcName));
      });
}

FailureOr<std::optional<std::vector<MeasureCandidate>>>
EvolutionarySearch::generateMeasureCandidates(std::string &error) {
  using Result = std::optional<std::vector<MeasureCandidate>>;
  if (!tuning || !state) {
    error = "generate_measure_candidates outside pre_tuning / post_tuning";
    return failure();
  }
  if (failed(checkContext(error)))
    return failure();
  if (st >= maxTrials)
    return Result();
  int64_t sampleNum = numTrialsPerIter;
  if (ed > maxTrials) {
    sampleNum = maxTrials - st;
    ed = maxTrials;
  }
  ModuleOp mod = context->mod.get();
  ArrayRef<std::shared_ptr<Postproc>> postprocs = getPostprocs();
  const MutatorProbs &mutatorProbs = *context->spaceGenerator->mutatorProbs;
  std::vector<int64_t> failures;
  auto summary = [&](StringRef what) {
    std::string text = what.str() + ":";
    for (auto [index, postproc] : llvm::enumerate(postprocs))
      if (failures[index])
        text += " " + postproc->str() + " rejected " +
                std::to_string(failures[index]) + ";";
    if (!failures.empty() && failures.back())
      text += " " + std::to_string(failures.back()) + " traces did not apply;";
    failures.assign(postprocs.size() + 1, 0);
    return text;
  };
  failures.assign(postprocs.size() + 1, 0);
  // Traces are replayed on the context's threads unless a mutator or
  // postprocessor needs this one (one given as Python functions).
  bool threadSafe = llvm::all_of(postprocs,
                                 [](const auto &postproc) {
                                   return postproc->isThreadSafe();
                                 }) &&
                    llvm::all_of(mutatorProbs, [](const auto &entry) {
                      return entry.first->isThreadSafe();
                    });
  context->log(LogLevel::Info, "Generating candidates......");

  // 1. The initial population.
  std::vector<Schedule> measuredSchs;
  {
    Profiler::TimedScope timer("EvoSearch/PickBestFromDatabase");
    FailureOr<std::vector<TuningRecord>> best = state->database->getTopK(
        state->workload,
        static_cast<int64_t>(populationSize * initMeasuredRatio), error);
    if (failed(best))
      return failure();
    for (const TuningRecord &record : *best) {
      FailureOr<Schedule> sch = applyTraceAndPostprocs(
          mod, record.trace, randState, postprocs, failures, error);
      if (failed(sch))
        return failure();
      if (!*sch) {
        error = "EvolutionarySearch: a measured trace of the database no "
                "longer passes the postprocessors";
        return failure();
      }
      measuredSchs.push_back(*sch);
    }
  }
  context->log(LogLevel::Info, "Picked top " +
                                   std::to_string(measuredSchs.size()) +
                                   " candidate(s) from database");
  std::vector<Schedule> unmeasured;
  {
    Profiler::TimedScope timer("EvoSearch/SampleInitPopulation");
    int64_t num = populationSize - static_cast<int64_t>(measuredSchs.size());
    for (int64_t failCount = 0;
         static_cast<int64_t>(unmeasured.size()) < initMinUnmeasured &&
         failCount < maxFailCount;) {
      // The design space and the random state of each sample are drawn in
      // order; the samples are replayed in parallel.
      std::vector<std::pair<int64_t, RandomEngine::State>> draws;
      for (int64_t i = 0; i < std::max<int64_t>(num, 0); ++i) {
        int64_t index = sampleInt(
            randState, 0, static_cast<int64_t>(state->designSpaces.size()));
        draws.emplace_back(index, RandomEngine(randState).forkSeed());
      }
      std::vector<Replay> replays(draws.size());
      forEachIndex(mod->getContext(), static_cast<int64_t>(draws.size()),
                   context->numThreads, threadSafe, [&](int64_t i) {
                     Replay &r = replays[i];
                     auto [index, rng] = draws[i];
                     FailureOr<Schedule> sch = applyTraceAndPostprocs(
                         mod, withoutDecisions(state->designSpaces[index]), rng,
                         postprocs, r.failures, r.error);
                     r.failed = failed(sch);
                     if (succeeded(sch))
                       r.sch = *sch;
                   });
      if (failed(merge(replays, failures, error)))
        return failure();
      bool foundNew = false;
      for (Replay &r : replays) {
        if (r.sch) {
          unmeasured.push_back(std::move(r.sch));
          foundNew = true;
        }
      }
      failCount += !foundNew;
      context->log(LogLevel::Debug, summary("Sample-Init-Population"));
    }
  }
  if (static_cast<int64_t>(unmeasured.size()) < initMinUnmeasured) {
    context->log(LogLevel::Warning, "Cannot sample enough initial "
                                    "population, evolutionary search failed.");
    return Result();
  }
  context->log(LogLevel::Info, "Sampled " + std::to_string(unmeasured.size()) +
                                   " candidate(s)");

  // 2. Evolution, ranked by the cost model.
  std::vector<Schedule> population = measuredSchs;
  population.insert(population.end(), unmeasured.begin(), unmeasured.end());
  std::vector<std::pair<double, Schedule>>
      heap; // the best sampleNum, min first
  auto heapLess = [](const std::pair<double, Schedule> &a,
                     const std::pair<double, Schedule> &b) {
    return a.first > b.first;
  };
  ModuleSet seen = state->measured;
  for (int64_t iter = 0;; ++iter) {
    std::vector<MeasureCandidate> candidates;
    for (const Schedule &sch : population) {
      FailureOr<MeasureCandidate> candidate = makeMeasureCandidate(sch, error);
      if (failed(candidate))
        return failure();
      candidates.push_back(std::move(*candidate));
    }
    FailureOr<std::vector<double>> scores;
    {
      Profiler::TimedScope timer("EvoSearch/Evolve/PredictNormalizedScore");
      scores = state->costModel->predict(*context, candidates, error);
    }
    if (failed(scores))
      return failure();
    if (scores->size() != population.size()) {
      error = "the cost model gave " + std::to_string(scores->size()) +
              " scores for " + std::to_string(population.size()) +
              " candidates";
      return failure();
    }
    for (double &score : *scores)
      score = std::max(0.0, score);
    for (auto [sch, score] : llvm::zip(population, *scores)) {
      if (!seen.insert(sch) || state->wasRecorded(sch))
        continue;
      if (static_cast<int64_t>(heap.size()) < sampleNum) {
        heap.emplace_back(score, sch);
        std::push_heap(heap.begin(), heap.end(), heapLess);
      } else if (score > heap.front().first) {
        std::pop_heap(heap.begin(), heap.end(), heapLess);
        heap.back() = {score, sch};
        std::push_heap(heap.begin(), heap.end(), heapLess);
      }
    }
    if (iter == geneticNumIters)
      break;
    Profiler::TimedScope timer("EvoSearch/Evolve/Mutation");
    // The mutator draw: none with 1 - p, else by the mutators' masses.
    std::vector<double> masses{1.0 - geneticMutateProb};
    double totalMass = 0;
    for (const auto &[mutator, probability] : mutatorProbs)
      totalMass += probability;
    for (const auto &[mutator, probability] : mutatorProbs)
      masses.push_back(totalMass > 0 && geneticMutateProb > 0
                           ? probability / totalMass * geneticMutateProb
                           : 0.0);
    if (totalMass == 0 || geneticMutateProb == 0)
      masses[0] = 1.0;
    // Each slot's parent, first mutator draw and random state are drawn in
    // order (a parent is kept unmutated at most once: a second draw of
    // "no mutation" for it draws again); the mutations are replayed in
    // parallel, where a rejected one draws again from the slot's own state
    // (and "no mutation" then keeps the parent).
    struct Slot {
      int64_t parent = 0, choice = 0;
      RandomEngine::State rng = 0;
    };
    std::vector<Slot> slots(populationSize);
    std::vector<bool> kept(population.size(), false);
    for (Slot &slot : slots) {
      for (int64_t fail = 0; fail <= geneticMaxFailCount; ++fail) {
        slot.parent = drawByWeight(randState, *scores);
        slot.choice = sampleDiscrete(randState, masses);
        if (slot.choice != 0 || !kept[slot.parent])
          break;
      }
      if (slot.choice == 0)
        kept[slot.parent] = true;
      slot.rng = RandomEngine(randState).forkSeed();
    }
    std::vector<Replay> replays(populationSize);
    forEachIndex(
        mod->getContext(), populationSize, context->numThreads, threadSafe,
        [&](int64_t i) {
          Slot slot = slots[i];
          Replay &r = replays[i];
          for (int64_t fail = 0;
               slot.choice != 0 && fail <= geneticMaxFailCount; ++fail) {
            if (fail > 0) {
              slot.parent = drawByWeight(slot.rng, *scores);
              slot.choice = sampleDiscrete(slot.rng, masses);
              if (slot.choice == 0)
                break;
            }
            const std::shared_ptr<Mutator> &mutator =
                mutatorProbs[slot.choice - 1].first;
            FailureOr<std::optional<Trace>> mutated = mutator->apply(
                population[slot.parent]->getInstructions(), slot.rng, r.error);
            if (failed(mutated)) {
              r.failed = true;
              return;
            }
            if (!*mutated)
              continue;
            FailureOr<Schedule> sch = applyTraceAndPostprocs(
                mod, **mutated, slot.rng, postprocs, r.failures, r.error);
            if (failed(sch)) {
              r.failed = true;
              return;
            }
            if (*sch) {
              r.sch = *sch;
              return;
            }
          }
          r.sch = population[slot.parent];
        });
    if (failed(merge(replays, failures, error)))
      return failure();
    std::vector<Schedule> next;
    next.reserve(populationSize);
    for (Replay &r : replays)
      next.push_back(std::move(r.sch));
    population = std::move(next);
    context->log(LogLevel::Debug,
                 summary("Evolve iter #" + std::to_string(iter) + " done"));
  }
  std::sort(heap.begin(), heap.end(),
            [](const auto &a, const auto &b) { return a.first > b.first; });
  context->log(LogLevel::Info, "Got " + std::to_string(heap.size()) +
                                   " candidate(s) with evolutionary search");

  // 3. The batch: the best and an eps_greedy share of fresh samples, none
  // measured before; the first batch starts with the program as it is.
  std::vector<MeasureCandidate> picks;
  int64_t slots = sampleNum;
  if (measureUnscheduled && st == 0) {
    FailureOr<Schedule> plain =
        unscheduledCandidate(mod, randState, postprocs, failures, error);
    if (failed(plain))
      return failure();
    if (*plain && !state->wasRecorded(*plain) &&
        state->measured.insert(*plain)) {
      FailureOr<MeasureCandidate> candidate =
          makeMeasureCandidate(*plain, error);
      if (failed(candidate))
        return failure();
      picks.push_back(std::move(*candidate));
      --slots;
    }
  }
  int64_t numRands = static_cast<int64_t>(slots * epsGreedy);
  int64_t numBests = slots - numRands;
  SmallVector<int64_t> rands = sampleWithoutReplacement(
      randState, static_cast<int64_t>(unmeasured.size()),
      static_cast<int64_t>(unmeasured.size()));
  size_t iBest = 0, iRand = 0;
  for (int64_t i = 0; i < slots; ++i) {
    bool hasBest = iBest < heap.size(), hasRand = iRand < rands.size();
    Schedule sch;
    if (i < numBests) {
      if (hasBest)
        sch = heap[iBest++].second;
      else if (hasRand)
        sch = unmeasured[rands[iRand++]];
      else
        break;
    } else {
      if (hasRand)
        sch = unmeasured[rands[iRand++]];
      else if (hasBest)
        sch = heap[iBest++].second;
      else
        break;
    }
    if (state->wasRecorded(sch) || !state->measured.insert(sch))
      continue;
    FailureOr<MeasureCandidate> candidate = makeMeasureCandidate(sch, error);
    if (failed(candidate))
      return failure();
    picks.push_back(std::move(*candidate));
  }
  context->log(LogLevel::Info, "Sending " + std::to_string(picks.size()) +
                                   " candidate(s) for measurement");
  if (picks.empty() && ++state->numEmptyIters >= numEmptyItersBeforeEarlyStop)
    return Result();
  return Result(std::move(picks));
}

FailureOr<std::shared_ptr<SearchStrategy>>
EvolutionarySearch::clone(std::string &) const {
  auto copy = std::make_shared<EvolutionarySearch>();
  copy->populationSize = populationSize;
  copy->initMeasuredRatio = initMeasuredRatio;
  copy->initMinUnmeasured = initMinUnmeasured;
  copy->maxFailCount = maxFailCount;
  copy->geneticNumIters = geneticNumIters;
  copy->geneticMutateProb = geneticMutateProb;
  copy->geneticMaxFailCount = geneticMaxFailCount;
  copy->epsGreedy = epsGreedy;
  copy->numEmptyItersBeforeEarlyStop = numEmptyItersBeforeEarlyStop;
  copy->measureUnscheduled = measureUnscheduled;
  return std::shared_ptr<SearchStrategy>(copy);
}
