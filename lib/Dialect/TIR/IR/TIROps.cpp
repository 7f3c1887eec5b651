//===- TIROps.cpp - TensorIR loops and buffer operations ------------------===//
//
// tir.for, tir.init, tir.load, tir.store, tir.alloc_buffer,
// tir.allocate_const and tir.match_buffer. tir.block lives in TIRBlockOp.cpp.
//
//===----------------------------------------------------------------------===//

#include "TensorIR/Dialect/TIR/IR/TIROps.h"
#include "TensorIR/Dialect/TIR/IR/TIRUtils.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/StringSwitch.h"

using namespace mlir;
using namespace mlir::tir;

//===----------------------------------------------------------------------===//
// Shared helpers
//===----------------------------------------------------------------------===//

static void printBound(OpAsmPrinter &p, int64_t staticValue,
                       OperandRange dynamic, unsigned &dynamicIndex) {
  if (ShapedType::isDynamic(staticValue))
    p.printOperand(dynamic[dynamicIndex++]);
  else
    p << staticValue;
}

static OpFoldResult mixedValue(OpBuilder b, int64_t staticValue,
                               OperandRange dynamic, unsigned dynamicIndex) {
  if (ShapedType::isDynamic(staticValue))
    return dynamic[dynamicIndex];
  return b.getIndexAttr(staticValue);
}

static unsigned countDynamic(ArrayRef<int64_t> values) {
  return llvm::count_if(values, ShapedType::isDynamic);
}

//===----------------------------------------------------------------------===//
// ForOp
//===----------------------------------------------------------------------===//

void ForOp::build(OpBuilder &b, OperationState &state, OpFoldResult lowerBound,
                  OpFoldResult upperBound, ForKind kind, StringAttr thread) {
  SmallVector<int64_t> staticBounds;
  for (OpFoldResult bound : {lowerBound, upperBound}) {
    if (auto attr = dyn_cast<Attribute>(bound)) {
      staticBounds.push_back(cast<IntegerAttr>(attr).getInt());
    } else {
      staticBounds.push_back(ShapedType::kDynamic);
      state.addOperands(cast<Value>(bound));
    }
  }
  state.addAttribute(getStaticBoundsAttrName(state.name),
                     b.getDenseI64ArrayAttr(staticBounds));
  state.addAttribute(getKindAttrName(state.name),
                     ForKindAttr::get(b.getContext(), kind));
  if (thread)
    state.addAttribute(getThreadAttrName(state.name), thread);
  Region *body = state.addRegion();
  Block *block = new Block();
  block->addArgument(b.getIndexType(), state.location);
  body->push_back(block);
}

void ForOp::build(
    OpBuilder &b, OperationState &state, OpFoldResult lowerBound,
    OpFoldResult upperBound, StringRef varName,
    function_ref<void(OpBuilder &, Location, Value)> bodyBuilder) {
  build(b, state, lowerBound, upperBound, ForKind::Serial, StringAttr());
  if (!varName.empty())
    state.addAttribute(getVarNameAttrName(state.name),
                       b.getStringAttr(varName));
  if (!bodyBuilder)
    return;
  Block *body = &state.regions.front()->front();
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(body);
  bodyBuilder(b, state.location, body->getArgument(0));
}

void ForOp::build(
    OpBuilder &b, OperationState &state, int64_t lowerBound, int64_t upperBound,
    StringRef varName,
    function_ref<void(OpBuilder &, Location, Value)> bodyBuilder) {
  build(b, state, b.getIndexAttr(lowerBound), b.getIndexAttr(upperBound),
        varName, bodyBuilder);
}

OpFoldResult ForOp::getMixedLowerBound() {
  return mixedValue(OpBuilder(getContext()), getStaticBounds()[0],
                    getDynamicBounds(), 0);
}

