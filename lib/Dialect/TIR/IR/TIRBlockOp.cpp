//===- TIRBlockOp.cpp - tir.block: accessors, syntax, verifier ------------===//

#include "TensorIR/Dialect/TIR/IR/TIROps.h"
#include "TensorIR/Dialect/TIR/IR/TIRUtils.h"

#include "mlir/IR/Builders.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

using namespace mlir;
using namespace mlir::tir;

//===----------------------------------------------------------------------===//
// Accessors
//===----------------------------------------------------------------------===//

IterType BlockOp::getIterType(unsigned i) {
  return cast<IterTypeAttr>(getIterTypes()[i]).getValue();
}

/// Position of entry `entry` of static_domains among the dynamic operands.
static unsigned dynamicIndexOf(ArrayRef<int64_t> statics, unsigned entry) {
  return llvm::count_if(statics.take_front(entry), ShapedType::isDynamic);
}

static OpFoldResult mixedDomainEntry(BlockOp op, unsigned entry) {
  ArrayRef<int64_t> statics = op.getStaticDomains();
  if (ShapedType::isDynamic(statics[entry]))
    return op.getDynamicDomains()[dynamicIndexOf(statics, entry)];
  return OpBuilder(op.getContext()).getIndexAttr(statics[entry]);
}

OpFoldResult BlockOp::getMixedDomainLower(unsigned i) {
  return mixedDomainEntry(*this, 2 * i);
}

OpFoldResult BlockOp::getMixedDomainUpper(unsigned i) {
  return mixedDomainEntry(*this, 2 * i + 1);
}

std::optional<int64_t> BlockOp::getConstantDomainLower(unsigned i) {
  int64_t v = getStaticDomains()[2 * i];
  return ShapedType::isDynamic(v) ? std::nullopt : std::optional(v);
}

std::optional<int64_t> BlockOp::getConstantDomainUpper(unsigned i) {
  int64_t v = getStaticDomains()[2 * i + 1];
  return ShapedType::isDynamic(v) ? std::nullopt : std::optional(v);
}

std::optional<int64_t> BlockOp::getSingleDomainValue(unsigned i) {
  std::optional<int64_t> lo = getConstantDomainLower(i);
  std::optional<int64_t> hi = getConstantDomainUpper(i);
  if (!lo || !hi || *hi - *lo != 1)
    return std::nullopt;
  return lo;
}

SmallVector<AffineExpr> BlockOp::getBindingExprs() {
  return getExprsOverInputs(getBindings());
}

SmallVector<unsigned> BlockOp::getIterVarsFedBy(Value input) {
  SmallVector<AffineExpr> bindings = getBindingExprs();
  SmallVector<unsigned> fed;
  for (unsigned i = 0, e = getNumIterVars(); i < e; ++i)
    for (auto [pos, value] : llvm::enumerate(getBindingValues()))
      if (value == input && bindings[i].isFunctionOfDim(pos)) {
        fed.push_back(i);
        break;
      }
  return fed;
}

SmallVector<IntegerSet> BlockOp::getPredicateSets() {
  SmallVector<IntegerSet> sets;
  if (auto predicate = getPredicate())
    for (Attribute a : *predicate)
      sets.push_back(cast<IntegerSetAttr>(a).getValue());
  return sets;
}

SmallVector<Value> BlockOp::getRegionInputs() {
  SmallVector<Value> inputs(getBody()->getArguments());
  llvm::append_range(inputs, getRegionValues());
  return inputs;
}

bool BlockOp::hasReduction() {
  for (unsigned i = 0, e = getNumIterVars(); i < e; ++i)
    if (getIterType(i) == IterType::Reduce)
      return true;
  return false;
}

InitOp BlockOp::getInitOp() {
  // The verifier allows allocations and pure ops before the init.
  for (Operation &op : *getBody())
    if (auto init = dyn_cast<InitOp>(op))
      return init;
  return nullptr;
}

void BlockOp::dropAccessRegions() {
  removeReadRegionsAttr();
  removeWriteRegionsAttr();
  getReadBuffersMutable().clear();
  getWriteBuffersMutable().clear();
  getRegionValuesMutable().clear();
}

