//===- SpaceGeneratorTest.cpp - design spaces from C++ --------------------===//
//
// The MetaSchedule library without Python: a tune context initializes its
// space generator, post-order application visits the blocks innermost
// first with the function (TVM's root block) last, skips what a rule
// removed and what "schedule_rule" reserves for ApplyCustomRule, and a
// rule's alternatives multiply the design space.
//
//===----------------------------------------------------------------------===//

#include "TIRTestUtils.h"

#include "TensorIR/Dialect/TIR/IR/TIROps.h"
#include "TensorIR/InitAllScheduleExtensions.h"
#include "TensorIR/MetaSchedule/TuneContext.h"

#include "mlir/Dialect/Transform/IR/TransformDialect.h"

using namespace mlir;
using namespace mlir::tir;
using namespace mlir::tir::ms;

namespace {

// Two stages: B = A * 2, C = B + 1, the second one annotated
// "schedule_rule" in the annotated variant.
constexpr StringLiteral kTwoStages = R"mlir(
func.func @main(%A: memref<64xf32>, %C: memref<64xf32>) {
  %B = tir.alloc_buffer : memref<64xf32>
  tir.for %i = 0 to 64 {
    tir.block "B"(%vi = spatial(64, %i)) {
      %a = tir.load %A[%vi] : memref<64xf32>
      %two = arith.constant 2.0 : f32
      %b = arith.mulf %a, %two : f32
      tir.store %b, %B[%vi] : memref<64xf32>
    }
  }
  tir.for %j = 0 to 64 {
    tir.block "C"(%vj = spatial(64, %j)) ANNOTATIONS {
      %b = tir.load %B[%vj] : memref<64xf32>
      %one = arith.constant 1.0 : f32
      %c = arith.addf %b, %one : f32
      tir.store %c, %C[%vj] : memref<64xf32>
    }
  }
  return
}
)mlir";

class SpaceGeneratorTest : public test::TIRTest {
protected:
  SpaceGeneratorTest() {
    DialectRegistry registry;
    registerScheduleExtensions(registry);
    ctx.appendDialectRegistry(registry);
    ctx.loadAllAvailableDialects();
  }

  OwningOpRef<ModuleOp> twoStages(StringRef annotations = "") {
    std::string source = kTwoStages.str();
    size_t at = source.find("ANNOTATIONS");
    source.replace(at, strlen("ANNOTATIONS"), annotations.str());
    return parse(source);
  }
};

/// A rule that records the blocks it is given and returns the schedule.
std::shared_ptr<FunctionScheduleRule>
recordingRule(std::vector<std::string> &visited) {
  auto rule = std::make_shared<FunctionScheduleRule>();
  rule->initializeFn = [](const TuneContext &, std::string &) {
    return success();
  };
  rule->applyFn =
      [&visited](const Schedule &sch, Value block,
                 std::string &) -> FailureOr<std::vector<Schedule>> {
    std::string error;
    auto payload = sch->getPayload(block, error);
    auto *op = dyn_cast_if_present<Operation *>(payload->front());
    auto named = dyn_cast<BlockOp>(op);
    visited.push_back(named ? named.getBlockName().str() : "root");
    return std::vector<Schedule>{sch};
  };
  return rule;
}

TEST_F(SpaceGeneratorTest, PostOrderVisitsLastBlockFirstAndRootLast) {
  OwningOpRef<ModuleOp> mod = twoStages();
  TuneContext context;
  context.mod = mod->clone();
  context.target = Target("llvm");
  std::vector<std::string> visited;
  auto generator = std::make_shared<PostOrderApply>();
  generator->scheduleRules =
      std::vector<std::shared_ptr<ScheduleRule>>{recordingRule(visited)};
  generator->postprocs.emplace();
  generator->mutatorProbs.emplace();
  context.spaceGenerator = generator;
  std::string error;
  ASSERT_TRUE(succeeded(context.initialize(error))) << error;
  FailureOr<std::vector<Schedule>> space = context.generateDesignSpace(error);
  ASSERT_TRUE(succeeded(space)) << error;
  EXPECT_EQ(space->size(), 1u);
  // Blocks are collected in post-order (B, C, root) and taken from the
  // back, as TVM does.
  EXPECT_EQ(visited, (std::vector<std::string>{"root", "C", "B"}));
  // The design space's trace starts with the lookups of the blocks.
  EXPECT_EQ(space->front()->getInstructions().getInstructions().size(), 3u);
}

