//===- Analysis.h - what MetaSchedule asks of a program ---------*- C++ -*-===//
//
// The questions TVM's MetaSchedule (meta_schedule/utils.h and the schedule
// analyses it calls) asks of the program being scheduled, answered once for
// the rules, postprocessors and mutators: which functions are scheduled,
// which op is TVM's root block, how a loop's variable is used by the blocks
// under it, whether a loop holds one statement. Analyses the schedule
// library already has are not repeated here (a loop's constant extent:
// ForOp::getConstantExtent; a block's iteration kinds: BlockOp::getIterType;
// complete and reduction blocks: TensorIR/Dialect/TIR/Schedule/Analysis.h);
// and of blocks: whether one is spatial or bound trivially to its loops,
// whether it needs multi-level tiling, how its reads map to its write.
//
//===----------------------------------------------------------------------===//

#ifndef TENSORIR_METASCHEDULE_ANALYSIS_H
#define TENSORIR_METASCHEDULE_ANALYSIS_H

#include "TensorIR/Dialect/TIR/IR/TIROps.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

namespace mlir::tir::ms {

//===----------------------------------------------------------------------===//
// Functions and the root block
//===----------------------------------------------------------------------===//

/// The statements of `loop`'s body as a software pipeline's annotations
/// count them: the ops with regions or effects (index arithmetic beside
/// them is no statement).
SmallVector<Operation *> getLoopStatements(ForOp loop);

/// How many copies of a buffer accessed by `blocks` the software pipeline
/// of `anchor` keeps (its compaction anchor: a loop annotated
/// "software_pipeline_stage"): one more per stage between the statements
/// that access it, as InjectSoftwarePipeline versions it; 1 for any other
/// anchor.
int64_t getPipelineVersions(Operation *anchor, ArrayRef<BlockOp> blocks);

/// The functions of `mod` that are scheduled (TVM's PrimFuncs): those with
/// a body that are not graph functions, in module order.
SmallVector<FunctionOpInterface> getScheduledFunctions(ModuleOp mod);

/// TVM's root block of `func`: its explicit root block when the body is
/// one tir.block "root" without iteration variables (what annotating the
/// function writes out, and TVMScript's `with T.block("root")` with a
/// T.block_attr), else the function itself.
Operation *getRootBlock(FunctionOpInterface func);

//===----------------------------------------------------------------------===//
// Loops
//===----------------------------------------------------------------------===//

/// TVM's GetLoopIterType: how the blocks directly under `loop` (not those
/// nested in them) use its variable in their bindings: only in spatial
/// variables, or nowhere (Spatial); only in reduce variables (Reduce);
/// otherwise (Opaque).
IterType getLoopIterType(ForOp loop);

/// TVM's IsSingleStmt of a loop's body: at most one statement in it, a
/// statement being an op with regions or with memory effects (the index
/// computations tir keeps in a body are expressions in TVM).
bool hasSingleStatement(ForOp loop);

/// TVM's HasAnnOrBinding: whether `loop` is bound to a thread axis or has
/// annotations.
bool hasAnnotationOrBinding(ForOp loop);

/// Whether `loop` is bound to threadIdx.{x,y,z} or blockIdx.{x,y,z} (TVM's
/// IsThreadIdx / IsBlockIdx of its thread scope; virtual threads are
/// neither).
bool isBoundToThreadOrBlockIdx(ForOp loop);

//===----------------------------------------------------------------------===//
// Blocks
//===----------------------------------------------------------------------===//

/// The buffers of TVM's block->reads and block->writes, which the
/// primitives' buffer indices count: the lists the block gives, else those
/// its body accesses (getAccessedBuffers).
void getReadWriteBuffers(BlockOp block, SmallVectorImpl<Value> &reads,
                         SmallVectorImpl<Value> &writes);

/// Whether every iteration variable of `block` is spatial (TVM's
/// IsSpatial).
bool isSpatialBlock(BlockOp block);

/// Whether every block of the function `func` is spatial (TVM's
/// IsSpatialPrimFunc).
bool isSpatialFunction(Operation *func);

/// The function `op` is in (or is).
FunctionOpInterface getEnclosingFunction(Operation *op);

/// TVM's IsTrivialBinding: the loops above `block` in its scope are as
/// many as its iteration variables, and each variable is bound to its loop
/// (in order) and nothing else.
bool isTrivialBinding(BlockOp block);

/// Whether a MultiLevelTiling rule tiled `block` already (its
/// "meta_schedule.tiling_structure" annotation).
bool hasBeenMultiLevelTiled(BlockOp block);

/// TVM's NeedsMultiLevelTiling: `block`, not tiled yet, trivially bound,
/// writes one buffer and reads some, is not spatial, reads no buffer
/// twice, reads constant-size regions, and some spatial variable (of a
/// domain other than [0, 1)) does not index some buffer it reads (so that
/// tiling gives reuse).
bool needsMultiLevelTiling(BlockOp block);

/// The annotation `key` of a block or loop, or null.
Attribute getAnnotation(Operation *blockOrLoop, StringRef key);

/// TVM's AnalyzeReadWritePattern, the parts AutoInline asks: whether the
/// indices of a read (`readStarts`, over the block's iteration variables as
/// dimensions) map injectively (every variable indexing the read indexes
/// the write, each read index one variable) and in order (the variables
/// appear in the read in the order they do in the write) to those of the
/// write (`writeStarts`).
struct ReadWritePattern {
  bool injective = false;
  bool ordered = false;
};
ReadWritePattern analyzeReadWritePattern(ArrayRef<AffineExpr> readStarts,
                                         ArrayRef<AffineExpr> writeStarts);

/// Whether the body of `block` calls one of `callees` (TVM's op names,
/// "tir.exp") or computes its math-dialect counterpart.
bool callsAnyOf(BlockOp block, ArrayRef<std::string> callees);

/// Whether the body of `block` selects between values (TVM's
/// if_then_else / select, an scf.if).
bool hasIfThenElse(BlockOp block);

/// TVM's NeedsRFactorOrCrossThreadReduction: `block` is a reduction block,
/// trivially bound, not tiled, in a perfect nest of constant spatial and
/// reduction loops with at least one reduction; and, for a block
/// MultiLevelTiling would tile, its spatial loops give less parallelism
/// than its reduction (and at most `maxParallelExtent`), for others its
/// reduction is longer than 1.
bool needsRFactorOrCrossThreadReduction(BlockOp block,
                                        int64_t maxParallelExtent);

} // namespace mlir::tir::ms

#endif // TENSORIR_METASCHEDULE_ANALYSIS_H