OpFoldResult ForOp::getMixedUpperBound() {
  ArrayRef<int64_t> bounds = getStaticBounds();
  return mixedValue(OpBuilder(getContext()), bounds[1], getDynamicBounds(),
                    ShapedType::isDynamic(bounds[0]) ? 1 : 0);
}

std::optional<int64_t> ForOp::getConstantLowerBound() {
  int64_t v = getStaticBounds()[0];
  return ShapedType::isDynamic(v) ? std::nullopt : std::optional(v);
}

std::optional<int64_t> ForOp::getConstantUpperBound() {
  int64_t v = getStaticBounds()[1];
  return ShapedType::isDynamic(v) ? std::nullopt : std::optional(v);
}

std::optional<int64_t> ForOp::getConstantExtent() {
  std::optional<int64_t> lo = getConstantLowerBound();
  std::optional<int64_t> hi = getConstantUpperBound();
  if (!lo || !hi)
    return std::nullopt;
  return *hi - *lo;
}

bool ForOp::isValidThreadTag(StringRef tag) {
  return llvm::StringSwitch<bool>(tag)
      .Cases({"blockIdx.x", "blockIdx.y", "blockIdx.z"}, true)
      .Cases({"threadIdx.x", "threadIdx.y", "threadIdx.z"}, true)
      .Cases({"vthread", "vthread.x", "vthread.y", "vthread.z"}, true)
      .Default(false);
}

void ForOp::getAsmBlockArgumentNames(Region &region,
                                     OpAsmSetValueNameFn setNameFn) {
  if (auto name = getVarName())
    setNameFn(getInductionVar(), *name);
}

// tir.for %i = <lb> to <ub> [kind] [annotations {...}] [attributes {...}] {..}
ParseResult ForOp::parse(OpAsmParser &parser, OperationState &result) {
  Builder &b = parser.getBuilder();
  OpAsmParser::Argument iv;
  iv.type = b.getIndexType();
  SmallVector<OpAsmParser::UnresolvedOperand> dynamic;
  int64_t lb, ub;
  if (parser.parseArgument(iv) || parser.parseEqual() ||
      parseStaticOrDynamicIndex(parser, lb, dynamic) ||
      parser.parseKeyword("to") ||
      parseStaticOrDynamicIndex(parser, ub, dynamic) ||
      parser.resolveOperands(dynamic, b.getIndexType(), result.operands))
    return failure();
  result.addAttribute("static_bounds", b.getDenseI64ArrayAttr({lb, ub}));

  // The kind is optional (serial); only kind keywords are consumed here.
  StringRef keyword;
  if (succeeded(parser.parseOptionalKeyword(&keyword,
                                            {"serial", "parallel", "vectorized",
                                             "unrolled", "thread_binding"}))) {
    ForKind kind = *symbolizeForKind(keyword);
    result.addAttribute("kind", ForKindAttr::get(parser.getContext(), kind));
    if (kind == ForKind::ThreadBinding) {
      StringAttr tag;
      if (parser.parseLess() || parser.parseAttribute(tag) ||
          parser.parseGreater())
        return failure();
      result.addAttribute("thread", tag);
    }
  }
  if (parseAnnotationsAndAttrDict(parser, result))
    return failure();
  // Only the body may follow; another word is a misspelt kind.
  SMLoc kindLoc = parser.getCurrentLocation();
  if (succeeded(parser.parseOptionalKeyword(&keyword)))
    return parser.emitError(kindLoc, "unknown loop kind '")
           << keyword
           << "'; expected one of serial, parallel, vectorized, unrolled, "
              "thread_binding<\"tag\">";
  if (StringRef hint = getNameHint(iv.ssaName); !hint.empty())
    result.addAttribute("var_name", b.getStringAttr(hint));
  Region *body = result.addRegion();
  if (parser.parseRegion(*body, {iv}))
    return failure();
  if (body->empty())
    body->push_back(new Block());
  return success();
}