void BlockOp::getAsmBlockArgumentNames(Region &region,
                                       OpAsmSetValueNameFn setNameFn) {
  std::optional<ArrayAttr> names = getVarNames();
  if (!names || names->size() != getBody()->getNumArguments())
    return;
  for (auto [arg, name] : llvm::zip(getBody()->getArguments(), *names))
    if (auto str = dyn_cast<StringAttr>(name); str && !str.empty())
      setNameFn(arg, str.getValue());
}

//===----------------------------------------------------------------------===//
// Builder
//===----------------------------------------------------------------------===//

void BlockOp::build(
    OpBuilder &b, OperationState &state, StringRef blockName,
    ArrayRef<IterVarSpec> iterVars, ValueRange bindingValues,
    function_ref<void(OpBuilder &, Location, ValueRange)> bodyBuilder,
    ArrayRef<Conjunction> predicate, const BlockRegionsSpec *regions) {
  MLIRContext *ctx = b.getContext();
  SmallVector<Attribute> iterTypes, varNames;
  SmallVector<int64_t> staticDomains;
  SmallVector<Value> dynamicDomains;
  SmallVector<AffineExpr> bindings;
  bool anyName = false;
  for (const IterVarSpec &var : iterVars) {
    iterTypes.push_back(IterTypeAttr::get(ctx, var.type));
    for (OpFoldResult bound : {var.lower, var.upper}) {
      if (auto attr = dyn_cast<Attribute>(bound)) {
        staticDomains.push_back(cast<IntegerAttr>(attr).getInt());
      } else {
        staticDomains.push_back(ShapedType::kDynamic);
        dynamicDomains.push_back(cast<Value>(bound));
      }
    }
    bindings.push_back(var.binding);
    varNames.push_back(b.getStringAttr(var.name));
    anyName |= !var.name.empty();
  }
  unsigned numBindingInputs = bindingValues.size();
  state.addAttribute(getBlockNameAttrName(state.name),
                     b.getStringAttr(blockName));
  state.addAttribute(getIterTypesAttrName(state.name),
                     b.getArrayAttr(iterTypes));
  state.addAttribute(getStaticDomainsAttrName(state.name),
                     b.getDenseI64ArrayAttr(staticDomains));
  state.addAttribute(
      getBindingsAttrName(state.name),
      AffineMapAttr::get(makeInputMap(numBindingInputs, bindings, ctx)));
  if (!predicate.empty()) {
    SmallVector<Attribute> sets;
    for (const Conjunction &c : predicate)
      sets.push_back(IntegerSetAttr::get(
          makeInputSet(numBindingInputs, c.constraints, c.eqFlags, ctx)));
    state.addAttribute(getPredicateAttrName(state.name), b.getArrayAttr(sets));
  }
  if (anyName)
    state.addAttribute(getVarNamesAttrName(state.name),
                       b.getArrayAttr(varNames));

  SmallVector<Value> regionValues, readBuffers, writeBuffers;
  if (regions) {
    regionValues = regions->regionValues;
    unsigned numRegionInputs = iterVars.size() + regionValues.size();
    auto addRegions = [&](ArrayRef<std::pair<Value, RegionExprs>> list,
                          SmallVectorImpl<Value> &buffers, StringAttr name) {
      SmallVector<Attribute> maps;
      for (const auto &[buffer, region] : list) {
        buffers.push_back(buffer);
        maps.push_back(
            AffineMapAttr::get(buildRegionMap(numRegionInputs, region, ctx)));
      }
      state.addAttribute(name, b.getArrayAttr(maps));
    };
    addRegions(regions->reads, readBuffers, getReadRegionsAttrName(state.name));
    addRegions(regions->writes, writeBuffers,
               getWriteRegionsAttrName(state.name));
  }
  // Operands in ODS order: dynamic domains, binding values, condition,
  // region values, reads, writes.
  state.addOperands(dynamicDomains);
  state.addOperands(bindingValues);
  state.addOperands(regionValues);
  state.addOperands(readBuffers);
  state.addOperands(writeBuffers);
  state.addAttribute(
      getOperandSegmentSizesAttrName(state.name),
      b.getDenseI32ArrayAttr({static_cast<int32_t>(dynamicDomains.size()),
                              static_cast<int32_t>(bindingValues.size()), 0,
                              static_cast<int32_t>(regionValues.size()),
                              static_cast<int32_t>(readBuffers.size()),
                              static_cast<int32_t>(writeBuffers.size())}));

  Region *region = state.addRegion();
  Block *body = new Block();
  region->push_back(body);
  for (unsigned i = 0, e = iterVars.size(); i < e; ++i)
    body->addArgument(b.getIndexType(), state.location);
  if (!bodyBuilder)
    return;
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(body);
  bodyBuilder(b, state.location, body->getArguments());
}

