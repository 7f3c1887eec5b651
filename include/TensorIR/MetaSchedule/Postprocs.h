//===- Postprocs.h - TVM's postprocessors -----------------------*- C++ -*-===//
//
// The postprocessors TVM applies to every sampled schedule before it is
// built (lib/MetaSchedule/Postproc/<Name>.cpp each). They change the
// program through schedule steps, so that the trace records what they did;
// a step that is refused rejects the schedule (false), as TVM's do.
//
//  - DisallowDynamicLoop: rejects a schedule with a loop whose extent is
//    not a constant.
//  - DisallowAsyncStridedMemCopy: rejects a schedule whose asynchronous
//    pipeline stages hold a strided copy (its innermost loop does not walk
//    both buffers one element at a time).
//  - RewriteParallelVectorizeUnroll: turns the root block's
//    "meta_schedule.parallel", "meta_schedule.vectorize" and
//    "meta_schedule.unroll_explicit" / "meta_schedule.unroll_implicit"
//    annotations into steps on the loops of each block under it: its outer
//    spatial loops fused and parallel, its inner ones fused and vectorized,
//    its outermost loop annotated "pragma_auto_unroll_max_step" and
//    "pragma_unroll_explicit" (blocks with non-spatial variables only).
//  - RewriteReductionBlock: decomposes every reduction block (one with a
//    tir.init whose reduce variables no threadIdx / blockIdx loop feeds) at
//    its outermost loop that is not spatial.
//  - RewriteLayout: gives each layout-free buffer (the function's
//    "layout_free_buffers" parameters) the layout in which its anchor
//    block reads it in loop order, behind a cache_read block annotated
//    "meta_schedule.layout_rewrite_preproc".
//  - RewriteCooperativeFetch (GPU): a block annotated
//    "meta_schedule.cooperative_fetch" = vector length gets its innermost
//    fused loop split and bound to the threadIdx extents of the tile it
//    is computed in (and vectorized by the length).
//  - RewriteUnboundBlock (GPU): a block with no loop bound to threads
//    gets its loops bound to blockIdx.x / threadIdx.x (ThreadBind.h).
//  - VerifyGPUCode (GPU): rejects a schedule whose kernels exceed the
//    target's limits: threads per block (and the thread-extent bounds
//    MultiLevelTiling annotates), shared memory per block (the compacted
//    size of each shared buffer), 16-byte vector accesses; local memory
//    and vthreads are not limited, as in TVM's postprocessor.
//  - RewriteTensorize (GPU, CPU intrinsics): each block annotated
//    "meta_schedule.auto_tensorize" with an intrinsic's name is tensorized
//    with it (left as it is, with a warning, where it does not match).
//  - VerifyVTCMLimit (Hexagon): rejects a schedule whose "global.vtcm"
//    buffers, compacted and versioned by their software pipelines, take
//    more than the target's "vtcm-capacity" bytes.
//
// Their str() is TVM's repr, `meta_schedule.<Name>(0x...)`.
//
//===----------------------------------------------------------------------===//

#ifndef TENSORIR_METASCHEDULE_POSTPROCS_H
#define TENSORIR_METASCHEDULE_POSTPROCS_H

#include "TensorIR/MetaSchedule/Postproc.h"

namespace mlir::tir::ms {

std::shared_ptr<Postproc> createDisallowDynamicLoop();
std::shared_ptr<Postproc> createDisallowAsyncStridedMemCopy();
std::shared_ptr<Postproc> createVerifyVTCMLimit();
std::shared_ptr<Postproc> createRewriteParallelVectorizeUnroll();
std::shared_ptr<Postproc> createRewriteReductionBlock();
std::shared_ptr<Postproc> createRewriteLayout();
std::shared_ptr<Postproc> createRewriteCooperativeFetch();
/// `maxThreadblocks`: at most this many thread blocks per kernel (TVM's
/// max_threadblocks, 256 in its defaults).
std::shared_ptr<Postproc> createRewriteUnboundBlock(int64_t maxThreadblocks);
std::shared_ptr<Postproc> createVerifyGPUCode();
/// TVM's RewriteTensorize: each block annotated
/// "meta_schedule.auto_tensorize" with an intrinsic's name is tensorized
/// with it (a block that does not match is left as it is, with a warning
/// in the log); an init block annotated "" has its one loop vectorized
/// with `vectorizeInitLoop`.
std::shared_ptr<Postproc> createRewriteTensorize(bool vectorizeInitLoop);

} // namespace mlir::tir::ms

#endif // TENSORIR_METASCHEDULE_POSTPROCS_H
