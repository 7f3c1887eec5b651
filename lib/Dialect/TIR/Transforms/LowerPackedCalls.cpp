//===- LowerPackedCalls.cpp - packed functions through the runtime --------===//
//
// --tir-lower-packed-calls: a func.call of a packed function's declaration
// (tir.packed) becomes a call through the module's __tir_packed_call
// pointer, which the runtime points at its dispatcher when it loads the
// module (lib/Runtime/Packed.cpp), with an array describing the buffers.
//
//===----------------------------------------------------------------------===//

#include "TensorIR/Dialect/TIR/IR/TIRDialect.h"
#include "TensorIR/Dialect/TIR/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinTypes.h"

namespace mlir::tir {
#define GEN_PASS_DEF_TIRLOWERPACKEDCALLSPASS
#include "TensorIR/Dialect/TIR/Transforms/Passes.h.inc"
} // namespace mlir::tir

using namespace mlir;
using namespace mlir::tir;

/// (DLPack type code, bits) of a buffer's element type, as the runtime's
/// dispatcher reads it; nullopt for a type the dispatcher has no array for
/// (the Python package's numpy dtypes: bool, 8- to 64-bit integers, f16,
/// f32, f64), so that such a call is refused when it is built.
static std::optional<std::pair<int64_t, int64_t>> dlpackType(Type type) {
  if (type.isInteger(1))
    return std::make_pair(int64_t(6), int64_t(8)); // bool, one byte
  if (type.isIndex())
    return std::make_pair(int64_t(0), int64_t(64));
  if (auto integer = dyn_cast<IntegerType>(type)) {
    unsigned width = integer.getWidth();
    if (width != 8 && width != 16 && width != 32 && width != 64)
      return std::nullopt;
    return std::make_pair(int64_t(integer.isUnsigned() ? 1 : 0),
                          int64_t(width));
  }
  if (type.isF16() || type.isF32() || type.isF64())
    return std::make_pair(int64_t(2), int64_t(type.getIntOrFloatBitWidth()));
  return std::nullopt;
}

namespace {
struct TIRLowerPackedCallsPass
    : public tir::impl::TIRLowerPackedCallsPassBase<TIRLowerPackedCallsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<func::CallOp> calls;
    module.walk([&](func::CallOp call) {
      auto callee = module.lookupSymbol<func::FuncOp>(call.getCalleeAttr());
      if (callee && callee.isExternal() &&
          callee->hasAttr(TIRDialect::kPackedAttrName))
        calls.push_back(call);
    });
    if (calls.empty())
      return;
    MLIRContext *ctx = &getContext();
    Location moduleLoc = module.getLoc();
    auto ptrType = LLVM::LLVMPointerType::get(ctx);
    auto i32 = IntegerType::get(ctx, 32);
    auto i64 = IntegerType::get(ctx, 64);
    OpBuilder top = OpBuilder::atBlockBegin(module.getBody());

    // The hook, null until the runtime sets it.
    if (!module.lookupSymbol(kPackedCallHookSymbol)) {
      auto hook =
          LLVM::GlobalOp::create(top, moduleLoc, ptrType,
                                 /*isConstant=*/false, LLVM::Linkage::External,
                                 kPackedCallHookSymbol, Attribute());
      OpBuilder init(ctx);
      init.setInsertionPointToStart(
          init.createBlock(&hook.getInitializerRegion()));
      Value null = LLVM::ZeroOp::create(init, moduleLoc, ptrType);
      LLVM::ReturnOp::create(init, moduleLoc, null);
    }

    // One NUL-terminated name per packed function.
    llvm::StringMap<LLVM::GlobalOp> names;
    auto nameOf = [&](StringRef callee) {
      LLVM::GlobalOp &global = names[callee];
      if (global)
        return global;
      std::string text = callee.str();
      text.push_back('\0');
      auto type =
          LLVM::LLVMArrayType::get(IntegerType::get(ctx, 8), text.size());
      std::string symbol =
          "__tir_packed_name_" + std::to_string(names.size() - 1);
      global = LLVM::GlobalOp::create(top, moduleLoc, type, /*isConstant=*/true,
                                      LLVM::Linkage::Internal, symbol,
                                      top.getStringAttr(text));
      return global;
    };