//===----------------------------------------------------------------------===//
// Syntax
//
// tir.block "name"(%v = kind(domain, binding), ...)
//     [where(constraints)] [reads(regions : types)] [writes(regions : types)]
//     [annotations {...}] [attributes {...}] { body }
//===----------------------------------------------------------------------===//

using UnresolvedOperand = OpAsmParser::UnresolvedOperand;

/// Parses `bound` or `lower : upper`; a lone bound is `[0, bound)`.
static ParseResult parseDomain(OpAsmParser &parser, int64_t &lower,
                               int64_t &upper,
                               SmallVectorImpl<UnresolvedOperand> &dynamic) {
  if (parseStaticOrDynamicIndex(parser, upper, dynamic))
    return failure();
  if (failed(parser.parseOptionalColon())) {
    lower = 0;
    return success();
  }
  lower = upper;
  return parseStaticOrDynamicIndex(parser, upper, dynamic);
}

/// Parses `reads(...)` / `writes(...)` contents after the keyword. Names
/// that are not iteration variables are interned in `regionNames` (the
/// block's region_values); `regions` are collected in input space over
/// (iteration variables, region names so far) and fixed up by the caller.
static ParseResult
parseRegionList(OpAsmParser &parser, ArrayRef<OpAsmParser::Argument> iterVars,
                SmallVectorImpl<UnresolvedOperand> &regionNames,
                SmallVectorImpl<Value> &buffers,
                SmallVectorImpl<RegionExprs> &regions) {
  SmallVector<UnresolvedOperand> bufferNames;
  if (parser.parseLParen())
    return failure();
  SMLoc loc = parser.getCurrentLocation();
  if (succeeded(parser.parseOptionalRParen()))
    return success();
  MLIRContext *ctx = parser.getContext();
  unsigned n = iterVars.size();
  do {
    bufferNames.emplace_back();
    SmallVector<UnresolvedOperand> names;
    RegionExprs region;
    IndexExprParser exprs(parser, names);
    if (parser.parseOperand(bufferNames.back()) || exprs.parseRegion(region))
      return failure();
    // Rewrite the region over (iteration variables, region names).
    SmallVector<AffineExpr> repl;
    for (const UnresolvedOperand &name : names) {
      auto it = llvm::find_if(iterVars, [&](const OpAsmParser::Argument &a) {
        return a.ssaName.name == name.name && a.ssaName.number == name.number;
      });
      if (it != iterVars.end()) {
        repl.push_back(getAffineDimExpr(it - iterVars.begin(), ctx));
        continue;
      }
      auto known = llvm::find_if(regionNames, [&](const UnresolvedOperand &r) {
        return r.name == name.name && r.number == name.number;
      });
      unsigned pos = known - regionNames.begin();
      if (known == regionNames.end())
        regionNames.push_back(name);
      repl.push_back(getAffineDimExpr(n + pos, ctx));
    }
    for (AffineExpr &e : region.starts)
      e = e.replaceDims(repl);
    for (AffineExpr &e : region.extents)
      e = e.replaceDims(repl);
    regions.push_back(std::move(region));
  } while (succeeded(parser.parseOptionalComma()));
  SmallVector<Type> types;
  if (parser.parseColonTypeList(types) || parser.parseRParen())
    return failure();
  if (types.size() != bufferNames.size())
    return parser.emitError(loc, "expected ")
           << bufferNames.size() << " buffer types, got " << types.size();
  return parser.resolveOperands(bufferNames, types, loc, buffers);
}

