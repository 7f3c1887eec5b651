//===- LowerMMAInstructions.cpp - ldmatrix and mma.sync calls to nvgpu ----===//
//
// The instructions mma.sync's tensor intrinsics call (tir.call
// "call_extern" named "tir.ptx_ldmatrix" or "tir.ptx_mma") become nvgpu's
// ldmatrix and mma.sync on the lane's fragments: each lane calls them with
// its own registers, a buffer of as many elements as the lane holds.
// "tir.ptx_wgmma" (sm_90a's warpgroup product, the wgmma intrinsics) becomes
// NVVM's wgmma.mma_async on descriptors of its shared-memory operands,
// waited for at once (BatchWarpgroupProducts.cpp issues consecutive ones
// together).
//
//===----------------------------------------------------------------------===//

#include "TensorIR/Conversion/TIRToGPU/TIRToGPU.h"
#include "TensorIR/Dialect/TIR/IR/TIROps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

namespace mlir::tir {
#define GEN_PASS_DEF_TIRLOWERMMAINSTRUCTIONSPASS
#include "TensorIR/Conversion/Passes.h.inc"
} // namespace mlir::tir

using namespace mlir;
using namespace mlir::tir;

namespace {

/// A call's arguments in the order written: literals and operands.
SmallVector<PointerUnion<Attribute, Value>> argumentsOf(CallOp call) {
  SmallVector<PointerUnion<Attribute, Value>> out;
  unsigned next = 0;
  for (Attribute arg : call.getArgs()) {
    if (isa<UnitAttr>(arg))
      out.push_back(call->getOperand(next++));
    else
      out.push_back(arg);
  }
  return out;
}

class Lowering {
public:
  explicit Lowering(CallOp call, StringRef name)
      : call(call), name(name), b(call), loc(call.getLoc()) {}

  LogicalResult ldmatrix(ArrayRef<PointerUnion<Attribute, Value>> args);
  LogicalResult mma(ArrayRef<PointerUnion<Attribute, Value>> args);
  LogicalResult fill(ArrayRef<PointerUnion<Attribute, Value>> args);
  LogicalResult store(ArrayRef<PointerUnion<Attribute, Value>> args);
  LogicalResult loadB8(ArrayRef<PointerUnion<Attribute, Value>> args);
  LogicalResult wgmma(ArrayRef<PointerUnion<Attribute, Value>> args);

private:
  InFlightDiagnostic fail() {
    return call.emitOpError("instruction '") << name << "' ";
  }
  /// wgmma's descriptor of `tile`, a K-major operand in shared memory laid
  /// out (k / 8, row, k % 8): failure (diagnosed, naming `role`) for any
  /// other layout.
  FailureOr<Value> wgmmaDescriptor(Value tile, int64_t rows, Type element,
                                   StringRef role);
  /// The argument at `i` as a buffer, an index value, an integer or a
  /// string literal; failure (with a diagnostic naming `what`) otherwise.
  FailureOr<Value> buffer(ArrayRef<PointerUnion<Attribute, Value>> args,
                          unsigned i, StringRef what);
  FailureOr<Value> index(ArrayRef<PointerUnion<Attribute, Value>> args,
                         unsigned i, StringRef what);
  FailureOr<int64_t> integer(ArrayRef<PointerUnion<Attribute, Value>> args,
                             unsigned i, StringRef what);
  FailureOr<StringRef> string(ArrayRef<PointerUnion<Attribute, Value>> args,
                              unsigned i, StringRef what);
  /// The lane's fragment `frag` as a flat 1-D view of its `n` elements of
  /// `element` type.
  FailureOr<Value> fragment(Value frag, int64_t n, Type element,
                            StringRef role);