void ForOp::print(OpAsmPrinter &p) {
  p << ' ';
  p.printOperand(getInductionVar());
  p << " = ";
  unsigned dynamicIndex = 0;
  printBound(p, getStaticBounds()[0], getDynamicBounds(), dynamicIndex);
  p << " to ";
  printBound(p, getStaticBounds()[1], getDynamicBounds(), dynamicIndex);
  if (getKind() != ForKind::Serial)
    p << ' ' << stringifyForKind(getKind());
  if (auto thread = getThreadAttr()) {
    p << '<';
    p.printAttribute(thread);
    p << '>';
  }
  if (auto annotations = getAnnotationsAttr()) {
    p << " annotations ";
    p.printAttribute(annotations);
  }
  p.printOptionalAttrDictWithKeyword(
      (*this)->getAttrs(),
      {getStaticBoundsAttrName(), getKindAttrName(), getThreadAttrName(),
       getAnnotationsAttrName(), getVarNameAttrName()});
  p << ' ';
  p.printRegion(getRegion(), /*printEntryBlockArgs=*/false,
                /*printBlockTerminators=*/false);
}

LogicalResult ForOp::verify() {
  ArrayRef<int64_t> bounds = getStaticBounds();
  if (bounds.size() != 2)
    return emitOpError("expects 'static_bounds' to hold a lower and an upper "
                       "bound, got ")
           << bounds.size() << " entries";
  if (countDynamic(bounds) != getDynamicBounds().size())
    return emitOpError("expects one dynamic bound operand per dynamic entry of "
                       "'static_bounds': ")
           << countDynamic(bounds) << " dynamic entries but "
           << getDynamicBounds().size() << " operands";
  Block *body = getBody();
  if (body->getNumArguments() != 1 || !body->getArgument(0).getType().isIndex())
    return emitOpError("expects its body to have exactly one 'index' "
                       "argument, the induction variable");
  if (auto extent = getConstantExtent(); extent && *extent < 0)
    return emitOpError("has a negative extent: lower bound ")
           << bounds[0] << " is above upper bound " << bounds[1];
  std::optional<StringRef> thread = getThread();
  if (getKind() == ForKind::ThreadBinding) {
    if (!thread)
      return emitOpError("a thread_binding loop needs a thread tag, e.g. "
                         "thread_binding<\"threadIdx.x\">");
    if (!isValidThreadTag(*thread))
      return emitOpError("unknown thread tag '")
             << *thread
             << "'; expected one of blockIdx.{x,y,z}, threadIdx.{x,y,z}, "
                "vthread, vthread.{x,y,z}";
  } else if (thread) {
    return emitOpError("only a thread_binding loop has a thread tag, but this "
                       "loop is ")
           << stringifyForKind(getKind());
  }
  return success();
}

bool ForOp::runsIterationsAtOnce() {
  switch (getKind()) {
  case ForKind::Parallel:
  case ForKind::Vectorized:
    return true;
  case ForKind::ThreadBinding:
    // Virtual threads are interleaved within one thread.
    return !getThread()->starts_with("vthread");
  default:
    return false;
  }
}

bool ForOp::mayReduceAcrossIterations() {
  // A reduction across iterations that run at once is a data race (lost
  // updates), except across threadIdx, where lowering makes it a
  // cross-thread reduction. TVM's rule for thread-bound loops also keeps
  // reductions off virtual threads.
  ForKind kind = getKind();
  if (kind == ForKind::ThreadBinding)
    return getThread()->starts_with("threadIdx.");
  return kind != ForKind::Parallel && kind != ForKind::Vectorized;
}