ParseResult BlockOp::parse(OpAsmParser &parser, OperationState &result) {
  Builder &b = parser.getBuilder();
  MLIRContext *ctx = parser.getContext();
  StringAttr name;
  if (parser.parseAttribute(name))
    return failure();
  result.addAttribute("block_name", name);

  SmallVector<OpAsmParser::Argument> iterVars;
  SmallVector<Attribute> iterTypes, varNames;
  SmallVector<int64_t> staticDomains;
  SmallVector<UnresolvedOperand> dynamicDomains, bindingNames;
  SmallVector<AffineExpr> bindings;
  IndexExprParser bindingParser(parser, bindingNames);
  bool anyName = false;
  auto parseIterVar = [&]() -> ParseResult {
    OpAsmParser::Argument arg;
    arg.type = b.getIndexType();
    StringRef kindName;
    SMLoc kindLoc;
    int64_t lower, upper;
    AffineExpr binding;
    if (parser.parseArgument(arg) || parser.parseEqual())
      return failure();
    kindLoc = parser.getCurrentLocation();
    if (parser.parseKeyword(&kindName))
      return failure();
    std::optional<IterType> kind = symbolizeIterType(kindName);
    if (!kind)
      return parser.emitError(kindLoc, "unknown iteration variable kind '")
             << kindName << "'; expected spatial, reduce, scan or opaque";
    if (parser.parseLParen() ||
        parseDomain(parser, lower, upper, dynamicDomains) ||
        parser.parseComma() || bindingParser.parseExpr(binding) ||
        parser.parseRParen())
      return failure();
    iterVars.push_back(arg);
    iterTypes.push_back(IterTypeAttr::get(ctx, *kind));
    staticDomains.append({lower, upper});
    bindings.push_back(binding);
    StringRef hint = getNameHint(arg.ssaName);
    anyName |= !hint.empty();
    varNames.push_back(b.getStringAttr(hint));
    return success();
  };
  if (parser.parseCommaSeparatedList(OpAsmParser::Delimiter::Paren,
                                     parseIterVar))
    return failure();

  SmallVector<Conjunction> predicate;
  bool hasPredicate = false;
  if (succeeded(parser.parseOptionalKeyword("where"))) {
    hasPredicate = true;
    if (parser.parseLParen() || bindingParser.parseCondition(predicate) ||
        parser.parseRParen())
      return failure();
  }

  SmallVector<UnresolvedOperand> condition;
  if (succeeded(parser.parseOptionalKeyword("condition"))) {
    condition.emplace_back();
    if (parser.parseLParen() || parser.parseOperand(condition.back()) ||
        parser.parseRParen())
      return failure();
  }

  SmallVector<Value> readBuffers, writeBuffers;
  SmallVector<RegionExprs> readRegions, writeRegions;
  SmallVector<UnresolvedOperand> regionNames;
  bool hasReads = false, hasWrites = false;
  if (succeeded(parser.parseOptionalKeyword("reads"))) {
    hasReads = true;
    if (parseRegionList(parser, iterVars, regionNames, readBuffers,
                        readRegions))
      return failure();
  }
  if (succeeded(parser.parseOptionalKeyword("writes"))) {
    hasWrites = true;
    if (parseRegionList(parser, iterVars, regionNames, writeBuffers,
                        writeRegions))
      return failure();
  }
  if (parseAnnotationsAndAttrDict(parser, result))
    return failure();

  // Operands, in ODS order: dynamic domains, binding values, condition,
  // region values, reads, writes.
  if (parser.resolveOperands(dynamicDomains, b.getIndexType(),
                             result.operands) ||
      parser.resolveOperands(bindingNames, b.getIndexType(), result.operands) ||
      parser.resolveOperands(condition, b.getI1Type(), result.operands) ||
      parser.resolveOperands(regionNames, b.getIndexType(), result.operands))
    return failure();
  result.addOperands(readBuffers);
  result.addOperands(writeBuffers);
  result.addAttribute(
      "operandSegmentSizes",
      b.getDenseI32ArrayAttr({static_cast<int32_t>(dynamicDomains.size()),
                              static_cast<int32_t>(bindingNames.size()),
                              static_cast<int32_t>(condition.size()),
                              static_cast<int32_t>(regionNames.size()),
                              static_cast<int32_t>(readBuffers.size()),
                              static_cast<int32_t>(writeBuffers.size())}));

  result.addAttribute("iter_types", b.getArrayAttr(iterTypes));
  result.addAttribute("static_domains", b.getDenseI64ArrayAttr(staticDomains));
  unsigned numBindingInputs = bindingNames.size();
  result.addAttribute("bindings", AffineMapAttr::get(makeInputMap(
                                      numBindingInputs, bindings, ctx)));
  if (hasPredicate) {
    SmallVector<Attribute> sets;
    for (const Conjunction &c : predicate)
      sets.push_back(IntegerSetAttr::get(
          makeInputSet(numBindingInputs, c.constraints, c.eqFlags, ctx)));
    result.addAttribute("predicate", b.getArrayAttr(sets));
  }
  unsigned numRegionInputs = iterVars.size() + regionNames.size();
  auto regionMaps = [&](ArrayRef<RegionExprs> regions) {
    SmallVector<Attribute> maps;
    for (const RegionExprs &r : regions)
      maps.push_back(
          AffineMapAttr::get(buildRegionMap(numRegionInputs, r, ctx)));
    return b.getArrayAttr(maps);
  };
  if (hasReads)
    result.addAttribute("read_regions", regionMaps(readRegions));
  if (hasWrites)
    result.addAttribute("write_regions", regionMaps(writeRegions));
  if (anyName)
    result.addAttribute("var_names", b.getArrayAttr(varNames));

  Region *body = result.addRegion();
  if (parser.parseRegion(*body, iterVars))
    return failure();
  if (body->empty()) {
    body->push_back(new Block());
    for (auto &arg : iterVars)
      body->addArgument(arg.type, result.location);
  }
  return success();
}

