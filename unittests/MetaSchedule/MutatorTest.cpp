//===- MutatorTest.cpp - TVM's mutators from C++ --------------------------===//
//
// Each mutator on the traces of TVM's tests (test_meta_schedule_mutator_*):
// a trace replayed from a transform script, mutated many times, gives the
// decisions TVM's test expects, and traces that replay; a trace without
// anything of the mutator's kind gives none. Also the mutators' repr,
// clones and what their initialization needs from the context.
//
//===----------------------------------------------------------------------===//

#include "TIRTestUtils.h"

#include "TensorIR/InitAllScheduleExtensions.h"
#include "TensorIR/MetaSchedule/Mutators.h"
#include "TensorIR/MetaSchedule/TuneContext.h"

#include <set>

using namespace mlir;
using namespace mlir::tir;
using namespace mlir::tir::ms;

namespace {

// TVM's matmul: C = A * B^T, 512 x 512 x 512. ROOT / END_ROOT optionally
// write out the root block (where the parallel annotation goes).
constexpr StringLiteral kMatmul = R"mlir(
func.func @main(%A: memref<512x512xf32>, %B: memref<512x512xf32>,
                %C: memref<512x512xf32>) {
  ROOT
  tir.for %i = 0 to 512 {
    tir.for %j = 0 to 512 {
      tir.for %k = 0 to 512 {
        tir.block "C"(%vi = spatial(512, %i), %vj = spatial(512, %j),
                      %vk = reduce(512, %k)) {
          tir.init {
            %z = arith.constant 0.0 : f32
            tir.store %z, %C[%vi, %vj] : memref<512x512xf32>
          }
          %a = tir.load %A[%vi, %vk] : memref<512x512xf32>
          %b = tir.load %B[%vj, %vk] : memref<512x512xf32>
          %c = tir.load %C[%vi, %vj] : memref<512x512xf32>
          %m = arith.mulf %a, %b : f32
          %s = arith.addf %c, %m : f32
          tir.store %s, %C[%vi, %vj] : memref<512x512xf32>
        }
      }
    }
  }
  END_ROOT
  return
}
)mlir";

// TVM's tiling of the matmul: i by a sampled tiling (DECISION), j and k by
// constants, the loops reordered, the cache of C written back under j1.
constexpr StringLiteral kTiledMatmul = R"mlir(
    %c = transform.tir.get_block "C" in %root : (!transform.any_op) -> !transform.any_op
    %cw = transform.tir.cache_write %c {write_buffer_index = 0, storage_scope = "global"} : (!transform.any_op) -> !transform.any_op
    %i, %j, %k = transform.tir.get_loops %c : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    %f:4 = transform.tir.sample_perfect_tile %i {n = 4, max_innermost_factor = 64, decision = array<i64: DECISION>} : (!transform.any_op) -> (!transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>)
    %i0, %i1, %i2, %i3 = transform.tir.split %i [%f#0, %f#1, %f#2, %f#3] : (!transform.any_op, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>) -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    %j0, %j1, %j2, %j3 = transform.tir.split %j [8, 4, 8, 2] : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    %k0, %k1 = transform.tir.split %k [512, 1] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.tir.reorder %i0, %j0, %i1, %j1, %k0, %i2, %j2, %k1, %i3, %j3 : !transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op
    transform.tir.reverse_compute_at %cw at %j1 : !transform.any_op, !transform.any_op
)mlir";