LogicalResult ForOp::checkIndependentIterations() {
  if (mayReduceAcrossIterations())
    return success();
  ForKind kind = getKind();
  Value iv = getInductionVar();
  for (Operation *user : iv.getUsers()) {
    auto block = dyn_cast<BlockOp>(user);
    if (!block)
      continue;
    for (unsigned i : block.getIterVarsFedBy(iv)) {
      if (block.getIterType(i) != IterType::Reduce)
        continue;
      InFlightDiagnostic diag =
          emitOpError("is ")
          << (kind == ForKind::ThreadBinding
                  ? ("bound to " + getThread()->str()).c_str()
                  : stringifyForKind(kind).data())
          << ", so its iterations run at once, but it feeds reduce variable "
          << (block.getVarNames()
                  ? "'" + cast<StringAttr>((*block.getVarNames())[i]).str() +
                        "'"
                  : "#" + std::to_string(i))
          << " of block '" << block.getBlockName()
          << "' (a reduction across the iterations would race; only "
             "threadIdx loops may reduce)";
      diag.attachNote(block.getLoc()) << "the block";
      return diag;
    }
  }
  return success();
}

//===----------------------------------------------------------------------===//
// InitOp
//===----------------------------------------------------------------------===//

LogicalResult InitOp::verify() {
  // TensorIR keeps a block's buffer allocations and matches apart from its
  // init and body: only those (and side-effect-free values) may come first.
  for (Operation &op : *(*this)->getBlock()) {
    if (&op == getOperation())
      break;
    if (isa<InitOp>(op))
      return emitOpError("appears twice in its tir.block; a block has at "
                         "most one init");
    if (!isa<AllocBufferOp, MatchBufferOp>(op) && !isMemoryEffectFree(&op))
      return emitOpError("must come before the body of its tir.block (only "
                         "buffer allocations and matches may precede it)")
                 .attachNote(op.getLoc())
             << "first statement of the body";
  }
  if (getBody()->getNumArguments() != 0)
    return emitOpError("expects a body without arguments");
  return success();
}

//===----------------------------------------------------------------------===//
// LoadOp / StoreOp
//===----------------------------------------------------------------------===//

/// Parses `%buffer[index exprs of SSA ids]`.
static ParseResult
parseBufferAccess(OpAsmParser &parser, OperationState &result,
                  OpAsmParser::UnresolvedOperand &buffer,
                  SmallVectorImpl<OpAsmParser::UnresolvedOperand> &operands) {
  SmallVector<AffineExpr> exprs;
  if (parser.parseOperand(buffer) ||
      IndexExprParser(parser, operands).parseIndexList(exprs))
    return failure();
  result.addAttribute("map", AffineMapAttr::get(makeInputMap(
                                 operands.size(), exprs, parser.getContext())));
  return success();
}

/// Verifies an access: one index per dimension. Indices that may fall
/// outside the buffer are not an error (TensorIR guards them with
/// predicates and conditions).
static LogicalResult verifyAccess(Operation *op, MemRefType type, AffineMap map,
                                  ValueRange operands) {
  if (map.getNumInputs() != operands.size())
    return op->emitOpError("expects ")
           << map.getNumInputs() << " index operands for its map, got "
           << operands.size();
  if (map.getNumResults() != static_cast<unsigned>(type.getRank()))
    return op->emitOpError("expects ")
           << type.getRank() << " indices for a rank-" << type.getRank()
           << " buffer, got " << map.getNumResults();
  return success();
}

static AffineMap identityAccessMap(Builder &b, unsigned rank) {
  return b.getMultiDimIdentityMap(rank);
}

void LoadOp::build(OpBuilder &b, OperationState &state, Value buffer,
                   ValueRange indices) {
  build(b, state, buffer,
        identityAccessMap(b, cast<MemRefType>(buffer.getType()).getRank()),
        indices);
}

void LoadOp::build(OpBuilder &b, OperationState &state, Value buffer,
                   AffineMap map, ValueRange operands) {
  state.addOperands(buffer);
  state.addOperands(operands);
  state.addAttribute(getMapAttrName(state.name), AffineMapAttr::get(map));
  state.addTypes(cast<MemRefType>(buffer.getType()).getElementType());
}