static void printDomainEntry(OpAsmPrinter &p, BlockOp op, unsigned entry) {
  OpFoldResult v = mixedDomainEntry(op, entry);
  if (auto attr = dyn_cast<Attribute>(v))
    p << cast<IntegerAttr>(attr).getInt();
  else
    p.printOperand(cast<Value>(v));
}

static void printRegionList(OpAsmPrinter &p, StringRef keyword,
                            OperandRange buffers, ArrayAttr maps,
                            ValueRange inputs) {
  p << ' ' << keyword << '(';
  for (auto [i, buffer, map] : llvm::enumerate(buffers, maps)) {
    if (i)
      p << ", ";
    p.printOperand(buffer);
    printRegion(p, cast<AffineMapAttr>(map).getValue(), inputs);
  }
  if (!buffers.empty()) {
    p << " : ";
    llvm::interleaveComma(buffers.getTypes(), p);
  }
  p << ')';
}

void BlockOp::print(OpAsmPrinter &p) {
  p << ' ';
  p.printString(getBlockName());
  p << '(';
  SmallVector<AffineExpr> bindings = getBindingExprs();
  for (unsigned i = 0, e = getNumIterVars(); i < e; ++i) {
    if (i)
      p << ", ";
    p.printOperand(getIterVar(i));
    p << " = " << stringifyIterType(getIterType(i)) << '(';
    std::optional<int64_t> lower = getConstantDomainLower(i);
    if (!lower || *lower != 0) {
      printDomainEntry(p, *this, 2 * i);
      p << " : ";
    }
    printDomainEntry(p, *this, 2 * i + 1);
    p << ", ";
    printIndexExpr(p, bindings[i], getBindingValues());
    p << ')';
  }
  p << ')';
  if (getPredicate()) {
    p << " where(";
    printCondition(p, getPredicateSets(), getBindingValues());
    p << ')';
  }
  if (Value condition = getCondition()) {
    p << " condition(";
    p.printOperand(condition);
    p << ')';
  }
  SmallVector<Value> regionInputs = getRegionInputs();
  if (auto reads = getReadRegionsAttr())
    printRegionList(p, "reads", getReadBuffers(), reads, regionInputs);
  if (auto writes = getWriteRegionsAttr())
    printRegionList(p, "writes", getWriteBuffers(), writes, regionInputs);
  if (auto annotations = getAnnotationsAttr()) {
    p << " annotations ";
    p.printAttribute(annotations);
  }
  p.printOptionalAttrDictWithKeyword(
      (*this)->getAttrs(),
      {getBlockNameAttrName(), getIterTypesAttrName(),
       getStaticDomainsAttrName(), getBindingsAttrName(),
       getPredicateAttrName(), getReadRegionsAttrName(),
       getWriteRegionsAttrName(), getAnnotationsAttrName(),
       getVarNamesAttrName(), getOperandSegmentSizesAttrName()});
  p << ' ';
  p.printRegion(getRegion(), /*printEntryBlockArgs=*/false,
                /*printBlockTerminators=*/false);
}

