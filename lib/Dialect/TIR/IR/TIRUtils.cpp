//===- TIRUtils.cpp - parser and verifier helpers for tir -----------------===//

#include "TensorIR/Dialect/TIR/IR/TIRUtils.h"
#include "TensorIR/Dialect/TIR/IR/TIRBuilders.h"
#include "TensorIR/Dialect/TIR/IR/TIRDialect.h"
#include "TensorIR/Dialect/TIR/IR/TIROps.h"
#include "TensorIR/Dialect/TIR/IR/TIRTypes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dominance.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "mlir/Transforms/CSE.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/MathExtras.h"

#include <limits>
#include <numeric>

using namespace mlir;
using namespace mlir::tir;

//===----------------------------------------------------------------------===//
// Bounds and names
//===----------------------------------------------------------------------===//

ParseResult mlir::tir::parseStaticOrDynamicIndex(
    OpAsmParser &parser, int64_t &value,
    SmallVectorImpl<OpAsmParser::UnresolvedOperand> &dynamic) {
  OpAsmParser::UnresolvedOperand operand;
  OptionalParseResult hasOperand = parser.parseOptionalOperand(operand);
  if (!hasOperand.has_value())
    return parser.parseInteger(value);
  if (failed(*hasOperand))
    return failure();
  dynamic.push_back(operand);
  value = ShapedType::kDynamic;
  return success();
}

StringRef mlir::tir::getNameHint(const OpAsmParser::UnresolvedOperand &name) {
  StringRef n = name.name.drop_front();
  if (n.empty() || llvm::isDigit(n.front()))
    return "";
  return n;
}

ParseResult mlir::tir::parseAnnotationsAndAttrDict(OpAsmParser &parser,
                                                   OperationState &result) {
  if (succeeded(parser.parseOptionalKeyword("annotations"))) {
    DictionaryAttr annotations;
    if (parser.parseAttribute(annotations))
      return failure();
    result.addAttribute("annotations", annotations);
  }
  return parser.parseOptionalAttrDictWithKeyword(result.attributes);
}

//===----------------------------------------------------------------------===//
// Storage scopes
//===----------------------------------------------------------------------===//

bool mlir::tir::isValidStorageScope(StringRef scope) {
  // TVM's StorageScope: a rank, optionally followed by a tag
  // ("global.vtcm", "global2", "shared.dyn"), or a tensor-core fragment.
  for (StringRef rank : {"global", "shared", "local", "warp"})
    if (scope.starts_with(rank))
      return true;
  return llvm::StringSwitch<bool>(scope)
      .Cases({"wmma.matrix_a", "wmma.matrix_b", "wmma.accumulator"}, true)
      .Default(false);
}

bool mlir::tir::isStorageSharedAcrossThread(StringRef scope,
                                            StringRef threadTag) {
  if (scope == "shared" || scope == "shared.dyn")
    return threadTag.starts_with("threadIdx.") ||
           threadTag.starts_with("vthread");
  if (scope == "warp" || scope == "warpgroup")
    return threadTag == "threadIdx.x";
  return false;
}

StringRef mlir::tir::getStorageScope(MemRefType type) {
  if (auto scope = dyn_cast_or_null<StringAttr>(type.getMemorySpace()))
    return scope.getValue();
  return "global";
}

std::string mlir::tir::checkBufferMemorySpace(MemRefType type) {
  Attribute space = type.getMemorySpace();
  if (!space)
    return "";
  auto scope = dyn_cast<StringAttr>(space);
  if (scope && isValidStorageScope(scope.getValue()))
    return "";
  std::string msg;
  llvm::raw_string_ostream os(msg);
  os << "the memory space of a tir buffer is its storage scope: \"global\", "
        "\"shared\", \"local\" or \"warp\", optionally followed by a tag "
        "(\"shared.dyn\", \"global.vtcm\"), or \"wmma.matrix_a\", "
        "\"wmma.matrix_b\", \"wmma.accumulator\"; got "
     << space;
  return msg;
}