ParseResult LoadOp::parse(OpAsmParser &parser, OperationState &result) {
  OpAsmParser::UnresolvedOperand buffer;
  SmallVector<OpAsmParser::UnresolvedOperand> operands;
  MemRefType type;
  if (parseBufferAccess(parser, result, buffer, operands) ||
      parser.parseOptionalAttrDict(result.attributes) ||
      parser.parseColonType(type) ||
      parser.resolveOperand(buffer, type, result.operands) ||
      parser.resolveOperands(operands, parser.getBuilder().getIndexType(),
                             result.operands))
    return failure();
  result.addTypes(type.getElementType());
  return success();
}

void LoadOp::print(OpAsmPrinter &p) {
  p << ' ' << getBuffer();
  printIndexList(p, getMap(), getIndices());
  p.printOptionalAttrDict((*this)->getAttrs(), {getMapAttrName()});
  p << " : " << getBufferType();
}

//===----------------------------------------------------------------------===//
// Divisors
//===----------------------------------------------------------------------===//

/// The first division of `expr` by a constant that is not positive.
static std::optional<std::pair<StringRef, int64_t>>
findBadDivisor(AffineExpr expr) {
  std::optional<std::pair<StringRef, int64_t>> bad;
  expr.walk([&](AffineExpr sub) {
    auto binary = dyn_cast<AffineBinaryOpExpr>(sub);
    if (bad || !binary)
      return;
    StringRef name = binary.getKind() == AffineExprKind::FloorDiv  ? "floordiv"
                     : binary.getKind() == AffineExprKind::CeilDiv ? "ceildiv"
                     : binary.getKind() == AffineExprKind::Mod     ? "mod"
                                                                   : "";
    auto divisor = dyn_cast<AffineConstantExpr>(binary.getRHS());
    if (!name.empty() && divisor && divisor.getValue() <= 0)
      bad = {name, divisor.getValue()};
  });
  return bad;
}

LogicalResult mlir::tir::verifyPositiveDivisors(Operation *op) {
  for (NamedAttribute named : op->getAttrDictionary()) {
    std::optional<std::pair<StringRef, int64_t>> bad;
    named.getValue().walk([&](Attribute attr) {
      if (bad)
        return;
      SmallVector<AffineExpr> exprs;
      if (auto map = dyn_cast<AffineMapAttr>(attr))
        llvm::append_range(exprs, map.getValue().getResults());
      else if (auto set = dyn_cast<IntegerSetAttr>(attr))
        llvm::append_range(exprs, set.getValue().getConstraints());
      for (AffineExpr expr : exprs)
        if (!bad)
          bad = findBadDivisor(expr);
    });
    if (bad)
      return op->emitOpError("'")
             << bad->first << "' by " << bad->second << " in '"
             << named.getName().getValue() << "'; the divisor must be positive";
  }
  return success();
}

LogicalResult LoadOp::verify() {
  if (getResult().getType() != getBufferType().getElementType())
    return emitOpError("result type ")
           << getResult().getType()
           << " does not match the buffer's element type "
           << getBufferType().getElementType();
  return verifyAccess(*this, getBufferType(), getMap(), getIndices());
}

void StoreOp::build(OpBuilder &b, OperationState &state, Value value,
                    Value buffer, ValueRange indices) {
  build(b, state, value, buffer,
        identityAccessMap(b, cast<MemRefType>(buffer.getType()).getRank()),
        indices);
}

void StoreOp::build(OpBuilder &b, OperationState &state, Value value,
                    Value buffer, AffineMap map, ValueRange operands) {
  state.addOperands({value, buffer});
  state.addOperands(operands);
  state.addAttribute(getMapAttrName(state.name), AffineMapAttr::get(map));
}