// TVM's add: a copy into A_cached, then B = A_cached + 1 under eight loops.
constexpr StringLiteral kAdd = R"mlir(
func.func @main(%A: memref<2048x2048x2048xf32>, %B: memref<2048x2048x2048xf32>) {
  %A_cached = tir.alloc_buffer : memref<2048x2048x2048xf32>
  tir.for %i = 0 to 2048 {
    tir.for %j = 0 to 2048 {
      tir.for %k = 0 to 2048 {
        tir.block "move"(%vi = spatial(2048, %i), %vj = spatial(2048, %j),
                         %vk = spatial(2048, %k)) {
          %a = tir.load %A[%vi, %vj, %vk] : memref<2048x2048x2048xf32>
          tir.store %a, %A_cached[%vi, %vj, %vk] : memref<2048x2048x2048xf32>
        }
      }
    }
  }
  tir.for %i0 = 0 to 128 {
    tir.for %j0 = 0 to 64 {
      tir.for %i1 = 0 to 4 {
        tir.for %j1 = 0 to 4 {
          tir.for %k0 = 0 to 64 {
            tir.for %i2 = 0 to 4 {
              tir.for %j2 = 0 to 8 {
                tir.for %k1 = 0 to 32 {
                  tir.block "add"(%vi = spatial(2048, %i0 * 16 + %i1 * 4 + %i2),
                                  %vj = spatial(2048, %j0 * 32 + %j1 * 8 + %j2),
                                  %vk = spatial(2048, %k0 * 32 + %k1)) {
                    %a = tir.load %A_cached[%vi, %vj, %vk] : memref<2048x2048x2048xf32>
                    %one = arith.constant 1.0 : f32
                    %b = arith.addf %a, %one : f32
                    tir.store %b, %B[%vi, %vj, %vk] : memref<2048x2048x2048xf32>
                  }
                }
              }
            }
          }
        }
      }
    }
  }
  return
}
)mlir";

// TVM's element-wise B = A + 1 over 512 x 512.
constexpr StringLiteral kElementWise = R"mlir(
func.func @main(%A: memref<512x512xf32>, %B: memref<512x512xf32>) {
  tir.for %i = 0 to 512 {
    tir.for %j = 0 to 512 {
      tir.block "C"(%vi = spatial(512, %i), %vj = spatial(512, %j)) {
        %a = tir.load %A[%vi, %vj] : memref<512x512xf32>
        %one = arith.constant 1.0 : f32
        %b = arith.addf %a, %one : f32
        tir.store %b, %B[%vi, %vj] : memref<512x512xf32>
      }
    }
  }
  return
}
)mlir";

class MutatorTest : public test::TIRTest {
protected:
  MutatorTest() {
    DialectRegistry registry;
    registerScheduleExtensions(registry);
    ctx.appendDialectRegistry(registry);
    ctx.loadAllAvailableDialects();
  }

  static std::string replace(std::string text, StringRef what, StringRef by) {
    size_t at = text.find(what.str());
    EXPECT_NE(at, std::string::npos) << what.str();
    if (at != std::string::npos)
      text.replace(at, what.size(), by.str());
    return text;
  }

  OwningOpRef<ModuleOp> matmul(bool explicitRoot = false) {
    std::string source = kMatmul.str();
    source = replace(source, "END_ROOT", explicitRoot ? "}" : "");
    source =
        replace(source, "ROOT", explicitRoot ? "tir.block \"root\"() {" : "");
    return parse(source);
  }

  std::string tiledMatmul(StringRef decision, StringRef more = "") {
    return (test::kScriptBegin +
            replace(kTiledMatmul.str(), "DECISION", decision) + more +
            test::kScriptEnd)
        .str();
  }

  /// The trace of `steps` (a transform script) replayed on `mod`.
  Trace traceOf(ModuleOp mod, StringRef steps) {
    OwningOpRef<ModuleOp> script = parse(steps);
    std::string error;
    FailureOr<Schedule> sch = createTracedSchedule(mod, 1, error);
    EXPECT_TRUE(succeeded(sch)) << error;
    if (failed(sch))
      return {};
    EXPECT_TRUE(succeeded((*sch)->replay(*script, error))) << error;
    return (*sch)->getInstructions();
  }

  /// `trace` replayed on `mod` (its decisions kept); null on a refusal.
  Schedule replay(ModuleOp mod, const Trace &trace) {
    std::string error;
    FailureOr<Schedule> sch = createTracedSchedule(mod, 1, error);
    if (failed(sch) || failed((*sch)->applyTrace(trace, true, nullptr, error)))
      return nullptr;
    return *sch;
  }