    for (func::CallOp call : calls) {
      auto callee = module.lookupSymbol<func::FuncOp>(call.getCalleeAttr());
      auto numInputs =
          cast<IntegerAttr>(callee->getAttr(TIRDialect::kPackedAttrName))
              .getInt();
      int64_t numOutputs = int64_t(call.getNumOperands()) - numInputs;
      if (numInputs < 0 || numOutputs < 0 || call.getNumResults()) {
        call.emitOpError("calls packed function '")
            << call.getCallee() << "' with " << call.getNumOperands()
            << " buffers and " << call.getNumResults()
            << " results; its declaration says " << numInputs
            << " inputs and buffers only";
        return signalPassFailure();
      }
      OpBuilder b(call);
      Location loc = call.getLoc();
      // The slots: (code, bits, rank, data, sizes..., strides...) per
      // buffer.
      SmallVector<Value> slots;
      auto constant = [&](int64_t v) -> Value {
        return arith::ConstantIntOp::create(b, loc, i64, v);
      };
      auto asI64 = [&](Value index) -> Value {
        return arith::IndexCastOp::create(b, loc, i64, index);
      };
      for (Value operand : call.getOperands()) {
        auto type = dyn_cast<MemRefType>(operand.getType());
        std::optional<std::pair<int64_t, int64_t>> element =
            type ? dlpackType(type.getElementType()) : std::nullopt;
        if (!element) {
          call.emitOpError("passes a ")
              << operand.getType() << " to packed function '"
              << call.getCallee()
              << "'; packed functions take buffers of bool, 8- to 64-bit "
                 "integers, f16, f32 and f64";
          return signalPassFailure();
        }
        auto metadata =
            memref::ExtractStridedMetadataOp::create(b, loc, operand);
        Value base = memref::ExtractAlignedPointerAsIndexOp::create(
            b, loc, metadata.getBaseBuffer());
        int64_t bytes = (element->second + 7) / 8;
        Value offsetBytes = arith::MulIOp::create(
            b, loc, metadata.getOffset(),
            arith::ConstantIndexOp::create(b, loc, bytes));
        Value data = arith::AddIOp::create(b, loc, base, offsetBytes);
        slots.push_back(constant(element->first));
        slots.push_back(constant(element->second));
        slots.push_back(constant(type.getRank()));
        slots.push_back(asI64(data));
        for (Value size : metadata.getSizes())
          slots.push_back(asI64(size));
        for (Value stride : metadata.getStrides())
          slots.push_back(asI64(stride));
      }
      Value count = constant(std::max<int64_t>(slots.size(), 1));
      Value array = LLVM::AllocaOp::create(b, loc, ptrType, i64, count);
      for (auto [k, value] : llvm::enumerate(slots)) {
        Value address = LLVM::GEPOp::create(b, loc, ptrType, i64, array,
                                            ArrayRef<LLVM::GEPArg>{int32_t(k)});
        LLVM::StoreOp::create(b, loc, value, address);
      }
      Value hookAddress =
          LLVM::AddressOfOp::create(b, loc, ptrType, kPackedCallHookSymbol);
      Value hook = LLVM::LoadOp::create(b, loc, ptrType, hookAddress);
      Value name = LLVM::AddressOfOp::create(b, loc, nameOf(call.getCallee()));
      auto returns = callee->hasAttr(TIRDialect::kPackedReturnsAttrName);
      auto i32Constant = [&](int64_t v) -> Value {
        return arith::ConstantIntOp::create(b, loc, i32, v);
      };
      auto type =
          LLVM::LLVMFunctionType::get(i32, {ptrType, i32, i32, i32, ptrType});
      LLVM::CallOp::create(b, loc, type,
                           ValueRange{hook, name, i32Constant(returns),
                                      i32Constant(numInputs),
                                      i32Constant(numOutputs), array});
      call.erase();
    }
    for (auto func : llvm::make_early_inc_range(module.getOps<func::FuncOp>()))
      if (func.isExternal() && func->hasAttr(TIRDialect::kPackedAttrName) &&
          SymbolTable::symbolKnownUseEmpty(func, module))
        func.erase();
  }
};
} // namespace