ParseResult StoreOp::parse(OpAsmParser &parser, OperationState &result) {
  OpAsmParser::UnresolvedOperand value, buffer;
  SmallVector<OpAsmParser::UnresolvedOperand> operands;
  MemRefType type;
  if (parser.parseOperand(value) || parser.parseComma() ||
      parseBufferAccess(parser, result, buffer, operands) ||
      parser.parseOptionalAttrDict(result.attributes) ||
      parser.parseColonType(type) ||
      parser.resolveOperand(value, type.getElementType(), result.operands) ||
      parser.resolveOperand(buffer, type, result.operands) ||
      parser.resolveOperands(operands, parser.getBuilder().getIndexType(),
                             result.operands))
    return failure();
  return success();
}

void StoreOp::print(OpAsmPrinter &p) {
  p << ' ' << getValue() << ", " << getBuffer();
  printIndexList(p, getMap(), getIndices());
  p.printOptionalAttrDict((*this)->getAttrs(), {getMapAttrName()});
  p << " : " << getBufferType();
}

LogicalResult StoreOp::verify() {
  if (getValue().getType() != getBufferType().getElementType())
    return emitOpError("stores a value of type ")
           << getValue().getType() << " into a buffer of "
           << getBufferType().getElementType();
  return verifyAccess(*this, getBufferType(), getMap(), getIndices());
}

//===----------------------------------------------------------------------===//
// AllocBufferOp
//===----------------------------------------------------------------------===//

void AllocBufferOp::getAsmResultNames(OpAsmSetValueNameFn setNameFn) {
  setNameFn(getBuffer(), getBufferName().value_or("buffer"));
}

// %C = tir.alloc_buffer [(sizes)] attr-dict : type
/// Keeps the SSA name of an allocation's result (when it is a name, not a
/// number) as its `buffer_name`, unless one is given.
static void keepResultNameAsBufferName(OpAsmParser &parser,
                                       OperationState &result,
                                       StringAttr nameAttr) {
  StringRef name = parser.getResultName(0).first;
  if (!name.empty() && !llvm::isDigit(name.front()) &&
      !result.attributes.get(nameAttr))
    result.addAttribute(nameAttr, parser.getBuilder().getStringAttr(name));
}

ParseResult AllocBufferOp::parse(OpAsmParser &parser, OperationState &result) {
  SmallVector<OpAsmParser::UnresolvedOperand> sizes;
  Type type;
  if (succeeded(parser.parseOptionalLParen()) &&
      (parser.parseOperandList(sizes) || parser.parseRParen()))
    return failure();
  if (parser.parseOptionalAttrDict(result.attributes) ||
      parser.parseColonType(type) ||
      parser.resolveOperands(sizes, parser.getBuilder().getIndexType(),
                             result.operands))
    return failure();
  result.addTypes(type);
  keepResultNameAsBufferName(parser, result,
                             getBufferNameAttrName(result.name));
  return success();
}

void AllocBufferOp::print(OpAsmPrinter &p) {
  if (!getDynamicSizes().empty())
    p << "(" << getDynamicSizes() << ")";
  p.printOptionalAttrDict((*this)->getAttrs(), {getBufferNameAttrName()});
  p << " : " << getBuffer().getType();
}

/// Buffers are allocated directly in a tir.block or in the function body
/// (TVM's root block).
static LogicalResult verifyAllocationSite(Operation *op) {
  Operation *parent = op->getParentOp();
  if (!isa<BlockOp, FunctionOpInterface>(parent))
    return op->emitOpError("must be directly inside a tir.block or a function "
                           "body (the root block), not inside '")
           << parent->getName() << "'";
  return success();
}