  CallOp call;
  StringRef name;
  OpBuilder b;
  Location loc;
};

FailureOr<Value> Lowering::buffer(ArrayRef<PointerUnion<Attribute, Value>> args,
                                  unsigned i, StringRef what) {
  Value v = i < args.size() ? dyn_cast<Value>(args[i]) : Value();
  if (!v || !isa<MemRefType>(v.getType())) {
    fail() << "takes " << what << " (a buffer) as argument " << i + 1;
    return failure();
  }
  return v;
}

FailureOr<Value> Lowering::index(ArrayRef<PointerUnion<Attribute, Value>> args,
                                 unsigned i, StringRef what) {
  if (i < args.size())
    if (auto attr = dyn_cast<Attribute>(args[i]))
      if (auto v = dyn_cast<IntegerAttr>(attr))
        return arith::ConstantIndexOp::create(b, loc, v.getInt()).getResult();
  Value v = i < args.size() ? dyn_cast<Value>(args[i]) : Value();
  if (!v || !v.getType().isIntOrIndex()) {
    fail() << "takes " << what << " (an integer) as argument " << i + 1;
    return failure();
  }
  if (v.getType().isIndex())
    return v;
  return arith::IndexCastOp::create(b, loc, b.getIndexType(), v).getResult();
}

FailureOr<int64_t>
Lowering::integer(ArrayRef<PointerUnion<Attribute, Value>> args, unsigned i,
                  StringRef what) {
  Attribute attr = i < args.size() ? dyn_cast<Attribute>(args[i]) : nullptr;
  if (auto v = dyn_cast_or_null<IntegerAttr>(attr))
    return v.getInt();
  if (auto v = dyn_cast_or_null<BoolAttr>(attr))
    return v.getValue() ? 1 : 0;
  fail() << "takes " << what << " (an integer literal) as argument " << i + 1;
  return failure();
}

FailureOr<StringRef>
Lowering::string(ArrayRef<PointerUnion<Attribute, Value>> args, unsigned i,
                 StringRef what) {
  Attribute attr = i < args.size() ? dyn_cast<Attribute>(args[i]) : nullptr;
  if (auto v = dyn_cast_or_null<StringAttr>(attr))
    return v.getValue();
  fail() << "takes " << what << " (a string) as argument " << i + 1;
  return failure();
}

FailureOr<Value> Lowering::fragment(Value frag, int64_t n, Type element,
                                    StringRef role) {
  auto type = cast<MemRefType>(frag.getType());
  auto refuse = [&](const Twine &why) -> FailureOr<Value> {
    fail() << "needs " << role << " as the lane's fragment, " << n << " "
           << element << " elements in a row: " << why;
    return failure();
  };
  if (type.getElementType() != element) {
    std::string held;
    llvm::raw_string_ostream os(held);
    os << "the buffer holds " << type.getElementType();
    return refuse(held);
  }
  if (!type.hasStaticShape() || type.getNumElements() != n)
    return refuse(Twine("the buffer has ") +
                  (type.hasStaticShape()
                       ? Twine(type.getNumElements()) + " elements"
                       : Twine("a dynamic shape")) +
                  " (a warp buffer must be divided among the lanes first)");
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(type.getStridesAndOffset(strides, offset)))
    return refuse("its layout is not strided");
  int64_t expected = 1;
  for (int64_t d = type.getRank() - 1; d >= 0; --d) {
    if (type.getDimSize(d) != 1 && strides[d] != expected)
      return refuse("its elements are not contiguous");
    expected *= type.getDimSize(d);
  }
  if (type.getRank() == 1)
    return frag;
  SmallVector<ReassociationIndices> all(1);
  for (int64_t d = 0; d < type.getRank(); ++d)
    all.front().push_back(d);
  return memref::CollapseShapeOp::create(b, loc, frag, all).getResult();
}

/// The rows of a 2-D vector of `type` loaded from `flat[at ...]`, one 1-D
/// load each (2-D vectors become arrays of rows in LLVM: row inserts and
/// extracts lower directly, shape casts do not).
Value loadRows(OpBuilder &b, Location loc, Value flat, Value at,
               VectorType type) {
  int64_t width = type.getDimSize(1);
  auto rowType = VectorType::get({width}, type.getElementType());
  Value out = arith::ConstantOp::create(b, loc, type, b.getZeroAttr(type));
  for (int64_t r = 0; r < type.getDimSize(0); ++r) {
    Value offset = arith::AddIOp::create(
        b, loc, at, arith::ConstantIndexOp::create(b, loc, r * width));
    Value row =
        vector::LoadOp::create(b, loc, rowType, flat, ValueRange{offset});
    out = vector::InsertOp::create(b, loc, row, out, r);
  }
  return out;
}

/// Stores the rows of the 2-D vector `v` to `flat[at ...]`, one after the
/// other.
void storeRows(OpBuilder &b, Location loc, Value v, Value flat, Value at) {
  auto type = cast<VectorType>(v.getType());
  int64_t width = type.getDimSize(1);
  for (int64_t r = 0; r < type.getDimSize(0); ++r) {
    Value offset = arith::AddIOp::create(
        b, loc, at, arith::ConstantIndexOp::create(b, loc, r * width));
    Value row = vector::ExtractOp::create(b, loc, v, r);
    vector::StoreOp::create(b, loc, row, flat, ValueRange{offset});
  }
}

/// Elements of `type` in one 32-bit register.
int64_t perRegister(Type type) { return 32 / type.getIntOrFloatBitWidth(); }

/// The address (i64, in bytes) of the element of `memref` at `indices`:
/// its aligned pointer plus its offset and the indices times the strides,
/// in elements, times the element's bytes.
Value byteAddress(OpBuilder &b, Location loc, Value memref,
                  ValueRange indices) {
  auto meta = memref::ExtractStridedMetadataOp::create(b, loc, memref);
  Value at = meta.getOffset();
  for (auto [index, stride] : llvm::zip(indices, meta.getStrides()))
    at = arith::AddIOp::create(b, loc, at,
                               arith::MulIOp::create(b, loc, index, stride));
  int64_t bytes = llvm::divideCeil(
      cast<MemRefType>(memref.getType()).getElementTypeBitWidth(), 8);
  if (bytes != 1)
    at = arith::MulIOp::create(b, loc, at,
                               arith::ConstantIndexOp::create(b, loc, bytes));
  Value base = memref::ExtractAlignedPointerAsIndexOp::create(b, loc, memref);
  return arith::IndexCastOp::create(b, loc, b.getI64Type(),
                                    arith::AddIOp::create(b, loc, base, at));
}