//===----------------------------------------------------------------------===//
// Verifier
//===----------------------------------------------------------------------===//

/// The op that defines the loop or iteration variable `v`, or null.
static Operation *getLoopLikeOwner(Value v) {
  auto arg = dyn_cast<BlockArgument>(v);
  if (!arg)
    return nullptr;
  Operation *owner = arg.getOwner()->getParentOp();
  return isa_and_nonnull<ForOp, BlockOp>(owner) ? owner : nullptr;
}

/// Describes a loop-like variable for diagnostics.
static std::string describeVariable(Operation *owner) {
  if (auto block = dyn_cast<BlockOp>(owner))
    return ("an iteration variable of block '" + block.getBlockName() + "'")
        .str();
  return "the induction variable of a tir.for";
}

/// Attributes and body arguments agree in count and type; domains are not
/// empty.
LogicalResult BlockOp::verifyAttributeShapes() {
  unsigned n = getNumIterVars();
  Block *body = getBody();
  // Shape of the attributes.
  if (body->getNumArguments() != n ||
      llvm::any_of(body->getArgumentTypes(),
                   [](Type t) { return !t.isIndex(); }))
    return emitOpError("expects one 'index' body argument per iteration "
                       "variable: ")
           << n << " iteration variables, " << body->getNumArguments()
           << " arguments";
  ArrayRef<int64_t> domains = getStaticDomains();
  if (domains.size() != 2 * n)
    return emitOpError("expects 'static_domains' to hold a lower and an upper "
                       "bound per iteration variable: ")
           << 2 * n << " entries expected, got " << domains.size();
  if (static_cast<size_t>(llvm::count_if(domains, ShapedType::isDynamic)) !=
      getDynamicDomains().size())
    return emitOpError("expects one dynamic domain operand per dynamic entry "
                       "of 'static_domains'");
  AffineMap bindings = getBindings();
  if (bindings.getNumResults() != n)
    return emitOpError("expects one binding per iteration variable: ")
           << n << " iteration variables, " << bindings.getNumResults()
           << " bindings";
  if (bindings.getNumInputs() != getBindingValues().size())
    return emitOpError("expects ") << bindings.getNumInputs()
                                   << " binding values for its bindings, got "
                                   << getBindingValues().size();
  for (IntegerSet set : getPredicateSets())
    if (set.getNumInputs() != bindings.getNumInputs())
      return emitOpError("expects the predicate over the same values as the "
                         "bindings");
  if (auto names = getVarNames(); names && names->size() != n)
    return emitOpError("expects one name per iteration variable in "
                       "'var_names'");
  // Domains.
  for (unsigned i = 0; i < n; ++i) {
    std::optional<int64_t> lo = getConstantDomainLower(i);
    std::optional<int64_t> hi = getConstantDomainUpper(i);
    // An empty domain [lo, lo) is a block that never runs (TVM's grids of
    // extent 0); an upper bound below the lower one is malformed.
    if (lo && hi && *hi < *lo)
      return emitOpError("iteration variable #")
             << i << " has an inverted domain [" << *lo << ", " << *hi
             << "): its upper bound is below its lower bound";
  }
  return success();
}

