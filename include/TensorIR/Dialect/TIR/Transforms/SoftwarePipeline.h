//===- SoftwarePipeline.h - TVM's software pipelining -----------*- C++ -*-===//
//
// A loop annotated with `software_pipeline_stage` and
// `software_pipeline_order` (one integer per statement of its body, as TVM
// schedules write them with `annotate`) runs statement S of iteration j at
// step j + stage(S), the statements of one step in the annotated order:
// while one iteration computes, the next one's data is fetched (TVM's
// InjectSoftwarePipeline). Buffers of one iteration (allocated in the
// loop's body, or placed there by convert-tir-to-gpu's compaction) get
// as many copies as iterations in flight need, each iteration using
// copy `j mod versions`.
//
//===----------------------------------------------------------------------===//

#ifndef TENSORIR_DIALECT_TIR_TRANSFORMS_SOFTWAREPIPELINE_H
#define TENSORIR_DIALECT_TIR_TRANSFORMS_SOFTWAREPIPELINE_H

#include "TensorIR/Dialect/TIR/IR/TIROps.h"

namespace mlir::tir {

/// TVM's annotation keys.
constexpr StringLiteral kPipelineStageKey = "software_pipeline_stage";
constexpr StringLiteral kPipelineOrderKey = "software_pipeline_order";
constexpr StringLiteral kPipelineAsyncStagesKey =
    "software_pipeline_async_stages";
/// On a block in a pipelined loop: its written buffer of this index gets
/// two copies even where one would do.
constexpr StringLiteral kDoubleBufferScopeKey = "double_buffer_scope";

/// On a tir.store of an asynchronous stage that copies an element of global
/// memory into shared memory (its value a tir.load): the copy may land any
/// time before the pipeline's next wait (tir-lower-async-copies makes it a
/// cp.async where the GPU has one).
constexpr StringLiteral kAsyncCopyAttr = "tir.async_copy";
/// The instructions an asynchronous pipeline calls (tir.call
/// "call_extern"): commit the copies issued since the last commit as one
/// group; wait until at most N (an integer literal) groups are pending.
constexpr StringLiteral kCommitGroupName = "tir.ptx_commit_group";
constexpr StringLiteral kWaitGroupName = "tir.ptx_wait_group";

/// kCommitGroupName or kWaitGroupName where `op` is such a call; "" for
/// any other op.
inline StringRef getAsyncGroupCallName(Operation *op) {
  auto call = dyn_cast<CallOp>(op);
  ArrayAttr args = call ? call.getArgs() : ArrayAttr();
  auto name =
      args && !args.empty() ? dyn_cast<StringAttr>(args[0]) : StringAttr();
  if (name && (name.getValue() == kCommitGroupName ||
               name.getValue() == kWaitGroupName))
    return name.getValue();
  return "";
}

/// The largest stage a pipeline may give (its prologue and epilogue are
/// written out, one step per stage).
constexpr int64_t kMaxPipelineStage = 64;
/// The most a pipeline's steady loop is unrolled to name the copies of its
/// buffers (the least common multiple of their numbers).
constexpr int64_t kMaxPipelineUnroll = 16;

/// A loop's pipeline as its annotations describe it.
struct SoftwarePipeline {
  ForOp loop;
  /// The body's statements in program order: its ops other than
  /// allocations and side-effect-free ops without regions (index
  /// arithmetic, views), which are recomputed where a statement uses them.
  SmallVector<Operation *> statements;
  SmallVector<int64_t> stages, orders;
  /// The buffers of one iteration: the memref.alloca ops of the body
  /// (convert-tir-to-gpu's compaction puts them there).
  SmallVector<Operation *> allocations;
  int64_t maxStage = 0;
  /// `software_pipeline_async_stages`: the stages whose copies into shared
  /// memory run asynchronously (sorted, each once).
  SmallVector<int64_t> asyncStages;

