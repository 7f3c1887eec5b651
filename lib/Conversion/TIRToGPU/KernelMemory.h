//===- KernelMemory.h - memory the threads of a GPU block share -*- C++ -*-===//
//
// The parts of convert-tir-to-gpu that deal with memory the threads of a
// block share: placing the buffers a schedule allocated at the root into
// their kernel (KernelBuffers.cpp), reductions across threads
// (CrossThreadReduction.cpp) and the barriers between threads that write
// shared memory and threads that read it (Barriers.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef TENSORIR_LIB_CONVERSION_TIRTOGPU_KERNELMEMORY_H
#define TENSORIR_LIB_CONVERSION_TIRTOGPU_KERNELMEMORY_H

#include "TensorIR/Dialect/TIR/IR/TIROps.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"

#include "llvm/ADT/StringSet.h"

namespace mlir::tir {

/// The lanes of an NVIDIA warp (the subgroup gpu.subgroup_reduce spans).
constexpr int64_t kWarpLanes = 32;

/// The outermost thread-bound loop around (or at) `op`: the root of the
/// kernel `op` is in; null outside kernels.
ForOp kernelRootOf(Operation *op);

/// Whether a storage scope is memory the threads of a GPU block share.
bool isSharedScope(StringRef scope);

/// The bytes a buffer of static shape spans in shared memory (its layout's
/// padding included); 0 for a dynamic shape.
int64_t sharedBufferBytes(MemRefType type);

/// The regions `block` lists of `buffer` become regions of `replacement`,
/// each map rewritten by `transform` (failure: refused, the block as it
/// was). `addedRegionValues` join the block's region values: every region
/// map takes them as its last dimensions (before `transform` sees it).
LogicalResult
rewriteListedRegions(BlockOp block, Value buffer, Value replacement,
                     function_ref<FailureOr<AffineMap>(AffineMap)> transform,
                     ValueRange addedRegionValues = {});

/// Whether `loop` is bound to threadIdx.{x,y,z}.
bool isThreadIdxLoop(ForOp loop);

/// The buffers of the global scope (no memory space) that the host part of
/// `root` allocates and a GPU kernel uses (GlobalIntermediates.cpp).
SmallVector<AllocBufferOp> findGlobalIntermediates(Operation *root);

/// Each of `intermediates` allocated in GPU memory by the host part
/// (gpu.alloc where it was) and freed at the end of its scope (gpu.dealloc),
/// in order with the kernels.
void allocateOnDevice(ArrayRef<AllocBufferOp> intermediates);

/// An asynchronous GPU op that `make` builds after a token of its own,
/// waited for at once: the op goes in order with the kernels, on the
/// runtime's stream for the device (gpu-to-llvm lowers allocations, frees
/// and copies in their asynchronous form only). Returns the op's token.
Value createInStreamOrder(OpBuilder &b, Location loc,
                          function_ref<Value(Value token)> make);

/// The thread tags bound by the loops at and around `op` (a loop inside
/// bound again to one of them runs in the same thread).
llvm::StringSet<> threadTagsAround(Operation *op);

/// Whether `v` is, or is computed from (through ops, and through the
/// bindings of the tir.blocks whose iteration variables it uses), a value
/// `isSource` accepts.
bool dependsOn(Value v, function_ref<bool(Value)> isSource);

/// Every `shared` / `local` buffer allocated outside kernels whose accesses
/// all lie in one kernel is allocated at the start of the lowest op
/// holding them, compacted to the part one execution of that op touches
/// (TVM's PlanAndUpdateBufferAllocationLocation + CompactBufferAllocation;
/// for shared memory the threadIdx loops around that op are relaxed as
/// well): a memref.alloca (with the 'shared' scope still on it for shared
/// memory, which the launch then takes as workgroup memory), seen by the
/// accesses through a memref.reinterpret_cast of the whole buffer's shape
/// whose offset moves the part's start to the first element. Fails, naming
/// the buffer, when a buffer used in one kernel cannot be bounded; before
/// any change to it.
LogicalResult placeKernelBuffers(Operation *root);

/// The attribute lowerWarpBuffers puts on the local buffers it makes: a
/// tensor-core fragment, each lane's part (moved only by the tensor
/// intrinsics' instructions, a whole tile per lane at a time).
constexpr llvm::StringLiteral kLaneFragmentAttr = "tir.lane_fragment";
/// The attribute of the loop placeKernelBuffers wraps around sibling loops
/// bound to one thread tag, so that a fragment they move is one thread's.
constexpr llvm::StringLiteral kUnifiedThreadsAttr = "tir.unified_threads";

/// TVM's LowerWarpMemory for tensor-core fragments: each "warp" buffer
/// under `root`, its second-to-last dimension the warp's 32 lanes, becomes
/// a "local" buffer without it (each lane's registers); its accesses and
/// views give up the lane index, which must be the lane's own (a loop bound
/// to threadIdx.x of 32 iterations). Fails, naming the buffer and the
/// access, on any other.
LogicalResult lowerWarpBuffers(Operation *root);

/// Marks `unrolled` the serial loops of `kernel` of a few constant
/// iterations whose variable indexes a thread's private buffer (register
/// tiles, fragments), while the unrolled code stays small: the indices then
/// become constants and the buffer stays in registers, as nvcc's unrolling
/// of such loops gives TVM's CUDA code.
void unrollRegisterTileLoops(Operation *kernel);

/// The loop or block at whose start placeKernelBuffers allocates `buffer`
/// (the LCA of its accesses), or null when it leaves the buffer where it
/// is (not a root shared / local buffer used in one kernel).
Operation *kernelBufferPlace(Value buffer);

/// Marks a reduction block lowered by lowerCrossThreadReductions: it
/// reduces into its thread's partial value only.
constexpr StringLiteral kThreadPartialAttrName = "tir.thread_partial";

/// Lowers the reductions across threads in `kernel` (the outermost
/// thread-bound loop) that it can: each thread reduces into a private
/// partial value, gpu.all_reduce combines them, and a copy of the block
/// updates the element with the result (TVM's LowerCrossThreadReduction).
/// The form handled: see CrossThreadReduction.cpp. Others are left as they
/// are (convert-tir-to-gpu refuses them).
void lowerCrossThreadReductions(ForOp kernel);

/// Puts a gpu.barrier wherever a statement of `launch` reads or writes a
/// workgroup buffer that an earlier statement wrote or read (since the
/// last barrier, in program order and around loops), at the outermost
/// statement holding the access (TVM's ThreadSync for shared memory).
/// Fails when the barrier would be inside a condition that not every
/// thread of the block takes.
LogicalResult insertBarriers(gpu::LaunchOp launch);

} // namespace mlir::tir

#endif // TENSORIR_LIB_CONVERSION_TIRTOGPU_KERNELMEMORY_H
