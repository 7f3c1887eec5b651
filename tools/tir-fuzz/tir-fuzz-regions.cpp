//===- tir-fuzz-regions.cpp - fuzz access regions and dependences ---------===//
//
// libFuzzer target: the input is MLIR text; once it parses and verifies,
// every analysis of lib/Dialect/TIR/Analysis that schedules rely on runs
// over it: for every tir.block its accessed buffers and access regions
// (inferred on a copy), for every scope its block dependences (producers,
// consumers, writers), for every tir.for the regions its blocks read and
// write relaxed over it (RegionRelax). Then regions are inferred in place,
// as --tir-infer-access-regions does: when that succeeds the module must
// still verify (otherwise a finding, reported as a crash).
//
//===----------------------------------------------------------------------===//

#include "FuzzSupport.h"

#include "TensorIR/Dialect/TIR/Analysis/AccessRegions.h"
#include "TensorIR/Dialect/TIR/Analysis/BlockScope.h"
#include "TensorIR/Dialect/TIR/Analysis/Refusal.h"
#include "TensorIR/Dialect/TIR/Analysis/RegionRelax.h"
#include "TensorIR/Dialect/TIR/IR/TIROps.h"

#include "mlir/IR/Verifier.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace mlir::tir;
using namespace mlir::tir::fuzz;

/// Queries every dependence of the scope rooted at `root`.
static void analyzeScope(Operation *root) {
  SmallVector<BlockOp> scope = getScopeBlocks(root);
  BlockDependences deps(scope);
  for (BlockOp block : scope) {
    (void)deps.getDependents(block);
    (void)deps.getDependences(block);
    (void)deps.getProducers(block);
    (void)deps.getConsumers(block);
    (void)getProducersIn(block, scope);
    (void)getConsumersIn(block, scope);
    for (Value buffer : deps.getWrites(block))
      (void)deps.getWriters(buffer);
    (void)deps.getReads(block);
  }
}

/// Relaxes, over `loop`, the regions of every buffer its blocks access.
static void analyzeLoop(ForOp loop) {
  SmallVector<BlockOp> blocks = collectChildBlocks(loop);
  llvm::SetVector<Value> buffers;
  for (BlockOp block : blocks) {
    SmallVector<Value> reads, writes;
    getAccessedBuffers(block, reads, writes);
    buffers.insert(reads.begin(), reads.end());
    buffers.insert(writes.begin(), writes.end());
  }
  for (Value buffer : buffers) {
    for (bool writes : {false, true}) {
      Refusal failure;
      (void)relaxRegionUnderLoop(loop, buffer, writes, blocks, failure);
    }
  }
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  FuzzContext context(Registration::Dialects);
  OwningOpRef<ModuleOp> module = parseInput(context.get(), data, size);
  if (!module || failed(verify(*module)))
    return 0;

  SmallVector<BlockOp> blocks;
  llvm::SetVector<Operation *> roots;
  module->walk([&](BlockOp block) {
    blocks.push_back(block);
    roots.insert(getScopeRoot(block));
  });
  for (BlockOp block : blocks) {
    SmallVector<Value> reads, writes;
    getAccessedBuffers(block, reads, writes);
    Refusal failure;
    (void)getAccessRegions(block, failure);
  }
  for (Operation *root : roots)
    analyzeScope(root);
  module->walk([&](ForOp loop) { analyzeLoop(loop); });

  // In place, inner blocks first, as --tir-infer-access-regions does.
  WalkResult inferred = module->walk([&](BlockOp block) {
    if (block.hasAccessRegions())
      return WalkResult::advance();
    return failed(inferAccessRegions(block)) ? WalkResult::interrupt()
                                             : WalkResult::advance();
  });
  if (!inferred.wasInterrupted()) {
    context.setCapture(true);
    if (failed(verify(*module)))
      reportFinding("inferred access regions do not verify", *module,
                    context.takeDiagnostics());
    context.setCapture(false);
  }
  return 0;
}