/// ldmatrix (untransposed) of 8-bit floats, which nvgpu's lowering does not
/// take: NVVM's ldmatrix at the row's address in shared memory, each
/// 32-bit register then seen as its four elements (`tiles`' rows).
Value ldmatrixBytes(OpBuilder &b, Location loc, Value shared, Value row,
                    Value col, int64_t registers, VectorType tiles) {
  MLIRContext *ctx = b.getContext();
  Value address = byteAddress(b, loc, shared, {row, col});
  auto space = static_cast<unsigned>(NVVM::NVVMMemorySpace::Shared);
  Value pointer = LLVM::IntToPtrOp::create(
      b, loc, LLVM::LLVMPointerType::get(ctx, space), address);
  SmallVector<Type> words(registers, b.getI32Type());
  Type resultType = b.getI32Type();
  if (registers != 1)
    resultType = LLVM::LLVMStructType::getLiteral(ctx, words);
  Value loaded = NVVM::LdMatrixOp::create(
      b, loc, resultType, pointer, b.getI32IntegerAttr(registers),
      NVVM::MMALayoutAttr::get(ctx, NVVM::MMALayout::row),
      NVVM::LdStMatrixShapeAttr::get(ctx, 8, 8),
      NVVM::LdStMatrixEltTypeAttr::get(ctx, NVVM::LdStMatrixEltType::B16));
  Value out = arith::ConstantOp::create(b, loc, tiles, b.getZeroAttr(tiles));
  auto rowType = VectorType::get({tiles.getDimSize(1)}, tiles.getElementType());
  for (int64_t r = 0; r < registers; ++r) {
    Value word =
        registers == 1
            ? loaded
            : LLVM::ExtractValueOp::create(b, loc, loaded, r).getResult();
    Value asVector = vector::FromElementsOp::create(
        b, loc, VectorType::get({1}, b.getI32Type()), ValueRange{word});
    Value elements = vector::BitCastOp::create(b, loc, rowType, asVector);
    out = vector::InsertOp::create(b, loc, elements, out, r);
  }
  return out;
}

/// An m16n8k`k` product of `type` operands into f32 as NVVM's mma.sync
/// (nvgpu's lowering takes no bf16 or 8-bit floats): each row of the
/// operands (two bf16, four 8-bit floats) is one 32-bit register; the
/// result's four floats go back to C's 2 x 2 shape.
Value mmaOnRegisters(OpBuilder &b, Location loc, Value a, Value bv, Value c,
                     int64_t k, NVVM::MMATypes type) {
  auto registers = [&](Value v) {
    auto type = cast<VectorType>(v.getType());
    SmallVector<Value> out;
    for (int64_t r = 0; r < type.getDimSize(0); ++r) {
      Value row = vector::ExtractOp::create(b, loc, v, r);
      Value word = vector::BitCastOp::create(
          b, loc, VectorType::get({1}, b.getI32Type()), row);
      out.push_back(vector::ExtractOp::create(b, loc, word, 0));
    }
    return out;
  };
  SmallVector<Value> accumulators;
  for (int64_t r = 0; r < 2; ++r)
    for (int64_t e = 0; e < 2; ++e)
      accumulators.push_back(
          vector::ExtractOp::create(b, loc, c, ArrayRef<int64_t>{r, e}));
  Type f32 = b.getF32Type();
  auto resultType =
      LLVM::LLVMStructType::getLiteral(b.getContext(), {f32, f32, f32, f32});
  Value d;
  if (type == NVVM::MMATypes::e4m3 || type == NVVM::MMATypes::e5m2) {
    // NVVM's mma.sync takes no 8-bit floats yet: the PTX instruction
    // (sm_89), its registers as the constraints say.
    StringRef name = type == NVVM::MMATypes::e4m3 ? "e4m3" : "e5m2";
    std::string text =
        ("mma.sync.aligned.m16n8k32.row.col.f32." + name + "." + name +
         ".f32 {$0, $1, $2, $3}, {$4, $5, $6, $7}, {$8, $9}, "
         "{$10, $11, $12, $13};")
            .str();
    SmallVector<Value> operands(registers(a));
    llvm::append_range(operands, registers(bv));
    llvm::append_range(operands, accumulators);
    d = LLVM::InlineAsmOp::create(
            b, loc, resultType, operands, b.getStringAttr(text),
            b.getStringAttr("=f,=f,=f,=f,r,r,r,r,r,r,f,f,f,f"),
            /*has_side_effects=*/UnitAttr(), /*is_align_stack=*/UnitAttr(),
            LLVM::TailCallKindAttr::get(b.getContext(),
                                        LLVM::TailCallKind::None),
            LLVM::AsmDialectAttr(), /*operand_attrs=*/ArrayAttr())
            .getResult(0);
  } else {
    d = NVVM::MmaOp::create(b, loc, resultType, registers(a), registers(bv),
                            accumulators, {16, 8, k}, std::nullopt,
                            std::nullopt,
                            std::array<NVVM::MMATypes, 2>{type, type},
                            std::array<NVVM::MMALayout, 2>{
                                NVVM::MMALayout::row, NVVM::MMALayout::col});
  }
  SmallVector<Value> elements;
  for (int64_t i = 0; i < 4; ++i)
    elements.push_back(LLVM::ExtractValueOp::create(b, loc, d, i));
  return vector::FromElementsOp::create(b, loc, VectorType::get({2, 2}, f32),
                                        elements);
}

