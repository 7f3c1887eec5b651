//===- TuningTest.cpp - a tuning run from C++ -----------------------------===//
//
// The MetaSchedule library without Python: a design space given as a C++
// function (a transform script replayed with fresh decisions), ReplayTrace
// and EvolutionarySearch batches, a round-robin task scheduler with a
// builder and a runner given as functions, the records in a memory
// database and in TVM's JSON files, reloaded.
//
//===----------------------------------------------------------------------===//

#include "TIRTestUtils.h"

#include "TensorIR/InitAllScheduleExtensions.h"
#include "TensorIR/MetaSchedule/TaskScheduler.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <set>

using namespace mlir;
using namespace mlir::tir;
using namespace mlir::tir::ms;

namespace {

constexpr StringLiteral kScale = R"mlir(
func.func @main(%A: memref<64xf32>, %B: memref<64xf32>) {
  tir.for %i = 0 to 64 {
    tir.block "B"(%vi = spatial(64, %i)) {
      %a = tir.load %A[%vi] : memref<64xf32>
      %two = arith.constant 2.0 : f32
      %b = arith.mulf %a, %two : f32
      tir.store %b, %B[%vi] : memref<64xf32>
    }
  }
  return
}
)mlir";

// The design space: the loop split by a sampled perfect tiling.
constexpr StringLiteral kSpace = R"mlir(
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    %i = transform.tir.get_loops %b : (!transform.any_op) -> !transform.any_op
    %f:2 = transform.tir.sample_perfect_tile %i {n = 2} : (!transform.any_op) -> (!transform.param<i64>, !transform.param<i64>)
    %i0, %i1 = transform.tir.split %i [%f#0, %f#1] : (!transform.any_op, !transform.param<i64>, !transform.param<i64>) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}
)mlir";

class TuningTest : public test::TIRTest {
protected:
  TuningTest() {
    DialectRegistry registry;
    registerScheduleExtensions(registry);
    ctx.appendDialectRegistry(registry);
    ctx.loadAllAvailableDialects();
    space = parse(kSpace);
  }

  std::shared_ptr<TuneContext>
  makeTask(std::shared_ptr<SearchStrategy> strategy, int64_t seed) {
    auto task = std::make_shared<TuneContext>();
    task->mod = parse(kScale);
    task->target = Target("llvm");
    task->taskName = "scale";
    ModuleOp script = *space;
    auto generator = std::make_shared<ScheduleFn>(
        [script](const Schedule &sch,
                 std::string &error) -> FailureOr<std::vector<Schedule>> {
          if (failed(sch->replay(script, error)))
            return failure();
          return std::vector<Schedule>{sch};
        });
    generator->scheduleRules.emplace();
    generator->postprocs.emplace();
    generator->mutatorProbs.emplace();
    task->spaceGenerator = generator;
    task->searchStrategy = std::move(strategy);
    std::string error;
    EXPECT_TRUE(succeeded(task->seed(seed, error))) << error;
    EXPECT_TRUE(succeeded(task->initialize(error))) << error;
    return task;
  }

  OwningOpRef<ModuleOp> space;
};

/// A builder that builds nothing and a runner whose run time is the
/// inner split factor's inverse (the larger, the "faster").
std::shared_ptr<FunctionBuilder> fakeBuilder(int &builds) {
  auto builder = std::make_shared<FunctionBuilder>();
  builder->buildFn = [&builds](const std::vector<BuilderInput> &inputs,
                               std::string &) {
    builds += static_cast<int>(inputs.size());
    return FailureOr<std::vector<BuilderResult>>(
        std::vector<BuilderResult>(inputs.size(), BuilderResult{"a.so", {}}));
  };
  return builder;
}

std::shared_ptr<FunctionRunner> fakeRunner() {
  auto runner = std::make_shared<FunctionRunner>();
  runner->runFn = [](const std::vector<RunnerInput> &inputs, std::string &) {
    std::vector<std::shared_ptr<RunnerFuture>> futures;
    for (size_t i = 0; i < inputs.size(); ++i)
      futures.push_back(makeReadyFuture(
          RunnerResult{std::vector<double>{1e-3 * (i + 1)}, {}}));
    return FailureOr<std::vector<std::shared_ptr<RunnerFuture>>>(futures);
  };
  return runner;
}

