//===- AnnotateBufferAccess.cpp - TVM's annotate_buffer_access ------------===//
//
// Declares the region a block reads or writes of one of its buffers, where
// inference over its body would give another (a gather whose indices are
// computed, a window the index arithmetic cannot bound): the block lists its
// regions, the one given replaces the buffer's, and the block's
// `explicit_read_region` / `explicit_write_region` annotation records which
// buffers' regions were given (TVM's annotation, a list of their indices).
// Primitives that relax regions (compute_at, cache stages) then use it.
//
//===----------------------------------------------------------------------===//

#include "TensorIR/Dialect/TIR/Analysis/AccessRegions.h"
#include "TensorIR/Dialect/TIR/Arith/Simplify.h"
#include "TensorIR/Dialect/TIR/IR/ThreadDiagnostics.h"
#include "TensorIR/Dialect/TIR/Schedule/Primitives.h"

#include "Utils.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;
using namespace mlir::tir;
using namespace mlir::tir::sched;

LogicalResult mlir::tir::annotateBufferAccess(RewriterBase &rewriter,
                                              BlockOp block,
                                              int64_t bufferIndex, bool isWrite,
                                              AffineMap ranges,
                                              ScheduleError &error) {
  StringRef kind = isWrite ? "write" : "read";
  FailureOr<Value> buffer = getNthAccessBuffer(block, bufferIndex, isWrite,
                                               "annotate_buffer_access", error);
  if (failed(buffer))
    return failure();
  unsigned numVars = block.getNumIterVars();
  auto type = cast<MemRefType>(buffer->getType());
  if (ranges.getNumDims() != numVars || ranges.getNumSymbols() != 0)
    return refuse(error, block,
                  "annotate_buffer_access: the ranges are a function of the " +
                      Twine(numVars) + " iteration variables of block '" +
                      block.getBlockName() + "', got one of " +
                      Twine(ranges.getNumDims()));
  if (ranges.getNumResults() != 2 * type.getRank())
    return refuse(error, block,
                  "annotate_buffer_access: " + kind + " buffer " +
                      Twine(bufferIndex) + " of block '" +
                      block.getBlockName() + "' has " + Twine(type.getRank()) +
                      " dimensions, but " + Twine(ranges.getNumResults() / 2) +
                      " (begin, end) ranges are given");

  // The region over the block's region inputs (its variables first):
  // starts, then extents (end - begin).
  MLIRContext *ctx = block.getContext();
  unsigned rank = type.getRank();
  SmallVector<AffineExpr> starts, extents;
  for (unsigned d = 0; d < rank; ++d) {
    AffineExpr begin = ranges.getResult(2 * d);
    AffineExpr end = ranges.getResult(2 * d + 1);
    AffineExpr extent = simplifyIndexExpr(end - begin, numVars, 0);
    auto constant = dyn_cast<AffineConstantExpr>(extent);
    if (constant && constant.getValue() <= 0)
      return refuse(error, block,
                    "annotate_buffer_access: range " + Twine(d) +
                        " is empty (its end is not after its begin)");
    starts.push_back(begin);
    extents.push_back(extent);
  }
  // A write region must hold what the block stores: what inference over
  // its body gives, each bound a constant away from the given one.
  if (isWrite) {
    OwningOpRef<BlockOp> copy = cast<BlockOp>(block->clone());
    copy->dropAccessRegions();
    bool inferred;
    {
      ThreadDiagnosticHandler silence(block.getContext(),
                                      [](Diagnostic &) { return success(); });
      inferred = succeeded(inferAccessRegions(*copy));
    }
    bool holds = inferred;
    for (auto [b, attr] :
         llvm::zip(copy->getWriteBuffers(), copy->getWriteRegionsAttr())) {
      if (!holds || b != *buffer)
        continue;
      AffineMap stored = cast<AffineMapAttr>(attr).getValue();
      for (unsigned d = 0; d < rank && holds; ++d) {
        AffineExpr lo = stored.getResult(d);
        AffineExpr hi = lo + stored.getResult(rank + d);
        auto diff = [&](AffineExpr x, AffineExpr y) {
          return dyn_cast<AffineConstantExpr>(simplifyIndexExpr(
              x - y, std::max(stored.getNumDims(), numVars), 0));
        };
        // Over the block's variables only (the copy's other region values
        // are not the block's).
        bool overVars = true;
        for (AffineExpr e : {lo, hi})
          e.walk([&](AffineExpr sub) {
            if (auto dim = dyn_cast<AffineDimExpr>(sub))
              overVars &= dim.getPosition() < numVars;
          });
        auto low = diff(lo, starts[d]);
        auto high = diff(starts[d] + extents[d], hi);
        holds = overVars && low && high && low.getValue() >= 0 &&
                high.getValue() >= 0;
      }
    }
    if (!holds)
      return refuse(error, block,
                    "annotate_buffer_access: the write region given does not "
                    "hold what block '" +
                        block.getBlockName() +
                        "' stores (or it cannot be "
                        "told that it does)");
  }

  // The block lists its regions from here on.
  if (!block.hasAccessRegions()) {
    ThreadDiagnosticHandler silence(block.getContext(),
                                    [](Diagnostic &) { return success(); });
    if (failed(inferAccessRegions(block)))
      return refuse(error, block,
                    "annotate_buffer_access: the regions of block '" +
                        block.getBlockName() +
                        "' cannot be listed (a dynamic dimension)");
  }
  unsigned numInputs = numVars + block.getRegionValues().size();
  SmallVector<AffineExpr> results(starts);
  results.append(extents);
  AffineMap region = AffineMap::get(numInputs, 0, results, ctx);
  ArrayAttr old =
      isWrite ? block.getWriteRegionsAttr() : block.getReadRegionsAttr();
  // The buffer's place in the listing (found by value: the listing's order
  // need not be the order the buffer index counts in).
  OperandRange listed =
      isWrite ? block.getWriteBuffers() : block.getReadBuffers();
  auto place = llvm::find(listed, *buffer);
  if (place == listed.end())
    return refuse(error, block,
                  "annotate_buffer_access: block '" + block.getBlockName() +
                      "' does not list the buffer among its " + kind + "s");
  SmallVector<Attribute> maps(old.begin(), old.end());
  maps[place - listed.begin()] = AffineMapAttr::get(region);
  auto updated = ArrayAttr::get(ctx, maps);

  // TVM's annotation: the indices of the buffers whose regions were given.
  std::string key = ("explicit_" + kind + "_region").str();
  NamedAttrList annotations(block.getAnnotationsAttr()
                                ? block.getAnnotationsAttr()
                                : DictionaryAttr::get(ctx));
  SmallVector<Attribute> indices;
  if (auto given = dyn_cast_or_null<ArrayAttr>(annotations.get(key)))
    indices.assign(given.begin(), given.end());
  auto index = IntegerAttr::get(IntegerType::get(ctx, 64), bufferIndex);
  if (!llvm::is_contained(indices, index))
    indices.push_back(index);
  annotations.set(key, ArrayAttr::get(ctx, indices));

  rewriter.modifyOpInPlace(block, [&] {
    if (isWrite)
      block.setWriteRegionsAttr(updated);
    else
      block.setReadRegionsAttr(updated);
  });
  rewriter.modifyOpInPlace(
      block, [&] { block.setAnnotationsAttr(annotations.getDictionary(ctx)); });
  return success();
}