LogicalResult
Lowering::ldmatrix(ArrayRef<PointerUnion<Attribute, Value>> args) {
  // (frag, shared, row, col, transposed)
  FailureOr<Value> frag = buffer(args, 0, "the fragment");
  FailureOr<Value> shared = buffer(args, 1, "the shared-memory tile");
  if (failed(frag) || failed(shared))
    return failure();
  FailureOr<Value> row = index(args, 2, "the row");
  FailureOr<Value> col = index(args, 3, "the column");
  FailureOr<int64_t> transposed = integer(args, 4, "whether to transpose");
  if (failed(row) || failed(col) || failed(transposed))
    return failure();
  auto sharedType = cast<MemRefType>(shared->getType());
  Type element = sharedType.getElementType();
  unsigned bits = element.isIntOrFloat() ? element.getIntOrFloatBitWidth() : 0;
  if (bits != 16 && bits != 8)
    return fail() << "loads 16-bit or 8-bit elements, not " << element;
  if (bits == 8 && *transposed)
    return fail() << "cannot transpose 8-bit elements (ldmatrix .trans "
                     "moves 16-bit ones)";
  if (sharedType.getRank() != 2)
    return fail() << "needs a 2-D tile of shared memory";
  auto space =
      dyn_cast_or_null<gpu::AddressSpaceAttr>(sharedType.getMemorySpace());
  if (!space || space.getValue() != gpu::AddressSpace::Workgroup)
    return fail() << "reads shared memory (a buffer in the GPU's workgroup "
                     "memory), not "
                  << sharedType;
  // Each lane's row address must be 16-byte aligned (the ISA): rows a
  // multiple of 16 bytes apart (storage_align's padding keeps that with an
  // offset of 8 f16 / 16 int8 elements).
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(sharedType.getStridesAndOffset(strides, offset)) ||
      ShapedType::isDynamic(strides[0]) || strides[1] != 1 ||
      (strides[0] * bits / 8) % 16 != 0)
    return fail() << "needs the tile's rows 16-byte aligned: a static row "
                     "stride that is a multiple of 16 bytes and contiguous "
                     "rows, not "
                  << sharedType;
  // One register per 8 x 8 block: four for 16-bit elements and for
  // m16n8k32's 8-bit operands, two for m16n8k16's 8-bit ones (a 16 x 16
  // tile of bytes), as the lane's fragment holds.
  auto fragType = cast<MemRefType>(frag->getType());
  int64_t registers = fragType.hasStaticShape()
                          ? fragType.getNumElements() / perRegister(element)
                          : 0;
  if (registers != 4 && !(registers == 2 && bits == 8))
    registers = 4; // refused by fragment() below, naming the size
  int64_t n = registers * perRegister(element);
  FailureOr<Value> flat = fragment(*frag, n, element, "its destination");
  if (failed(flat))
    return failure();
  auto tiles = VectorType::get({registers, perRegister(element)}, element);
  Value loaded =
      isa<FloatType>(element) && bits == 8
          ? ldmatrixBytes(b, loc, *shared, *row, *col, registers, tiles)
          : nvgpu::LdMatrixOp::create(b, loc, tiles, *shared,
                                      ValueRange{*row, *col}, *transposed != 0,
                                      /*numTiles=*/registers)
                .getResult();
  storeRows(b, loc, loaded, *flat, arith::ConstantIndexOp::create(b, loc, 0));
  return success();
}

/// The element type an mma.sync operand names.
Type operandType(MLIRContext *ctx, StringRef abbreviation) {
  return llvm::StringSwitch<Type>(abbreviation)
      .Case("fp16", Float16Type::get(ctx))
      .Case("bf16", BFloat16Type::get(ctx))
      .Case("e4m3", Float8E4M3FNType::get(ctx))
      .Case("e5m2", Float8E5M2Type::get(ctx))
      .Case("fp32", Float32Type::get(ctx))
      .Case("int8", IntegerType::get(ctx, 8))
      .Case("int32", IntegerType::get(ctx, 32))
      .Default(Type());
}