  /// The name a diagnostic gives statement `i`: its blocks' names.
  std::string describe(unsigned i) const;
  /// Whether statement `x` runs before statement `y` of the same
  /// iteration: in an earlier stage, or the same stage and an earlier order.
  bool runsBefore(unsigned x, unsigned y) const {
    return stages[x] < stages[y] ||
           (stages[x] == stages[y] && orders[x] < orders[y]);
  }
};

/// Per statement, the statements `writer` accepts that write a buffer it
/// reads or writes and run before it in the same iteration, in order. The
/// buffers are those checkSoftwarePipeline sees (through views; an op of
/// unknown effects that is given no buffer touches every one).
SmallVector<SmallVector<unsigned>>
getEarlierWriters(const SoftwarePipeline &pipeline,
                  function_ref<bool(unsigned)> writer);

/// Whether `loop` carries either pipeline annotation.
bool hasSoftwarePipelineAnnotation(ForOp loop);

/// Reads `loop`'s pipeline. Fails with an error on the loop when the
/// annotations are malformed: one missing, not one integer from 0 to
/// kMaxPipelineStage per statement, orders that are not a permutation; or
/// the loop runs its iterations at once (parallel, vectorized,
/// thread-bound), has runtime bounds, has a statement whose result other
/// ops use, or allocates a buffer whose size it computes.
FailureOr<SoftwarePipeline> readSoftwarePipeline(ForOp loop);

/// Checks that running the statements in their steps and orders keeps
/// every pair of accesses to one buffer (one of them a write) in its
/// order: within an iteration, a statement does not run in an earlier step
/// or, in the same step, earlier than one it follows; across iterations,
/// statements whose parts of a buffer may overlap between iterations keep
/// the iterations' order (buffers of one iteration are copied instead).
/// Checked on buffers of the whole shape (before convert-tir-to-gpu
/// compacts them). Fails with an error on the loop naming the statements
/// and the buffer.
/// `iterationBuffer` names buffers the caller will make one iteration's
/// (convert-tir-to-gpu compacts a kernel's cache used only in the loop
/// into its body): they get copies instead.
LogicalResult
checkSoftwarePipeline(const SoftwarePipeline &pipeline,
                      function_ref<bool(Value)> iterationBuffer = {});

/// The fewest copies of each of `pipeline.allocations` that keep the
/// iterations in flight apart (1: no copy needed), at least two for a
/// buffer a block annotated `double_buffer_scope` writes.
SmallVector<int64_t> countPipelineVersions(const SoftwarePipeline &pipeline);

/// Rewrites `pipeline.loop` (checked) into prologue, steady loop and
/// epilogue; its buffers of one iteration are copied (allocated before
/// the pipeline) and each instance of a statement uses its iteration's
/// copy. When a buffer has several copies the steady loop is unrolled by
/// the least common multiple of their numbers, so every access names its
/// copy directly (registers stay registers; barriers see distinct
/// buffers).
/// Fails, with an error and no change, when that factor would be over
/// kMaxPipelineUnroll.
///
/// With `asyncCopies` (a GPU kernel's pipeline), the statements of the
/// async stages have their copies from global into shared memory marked
/// kAsyncCopyAttr; the copies of one stage and iteration are committed as
/// one group after its last statement of that stage, and a statement that
/// touches a buffer such a group writes first waits until the group has
/// landed (kWaitGroupName with the number of groups committed after it,
/// exact in the prologue and epilogue, the least of its steps in the
/// steady loop); after the epilogue every group has landed. Without it,
/// async stages run as the others.
LogicalResult injectSoftwarePipeline(const SoftwarePipeline &pipeline,
                                     bool asyncCopies = false);

/// readSoftwarePipeline + checkSoftwarePipeline on every annotated loop
/// under `root` that `filter` accepts (all without one).
LogicalResult
checkSoftwarePipelines(Operation *root, function_ref<bool(ForOp)> filter = {},
                       function_ref<bool(ForOp, Value)> iterationBuffer = {});

/// Rewrites every annotated loop under `root` that `filter` accepts, inner
/// loops first. Reads each again (a malformed annotation fails); the caller
/// has checked them (on buffers of the whole shape).
LogicalResult injectSoftwarePipelines(Operation *root,
                                      function_ref<bool(ForOp)> filter = {},
                                      bool asyncCopies = false);

} // namespace mlir::tir

#endif // TENSORIR_DIALECT_TIR_TRANSFORMS_SOFTWAREPIPELINE_H
