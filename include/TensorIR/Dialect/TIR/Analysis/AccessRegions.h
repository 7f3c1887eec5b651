//===- AccessRegions.h - the buffers and regions a block accesses -*- C++
//-*-===//
//
// What a block reads and writes: the buffers (for data-flow questions) and
// the regions over its iteration variables (TVM's GetBlockReadWriteRegion,
// which --tir-infer-access-regions applies to every block that leaves them
// out).
//
//===----------------------------------------------------------------------===//

#ifndef TENSORIR_DIALECT_TIR_ANALYSIS_ACCESSREGIONS_H
#define TENSORIR_DIALECT_TIR_ANALYSIS_ACCESSREGIONS_H

#include "TensorIR/Dialect/TIR/Analysis/Refusal.h"
#include "TensorIR/Dialect/TIR/IR/TIRIndexExpr.h"
#include "TensorIR/Dialect/TIR/IR/TIROps.h"

namespace mlir::tir {

/// Computes and sets the read and write regions of `block` from its body
/// (TVM's GetBlockReadWriteRegion); nested blocks without regions get
/// theirs first. Accesses through loops inside the block are relaxed over
/// the loops; an index that cannot be bounded (a gather) covers the whole
/// dimension. Fails, with a diagnostic on the block, when a region cannot be
/// expressed (the whole of a dynamic dimension).
LogicalResult inferAccessRegions(BlockOp block);

/// The buffers `block` reads and writes: its regions when it lists them,
/// else every buffer its body loads or stores and those its nested blocks
/// access, but not those allocated inside it; as TVMScript infers regions,
/// a block with a tir.init leaves out the reads of buffers it writes.
void getAccessedBuffers(BlockOp block, SmallVectorImpl<Value> &reads,
                        SmallVectorImpl<Value> &writes);

/// A block's read and write regions: each buffer with its region (starts
/// and extents in input space, over `inputs`: the block's iteration
/// variables, then its region values).
struct BlockAccessRegions {
  SmallVector<std::pair<Value, RegionExprs>> reads, writes;
  SmallVector<Value> inputs;
};

/// The regions of `block`; those it leaves out are inferred on a copy (the
/// block is not changed), as TVMScript's parser does; with `fromBody`,
/// those its body accesses, whatever it lists. Fails, saying why in
/// `failure`, when they cannot be inferred.
FailureOr<BlockAccessRegions> getAccessRegions(BlockOp block, Refusal &failure,
                                               bool fromBody = false);

/// Whether the region of `buffer` that `block` lists among its writes
/// strictly contains the one its body writes (inferred from its stores):
/// a whole dimension where the block writes one row, as loop_partition
/// leaves regions (it widens them to the variables' domains, as TVM does).
/// Sound for dependences, but a copy back of the listed region
/// (cache_write, write_at, cache_inplace) would fill the elements never
/// written with whatever the copy buffer holds there. False where the two
/// are equal, cannot be compared, or the body's is the wider (an opaque
/// use of the buffer, whose listed region is taken as given).
bool listsMoreThanItWrites(BlockOp block, Value buffer);

} // namespace mlir::tir

#endif // TENSORIR_DIALECT_TIR_ANALYSIS_ACCESSREGIONS_H