LogicalResult Lowering::mma(ArrayRef<PointerUnion<Attribute, Value>> args) {
  // (shape, a, b, c, A, a_at, B, b_at, C, c_at)
  FailureOr<StringRef> shape = string(args, 0, "the shape");
  FailureOr<StringRef> aName = string(args, 1, "A's element type");
  FailureOr<StringRef> bName = string(args, 2, "B's element type");
  FailureOr<StringRef> cName = string(args, 3, "C's element type");
  if (failed(shape) || failed(aName) || failed(bName) || failed(cName))
    return failure();
  MLIRContext *ctx = call.getContext();
  Type aType = operandType(ctx, *aName), cType = operandType(ctx, *cName);
  int64_t k = llvm::StringSwitch<int64_t>(*shape)
                  .Case("m16n8k16", 16)
                  .Case("m16n8k32", 32)
                  .Default(0);
  bool f16 = k == 16 && *aName == "fp16" && *bName == "fp16" &&
             (*cName == "fp32" || *cName == "fp16");
  bool bf16 =
      k == 16 && *aName == "bf16" && *bName == "bf16" && *cName == "fp32";
  bool f8 = k == 32 && *aName == *bName &&
            (*aName == "e4m3" || *aName == "e5m2") && *cName == "fp32";
  bool i8 = k != 0 && *aName == "int8" && *bName == "int8" && *cName == "int32";
  if (!f16 && !bf16 && !f8 && !i8)
    return fail() << "has no form " << *shape << " with " << *aName << " x "
                  << *bName << " -> " << *cName
                  << " (m16n8k16 fp16 x fp16 -> fp32 or fp16, m16n8k16 bf16 x "
                     "bf16 -> fp32, m16n8k32 e4m3 x e4m3 or e5m2 x e5m2 -> "
                     "fp32, m16n8k16 and m16n8k32 int8 x int8 -> int32)";
  FailureOr<Value> aBuf = buffer(args, 4, "A's fragment");
  FailureOr<Value> bBuf = buffer(args, 6, "B's fragment");
  FailureOr<Value> cBuf = buffer(args, 8, "C's fragment");
  if (failed(aBuf) || failed(bBuf) || failed(cBuf))
    return failure();
  FailureOr<Value> aAt = index(args, 5, "where A's operand starts");
  FailureOr<Value> bAt = index(args, 7, "where B's operand starts");
  FailureOr<Value> cAt = index(args, 9, "where C's operand starts");
  if (failed(aAt) || failed(bAt) || failed(cAt))
    return failure();
  // Per lane (m16n8): A's 16 x k in k * bits / 64 registers, B's k x 8 in
  // half as many, C's two pairs.
  int64_t perA = perRegister(aType);
  int64_t aRegisters = k * aType.getIntOrFloatBitWidth() / 64;
  auto aVec = VectorType::get({aRegisters, perA}, aType);
  auto bVec = VectorType::get({aRegisters / 2, perA}, aType);
  auto cVec = VectorType::get({2, 2}, cType);
  // The fragments hold a 16 x 16 (x k) tile's operands: A's whole, B's
  // and C's for both n halves.
  FailureOr<Value> aFlat = fragment(*aBuf, aRegisters * perA, aType, "A");
  FailureOr<Value> bFlat = fragment(*bBuf, aRegisters * perA, aType, "B");
  FailureOr<Value> cFlat = fragment(*cBuf, 8, cType, "C");
  if (failed(aFlat) || failed(bFlat) || failed(cFlat))
    return failure();
  Value a = loadRows(b, loc, *aFlat, *aAt, aVec);
  Value bv = loadRows(b, loc, *bFlat, *bAt, bVec);
  Value c = loadRows(b, loc, *cFlat, *cAt, cVec);
  // nvgpu's mma.sync takes no bf16 or 8-bit floats: NVVM's directly.
  Value d;
  if (bf16 || f8)
    d = mmaOnRegisters(b, loc, a, bv, c, k,
                       bf16               ? NVVM::MMATypes::bf16
                       : *aName == "e4m3" ? NVVM::MMATypes::e4m3
                                          : NVVM::MMATypes::e5m2);
  else
    d = nvgpu::MmaSyncOp::create(b, loc, a, bv, c,
                                 b.getI64ArrayAttr({16, 8, k}));
  storeRows(b, loc, d, *cFlat, *cAt);
  return success();
}

LogicalResult Lowering::fill(ArrayRef<PointerUnion<Attribute, Value>> args) {
  // (frag, value): the lane's 8 elements of a 16 x 16 accumulator.
  FailureOr<Value> frag = buffer(args, 0, "the fragment");
  if (failed(frag))
    return failure();
  Type element = cast<MemRefType>(frag->getType()).getElementType();
  Value value;
  if (args.size() > 1) {
    if (auto v = dyn_cast<Value>(args[1]))
      value = v;
    else if (auto typed = dyn_cast<TypedAttr>(cast<Attribute>(args[1])))
      value = arith::ConstantOp::create(
          b, loc,
          isa<FloatType>(element)
              ? cast<TypedAttr>(b.getFloatAttr(
                    element, isa<FloatAttr>(typed)
                                 ? cast<FloatAttr>(typed).getValueAsDouble()
                                 : double(cast<IntegerAttr>(typed).getInt())))
              : cast<TypedAttr>(b.getIntegerAttr(
                    element,
                    isa<IntegerAttr>(typed)
                        ? cast<IntegerAttr>(typed).getInt()
                        : int64_t(cast<FloatAttr>(typed).getValueAsDouble()))));
  }
  if (!value || value.getType() != element)
    return fail() << "takes the value to fill with (of the fragment's "
                     "element type) as argument 2";
  FailureOr<Value> flat = fragment(*frag, 8, element, "its destination");
  if (failed(flat))
    return failure();
  auto row = VectorType::get({8}, element);
  Value splat = vector::BroadcastOp::create(b, loc, row, value);
  vector::StoreOp::create(
      b, loc, splat, *flat,
      ValueRange{arith::ConstantIndexOp::create(b, loc, 0)});
  return success();
}