TEST_F(SpaceGeneratorTest, AlternativesMultiplyAndRemovedBlocksAreSkipped) {
  OwningOpRef<ModuleOp> mod = twoStages();
  // The first rule inlines B in one alternative and keeps it in another.
  auto inliner = std::make_shared<FunctionScheduleRule>();
  inliner->applyFn =
      [](const Schedule &sch, Value block,
         std::string &error) -> FailureOr<std::vector<Schedule>> {
    auto payload = sch->getPayload(block, error);
    auto named = dyn_cast_if_present<BlockOp>(
        dyn_cast_if_present<Operation *>(payload->front()));
    if (!named || named.getBlockName() != "B")
      return std::vector<Schedule>{sch};
    Schedule inlined = sch->copy();
    if (failed(inlined->apply(
            "compute_inline",
            {inlined->getHandle(sch->getRandomVariable(block))}, {}, 0, error)))
      return failure();
    return std::vector<Schedule>{sch, inlined};
  };
  std::vector<std::string> visited;
  auto generator = std::make_shared<PostOrderApply>();
  generator->scheduleRules = std::vector<std::shared_ptr<ScheduleRule>>{
      inliner, recordingRule(visited)};
  std::string error;
  FailureOr<std::vector<Schedule>> space =
      generator->generateDesignSpace(*mod, error);
  ASSERT_TRUE(succeeded(space)) << error;
  EXPECT_EQ(space->size(), 2u);
  // The second rule sees B only in the schedule that kept it.
  EXPECT_EQ(llvm::count(visited, "B"), 1);
  EXPECT_EQ(llvm::count(visited, "C"), 2);
  // The design spaces are copies: the module given is unchanged.
  int blocks = 0;
  mod->walk([&](BlockOp) { ++blocks; });
  EXPECT_EQ(blocks, 2);
}

TEST_F(SpaceGeneratorTest, CustomRuleAnnotationReservesTheBlock) {
  OwningOpRef<ModuleOp> mod =
      twoStages(R"(annotations {schedule_rule = "my_rule"})");
  std::vector<std::string> visited;
  auto generator = std::make_shared<PostOrderApply>();
  generator->scheduleRules =
      std::vector<std::shared_ptr<ScheduleRule>>{recordingRule(visited)};
  std::string error;
  ASSERT_TRUE(succeeded(generator->generateDesignSpace(*mod, error))) << error;
  EXPECT_EQ(visited, (std::vector<std::string>{"root", "B"}));
}

TEST_F(SpaceGeneratorTest, BlockFilterAndRefusals) {
  OwningOpRef<ModuleOp> mod = twoStages();
  std::vector<std::string> visited;
  auto generator = std::make_shared<PostOrderApply>();
  generator->scheduleRules =
      std::vector<std::shared_ptr<ScheduleRule>>{recordingRule(visited)};
  generator->blockFilter = [](const Schedule &, Operation *op,
                              std::string &) -> FailureOr<bool> {
    auto block = dyn_cast<BlockOp>(op);
    return block && block.getBlockName() == "C";
  };
  std::string error;
  ASSERT_TRUE(succeeded(generator->generateDesignSpace(*mod, error))) << error;
  EXPECT_EQ(visited, (std::vector<std::string>{"C"}));

  // Without rules (and no target to take defaults from).
  PostOrderApply empty;
  EXPECT_TRUE(failed(empty.generateDesignSpace(*mod, error)));
  EXPECT_NE(error.find("no schedule rules"), std::string::npos) << error;

  // A rule given as functions without its apply says so, as TVM.
  FunctionScheduleRule incomplete;
  Schedule sch = *createTracedSchedule(*mod, 1, error);
  EXPECT_TRUE(failed(incomplete.apply(sch, sch->getRoot(), error)));
  EXPECT_EQ(error, "PyScheduleRule's Apply method not implemented!");

  // A target's defaults: TVM's rules, postprocessors and mutators for
  // llvm and cuda; for a kind the library has none of yet, the context
  // initializes (with no postprocessors or mutators, and a warning), and
  // generating a space says which rules are missing.
  TuneContext context;
  context.mod = mod->clone();
  context.target = Target("llvm");
  std::vector<std::string> warnings;
  context.logger = [&](LogLevel level, const std::string &message) {
    if (level == LogLevel::Warning)
      warnings.push_back(message);
  };
  auto defaulted = std::make_shared<PostOrderApply>();
  context.spaceGenerator = defaulted;
  ASSERT_TRUE(succeeded(context.initialize(error))) << error;
  EXPECT_TRUE(warnings.empty());
  ASSERT_TRUE(defaulted->scheduleRules && defaulted->postprocs &&
              defaulted->mutatorProbs);
  EXPECT_EQ(defaulted->scheduleRules->size(), 7u);
  EXPECT_EQ(defaulted->postprocs->size(), 4u);
  EXPECT_EQ(defaulted->mutatorProbs->size(), 4u);
  EXPECT_TRUE(succeeded(context.generateDesignSpace(error))) << error;

  auto cuda = std::make_shared<PostOrderApply>();
  context.spaceGenerator = cuda;
  // A GPU's limits, as TVM's cuda targets give them.
  llvm::json::Value cudaJSON =
      llvm::json::Object{{"kind", "cuda"},
                         {"max_threads_per_block", 1024},
                         {"thread_warp_size", 32},
                         {"max_shared_memory_per_block", 49152}};
  context.target = *Target::fromJSON(cudaJSON, error);
  ASSERT_TRUE(succeeded(context.initialize(error))) << error;
  EXPECT_TRUE(warnings.empty());
  ASSERT_TRUE(cuda->scheduleRules && cuda->postprocs && cuda->mutatorProbs);
  EXPECT_EQ(cuda->scheduleRules->size(), 7u);
  EXPECT_EQ(cuda->postprocs->size(), 6u);
  EXPECT_EQ(cuda->mutatorProbs->size(), 3u);
  EXPECT_TRUE(succeeded(context.generateDesignSpace(error))) << error;

  auto hexagon = std::make_shared<PostOrderApply>();
  context.spaceGenerator = hexagon;
  context.target = Target("hexagon");
  ASSERT_TRUE(succeeded(context.initialize(error))) << error;
  EXPECT_EQ(warnings.size(), 1u);
  EXPECT_TRUE(hexagon->postprocs && hexagon->postprocs->empty());
  EXPECT_TRUE(failed(context.generateDesignSpace(error)));
  EXPECT_NE(error.find("rule kind 'hexagon' are not available yet"),
            std::string::npos)
      << error;

  context.spaceGenerator = std::make_shared<PostOrderApply>();
  context.target = Target("c++");
  EXPECT_TRUE(failed(context.initialize(error)));
  EXPECT_NE(error.find("does not tune for target kind 'c++'"),
            std::string::npos)
      << error;
}

