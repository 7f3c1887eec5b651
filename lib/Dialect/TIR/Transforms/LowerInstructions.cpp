//===- LowerInstructions.cpp - tensor intrinsics' instructions as vectors -===//
//
// The instructions a tensorized block calls (tir.call "call_extern" named by
// its first literal argument) become vector code on the buffer views the
// call takes, in the order the intrinsics pass them: C (the accumulator),
// then A and B.
//
//===----------------------------------------------------------------------===//

#include "TensorIR/Dialect/TIR/IR/TIROps.h"
#include "TensorIR/Dialect/TIR/Transforms/Passes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::tir {
#define GEN_PASS_DEF_TIRLOWERINSTRUCTIONSPASS
#include "TensorIR/Dialect/TIR/Transforms/Passes.h.inc"
} // namespace mlir::tir

using namespace mlir;
using namespace mlir::tir;

namespace {

enum class Kind { VnniDot, PortableDot, Fma };

struct Instruction {
  StringLiteral name;
  Kind kind;
};

constexpr Instruction kInstructions[] = {
    {"llvm.x86.avx512.vpdpbusd.512", Kind::VnniDot},
    {"tir.avx512_dot_16x4", Kind::PortableDot},
    {"llvm.fma.v16f32", Kind::Fma},
};

/// The external function a call_extern names (its first literal).
StringRef externName(CallOp call) {
  if (call.getCallee() != "call_extern" &&
      call.getCallee() != "call_pure_extern")
    return {};
  ArrayAttr args = call.getArgs();
  if (args.empty())
    return {};
  auto name = dyn_cast<StringAttr>(args[0]);
  return name ? name.getValue() : StringRef();
}

class Lowering {
public:
  Lowering(CallOp call, StringRef name)
      : call(call), name(name), b(call), loc(call.getLoc()) {}

  LogicalResult run(Kind kind);

private:
  /// The `n` elements of `buffer` (a contiguous region) as a vector, or
  /// the flat 1-D view to store into (`flat`).
  FailureOr<Value> flatten(Value buffer, int64_t n, Type element,
                           StringRef role);
  FailureOr<Value> load(Value buffer, int64_t n, Type element, StringRef role) {
    FailureOr<Value> flat = flatten(buffer, n, element, role);
    if (failed(flat))
      return failure();
    return vector::LoadOp::create(b, loc, VectorType::get({n}, element), *flat,
                                  ValueRange{zero()})
        .getResult();
  }
  Value zero() { return arith::ConstantIndexOp::create(b, loc, 0); }

  CallOp call;
  StringRef name;
  OpBuilder b;
  Location loc;
};

FailureOr<Value> Lowering::flatten(Value buffer, int64_t n, Type element,
                                   StringRef role) {
  auto type = cast<MemRefType>(buffer.getType());
  auto fail = [&](const Twine &why) -> FailureOr<Value> {
    return call.emitOpError("instruction '")
           << name << "' needs " << role << " as " << n << " contiguous "
           << element << " elements: " << why;
  };
  if (type.getElementType() != element)
    return fail(Twine("the buffer holds other elements"));
  if (!type.hasStaticShape() || type.getNumElements() != n)
    return fail(Twine("the buffer has another shape"));
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(type.getStridesAndOffset(strides, offset)))
    return fail(Twine("its layout is not strided"));
  int64_t expected = 1;
  for (int64_t d = type.getRank() - 1; d >= 0; --d) {
    if (type.getDimSize(d) != 1 && strides[d] != expected)
      return fail(Twine("its elements are not contiguous"));
    expected *= type.getDimSize(d);
  }
  if (type.getRank() == 1)
    return buffer;
  SmallVector<ReassociationIndices> all(1);
  for (int64_t d = 0; d < type.getRank(); ++d)
    all.front().push_back(d);
  if (type.getRank() == 0) {
    auto one = MemRefType::get(
        {1}, element, StridedLayoutAttr::get(b.getContext(), offset, {1}),
        type.getMemorySpace());
    return memref::ExpandShapeOp::create(b, loc, one, buffer,
                                         ArrayRef<ReassociationIndices>{})
        .getResult();
  }
  return memref::CollapseShapeOp::create(b, loc, buffer, all).getResult();
}