LogicalResult Lowering::store(ArrayRef<PointerUnion<Attribute, Value>> args) {
  // (frag, dst, lane): the lane's 8 elements of a 16 x 16 accumulator,
  // laid out as mma.sync's C (pairs of neighbours in a row), into the
  // 16 x 16 tile `dst`.
  FailureOr<Value> frag = buffer(args, 0, "the fragment");
  FailureOr<Value> dst = buffer(args, 1, "the destination tile");
  if (failed(frag) || failed(dst))
    return failure();
  FailureOr<Value> lane = index(args, 2, "the lane");
  if (failed(lane))
    return failure();
  auto dstType = cast<MemRefType>(dst->getType());
  Type element = dstType.getElementType();
  if (dstType.getRank() != 2 || !dstType.hasStaticShape() ||
      dstType.getDimSize(0) != 16 || dstType.getDimSize(1) != 16)
    return fail() << "stores into a 16 x 16 tile, not " << dstType;
  FailureOr<Value> flat = fragment(*frag, 8, element, "its source");
  if (failed(flat))
    return failure();
  // Element l of lane t: row 8 * (l mod 4 div 2) + t div 4, column
  // 8 * (l div 4) + 2 * (t mod 4) + l mod 2.
  auto c = [&](int64_t v) { return arith::ConstantIndexOp::create(b, loc, v); };
  Value groupRow = arith::DivUIOp::create(b, loc, *lane, c(4));
  Value pairCol = arith::MulIOp::create(
      b, loc, arith::RemUIOp::create(b, loc, *lane, c(4)), c(2));
  auto pair = VectorType::get({2}, element);
  for (int64_t l = 0; l < 8; l += 2) {
    Value row = arith::AddIOp::create(b, loc, groupRow, c(8 * ((l % 4) / 2)));
    Value col = arith::AddIOp::create(b, loc, pairCol, c(8 * (l / 4)));
    Value v = vector::LoadOp::create(b, loc, pair, *flat, ValueRange{c(l)});
    vector::StoreOp::create(b, loc, v, *dst, ValueRange{row, col});
  }
  return success();
}

LogicalResult Lowering::loadB8(ArrayRef<PointerUnion<Attribute, Value>> args) {
  // (frag, tile, lane): the lane's 8 bytes of the B operand of two
  // m16n8k16 int8 products, from a 16 x 16 tile stored k x n (ldmatrix
  // cannot transpose bytes): element l is B[4 * (lane mod 4) + l mod 4,
  // lane div 4 + 8 * (l div 4)].
  FailureOr<Value> frag = buffer(args, 0, "the fragment");
  FailureOr<Value> tile = buffer(args, 1, "the tile");
  if (failed(frag) || failed(tile))
    return failure();
  FailureOr<Value> lane = index(args, 2, "the lane");
  if (failed(lane))
    return failure();
  auto tileType = cast<MemRefType>(tile->getType());
  Type element = tileType.getElementType();
  if (!element.isInteger(8) || tileType.getRank() != 2 ||
      !tileType.hasStaticShape() || tileType.getDimSize(0) != 16 ||
      tileType.getDimSize(1) != 16)
    return fail() << "loads a 16 x 16 tile of 8-bit integers, not " << tileType;
  FailureOr<Value> flat = fragment(*frag, 8, element, "its destination");
  if (failed(flat))
    return failure();
  auto c = [&](int64_t v) { return arith::ConstantIndexOp::create(b, loc, v); };
  Value kBase = arith::MulIOp::create(
      b, loc, arith::RemUIOp::create(b, loc, *lane, c(4)), c(4));
  Value nBase = arith::DivUIOp::create(b, loc, *lane, c(4));
  for (int64_t l = 0; l < 8; ++l) {
    Value kIndex = arith::AddIOp::create(b, loc, kBase, c(l % 4));
    Value nIndex = arith::AddIOp::create(b, loc, nBase, c(8 * (l / 4)));
    Value v = memref::LoadOp::create(b, loc, *tile, ValueRange{kIndex, nIndex});
    memref::StoreOp::create(b, loc, v, *flat, ValueRange{c(l)});
  }
  return success();
}

