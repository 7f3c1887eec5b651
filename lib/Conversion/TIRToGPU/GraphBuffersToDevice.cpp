//===- GraphBuffersToDevice.cpp - graph functions' tensors in GPU memory --===//
//
// In a GPU build a graph function (a Relax function, tir.graph after
// --tir-bufferize-graph) runs on the host and passes its tensors to the
// kernels of the prim_funcs it calls, so every tensor it makes lives in GPU
// memory: its intermediates are gpu.alloc / gpu.dealloc (the runtime's
// stream-ordered allocator), its copies gpu.memcpy, and each constant (a
// weight) is read from a copy the runtime makes on the device at the
// function's first call there and frees when the library unloads. A graph
// function that reads or writes tensor data on the host, or calls a packed
// function (which runs on the host), is refused.
//
//===----------------------------------------------------------------------===//

#include "KernelMemory.h"

#include "TensorIR/Conversion/TIRToGPU/TIRToGPU.h"

#include "TensorIR/Dialect/TIR/IR/TIRDialect.h"
#include "TensorIR/Dialect/TIR/Transforms/Passes.h"

#include "mlir/Conversion/LLVMCommon/MemRefBuilder.h"
#include "mlir/Conversion/LLVMCommon/TypeConverter.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/FunctionCallUtils.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/MapVector.h"

namespace mlir::tir {
#define GEN_PASS_DEF_TIRGRAPHBUFFERSTODEVICEPASS
#include "TensorIR/Conversion/Passes.h.inc"
} // namespace mlir::tir

using namespace mlir;
using namespace mlir::tir;