  /// A context of `mod` for a target of `kind` with `cores` cores (0: the
  /// target does not say).
  static TuneContext contextOf(ModuleOp mod, StringRef kind = "llvm",
                               int64_t cores = 16) {
    llvm::json::Object json{{"kind", kind}};
    if (cores)
      json["num-cores"] = cores;
    std::string error;
    FailureOr<Target> target =
        Target::fromJSON(llvm::json::Value(std::move(json)), error);
    EXPECT_TRUE(succeeded(target)) << error;
    TuneContext context;
    context.mod = mod.clone();
    context.target = *target;
    return context;
  }

  /// The instructions of `trace` of TVM kind `name`.
  static std::vector<InstructionRef> find(const Trace &trace, StringRef name) {
    std::vector<InstructionRef> found;
    for (const InstructionRef &inst : trace.getInstructions())
      if (inst->kind->getName() == name)
        found.push_back(inst);
    return found;
  }

  /// `mutator` applied to `trace`; fails the test on an error.
  static std::optional<Trace> mutate(Mutator &mutator, const Trace &trace,
                                     RandomEngine::State &state) {
    std::string error;
    FailureOr<std::optional<Trace>> mutated =
        mutator.apply(trace, state, error);
    EXPECT_TRUE(succeeded(mutated)) << error;
    return succeeded(mutated) ? *mutated : std::nullopt;
  }

  /// The integer decision of the instruction of `trace` at `index`.
  static int64_t decisionAt(const Trace &trace, size_t index) {
    auto d = dyn_cast_if_present<IntegerAttr>(
        trace.getDecision(trace.getInstructions()[index].get()));
    EXPECT_TRUE(d);
    return d ? d.getInt() : -100;
  }
};

//===----------------------------------------------------------------------===//
// MutateTileSize
//===----------------------------------------------------------------------===//

TEST_F(MutatorTest, TileSizeMovesADivisorAndKeepsTheProduct) {
  OwningOpRef<ModuleOp> mod = matmul();
  Trace trace = traceOf(*mod, tiledMatmul("4, 32, 4, 1"));
  std::shared_ptr<Mutator> mutator = createMutateTileSize();
  RandomEngine::State state = 42;
  std::set<std::vector<int64_t>> seen;
  for (int round = 0; round < 1000; ++round) {
    std::optional<Trace> mutated = mutate(*mutator, trace, state);
    ASSERT_TRUE(mutated);
    // The sampling step keeps its place (TVM's insts[4]: here the fourth,
    // the lookup of the consumers left out).
    const InstructionRef &sample = mutated->getInstructions()[3];
    ASSERT_EQ(sample->kind->getName(), "SamplePerfectTile");
    auto tiles = cast<DenseI64ArrayAttr>(mutated->getDecision(sample.get()));
    std::vector<int64_t> decision(tiles.asArrayRef().begin(),
                                  tiles.asArrayRef().end());
    ASSERT_EQ(decision.size(), 4u);
    EXPECT_EQ(decision[0] * decision[1] * decision[2] * decision[3], 512);
    EXPECT_LE(decision[3], 64);
    EXPECT_NE(decision, (std::vector<int64_t>{4, 32, 4, 1}));
    seen.insert(decision);
    // The first few replay (the tiling is a valid one).
    if (round < 5)
      EXPECT_TRUE(replay(*mod, *mutated));
  }
  EXPECT_GT(seen.size(), 15u);
}

TEST_F(MutatorTest, TileSizeDrawsAnotherFetchVectorLength) {
  OwningOpRef<ModuleOp> mod = matmul();
  std::string steps =
      (test::kScriptBegin +
       R"mlir(    %c = transform.tir.get_block "C" in %root : (!transform.any_op) -> !transform.any_op
    %v = transform.tir.sample_categorical {candidates = array<i64: 1, 2, 4>, probs = array<f64: 0.2, 0.3, 0.5>, decision = 0} : () -> !transform.param<i64>
    transform.tir.annotate "meta_schedule.cooperative_fetch" = %v to %c : !transform.any_op, !transform.param<i64>
)mlir" +
       test::kScriptEnd)
          .str();
  Trace trace = traceOf(*mod, steps);
  ASSERT_EQ(trace.getInstructions().size(), 3u);
  std::shared_ptr<Mutator> mutator = createMutateTileSize();
  RandomEngine::State state = 9;
  std::set<int64_t> seen;
  for (int round = 0; round < 100; ++round) {
    std::optional<Trace> mutated = mutate(*mutator, trace, state);
    ASSERT_TRUE(mutated);
    seen.insert(decisionAt(*mutated, 1));
  }
  EXPECT_EQ(seen, (std::set<int64_t>{1, 2}));
}