/// `v` through an empty volatile inline asm that reads and writes its
/// register (CUTLASS's warpgroup_fence_operand): the accumulators are
/// final before wgmma.fence and read only after wgmma.wait_group, where
/// LLVM would otherwise move their register copies across them (the
/// fences are not accesses of those registers).
Value pinRegister(OpBuilder &b, Location loc, Value v) {
  return LLVM::InlineAsmOp::create(
             b, loc, v.getType(), ValueRange{v}, b.getStringAttr(""),
             b.getStringAttr(v.getType().isF32() ? "=f,0" : "=r,0"),
             /*has_side_effects=*/b.getUnitAttr(),
             /*is_align_stack=*/UnitAttr(),
             LLVM::TailCallKindAttr::get(b.getContext(),
                                         LLVM::TailCallKind::None),
             LLVM::AsmDialectAttr(), /*operand_attrs=*/ArrayAttr())
      .getResult(0);
}

FailureOr<Value> Lowering::wgmmaDescriptor(Value tile, int64_t rows,
                                           Type element, StringRef role) {
  auto type = cast<MemRefType>(tile.getType());
  SmallVector<int64_t> strides;
  int64_t offset;
  auto space = dyn_cast_or_null<gpu::AddressSpaceAttr>(type.getMemorySpace());
  // K-major without swizzling: 8 x 16-byte core matrices, each 128
  // contiguous bytes (a tile's rows of 8 elements packed), the next 8 rows
  // 128 bytes on (the stride dimension's offset), the next 8 of k at the
  // first dimension's stride (the leading dimension's), a multiple of 16
  // bytes.
  if (type.getRank() != 3 || !type.hasStaticShape() ||
      type.getDimSize(0) != 2 || type.getDimSize(1) != rows ||
      type.getDimSize(2) != 8 || type.getElementType() != element ||
      failed(type.getStridesAndOffset(strides, offset)) ||
      ShapedType::isDynamic(strides[0]) || strides[1] != 8 || strides[2] != 1 ||
      (strides[0] * 2) % 16 != 0 ||
      (!ShapedType::isDynamic(offset) && (offset * 2) % 16 != 0) || !space ||
      space.getValue() != gpu::AddressSpace::Workgroup) {
    fail() << "reads " << role << " from shared memory laid out (k / 8, "
           << (role == "A" ? "m" : "n") << ", k % 8) for wgmma's K-major "
           << "layout without swizzling: a 2 x " << rows << " x 8 tile of "
           << element
           << " in workgroup memory starting at a multiple of 16 bytes, rows "
              "of 8 elements packed, the two halves of k a multiple of 16 "
              "bytes apart; not "
           << type;
    return failure();
  }
  auto c64 = [&](int64_t v) {
    return arith::ConstantIntOp::create(b, loc, b.getI64Type(), v).getResult();
  };
  Value address = byteAddress(b, loc, tile, ValueRange());
  // Bits 0-13: the address (within the shared window) / 16; 16-29: the
  // leading dimension's byte offset / 16; 32-45: the stride dimension's.
  Value start = arith::ShRUIOp::create(
      b, loc, arith::AndIOp::create(b, loc, address, c64(0x3FFFF)), c64(4));
  int64_t leading = strides[0] * 2 / 16, stride = 128 / 16;
  return arith::OrIOp::create(b, loc, start,
                              c64((leading << 16) | (stride << 32)))
      .getResult();
}

