//===- FinalizeGPUKernels.cpp - outlined kernels made ready for NVVM -----===//
//
// --tir-finalize-gpu-kernels: on outlined kernel modules, the reductions
// convert-tir-to-gpu left as gpu.all_reduce / clustered gpu.subgroup_reduce
// become upstream's shuffle lowerings, the dynamic shared memory gets the
// external global the NVPTX backend expects, workgroup buffers are 16-byte
// aligned, and a thread's private buffers of static size move to the
// kernel's entry.
//
//===----------------------------------------------------------------------===//

#include "KernelMemory.h"

#include "TensorIR/Conversion/TIRToGPU/TIRToGPU.h"

#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Vector/Transforms/LoweringPatterns.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::tir {
#define GEN_PASS_DEF_TIRFINALIZEGPUKERNELSPASS
#include "TensorIR/Conversion/Passes.h.inc"
} // namespace mlir::tir

using namespace mlir;
using namespace mlir::tir;

namespace {
/// The symbol of a kernel module's dynamic shared memory.
constexpr StringLiteral kDynamicSharedSymbol = "__tir_dynamic_shared";

struct TIRFinalizeGPUKernelsPass
    : public tir::impl::TIRFinalizeGPUKernelsPassBase<
          TIRFinalizeGPUKernelsPass> {
  void runOnOperation() override {
    // Reductions across a block's threads: upstream's lowering (shuffles
    // within warps, then one value per warp through shared memory).
    RewritePatternSet patterns(&getContext());
    populateGpuAllReducePatterns(patterns);
    // Reductions within groups of a warp's lanes: shuffles.
    populateGpuLowerClusteredSubgroupReduceToShufflePatterns(patterns,
                                                             kWarpLanes);
    // An n-D broadcast (the canonical form of a one-row operand of the
    // tensor-core instructions) as row inserts, which NVVM takes.
    vector::populateVectorBroadcastLoweringPatterns(patterns);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
    // The dynamic shared memory, declared external as CUDA's `extern
    // __shared__` arrays are: the GPU-to-NVVM lowering takes this global
    // (its own would be internal, which the NVPTX backend emits as a
    // static shared variable of one byte, the dynamic memory then starting
    // after it).
    gpu::GPUModuleOp module = getOperation();
    bool dynamicShared = module
                             .walk([](gpu::DynamicSharedMemoryOp) {
                               return WalkResult::interrupt();
                             })
                             .wasInterrupted();
    if (dynamicShared && !module.lookupSymbol(kDynamicSharedSymbol)) {
      OpBuilder mb = OpBuilder::atBlockBegin(module.getBody());
      LLVM::GlobalOp::create(
          mb, module.getLoc(), LLVM::LLVMArrayType::get(mb.getI8Type(), 0),
          /*isConstant=*/false, LLVM::Linkage::External, kDynamicSharedSymbol,
          Attribute(),
          /*alignment=*/16,
          static_cast<unsigned>(NVVM::NVVMMemorySpace::Shared));
    }
    StringRef align = LLVM::LLVMDialect::getAlignAttrName();
    getOperation().walk([&](gpu::GPUFuncOp func) {
      for (unsigned i = 0, e = func.getNumWorkgroupAttributions(); i < e; ++i)
        if (!func.getWorkgroupAttributionAttr(i, align))
          func.setWorkgroupAttributionAttr(
              i, align,
              IntegerAttr::get(IntegerType::get(&getContext(), 64), 16));
      // A thread's private buffers of static size (register tiles,
      // fragments placed inside loops) are allocated once, at the kernel's
      // entry: LLVM keeps only entry-block allocations in registers (one
      // in a loop is a new stack slot per iteration, in local memory). A
      // buffer allocated in a loop holds nothing from one iteration to the
      // next, so one allocation serves them all.
      if (func.getBody().empty())
        return;
      Block &entry = func.getBody().front();
      SmallVector<memref::AllocaOp> inner;
      func.walk([&](memref::AllocaOp alloca) {
        if (alloca->getBlock() != &entry && alloca.getType().hasStaticShape() &&
            alloca->getNumOperands() == 0)
          inner.push_back(alloca);
      });
      for (memref::AllocaOp alloca : inner)
        alloca->moveBefore(&entry, entry.begin());
    });
  }
};
} // namespace