/// Bindings are index expressions of values in scope (the operands make
/// sure of that); TensorIR does not require them to stay in their domains
/// (that is for analyses and primitives to check), nor to be affine.
LogicalResult BlockOp::verifyBindings() {
  for (Value v : getBindingValues())
    if (v.getParentRegion() && getRegion().isAncestor(v.getParentRegion()))
      return emitOpError("binding uses a value defined inside the block");
  return success();
}

/// A block with iteration variables sees outer loop variables only through
/// its bindings; enclosing blocks' iteration variables are in scope
/// everywhere inside them (blockize's output), and an opaque block (no
/// iteration variables) may use enclosing loop variables directly.
LogicalResult BlockOp::verifyBodyUses() {
  if (getNumIterVars() == 0)
    return success();
  Block *body = getBody();
  WalkResult walk = body->walk([&](Operation *op) {
    for (OpOperand &operand : op->getOpOperands()) {
      // A nested block's bindings are checked, with a sharper message, by
      // that block's verifier.
      if (auto nested = dyn_cast<BlockOp>(op)) {
        auto [start, length] = nested.getODSOperandIndexAndLength(
            /*binding_values=*/1);
        unsigned pos = operand.getOperandNumber();
        if (pos >= start && pos < start + length)
          continue;
      }
      Value v = operand.get();
      Operation *owner = getLoopLikeOwner(v);
      if (!owner || isa<BlockOp>(owner) || owner == getOperation() ||
          getRegion().isAncestor(owner->getParentRegion()))
        continue;
      InFlightDiagnostic diag = op->emitOpError("uses ")
                                << describeVariable(owner)
                                << " from outside its enclosing block '"
                                << getBlockName()
                                << "'; a block body sees only its own "
                                   "iteration variables";
      diag.attachNote(getLoc()) << "enclosing block is here";
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  if (walk.wasInterrupted())
    return failure();
  return success();
}

/// Regions have one start and extent per buffer dimension, over the
/// region inputs. Whether they stay inside their buffers is not a rule of
/// the IR (TensorIR accepts out-of-bounds regions; guards make them safe).
LogicalResult BlockOp::verifyAccessRegions() {
  unsigned numInputs = getNumIterVars() + getRegionValues().size();
  auto checkRegions = [&](StringRef kind, OperandRange buffers,
                          std::optional<ArrayAttr> maps) -> LogicalResult {
    if (!maps)
      return buffers.empty() ? success()
                             : emitOpError("has ") << kind << " buffers but no "
                                                   << kind << " regions";
    if (maps->size() != buffers.size())
      return emitOpError("expects one ")
             << kind << " region per " << kind << " buffer";
    for (auto [buffer, attr] : llvm::zip(buffers, *maps)) {
      AffineMap map = cast<AffineMapAttr>(attr).getValue();
      auto type = cast<MemRefType>(buffer.getType());
      if (map.getNumInputs() != numInputs)
        return emitOpError("expects ")
               << kind << " regions over the block's " << getNumIterVars()
               << " iteration variables and " << getRegionValues().size()
               << " region values";
      if (map.getNumResults() != 2 * type.getRank())
        return emitOpError("has a ")
               << kind << " region with " << map.getNumResults() / 2
               << " dimensions for a rank-" << type.getRank() << " buffer";
    }
    return success();
  };
  if (failed(checkRegions("read", getReadBuffers(), getReadRegions())) ||
      failed(checkRegions("write", getWriteBuffers(), getWriteRegions())))
    return failure();
  return success();
}

LogicalResult BlockOp::verify() {
  return failure(failed(verifyAttributeShapes()) || failed(verifyBindings()) ||
                 failed(verifyBodyUses()) || failed(verifyAccessRegions()));
}