namespace {

/// The runtime's functions (lib/Runtime/CUDA.cpp) for constants in GPU
/// memory: the device copy of a constant, made at the first call on each
/// device and kept under a slot of the library's, and its release.
constexpr StringLiteral kConstantFunction = "tirCudaConstant";
constexpr StringLiteral kReleaseFunction = "tirCudaReleaseConstant";
constexpr StringLiteral kReleaseAll = "__tir_release_device_constants";
/// Whether `ptr` may point into a tensor: anything but host scratch memory
/// (an llvm.alloca) or a global, seen through GEPs.
bool mayPointIntoTensor(Value ptr) {
  while (auto gep = ptr.getDefiningOp<LLVM::GEPOp>())
    ptr = gep.getBase();
  return !ptr.getDefiningOp<LLVM::AllocaOp>() &&
         !ptr.getDefiningOp<LLVM::AddressOfOp>();
}

/// Whether `op` touches tensor data on the host, which a graph function
/// built for a GPU may not (allocations, frees, copies and constants, which
/// this pass rewrites, views and sizes of buffers, calls of the module's
/// functions, control flow and scalar arithmetic do not).
bool touchesTensorDataOnHost(Operation *op) {
  if (isa<memref::AllocOp, memref::DeallocOp, memref::CopyOp,
          memref::GetGlobalOp>(op) ||
      isa<gpu::GPUDialect>(op->getDialect()))
    return false;
  auto effects = dyn_cast<MemoryEffectOpInterface>(op);
  if (!effects)
    return false;
  SmallVector<MemoryEffects::EffectInstance> instances;
  effects.getEffects(instances);
  bool takesBuffers =
      llvm::any_of(op->getOperandTypes(), llvm::IsaPred<MemRefType>);
  return llvm::any_of(instances, [&](const MemoryEffects::EffectInstance &e) {
    if (!isa<MemoryEffects::Read, MemoryEffects::Write>(e.getEffect()))
      return false;
    // An access of a buffer, through a pointer (its address taken), or of
    // memory the op does not name while it takes buffers.
    Value value = e.getValue();
    if (!value)
      return takesBuffers;
    return isa<MemRefType>(value.getType()) ||
           (isa<LLVM::LLVMPointerType>(value.getType()) &&
            mayPointIntoTensor(value));
  });
}

/// Whether `value` is a buffer the runtime's copies and frees handle: of
/// an identity layout (the whole allocation, contiguous), and no cast of a
/// view to one.
bool isWholeBuffer(Value value) {
  auto memref = dyn_cast<MemRefType>(value.getType());
  if (!memref || !memref.getLayout().isIdentity())
    return false;
  auto cast = value.getDefiningOp<memref::CastOp>();
  return !cast || isWholeBuffer(cast.getSource());
}

/// Whether elements of `type` take whole bytes in memory as LLVM lays them
/// out (and `(bits + 7) / 8` each): 1 (as a byte), 8, 16, 32 or 64 bits.
bool hasByteSizedElements(MemRefType type) {
  unsigned bits = type.getElementTypeBitWidth();
  return bits == 1 || bits == 8 || bits == 16 || bits == 32 || bits == 64;
}

struct TIRGraphBuffersToDevicePass
    : public tir::impl::TIRGraphBuffersToDevicePassBase<
          TIRGraphBuffersToDevicePass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<func::FuncOp> graphs;
    for (auto func : module.getOps<func::FuncOp>())
      if (!func.isExternal() && func->hasAttr(TIRDialect::kGraphAttrName))
        graphs.push_back(func);
    if (graphs.empty())
      return;
    symbols.emplace(module);
    for (func::FuncOp func : graphs)
      if (failed(check(func)))
        return signalPassFailure();
    for (func::FuncOp func : graphs)
      if (failed(rewrite(func)))
        return signalPassFailure();
    if (failed(addRelease()))
      signalPassFailure();
  }

  /// Fails, at the op, where `func` does on the host what a GPU build
  /// cannot.
  LogicalResult check(func::FuncOp func) {
    ModuleOp module = getOperation();
    auto refuse = [&](Operation *op) {
      return op->emitError("graph function '")
             << func.getName() << "' (built for a GPU) ";
    };
    // A packed call first: its lowering's own stores are no reason.
    WalkResult packed = func.walk([&](LLVM::AddressOfOp address) {
      if (address.getGlobalName() != kPackedCallHookSymbol)
        return WalkResult::advance();
      refuse(address) << "calls a packed function (R.call_dps_packed, "
                         "R.call_pure_packed), which runs on the host and "
                         "would read GPU memory there; packed functions are "
                         "called on CPU builds only";
      return WalkResult::interrupt();
    });
    if (packed.wasInterrupted())
      return failure();
    WalkResult result = func.walk([&](Operation *op) {
      if (auto call = dyn_cast<func::CallOp>(op)) {
        auto callee = module.lookupSymbol<func::FuncOp>(call.getCalleeAttr());
        if (callee && callee.isExternal() &&
            llvm::any_of(call.getOperandTypes(), llvm::IsaPred<MemRefType>)) {
          refuse(op) << "passes tensors to '" << callee.getName()
                     << "', a function the module does not define, which "
                        "would run on the host";
          return WalkResult::interrupt();
        }
      }
      if (isa<memref::AllocaOp>(op)) {
        refuse(op) << "allocates a tensor on the host stack "
                      "(memref.alloca); its tensors live in GPU memory";
        return WalkResult::interrupt();
      }
      if (auto alloc = dyn_cast<memref::AllocOp>(op);
          alloc && !alloc.getType().getLayout().isIdentity()) {
        refuse(op) << "allocates a tensor of layout "
                   << alloc.getType().getLayout()
                   << "; GPU memory is allocated as whole, contiguous "
                      "tensors";
        return WalkResult::interrupt();
      }
      if (auto copy = dyn_cast<memref::CopyOp>(op);
          copy && (!isWholeBuffer(copy.getSource()) ||
                   !isWholeBuffer(copy.getTarget()))) {
        refuse(op) << "copies a view of a tensor ("
                   << copy.getSource().getType() << " to "
                   << copy.getTarget().getType()
                   << "); GPU copies take whole, contiguous tensors";
        return WalkResult::interrupt();
      }
      if (auto get = dyn_cast<memref::GetGlobalOp>(op)) {
        auto global = module.lookupSymbol<memref::GlobalOp>(get.getNameAttr());
        if (!global || !global.getConstant() ||
            !global.getInitialValue().has_value() ||
            !get.getType().hasStaticShape() ||
            !get.getType().getLayout().isIdentity() ||
            !get.getType().getElementType().isIntOrFloat() ||
            !hasByteSizedElements(get.getType())) {
          refuse(op) << "reads global '" << get.getName()
                     << "', which is no constant tensor of 1-, 8-, 16-, "
                        "32- or 64-bit numbers; only those are copied to "
                        "GPU memory";
          return WalkResult::interrupt();
        }
      }
      if (touchesTensorDataOnHost(op)) {
        refuse(op) << "reads or writes tensor data on the host ('"
                   << op->getName()
                   << "'); its tensors live in GPU memory, where only "
                      "kernels (the prim_funcs it calls) read them";
        return WalkResult::interrupt();
      }
      return WalkResult::advance();
    });
    return failure(result.wasInterrupted());
  }

  /// The slot (a null pointer the runtime fills) of constant `global`.
  LLVM::GlobalOp slotOf(memref::GlobalOp global) {
    LLVM::GlobalOp &slot = slots[global.getSymName()];
    if (slot)
      return slot;
    ModuleOp module = getOperation();
    MLIRContext *ctx = &getContext();
    auto ptr = LLVM::LLVMPointerType::get(ctx);
    OpBuilder top = OpBuilder::atBlockBegin(module.getBody());
    slot = LLVM::GlobalOp::create(top, global.getLoc(), ptr,
                                  /*isConstant=*/false, LLVM::Linkage::Internal,
                                  ("__tir_device_" + global.getSymName()).str(),
                                  Attribute());
    symbols->insert(slot); // renamed where the name is taken
    OpBuilder init(ctx);
    init.setInsertionPointToStart(
        init.createBlock(&slot.getInitializerRegion()));
    LLVM::ReturnOp::create(
        init, global.getLoc(),
        LLVM::ZeroOp::create(init, global.getLoc(), ptr).getResult());
    return slot;
  }

  LogicalResult rewrite(func::FuncOp func) {
    MLIRContext *ctx = &getContext();
    ModuleOp module = getOperation();
    auto ptr = LLVM::LLVMPointerType::get(ctx);
    auto i64 = IntegerType::get(ctx, 64);
    auto tokenType = gpu::AsyncTokenType::get(ctx);
    LLVMTypeConverter converter(ctx);
    SmallVector<Operation *> ops;
    func.walk([&](Operation *op) {
      if (isa<memref::AllocOp, memref::DeallocOp, memref::CopyOp,
              memref::GetGlobalOp>(op))
        ops.push_back(op);
    });
    // Allocations, frees and copies go in order with the kernels.
    for (Operation *op : ops) {
      OpBuilder b(op);
      Location loc = op->getLoc();
      if (auto alloc = dyn_cast<memref::AllocOp>(op)) {
        createInStreamOrder(b, loc, [&](Value token) {
          auto device = gpu::AllocOp::create(
              b, loc, alloc.getType(), tokenType, ValueRange{token},
              alloc.getDynamicSizes(), alloc.getSymbolOperands());
          alloc.replaceAllUsesWith(device.getMemref());
          return device.getAsyncToken();
        });
      } else if (auto dealloc = dyn_cast<memref::DeallocOp>(op)) {
        createInStreamOrder(b, loc, [&](Value token) {
          return gpu::DeallocOp::create(b, loc, tokenType, ValueRange{token},
                                        dealloc.getMemref())
              .getAsyncToken();
        });
      } else if (auto copy = dyn_cast<memref::CopyOp>(op)) {
        createInStreamOrder(b, loc, [&](Value token) {
          return gpu::MemcpyOp::create(b, loc, tokenType, ValueRange{token},
                                       copy.getTarget(), copy.getSource())
              .getAsyncToken();
        });
      } else {
        auto get = cast<memref::GetGlobalOp>(op);
        auto global = module.lookupSymbol<memref::GlobalOp>(get.getNameAttr());
        MemRefType type = get.getType();
        int64_t bytes =
            type.getNumElements() * ((type.getElementTypeBitWidth() + 7) / 8);
        b.setInsertionPointAfter(get);
        Value hostIndex =
            memref::ExtractAlignedPointerAsIndexOp::create(b, loc, get);
        Value hostInt = arith::IndexCastOp::create(b, loc, i64, hostIndex);
        Value host = LLVM::IntToPtrOp::create(b, loc, ptr, hostInt);
        Value slot = LLVM::AddressOfOp::create(b, loc, slotOf(global));
        FailureOr<LLVM::LLVMFuncOp> constant = LLVM::lookupOrCreateFn(
            b, module, kConstantFunction, {ptr, ptr, i64}, ptr);
        if (failed(constant))
          return failure();
        Value size = LLVM::ConstantOp::create(b, loc, i64, bytes);
        Value data = LLVM::CallOp::create(b, loc, *constant,
                                          ValueRange{slot, host, size})
                         .getResult();
        Value descriptor =
            MemRefDescriptor::fromStaticShape(b, loc, converter, type, data);
        Value device =
            UnrealizedConversionCastOp::create(b, loc, type, descriptor)
                .getResult(0);
        get.getResult().replaceAllUsesExcept(device, hostIndex.getDefiningOp());
        continue;
      }
      op->erase();
    }
    return success();
  }

  /// A static destructor of the library releasing its constants' device
  /// copies.
  LogicalResult addRelease() {
    if (slots.empty())
      return success();
    ModuleOp module = getOperation();
    MLIRContext *ctx = &getContext();
    Location loc = module.getLoc();
    auto ptr = LLVM::LLVMPointerType::get(ctx);
    auto voidType = LLVM::LLVMVoidType::get(ctx);
    OpBuilder top = OpBuilder::atBlockEnd(module.getBody());
    FailureOr<LLVM::LLVMFuncOp> releaseOne =
        LLVM::lookupOrCreateFn(top, module, kReleaseFunction, {ptr}, voidType);
    if (failed(releaseOne))
      return failure();
    auto release = LLVM::LLVMFuncOp::create(
        top, loc, kReleaseAll, LLVM::LLVMFunctionType::get(voidType, {}),
        LLVM::Linkage::Internal);
    StringAttr name = symbols->insert(release); // renamed where it is taken
    OpBuilder b(ctx);
    b.setInsertionPointToStart(release.addEntryBlock(b));
    for (LLVM::GlobalOp slot : llvm::make_second_range(slots))
      LLVM::CallOp::create(b, loc, *releaseOne,
                           ValueRange{LLVM::AddressOfOp::create(b, loc, slot)});
    LLVM::ReturnOp::create(b, loc, ValueRange());
    LLVM::GlobalDtorsOp::create(
        top, loc, b.getArrayAttr(FlatSymbolRefAttr::get(name)),
        b.getI32ArrayAttr({0}), b.getArrayAttr(LLVM::ZeroAttr::get(ctx)));
    return success();
  }

  /// The module's symbols (new ones are renamed where a name is taken).
  std::optional<SymbolTable> symbols;
  /// Each constant's slot, by the constant's name, in the order made.
  llvm::MapVector<StringRef, LLVM::GlobalOp> slots;
};
} // namespace