TEST_F(MutatorTest, TileSizeSkipsASingleCandidate) {
  OwningOpRef<ModuleOp> mod = matmul();
  std::string steps =
      (test::kScriptBegin +
       "    %v = transform.tir.sample_categorical {candidates = array<i64: 1>, "
       "probs = array<f64: 1.0>, decision = 0} : () -> !transform.param<i64>" +
       test::kScriptEnd)
          .str();
  Trace trace = traceOf(*mod, steps);
  ASSERT_EQ(trace.getInstructions().size(), 1u);
  RandomEngine::State state = 7;
  EXPECT_FALSE(mutate(*createMutateTileSize(), trace, state));
}

TEST_F(MutatorTest, TileSizeOfAnUnsplitTilingIsNone) {
  // A tiling whose product is 1 (a loop of one iteration) has nothing to
  // move.
  OwningOpRef<ModuleOp> mod = parse(R"mlir(
func.func @main(%A: memref<1xf32>) {
  tir.for %i = 0 to 1 {
    tir.block "A"(%vi = spatial(1, %i)) {
      %z = arith.constant 0.0 : f32
      tir.store %z, %A[%vi] : memref<1xf32>
    }
  }
  return
}
)mlir");
  std::string steps =
      (test::kScriptBegin +
       R"mlir(    %b = transform.tir.get_block "A" in %root : (!transform.any_op) -> !transform.any_op
    %i = transform.tir.get_loops %b : (!transform.any_op) -> !transform.any_op
    %f:2 = transform.tir.sample_perfect_tile %i {n = 2} : (!transform.any_op) -> (!transform.param<i64>, !transform.param<i64>)
)mlir" +
       test::kScriptEnd)
          .str();
  Trace trace = traceOf(*mod, steps);
  RandomEngine::State state = 7;
  EXPECT_FALSE(mutate(*createMutateTileSize(), trace, state));
}

//===----------------------------------------------------------------------===//
// MutateUnroll
//===----------------------------------------------------------------------===//

TEST_F(MutatorTest, UnrollDrawsAnotherDepth) {
  OwningOpRef<ModuleOp> mod = matmul();
  std::string steps =
      (test::kScriptBegin +
       R"mlir(    %r = transform.tir.get_block "root" in %root : (!transform.any_op) -> !transform.any_op
    %v = transform.tir.sample_categorical {candidates = array<i64: 0, 16, 64, 512>, probs = array<f64: 0.25, 0.25, 0.25, 0.25>, decision = 0} : () -> !transform.param<i64>
    transform.tir.annotate "meta_schedule.unroll_explicit" = %v to %r : !transform.any_op, !transform.param<i64>
)mlir" +
       test::kScriptEnd)
          .str();
  Trace trace = traceOf(*mod, steps);
  ASSERT_EQ(trace.getInstructions().size(), 3u);
  std::shared_ptr<Mutator> mutator = createMutateUnroll();
  RandomEngine::State state = 3;
  std::set<int64_t> seen;
  for (int round = 0; round < 100 && seen.size() < 3; ++round) {
    std::optional<Trace> mutated = mutate(*mutator, trace, state);
    ASSERT_TRUE(mutated);
    seen.insert(decisionAt(*mutated, mutated->getInstructions().size() - 2));
    EXPECT_TRUE(replay(*mod, *mutated));
  }
  // Never the current depth (index 0).
  EXPECT_EQ(seen, (std::set<int64_t>{1, 2, 3}));
}