TEST_F(SpaceGeneratorTest, CloneForksTheRandomStateAndClonesRules) {
  OwningOpRef<ModuleOp> mod = twoStages();
  std::vector<std::string> visited;
  int clones = 0;
  auto rule = recordingRule(visited);
  rule->cloneFn =
      [&](std::string &) -> FailureOr<std::shared_ptr<ScheduleRule>> {
    ++clones;
    return std::shared_ptr<ScheduleRule>(recordingRule(visited));
  };
  TuneContext context;
  context.mod = mod->clone();
  auto generator = std::make_shared<PostOrderApply>();
  generator->scheduleRules = std::vector<std::shared_ptr<ScheduleRule>>{rule};
  context.spaceGenerator = generator;
  std::string error;
  ASSERT_TRUE(succeeded(context.seed(42, error)));
  ASSERT_TRUE(succeeded(context.initialize(error))) << error;
  FailureOr<std::shared_ptr<TuneContext>> copy = context.clone(error);
  ASSERT_TRUE(succeeded(copy)) << error;
  EXPECT_EQ(clones, 1);
  EXPECT_NE((*copy)->randState, 42);
  EXPECT_NE((*copy)->spaceGenerator, context.spaceGenerator);
  ASSERT_TRUE(succeeded((*copy)->generateDesignSpace(error))) << error;
  EXPECT_EQ(visited.size(), 3u);
}

TEST_F(SpaceGeneratorTest, RuleKinds) {
  auto kindOf = [](StringRef json) {
    std::string error;
    auto parsed = llvm::json::parse(json);
    EXPECT_TRUE(bool(parsed));
    FailureOr<Target> target = Target::fromJSON(*parsed, error);
    EXPECT_TRUE(succeeded(target)) << error;
    FailureOr<std::string> kind = target->getRuleKind(error);
    return succeeded(kind) ? *kind : "error: " + error;
  };
  EXPECT_EQ(kindOf(R"({"kind": "llvm"})"), "llvm");
  EXPECT_EQ(kindOf(R"({"kind": "llvm", "mcpu": "skylake-avx512"})"), "avx512");
  EXPECT_EQ(kindOf(R"({"kind": "llvm", "mcpu": "cascadelake"})"), "vnni");
  EXPECT_EQ(kindOf(R"({"kind": "llvm", "mcpu": "cascadelake",
                       "mattr": ["-avx512vnni"]})"),
            "avx512");
  EXPECT_EQ(kindOf(R"({"kind": "llvm", "mtriple": "aarch64-linux-gnu",
                       "mattr": ["+neon"]})"),
            "asimd");
  EXPECT_EQ(kindOf(R"({"kind": "llvm", "mtriple": "aarch64-linux-gnu",
                       "mattr": ["+neon", "+dotprod"]})"),
            "dotprod");
  EXPECT_EQ(kindOf(R"({"kind": "cuda", "arch": "sm_70"})"), "cuda");
  EXPECT_EQ(kindOf(R"({"kind": "cuda", "arch": "sm_90"})"), "cuda-tensorcore");
  EXPECT_EQ(kindOf(R"({"kind": "rocm"})"), "cuda");
  std::string error;
  EXPECT_TRUE(failed(Target::fromJSON(llvm::json::Value(3), error)));
}

} // namespace