LogicalResult Lowering::wgmma(ArrayRef<PointerUnion<Attribute, Value>> args) {
  // (shape, a, b, d, A, B, D, d_at): D (64 x N) += A (64 x 16) * B^T
  // (N x 16), A and B K-major in shared memory, D the thread's N / 2
  // accumulators of the warpgroup's fragment.
  FailureOr<StringRef> shape = string(args, 0, "the shape");
  FailureOr<StringRef> aName = string(args, 1, "A's element type");
  FailureOr<StringRef> bName = string(args, 2, "B's element type");
  FailureOr<StringRef> dName = string(args, 3, "D's element type");
  if (failed(shape) || failed(aName) || failed(bName) || failed(dName))
    return failure();
  int64_t n = 0;
  StringRef rest = *shape;
  bool shapeOk = rest.consume_front("m64n") && rest.consume_back("k16") &&
                 !rest.getAsInteger(10, n) && n >= 8 && n <= 256 && n % 8 == 0;
  bool typesOk = *aName == *bName && (*aName == "fp16" || *aName == "bf16") &&
                 *dName == "fp32";
  if (!shapeOk || !typesOk)
    return fail() << "has no form " << *shape << " with " << *aName << " x "
                  << *bName << " -> " << *dName
                  << " (m64nNk16, N a multiple of 8 up to 256, fp16 x fp16 or "
                     "bf16 x bf16 -> fp32)";
  MLIRContext *ctx = call.getContext();
  Type element = operandType(ctx, *aName);
  FailureOr<Value> aTile = buffer(args, 4, "A's tile");
  FailureOr<Value> bTile = buffer(args, 5, "B's tile");
  FailureOr<Value> dBuf = buffer(args, 6, "D's fragment");
  if (failed(aTile) || failed(bTile) || failed(dBuf))
    return failure();
  FailureOr<Value> dAt = index(args, 7, "where D's accumulators start");
  if (failed(dAt))
    return failure();
  // The thread's fragment is its N / 2 accumulators, all of them.
  if (getConstantIntValue(*dAt) != 0)
    return fail() << "takes all of the thread's N / 2 accumulators: D's "
                     "start is 0";
  FailureOr<Value> descA = wgmmaDescriptor(*aTile, 64, element, "A");
  if (failed(descA))
    return failure();
  FailureOr<Value> descB = wgmmaDescriptor(*bTile, n, element, "B");
  if (failed(descB))
    return failure();
  Type f32 = b.getF32Type();
  FailureOr<Value> dFlat = fragment(*dBuf, n / 2, f32, "D");
  if (failed(dFlat))
    return failure();
  // The accumulators as the instruction's struct, in and out.
  auto accType = VectorType::get({n / 2}, f32);
  Value acc = vector::LoadOp::create(b, loc, accType, *dFlat, ValueRange{*dAt});
  auto structType =
      LLVM::LLVMStructType::getLiteral(ctx, SmallVector<Type>(n / 2, f32));
  Value inouts = LLVM::UndefOp::create(b, loc, structType);
  for (int64_t i = 0; i < n / 2; ++i)
    inouts = LLVM::InsertValueOp::create(
        b, loc, inouts,
        pinRegister(b, loc, vector::ExtractOp::create(b, loc, acc, i)), i);
  // The tiles were written by the threads (the generic proxy); wgmma reads
  // them through the async proxy.
  NVVM::FenceProxyOp::create(
      b, loc, NVVM::ProxyKindAttr::get(ctx, NVVM::ProxyKind::async_shared),
      NVVM::SharedSpaceAttr::get(ctx, NVVM::SharedSpace::shared_cta));
  NVVM::WgmmaFenceAlignedOp::create(b, loc);
  auto wgmmaType =
      *aName == "bf16" ? NVVM::WGMMATypes::bf16 : NVVM::WGMMATypes::f16;
  Value result = NVVM::WgmmaMmaAsyncOp::create(
      b, loc, structType, inouts, *descA, *descB,
      NVVM::MMAShapeAttr::get(ctx, 64, n, 16), wgmmaType, wgmmaType,
      NVVM::WGMMATypes::f32, NVVM::WGMMAScaleOut::one, NVVM::WGMMAScaleIn::one,
      NVVM::WGMMAScaleIn::one, NVVM::MMALayout::row, NVVM::MMALayout::col,
      /*satfinite=*/nullptr);
  NVVM::WgmmaGroupSyncAlignedOp::create(b, loc);
  NVVM::WgmmaWaitGroupSyncOp::create(b, loc, 0);
  SmallVector<Value> elements;
  for (int64_t i = 0; i < n / 2; ++i)
    elements.push_back(
        pinRegister(b, loc, LLVM::ExtractValueOp::create(b, loc, result, i)));
  vector::StoreOp::create(
      b, loc, vector::FromElementsOp::create(b, loc, accType, elements), *dFlat,
      ValueRange{*dAt});
  return success();
}

/// The name a call_extern calls, or empty.
StringRef externName(CallOp call) {
  if (call.getCallee() != "call_extern" &&
      call.getCallee() != "call_pure_extern")
    return {};
  ArrayAttr args = call.getArgs();
  auto name = args.empty() ? StringAttr() : dyn_cast<StringAttr>(args[0]);
  return name ? name.getValue() : StringRef();
}

struct TIRLowerMMAInstructionsPass
    : tir::impl::TIRLowerMMAInstructionsPassBase<TIRLowerMMAInstructionsPass> {
  void runOnOperation() override {
    SmallVector<CallOp> calls;
    getOperation()->walk([&](CallOp call) {
      StringRef name = externName(call);
      if (name == "tir.ptx_ldmatrix" || name == "tir.ptx_mma" ||
          name == "tir.ptx_fragment_fill" || name == "tir.ptx_fragment_store" ||
          name == "tir.ptx_fragment_load_b8" || name == "tir.ptx_wgmma")
        calls.push_back(call);
    });
    for (CallOp call : calls) {
      StringRef name = externName(call);
      if (!call->use_empty()) {
        call.emitOpError("instruction '")
            << name << "' returns nothing; its result is used";
        return signalPassFailure();
      }
      SmallVector<PointerUnion<Attribute, Value>> args = argumentsOf(call);
      ArrayRef<PointerUnion<Attribute, Value>> rest =
          ArrayRef(args).drop_front();
      Lowering lowering(call, name);
      LogicalResult lowered =
          name == "tir.ptx_ldmatrix"           ? lowering.ldmatrix(rest)
          : name == "tir.ptx_mma"              ? lowering.mma(rest)
          : name == "tir.ptx_fragment_fill"    ? lowering.fill(rest)
          : name == "tir.ptx_fragment_load_b8" ? lowering.loadB8(rest)
          : name == "tir.ptx_wgmma"            ? lowering.wgmma(rest)
                                               : lowering.store(rest);
      if (failed(lowered))
        return signalPassFailure();
      call->erase();
    }
  }
};

} // namespace