TEST_F(MutatorTest, UnrollOfAConstantIsNone) {
  // An unroll depth given as a constant was not sampled: nothing to vary.
  OwningOpRef<ModuleOp> mod = matmul();
  std::string steps =
      (test::kScriptBegin +
       R"mlir(    %c = transform.tir.get_block "C" in %root : (!transform.any_op) -> !transform.any_op
    %v = transform.tir.sample_categorical {candidates = array<i64: 0, 16>, probs = array<f64: 0.5, 0.5>, decision = 0} : () -> !transform.param<i64>
    transform.tir.annotate "meta_schedule.unroll_explicit" = 16 : i64 to %c : !transform.any_op
)mlir" +
       test::kScriptEnd)
          .str();
  Trace trace = traceOf(*mod, steps);
  ASSERT_EQ(trace.getInstructions().size(), 3u);
  RandomEngine::State state = 3;
  EXPECT_FALSE(mutate(*createMutateUnroll(), trace, state));
}

//===----------------------------------------------------------------------===//
// MutateParallel
//===----------------------------------------------------------------------===//

class ParallelTest : public MutatorTest,
                     public ::testing::WithParamInterface<bool> {};

// The function as the root block (the annotation writes it out), and a
// root block written out before.
TEST_P(ParallelTest, ParallelDrawsTheOtherPlans) {
  OwningOpRef<ModuleOp> mod = matmul(/*explicitRoot=*/GetParam());
  std::string steps = tiledMatmul(
      "4, 32, 4, 1",
      R"mlir(    %r = transform.tir.get_block "root" in %root : (!transform.any_op) -> !transform.any_op
    transform.tir.annotate "meta_schedule.parallel" = 64 : i64 to %r : !transform.any_op
)mlir");
  Trace trace = traceOf(*mod, steps);
  TuneContext context = contextOf(*mod);
  std::shared_ptr<Mutator> mutator = createMutateParallel(256);
  EXPECT_EQ(getMaxJobsPerCore(*mutator).value_or(0), 256);
  std::string error;
  ASSERT_TRUE(succeeded(mutator->initializeWithTuneContext(context, error)))
      << error;
  RandomEngine::State state = 5;
  std::set<int64_t> seen;
  for (int round = 0; round < 100 && seen.size() < 3; ++round) {
    std::optional<Trace> mutated = mutate(*mutator, trace, state);
    ASSERT_TRUE(mutated);
    const InstructionRef &last = mutated->getInstructions().back();
    ASSERT_EQ(last->kind->getName(), "Annotate");
    seen.insert(cast<IntegerAttr>(last->attributes.get("ann_val")).getInt());
    // The instruction is a new one; the trace given is unchanged.
    EXPECT_NE(last, trace.getInstructions().back());
  }
  // 16 cores * 256 jobs: the plans fusing 1, 2 or 4 outer loops of both
  // blocks (64 fuses 3, the current plan).
  EXPECT_EQ(seen, (std::set<int64_t>{4, 32, 4096}));
  EXPECT_EQ(cast<IntegerAttr>(
                trace.getInstructions().back()->attributes.get("ann_val"))
                .getInt(),
            64);
}

INSTANTIATE_TEST_SUITE_P(Roots, ParallelTest, ::testing::Bool());

TEST_F(MutatorTest, ParallelNeedsTheNumberOfCores) {
  OwningOpRef<ModuleOp> mod = matmul();
  // An llvm target that does not say plans for this machine's cores.
  std::string error;
  TuneContext llvmContext = contextOf(*mod, "llvm", /*cores=*/0);
  EXPECT_TRUE(succeeded(
      createMutateParallel(16)->initializeWithTuneContext(llvmContext, error)))
      << error;
  TuneContext context = contextOf(*mod, "c", /*cores=*/0);
  EXPECT_TRUE(failed(
      createMutateParallel(16)->initializeWithTuneContext(context, error)));
  EXPECT_NE(error.find("num-cores"), std::string::npos) << error;
}

TEST_F(MutatorTest, ParallelWithoutAnnotationIsNone) {
  OwningOpRef<ModuleOp> mod = matmul();
  Trace trace = traceOf(*mod, tiledMatmul("4, 32, 4, 1"));
  TuneContext context = contextOf(*mod);
  std::shared_ptr<Mutator> mutator = createMutateParallel(16);
  std::string error;
  ASSERT_TRUE(succeeded(mutator->initializeWithTuneContext(context, error)))
      << error;
  RandomEngine::State state = 5;
  EXPECT_FALSE(mutate(*mutator, trace, state));
}