LogicalResult AllocBufferOp::verify() {
  if (failed(verifyAllocationSite(*this)))
    return failure();
  MemRefType type = getBuffer().getType();
  if (static_cast<int64_t>(getDynamicSizes().size()) !=
      static_cast<int64_t>(type.getNumDynamicDims()))
    return emitOpError("expects one size operand per dynamic dimension of ")
           << type << ": " << type.getNumDynamicDims() << " expected, got "
           << getDynamicSizes().size();
  if (!type.getLayout().isIdentity())
    return emitOpError("allocates a buffer with the identity layout only, got ")
           << type;
  if (std::string msg = checkBufferMemorySpace(type); !msg.empty())
    return emitOpError(msg);
  if (auto seps = getAxisSeparators()) {
    int64_t previous = 0;
    for (int64_t x : *seps) {
      if (x <= previous || x >= type.getRank())
        return emitOpError("expects axis_separators in ascending order "
                           "between 1 and the rank - 1 (")
               << type.getRank() - 1 << "), got " << getAxisSeparatorsAttr();
      previous = x;
    }
  }
  return success();
}

//===----------------------------------------------------------------------===//
// AllocateConstOp
//===----------------------------------------------------------------------===//

void AllocateConstOp::getAsmResultNames(OpAsmSetValueNameFn setNameFn) {
  setNameFn(getBuffer(), getBufferName().value_or("const"));
}

// %c = tir.allocate_const attr-dict : memref-type = dense<...>
ParseResult AllocateConstOp::parse(OpAsmParser &parser,
                                   OperationState &result) {
  MemRefType type;
  Attribute value;
  if (parser.parseOptionalAttrDict(result.attributes) ||
      parser.parseColonType(type) || parser.parseEqual())
    return failure();
  // The attribute's type is the buffer's shape and element type.
  auto tensorType =
      RankedTensorType::get(type.getShape(), type.getElementType());
  SMLoc loc = parser.getCurrentLocation();
  if (parser.parseAttribute(value, tensorType))
    return failure();
  auto elements = dyn_cast<ElementsAttr>(value);
  if (!elements)
    return parser.emitError(loc, "expected a dense elements attribute");
  result.addAttribute(getValueAttrName(result.name), elements);
  result.addTypes(type);
  keepResultNameAsBufferName(parser, result,
                             getBufferNameAttrName(result.name));
  return success();
}

void AllocateConstOp::print(OpAsmPrinter &p) {
  p.printOptionalAttrDict((*this)->getAttrs(),
                          {getBufferNameAttrName(), getValueAttrName()});
  p << " : " << getBuffer().getType() << " = ";
  p.printAttributeWithoutType(getValue());
}

LogicalResult AllocateConstOp::verify() {
  if (failed(verifyAllocationSite(*this)))
    return failure();
  MemRefType type = getBuffer().getType();
  if (!type.getLayout().isIdentity())
    return emitOpError("holds a buffer with the identity layout only, got ")
           << type;
  auto valueType = cast<ShapedType>(getValue().getType());
  if (valueType.getShape() != type.getShape() ||
      valueType.getElementType() != type.getElementType())
    return emitOpError("data of type ")
           << valueType << " does not match the buffer type " << type;
  if (std::string msg = checkBufferMemorySpace(type); !msg.empty())
    return emitOpError(msg);
  return success();
}

//===----------------------------------------------------------------------===//
// MatchBufferOp
//===----------------------------------------------------------------------===//

void MatchBufferOp::getAsmResultNames(OpAsmSetValueNameFn setNameFn) {
  setNameFn(getResult(), "match");
}

// tir.match_buffer %src[region] attr-dict : src-type -> result-type
ParseResult MatchBufferOp::parse(OpAsmParser &parser, OperationState &result) {
  OpAsmParser::UnresolvedOperand source;
  SmallVector<OpAsmParser::UnresolvedOperand> names;
  RegionExprs region;
  MemRefType sourceType, resultType;
  if (parser.parseOperand(source) ||
      IndexExprParser(parser, names).parseRegion(region) ||
      parser.parseOptionalAttrDict(result.attributes) || parser.parseColon() ||
      parser.parseType(sourceType) || parser.parseArrow() ||
      parser.parseType(resultType) ||
      parser.resolveOperand(source, sourceType, result.operands) ||
      parser.resolveOperands(names, parser.getBuilder().getIndexType(),
                             result.operands))
    return failure();
  result.addAttribute("source_region",
                      AffineMapAttr::get(buildRegionMap(names.size(), region,
                                                        parser.getContext())));
  result.addTypes(resultType);
  return success();
}

