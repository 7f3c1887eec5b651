//===- GlobalIntermediates.cpp - a function's global buffers on the GPU ---===//
//
// A prim_func built for a GPU may allocate buffers in the global scope that
// its kernels use: an intermediate one kernel writes and another reads (a
// stage a schedule left in a kernel of its own, as MetaSchedule's samples
// and dlight's fallback for a reduction with an epilogue do), or one a
// single kernel keeps in global memory. As TVM's workspace for them, the
// host part of the function allocates each on the device before its first
// use (gpu.alloc on the runtime's stream, where the kernels run; of runtime
// size where the buffer has dynamic dimensions) and frees it at the end of
// its scope (gpu.dealloc, ordered after the kernels).
//
//===----------------------------------------------------------------------===//

#include "KernelMemory.h"

#include "TensorIR/Dialect/TIR/IR/TIRUtils.h"

using namespace mlir;
using namespace mlir::tir;

/// Whether some use of `buffer`, or of a view of it, is in a GPU kernel.
static bool usedInKernel(Value buffer) {
  SmallVector<Value> values{buffer};
  while (!values.empty()) {
    Value v = values.pop_back_val();
    for (Operation *user : v.getUsers()) {
      if (kernelRootOf(user))
        return true;
      if (isa<MatchBufferOp>(user))
        values.push_back(user->getResult(0));
    }
  }
  return false;
}

SmallVector<AllocBufferOp> mlir::tir::findGlobalIntermediates(Operation *root) {
  SmallVector<AllocBufferOp> found;
  root->walk([&](AllocBufferOp alloc) {
    MemRefType type = alloc.getBuffer().getType();
    if (!kernelRootOf(alloc) && !type.getMemorySpace() &&
        usedInKernel(alloc.getBuffer()))
      found.push_back(alloc);
  });
  return found;
}

Value mlir::tir::createInStreamOrder(OpBuilder &b, Location loc,
                                     function_ref<Value(Value token)> make) {
  auto tokenType = gpu::AsyncTokenType::get(b.getContext());
  Value start =
      gpu::WaitOp::create(b, loc, tokenType, ValueRange()).getAsyncToken();
  Value done = make(start);
  gpu::WaitOp::create(b, loc, Type(), ValueRange{done});
  return done;
}

void mlir::tir::allocateOnDevice(ArrayRef<AllocBufferOp> intermediates) {
  for (AllocBufferOp alloc : intermediates) {
    OpBuilder b(alloc);
    Location loc = alloc.getLoc();
    auto tokenType = gpu::AsyncTokenType::get(b.getContext());
    Value device;
    createInStreamOrder(b, loc, [&](Value token) {
      auto op = gpu::AllocOp::create(b, loc, alloc.getBuffer().getType(),
                                     tokenType, ValueRange{token},
                                     alloc.getDynamicSizes(), ValueRange());
      device = op.getMemref();
      return op.getAsyncToken();
    });
    // Freed where the buffer's scope ends (the function's, or a block's
    // or loop's around kernels), after the kernels that use it.
    b.setInsertionPoint(alloc->getBlock()->getTerminator());
    createInStreamOrder(b, loc, [&](Value token) {
      return gpu::DeallocOp::create(b, loc, tokenType, ValueRange{token},
                                    device)
          .getAsyncToken();
    });
    alloc.getBuffer().replaceAllUsesWith(device);
    alloc.erase();
  }
}