//===----------------------------------------------------------------------===//
// MutateComputeLocation
//===----------------------------------------------------------------------===//

TEST_F(MutatorTest, ComputeLocationPicksAnotherPlace) {
  OwningOpRef<ModuleOp> mod = parse(kAdd);
  std::string steps =
      (test::kScriptBegin +
       R"mlir(    %b = transform.tir.get_block "move" in %root : (!transform.any_op) -> !transform.any_op
    %l = transform.tir.sample_compute_location %b {decision = 4} : (!transform.any_op) -> !transform.any_op
    transform.tir.compute_at %b at %l : !transform.any_op, !transform.any_op
)mlir" +
       test::kScriptEnd)
          .str();
  Trace trace = traceOf(*mod, steps);
  TuneContext context = contextOf(*mod);
  std::shared_ptr<Mutator> mutator = createMutateComputeLocation();
  std::string error;
  ASSERT_TRUE(succeeded(mutator->initializeWithTuneContext(context, error)))
      << error;
  RandomEngine::State state = 11;
  std::set<int64_t> seen;
  for (int round = 0; round < 100; ++round) {
    std::optional<Trace> mutated = mutate(*mutator, trace, state);
    ASSERT_TRUE(mutated);
    int64_t decision = decisionAt(*mutated, 1);
    EXPECT_NE(decision, 4);
    // Each new place replays (inlined, at the root or under a loop).
    if (seen.insert(decision).second)
      EXPECT_TRUE(replay(*mod, *mutated)) << "decision " << decision;
  }
  // Inlined (-2), the root (-1) and the eight loops of "add" but the
  // fifth.
  EXPECT_EQ(seen, (std::set<int64_t>{-2, -1, 0, 1, 2, 3, 5, 6, 7}));
}

TEST_F(MutatorTest, ComputeLocationWithoutSampleIsNone) {
  OwningOpRef<ModuleOp> mod = matmul();
  Trace trace = traceOf(*mod, tiledMatmul("4, 32, 4, 1"));
  TuneContext context = contextOf(*mod);
  std::shared_ptr<Mutator> mutator = createMutateComputeLocation();
  std::string error;
  ASSERT_TRUE(succeeded(mutator->initializeWithTuneContext(context, error)))
      << error;
  RandomEngine::State state = 11;
  EXPECT_FALSE(mutate(*mutator, trace, state));
}

TEST_F(MutatorTest, ComputeLocationNeedsTheModule) {
  TuneContext context;
  std::string error;
  EXPECT_TRUE(failed(createMutateComputeLocation()->initializeWithTuneContext(
      context, error)));
  EXPECT_NE(error.find("module"), std::string::npos) << error;
}

//===----------------------------------------------------------------------===//
// MutateThreadBinding
//===----------------------------------------------------------------------===//

TEST_F(MutatorTest, ThreadBindingDrawsAnotherThreadCount) {
  OwningOpRef<ModuleOp> mod = parse(kElementWise);
  std::string steps =
      (test::kScriptBegin +
       R"mlir(    %b = transform.tir.get_block "C" in %root : (!transform.any_op) -> !transform.any_op
    %i, %j = transform.tir.get_loops %b : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %f = transform.tir.fuse %i, %j : (!transform.any_op, !transform.any_op) -> !transform.any_op
    %v = transform.tir.sample_categorical {candidates = array<i64: 32, 64, 128, 256, 512, 1024>, probs = array<f64: 0.16666666666666666, 0.16666666666666666, 0.16666666666666666, 0.16666666666666666, 0.16666666666666666, 0.16666666666666666>, decision = 3} : () -> !transform.param<i64>
    %o, %t = transform.tir.split %f [?, %v] : (!transform.any_op, !transform.param<i64>) -> (!transform.any_op, !transform.any_op)
    transform.tir.bind %o "blockIdx.x" : !transform.any_op
    transform.tir.bind %t "threadIdx.x" : !transform.any_op
)mlir" +
       test::kScriptEnd)
          .str();
  Trace trace = traceOf(*mod, steps);
  std::shared_ptr<Mutator> mutator = createMutateThreadBinding();
  RandomEngine::State state = 13;
  std::set<int64_t> seen;
  for (int round = 0; round < 100 && seen.size() < 5; ++round) {
    std::optional<Trace> mutated = mutate(*mutator, trace, state);
    ASSERT_TRUE(mutated);
    seen.insert(decisionAt(*mutated, mutated->getInstructions().size() - 4));
  }
  EXPECT_EQ(seen, (std::set<int64_t>{0, 1, 2, 4, 5}));
}