LogicalResult Lowering::run(Kind kind) {
  SmallVector<Value> buffers;
  for (Value operand : call->getOperands())
    if (isa<MemRefType>(operand.getType()))
      buffers.push_back(operand);
  if (buffers.size() != 3)
    return call.emitOpError("instruction '")
           << name << "' takes three buffers (C, A, B), got " << buffers.size();
  Value c = buffers[0], a = buffers[1], bBuf = buffers[2];
  Type i8 = b.getI8Type(), i32 = b.getI32Type(), f32 = b.getF32Type();
  // C (16 accumulators, also the flat view stored to), A and B as vectors.
  bool fma = kind == Kind::Fma;
  Type accType = fma ? f32 : i32, inType = fma ? f32 : i8;
  FailureOr<Value> acc = load(c, 16, accType, "C");
  FailureOr<Value> lhs = load(a, fma ? 1 : 4, inType, "A");
  FailureOr<Value> rhs = load(bBuf, fma ? 16 : 64, inType, "B");
  FailureOr<Value> out = flatten(c, 16, accType, "C");
  if (failed(acc) || failed(lhs) || failed(rhs) || failed(out))
    return failure();
  if (fma) {
    Value first = vector::ExtractOp::create(b, loc, *lhs, 0);
    Value splat =
        vector::BroadcastOp::create(b, loc, VectorType::get({16}, f32), first);
    Value result = vector::FMAOp::create(b, loc, splat, *rhs, *acc);
    vector::StoreOp::create(b, loc, result, *out, ValueRange{zero()});
    return success();
  }
  // A's four bytes repeated for each of the 16 lanes.
  Value word =
      vector::BitCastOp::create(b, loc, VectorType::get({1}, i32), *lhs);
  Value lanes =
      vector::BroadcastOp::create(b, loc, VectorType::get({16}, i32),
                                  vector::ExtractOp::create(b, loc, word, 0));
  Value bytes =
      vector::BitCastOp::create(b, loc, VectorType::get({64}, i8), lanes);
  Value result;
  if (kind == Kind::VnniDot) {
    result = LLVM::CallIntrinsicOp::create(
                 b, loc, VectorType::get({16}, i32),
                 b.getStringAttr("llvm.x86.avx512.vpdpbusd.512"),
                 ValueRange{*acc, bytes, *rhs})
                 .getResult(0);
  } else {
    // Widened products, then each lane's four summed (1-D vectors only:
    // the CPU pipeline lowers those directly).
    auto v64 = VectorType::get({64}, i32);
    Value products = arith::MulIOp::create(
        b, loc, arith::ExtUIOp::create(b, loc, v64, bytes),
        arith::ExtSIOp::create(b, loc, v64, *rhs));
    result = *acc;
    for (int64_t part = 0; part < 4; ++part) {
      SmallVector<int64_t> mask;
      for (int64_t lane = 0; lane < 16; ++lane)
        mask.push_back(lane * 4 + part);
      Value picked =
          vector::ShuffleOp::create(b, loc, products, products, mask);
      result = arith::AddIOp::create(b, loc, result, picked);
    }
  }
  vector::StoreOp::create(b, loc, result, *out, ValueRange{zero()});
  return success();
}

struct TIRLowerInstructionsPass
    : tir::impl::TIRLowerInstructionsPassBase<TIRLowerInstructionsPass> {
  void runOnOperation() override {
    SmallVector<CallOp> calls;
    getOperation()->walk([&](CallOp call) {
      if (!externName(call).empty())
        calls.push_back(call);
    });
    for (CallOp call : calls) {
      StringRef name = externName(call);
      const Instruction *found = llvm::find_if(
          kInstructions, [&](const Instruction &i) { return i.name == name; });
      if (found == std::end(kInstructions)) {
        call.emitOpError("calls external function '")
            << name
            << "', which tir cannot call on the CPU (the instructions it "
               "lowers: llvm.x86.avx512.vpdpbusd.512, tir.avx512_dot_16x4, "
               "llvm.fma.v16f32)";
        return signalPassFailure();
      }
      if (call->getNumResults() != 0 && !call->use_empty()) {
        call.emitOpError("instruction '")
            << name << "' returns nothing; its result is used";
        return signalPassFailure();
      }
      if (failed(Lowering(call, name).run(found->kind)))
        return signalPassFailure();
      call->erase();
    }
  }
};

} // namespace