void MatchBufferOp::print(OpAsmPrinter &p) {
  p << ' ' << getSource();
  printRegion(p, getSourceRegion(), getIndices());
  p.printOptionalAttrDict((*this)->getAttrs(), {getSourceRegionAttrName()});
  p << " : " << getSource().getType() << " -> " << getResult().getType();
}

LogicalResult MatchBufferOp::verify() {
  if (!isa<BlockOp>((*this)->getParentOp()))
    return emitOpError("must be directly inside a tir.block");
  auto sourceType = cast<MemRefType>(getSource().getType());
  auto resultType = cast<MemRefType>(getResult().getType());
  AffineMap map = getSourceRegion();
  if (map.getNumInputs() != getIndices().size())
    return emitOpError("expects ")
           << map.getNumInputs() << " index operands for its region, got "
           << getIndices().size();
  if (map.getNumResults() != 2 * sourceType.getRank())
    return emitOpError("expects a region with ")
           << sourceType.getRank() << " dimensions for a rank-"
           << sourceType.getRank() << " source, got "
           << map.getNumResults() / 2;
  if (sourceType.getElementType() != resultType.getElementType())
    return emitOpError("result element type ")
           << resultType.getElementType()
           << " differs from the source element type "
           << sourceType.getElementType();
  if (sourceType.getMemorySpace() != resultType.getMemorySpace())
    return emitOpError("result memory space differs from the source's");
  // The result shape is the region's extents, where they are constants,
  // with unit extents allowed to be dropped (from the left, as TVM does).
  RegionExprs region = splitRegionMap(map);
  SmallVector<int64_t> extents;
  for (AffineExpr e : region.extents) {
    auto c = dyn_cast<AffineConstantExpr>(e);
    extents.push_back(c ? c.getValue() : ShapedType::kDynamic);
  }
  ArrayRef<int64_t> shape = resultType.getShape();
  ArrayRef<int64_t> tail = ArrayRef<int64_t>(extents).take_back(
      std::min<size_t>(extents.size(), shape.size()));
  bool dropsOnlyUnits =
      llvm::all_of(ArrayRef<int64_t>(extents).drop_back(tail.size()),
                   [](int64_t e) { return e == 1; });
  bool sameShape =
      shape.size() == tail.size() &&
      llvm::all_of(llvm::zip(shape, tail), [](auto pair) {
        auto [s, e] = pair;
        return ShapedType::isDynamic(s) || ShapedType::isDynamic(e) || s == e;
      });
  if (!dropsOnlyUnits || !sameShape) {
    std::string list;
    llvm::raw_string_ostream os(list);
    llvm::interleaveComma(extents, os, [&](int64_t e) {
      if (ShapedType::isDynamic(e))
        os << '?';
      else
        os << e;
    });
    return emitOpError("result shape ")
           << resultType << " does not match the region's extents [" << list
           << "]";
  }
  if (std::optional<ArrayRef<int64_t>> seps = getAxisSeparators()) {
    for (auto [k, sep] : llvm::enumerate(*seps))
      if (sep < 0 || sep > resultType.getRank() ||
          (k > 0 && sep < (*seps)[k - 1]))
        return emitOpError("expects axis_separators in ascending order "
                           "between 0 and the view's rank (")
               << resultType.getRank() << "), got " << getAxisSeparatorsAttr();
  }
  return success();
}

#define GET_OP_CLASSES
#include "TensorIR/Dialect/TIR/IR/TIROps.cpp.inc"