TEST_F(MutatorTest, ThreadBindingOfAnotherAxisIsNone) {
  // The sampled loop bound to blockIdx.x, not threadIdx.x.
  OwningOpRef<ModuleOp> mod = parse(kElementWise);
  std::string steps =
      (test::kScriptBegin +
       R"mlir(    %b = transform.tir.get_block "C" in %root : (!transform.any_op) -> !transform.any_op
    %i, %j = transform.tir.get_loops %b : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %v = transform.tir.sample_categorical {candidates = array<i64: 32, 64>, probs = array<f64: 0.5, 0.5>, decision = 1} : () -> !transform.param<i64>
    %o, %t = transform.tir.split %i [?, %v] : (!transform.any_op, !transform.param<i64>) -> (!transform.any_op, !transform.any_op)
    transform.tir.bind %t "blockIdx.x" : !transform.any_op
)mlir" +
       test::kScriptEnd)
          .str();
  Trace trace = traceOf(*mod, steps);
  RandomEngine::State state = 13;
  EXPECT_FALSE(mutate(*createMutateThreadBinding(), trace, state));
}

//===----------------------------------------------------------------------===//
// What every mutator shares
//===----------------------------------------------------------------------===//

TEST_F(MutatorTest, ReprAndClones) {
  OwningOpRef<ModuleOp> mod = parse(kAdd);
  TuneContext context = contextOf(*mod);
  std::vector<std::pair<std::shared_ptr<Mutator>, std::string>> mutators = {
      {createMutateTileSize(), "MutateTileSize"},
      {createMutateUnroll(), "MutateUnroll"},
      {createMutateParallel(16), "MutateParallel"},
      {createMutateComputeLocation(), "MutateComputeLocation"},
      {createMutateThreadBinding(), "MutateThreadBinding"}};
  for (auto &[mutator, name] : mutators) {
    std::string error;
    ASSERT_TRUE(succeeded(mutator->initializeWithTuneContext(context, error)))
        << error;
    EXPECT_EQ(mutator->str().rfind("meta_schedule." + name + "(0x", 0), 0u)
        << mutator->str();
    FailureOr<std::shared_ptr<Mutator>> copy = mutator->clone(error);
    ASSERT_TRUE(succeeded(copy)) << error;
    EXPECT_NE(copy->get(), mutator.get());
    EXPECT_EQ((*copy)->str().rfind("meta_schedule." + name + "(0x", 0), 0u);
  }
  EXPECT_FALSE(getMaxJobsPerCore(*mutators[0].first).has_value());

  // A clone of an initialized MutateComputeLocation has its own module: it
  // mutates after the original is gone.
  std::string steps =
      (test::kScriptBegin +
       R"mlir(    %b = transform.tir.get_block "move" in %root : (!transform.any_op) -> !transform.any_op
    %l = transform.tir.sample_compute_location %b {decision = -1} : (!transform.any_op) -> !transform.any_op
    transform.tir.compute_at %b at %l : !transform.any_op, !transform.any_op
)mlir" +
       test::kScriptEnd)
          .str();
  Trace trace = traceOf(*mod, steps);
  std::string error;
  FailureOr<std::shared_ptr<Mutator>> copy = mutators[3].first->clone(error);
  ASSERT_TRUE(succeeded(copy)) << error;
  mutators.clear();
  RandomEngine::State state = 17;
  std::optional<Trace> mutated = mutate(**copy, trace, state);
  ASSERT_TRUE(mutated);
  EXPECT_NE(decisionAt(*mutated, 1), -1);
}

} // namespace