std::string mlir::tir::describeLocation(Location loc) {
  FileLineColLoc file;
  loc->walk([&](Location inner) {
    if (auto f = dyn_cast<FileLineColLoc>(inner)) {
      file = f;
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  std::string text;
  llvm::raw_string_ostream os(text);
  if (file)
    os << file.getFilename().getValue() << ":" << file.getLine() << ":"
       << file.getColumn();
  else
    os << loc;
  return text;
}

std::string mlir::tir::describeOpHeader(Operation *op) {
  OpPrintingFlags flags;
  flags.skipRegions();
  std::string text;
  llvm::raw_string_ostream os(text);
  op->print(os, flags);
  return text.substr(0, text.find('\n'));
}

SmallVector<StringRef> mlir::tir::getDimVarNames(FunctionOpInterface func,
                                                 unsigned arg) {
  SmallVector<StringRef> out;
  if (auto vars =
          func.getArgAttrOfType<ArrayAttr>(arg, TIRDialect::kDimVarsAttrName))
    for (Attribute var : vars)
      out.push_back(isa<StringAttr>(var) ? cast<StringAttr>(var).getValue()
                                         : StringRef());
  return out;
}

StringRef mlir::tir::getShapeVarRead(Operation *op) {
  auto dim = dyn_cast<memref::DimOp>(op);
  auto source = dim ? dyn_cast<BlockArgument>(dim.getSource()) : nullptr;
  auto func =
      source ? dyn_cast<FunctionOpInterface>(source.getOwner()->getParentOp())
             : nullptr;
  std::optional<int64_t> index = dim ? dim.getConstantIndex() : std::nullopt;
  if (!func || dim->getBlock() != source.getOwner() || !index)
    return "";
  SmallVector<StringRef> vars = getDimVarNames(func, source.getArgNumber());
  if (*index < 0 || *index >= static_cast<int64_t>(vars.size()))
    return "";
  return vars[*index];
}

StringAttr mlir::tir::getUnsignedDtype(Value buffer) {
  while (auto match = buffer.getDefiningOp<MatchBufferOp>())
    buffer = match.getSource();
  if (auto arg = dyn_cast<BlockArgument>(buffer)) {
    if (auto func =
            dyn_cast<FunctionOpInterface>(arg.getOwner()->getParentOp()))
      return func.getArgAttrOfType<StringAttr>(arg.getArgNumber(),
                                               TIRDialect::kDtypeAttrName);
    return {};
  }
  Operation *def = buffer.getDefiningOp();
  return def ? def->getAttrOfType<StringAttr>(TIRDialect::kDtypeAttrName)
             : StringAttr();
}

std::string mlir::tir::getBufferName(Value buffer) {
  if (auto alloc = buffer.getDefiningOp<AllocBufferOp>())
    if (StringAttr name = alloc.getBufferNameAttr())
      return name.str();
  if (auto constant = buffer.getDefiningOp<AllocateConstOp>())
    if (StringAttr name = constant.getBufferNameAttr())
      return name.str();
  if (auto arg = dyn_cast<BlockArgument>(buffer))
    if (auto func =
            dyn_cast<FunctionOpInterface>(arg.getOwner()->getParentOp()))
      if (auto name = func.getArgAttrOfType<StringAttr>(
              arg.getArgNumber(), TIRDialect::kNameAttrName))
        return name.str();
  return "";
}

Type mlir::tir::getDtypeType(MLIRContext *context, StringRef dtype) {
  if (dtype == "float16")
    return Float16Type::get(context);
  if (dtype == "bfloat16")
    return BFloat16Type::get(context);
  if (dtype == "float8_e4m3fn")
    return Float8E4M3FNType::get(context);
  if (dtype == "float8_e5m2")
    return Float8E5M2Type::get(context);
  if (dtype == "float32")
    return Float32Type::get(context);
  if (dtype == "float64")
    return Float64Type::get(context);
  unsigned width = llvm::StringSwitch<unsigned>(dtype)
                       .Case("bool", 1)
                       .Cases({"int8", "uint8"}, 8)
                       .Cases({"int16", "uint16"}, 16)
                       .Cases({"int32", "uint32"}, 32)
                       .Cases({"int64", "uint64"}, 64)
                       .Default(0);
  return width ? IntegerType::get(context, width) : Type();
}

//===----------------------------------------------------------------------===//
// Builders
//===----------------------------------------------------------------------===//

Value mlir::tir::createConversion(OpBuilder &b, Location loc, Value v,
                                  Type type, bool fromUnsigned,
                                  bool toUnsigned) {
  Type srcType = v.getType();
  if (srcType == type)
    return v;
  auto srcVec = dyn_cast<VectorType>(srcType);
  auto dstVec = dyn_cast<VectorType>(type);
  if (static_cast<bool>(srcVec) != static_cast<bool>(dstVec) ||
      (srcVec && srcVec.getShape() != dstVec.getShape()))
    return {};
  Type src = getElementTypeOrSelf(srcType), dst = getElementTypeOrSelf(type);
  // i64 in the shape of `type` (index converts through it).
  Type i64 = IntegerType::get(b.getContext(), 64);
  if (dstVec)
    i64 = VectorType::get(dstVec.getShape(), i64);
  auto width = [](Type t) {
    return t.isIndex() ? 64u : t.getIntOrFloatBitWidth();
  };
  fromUnsigned |= src.isInteger(1);
  bool srcFloat = isa<FloatType>(src), dstFloat = isa<FloatType>(dst);
  // To bool: whether the value is non-zero (TVM's Cast to bool).
  if (dst.isInteger(1) && !src.isIndex()) {
    Value zero = arith::ConstantOp::create(b, loc, b.getZeroAttr(srcType));
    if (srcFloat)
      return arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNE, v, zero);
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, v, zero);
  }
  if (src.isIndex() && !dstFloat)
    return arith::IndexCastOp::create(b, loc, type, v);
  if (src.isIndex())
    return arith::SIToFPOp::create(b, loc, type,
                                   arith::IndexCastOp::create(b, loc, i64, v));
  if (dst.isIndex()) {
    if (srcFloat)
      return arith::IndexCastOp::create(
          b, loc, type, arith::FPToSIOp::create(b, loc, i64, v));
    if (fromUnsigned)
      return arith::IndexCastUIOp::create(b, loc, type, v);
    return arith::IndexCastOp::create(b, loc, type, v);
  }
  if (srcFloat && dstFloat) {
    if (width(dst) == width(src)) // f16 <-> bf16: through f32
      return createConversion(
          b, loc,
          createConversion(
              b, loc, v,
              srcVec ? Type(VectorType::get(srcVec.getShape(), b.getF32Type()))
                     : Type(b.getF32Type())),
          type);
    return width(dst) > width(src)
               ? Value(arith::ExtFOp::create(b, loc, type, v))
               : Value(arith::TruncFOp::create(b, loc, type, v));
  }
  if (srcFloat)
    return toUnsigned ? Value(arith::FPToUIOp::create(b, loc, type, v))
                      : Value(arith::FPToSIOp::create(b, loc, type, v));
  if (dstFloat)
    return fromUnsigned ? Value(arith::UIToFPOp::create(b, loc, type, v))
                        : Value(arith::SIToFPOp::create(b, loc, type, v));
  if (width(dst) > width(src))
    return fromUnsigned ? Value(arith::ExtUIOp::create(b, loc, type, v))
                        : Value(arith::ExtSIOp::create(b, loc, type, v));
  return arith::TruncIOp::create(b, loc, type, v);
}

SmallVector<Value> mlir::tir::createLoopNest(OpBuilder &builder, Location loc,
                                             ArrayRef<int64_t> shape,
                                             StringRef prefix) {
  SmallVector<Value> loopVars;
  for (auto [k, extent] : llvm::enumerate(shape)) {
    auto loop =
        ForOp::create(builder, loc, builder.getIndexAttr(0),
                      builder.getIndexAttr(extent), (prefix + Twine(k)).str());
    builder.setInsertionPointToStart(loop.getBody());
    loopVars.push_back(loop.getInductionVar());
  }
  return loopVars;
}

BlockOp mlir::tir::createSpatialNest(
    OpBuilder &builder, Location loc, StringRef name, ArrayRef<int64_t> shape,
    StringRef loopPrefix, StringRef varPrefix,
    function_ref<void(OpBuilder &, Location, ValueRange)> body,
    ArrayRef<Conjunction> predicate) {
  OpBuilder::InsertPoint after = builder.saveInsertionPoint();
  SmallVector<Value> loopVars = createLoopNest(builder, loc, shape, loopPrefix);
  SmallVector<std::string> names;
  for (unsigned k = 0; k < shape.size(); ++k)
    names.push_back((varPrefix + Twine(k)).str());
  SmallVector<IterVarSpec> vars;
  for (auto [k, extent] : llvm::enumerate(shape))
    vars.push_back({IterType::Spatial, builder.getIndexAttr(0),
                    builder.getIndexAttr(extent),
                    getAffineDimExpr(k, builder.getContext()), names[k]});
  BlockOp block =
      BlockOp::create(builder, loc, name, vars, loopVars, body, predicate);
  builder.restoreInsertionPoint(after);
  return block;
}

/// isBufferWritten, looking into at most `depth` more levels of calls.
static bool isWrittenWithin(Value buffer, unsigned depth, bool strict) {
  for (OpOperand &use : buffer.getUses()) {
    Operation *user = use.getOwner();
    if (isa<LoadOp>(user))
      continue;
    // A call writes what the function it calls writes (a graph function's
    // func.call of a prim_func).
    if (auto call = dyn_cast<CallOpInterface>(user)) {
      auto callee =
          dyn_cast_or_null<FunctionOpInterface>(call.resolveCallable());
      unsigned index =
          use.getOperandNumber() - call.getArgOperands().getBeginOperandIndex();
      if (depth == 0 || !callee || callee.isExternal() ||
          index >= callee.getNumArguments() ||
          isWrittenWithin(callee.getArgument(index), depth - 1, strict))
        return true;
      continue;
    }
    if (auto block = dyn_cast<BlockOp>(user)) {
      if (llvm::is_contained(block.getWriteBuffers(), buffer))
        return true;
      continue;
    }
    // A memref view is written when any access through it is. (A
    // tir.match_buffer view is not followed: the block that holds it lists
    // what it writes, which the check of the block above reads.)
    if (isa<ViewLikeOpInterface>(user) ||
        (strict && isa<MatchBufferOp>(user))) {
      for (Value view : user->getResults())
        if (isWrittenWithin(view, depth, strict))
          return true;
      continue;
    }
    // Strict: anything else that passes the buffer on may lead to a write.
    if (strict && (user->hasTrait<OpTrait::IsTerminator>() ||
                   llvm::any_of(user->getResultTypes(),
                                [](Type t) { return isa<BaseMemRefType>(t); })))
      return true;
    auto effects = dyn_cast<MemoryEffectOpInterface>(user);
    if (!effects)
      return true;
    SmallVector<MemoryEffects::EffectInstance> list;
    effects.getEffectsOnValue(buffer, list);
    for (const auto &effect : list)
      if (!isa<MemoryEffects::Read>(effect.getEffect()))
        return true;
  }
  return false;
}

bool mlir::tir::isBufferWritten(Value buffer, bool strict) {
  return isWrittenWithin(buffer, /*depth=*/4, strict);
}

bool mlir::tir::isGraphFunction(FunctionOpInterface func) {
  // Tensors, and the opaque objects (R.Object) graph functions pass along.
  auto isGraphValue = [](Type type) {
    return isa<TensorType, ObjectType>(type);
  };
  if (llvm::any_of(func.getArgumentTypes(), isGraphValue) ||
      llvm::any_of(func.getResultTypes(), isGraphValue))
    return true;
  return func
      .walk([&](Operation *op) {
        return isa<CallTirOp>(op) ||
                       llvm::any_of(op->getResultTypes(), isGraphValue)
                   ? WalkResult::interrupt()
                   : WalkResult::advance();
      })
      .wasInterrupted();
}

Value mlir::tir::getBufferStorage(Value v) {
  while (Operation *def = v.getDefiningOp()) {
    if (auto match = dyn_cast<MatchBufferOp>(def)) {
      v = match.getSource();
      continue;
    }
    if (auto view = dyn_cast<ViewLikeOpInterface>(def)) {
      v = view.getViewSource();
      continue;
    }
    SmallVector<Value> buffers;
    for (Value operand : def->getOperands())
      if (isa<BaseMemRefType>(operand.getType()))
        buffers.push_back(operand);
    if (buffers.size() != 1 || !isMemoryEffectFree(def))
      break;
    v = buffers.front();
  }
  return v;
}

void mlir::tir::eraseEmptyLoops(RewriterBase &rewriter, Operation *parent,
                                Operation *root) {
  while (parent && parent != root && isa<ForOp>(parent)) {
    Block *body = &parent->getRegion(0).front();
    bool changed = true;
    while (changed) {
      changed = false;
      for (Operation &op : llvm::make_early_inc_range(llvm::reverse(*body)))
        if (op.getNumRegions() == 0 && isOpTriviallyDead(&op)) {
          rewriter.eraseOp(&op);
          changed = true;
        }
    }
    if (!body->empty())
      return;
    Operation *next = parent->getParentOp();
    eraseLoop(rewriter, parent);
    parent = next;
  }
}

void mlir::tir::eraseLoop(RewriterBase &rewriter, Operation *loop) {
  SmallVector<Operation *> bounds;
  for (Value operand : loop->getOperands())
    if (Operation *def = operand.getDefiningOp())
      bounds.push_back(def);
  rewriter.eraseOp(loop);
  llvm::SmallPtrSet<Operation *, 4> erased;
  while (!bounds.empty()) {
    Operation *def = bounds.pop_back_val();
    if (erased.contains(def) || def->getNumRegions() != 0 ||
        !isOpTriviallyDead(def))
      continue;
    erased.insert(def);
    for (Value operand : def->getOperands())
      if (Operation *inner = operand.getDefiningOp())
        bounds.push_back(inner);
    rewriter.eraseOp(def);
  }
}

std::optional<SmallVector<int64_t>> mlir::tir::readIntegerList(Attribute attr) {
  SmallVector<int64_t> values;
  if (auto dense = dyn_cast_if_present<DenseI64ArrayAttr>(attr)) {
    llvm::append_range(values, dense.asArrayRef());
    return values;
  }
  auto array = dyn_cast_if_present<ArrayAttr>(attr);
  if (!array)
    return std::nullopt;
  for (Attribute element : array) {
    auto integer = dyn_cast<IntegerAttr>(element);
    if (!integer || !integer.getType().isSignlessInteger())
      return std::nullopt;
    values.push_back(integer.getInt());
  }
  return values;
}

func::FuncOp CreatedFunctions::install(func::FuncOp func, StringRef name,
                                       Operation *anchor) {
  // The same computation on the same shapes is one function.
  std::string key;
  {
    llvm::raw_string_ostream os(key);
    func.getFunctionBody().front().print(os);
    os << func.getFunctionType() << " " << func.getAllArgAttrs();
  }
  auto it = created.find(key);
  if (it != created.end()) {
    func->erase();
    return it->second;
  }
  // Named as asked, numbered when taken (matmul, matmul1, ...), placed
  // before the graph function in the order the ops come.
  std::string unique = name.str();
  for (unsigned k = 1; symbols.lookup(unique); ++k)
    unique = name.str() + std::to_string(k);
  func.setSymName(unique);
  module.getBody()->getOperations().insert(
      Block::iterator(anchor->getParentOfType<func::FuncOp>()), func);
  symbols.insert(func);
  created[key] = func;
  return func;
}

void mlir::tir::unifySizeReads(func::FuncOp func) {
  func.walk([&](memref::DimOp dim) {
    auto alloc = dim.getSource().getDefiningOp<AllocBufferOp>();
    std::optional<int64_t> index = dim.getConstantIndex();
    if (!alloc || !index)
      return;
    auto type = cast<MemRefType>(alloc.getBuffer().getType());
    if (!type.isDynamicDim(*index))
      return;
    dim.replaceAllUsesWith(
        alloc.getDynamicSizes()[type.getDynamicDimIndex(*index)]);
  });
  IRRewriter rewriter(func.getContext());
  DominanceInfo dominance(func);
  eliminateCommonSubExpressions(rewriter, dominance, func);
}

static int64_t knownDivisor(Value v, unsigned depth) {
  if (std::optional<int64_t> c = getConstantIntValue(v))
    return *c == std::numeric_limits<int64_t>::min() ? 1 : std::abs(*c);
  Operation *op = v.getDefiningOp();
  if (!op || depth > 16)
    return 1;
  auto of = [&](unsigned i) {
    return knownDivisor(op->getOperand(i), depth + 1);
  };
  if (isa<arith::MulIOp>(op)) {
    int64_t a = of(0), b = of(1);
    if (a == 0 || b == 0)
      return 0;
    int64_t product;
    return llvm::MulOverflow(a, b, product) ? std::max(a, b) : product;
  }
  if (isa<arith::AddIOp, arith::SubIOp>(op))
    return std::gcd(of(0), of(1));
  // Casts that keep the value (a sign extension; an index cast to index).
  if (isa<arith::ExtSIOp>(op) ||
      (isa<arith::IndexCastOp>(op) && v.getType().isIndex()))
    return of(0);
  return 1;
}

int64_t mlir::tir::getKnownDivisor(Value v) { return knownDivisor(v, 0); }