TEST_F(TuningTest, ReplayTraceFillsTheDatabase) {
  auto task = makeTask(std::make_shared<ReplayTrace>(), 7);
  auto db = std::make_shared<MemoryDatabase>(ModuleEquality::Structural);
  RoundRobin scheduler;
  int builds = 0;
  std::string error;
  ASSERT_TRUE(succeeded(scheduler.tune(
      {task}, {1.0}, /*maxTrialsGlobal=*/10, /*maxTrialsPerTask=*/10,
      /*numTrialsPerIter=*/4, fakeBuilder(builds), fakeRunner(),
      {std::make_shared<AddToDatabase>()}, db, nullptr, error)))
      << error;
  // 10 candidates and the unscheduled module (built for the check).
  EXPECT_EQ(builds, 11);
  EXPECT_EQ(*db->size(error), 10);
  EXPECT_EQ(scheduler.tasks.front()->latencyMs.size(), 10u);
  EXPECT_TRUE(scheduler.tasks.front()->isTerminated);
  // Every record's tiling is perfect.
  FailureOr<std::vector<TuningRecord>> all = db->getAllTuningRecords(error);
  ASSERT_TRUE(succeeded(all)) << error;
  for (const TuningRecord &record : *all) {
    auto decisions = record.trace.getDecisions();
    ASSERT_EQ(decisions.size(), 1u);
    auto tiles = cast<DenseI64ArrayAttr>(decisions.front().second).asArrayRef();
    EXPECT_EQ(tiles[0] * tiles[1], 64);
  }
  EXPECT_NE(scheduler.getTuningStatistics().find("Total trials: 10"),
            std::string::npos);
}

TEST_F(TuningTest, EvolutionarySearchSendsNothingTwice) {
  auto strategy = std::make_shared<EvolutionarySearch>();
  strategy->populationSize = 8;
  strategy->initMinUnmeasured = 2;
  strategy->geneticNumIters = 1;
  auto task = makeTask(strategy, 3);
  auto db = std::make_shared<MemoryDatabase>(ModuleEquality::Structural);
  auto model = std::make_shared<FunctionCostModel>();
  model->predictFn = [](const TuneContext &,
                        const std::vector<MeasureCandidate> &candidates,
                        std::string &) {
    return FailureOr<std::vector<double>>(
        std::vector<double>(candidates.size(), 1.0));
  };
  RoundRobin scheduler;
  int builds = 0;
  std::string error;
  ASSERT_TRUE(succeeded(scheduler.tune(
      {task}, {1.0}, 20, 20, 3, fakeBuilder(builds), fakeRunner(),
      {std::make_shared<AddToDatabase>()}, db, model, error)))
      << error;
  // 64 has 7 two-way tilings: the search sends each at most once, then
  // stops.
  std::set<std::string> seen;
  FailureOr<std::vector<TuningRecord>> all = db->getAllTuningRecords(error);
  ASSERT_TRUE(succeeded(all)) << error;
  for (const TuningRecord &record : *all) {
    std::string text;
    llvm::raw_string_ostream os(text);
    os << record.trace.getDecisions().front().second;
    EXPECT_TRUE(seen.insert(text).second) << "sent twice: " << text;
  }
  EXPECT_LE(seen.size(), 7u);
  EXPECT_GE(seen.size(), 2u);
}

TEST_F(TuningTest, JSONDatabaseReloads) {
  SmallString<128> dir;
  ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("tir-ms-test", dir));
  std::string workloads = (dir + "/workloads.json").str();
  std::string records = (dir + "/records.json").str();
  std::string error;
  {
    auto db = JSONDatabase::open(&ctx, workloads, records, true,
                                 ModuleEquality::Structural, error);
    ASSERT_TRUE(succeeded(db)) << error;
    auto task = makeTask(std::make_shared<ReplayTrace>(), 11);
    RoundRobin scheduler;
    int builds = 0;
    ASSERT_TRUE(succeeded(scheduler.tune(
        {task}, {1.0}, 6, 6, 3, fakeBuilder(builds), fakeRunner(),
        {std::make_shared<AddToDatabase>()}, *db, nullptr, error)))
        << error;
  }
  auto again = JSONDatabase::open(&ctx, workloads, records, false,
                                  ModuleEquality::Structural, error);
  ASSERT_TRUE(succeeded(again)) << error;
  EXPECT_EQ(*(*again)->size(error), 6);
  OwningOpRef<ModuleOp> mod = parse(kScale);
  auto best = (*again)->queryTuningRecord(*mod, Target("llvm"), "main", error);
  ASSERT_TRUE(succeeded(best) && *best) << error;
  // The first of each batch ran in 1 ms: the best is one of those.
  EXPECT_DOUBLE_EQ((*best)->getMeanRunSecs(), 1e-3);
  auto schedule = (*again)->querySchedule(*mod, Target("llvm"), "main", error);
  ASSERT_TRUE(succeeded(schedule) && *schedule) << error;
  int loops = 0;
  (*schedule)->getPayload()->walk([&](ForOp) { ++loops; });
  EXPECT_EQ(loops, 2);
  llvm::sys::fs::remove_directories(dir);
}

} // namespace
