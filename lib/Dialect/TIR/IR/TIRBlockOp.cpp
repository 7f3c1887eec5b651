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

OperandRange BlockOp::getBindingDims() {
  return getBindingValues().take_front(getBindings().getNumDims());
}

OperandRange BlockOp::getBindingSymbols() {
  return getBindingValues().drop_front(getBindings().getNumDims());
}

bool BlockOp::hasReduction() {
  for (unsigned i = 0, e = getNumIterVars(); i < e; ++i)
    if (getIterType(i) == IterType::Reduce)
      return true;
  return false;
}

InitOp BlockOp::getInitOp() {
  Block *body = getBody();
  if (body->empty())
    return nullptr;
  return dyn_cast<InitOp>(&body->front());
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

/// Parses `reads(...)` / `writes(...)` contents after the keyword.
static ParseResult parseRegionList(OpAsmParser &parser,
                                   ArrayRef<OpAsmParser::Argument> iterVars,
                                   SmallVectorImpl<Value> &buffers,
                                   SmallVectorImpl<Attribute> &maps) {
  SmallVector<UnresolvedOperand> bufferNames;
  SmallVector<RegionExprs> regions;
  SmallVector<SmallVector<UnresolvedOperand>> regionNames;
  SmallVector<SMLoc> locs;
  if (parser.parseLParen())
    return failure();
  if (succeeded(parser.parseOptionalRParen()))
    return success();
  do {
    locs.push_back(parser.getCurrentLocation());
    bufferNames.emplace_back();
    regions.emplace_back();
    regionNames.emplace_back();
    if (parser.parseOperand(bufferNames.back()) ||
        parseRegionOfSSAIds(parser, regionNames.back(), regions.back()))
      return failure();
  } while (succeeded(parser.parseOptionalComma()));
  SmallVector<Type> types;
  if (parser.parseColonTypeList(types) || parser.parseRParen())
    return failure();
  if (types.size() != bufferNames.size())
    return parser.emitError(locs.front(), "expected ")
           << bufferNames.size() << " buffer types, got " << types.size();
  if (parser.resolveOperands(bufferNames, types, locs.front(), buffers))
    return failure();
  MLIRContext *ctx = parser.getContext();
  for (auto [names, region, loc] : llvm::zip(regionNames, regions, locs)) {
    // Rewrite the region over the block's iteration variables.
    SmallVector<AffineExpr> repl;
    for (const UnresolvedOperand &name : names) {
      auto it = llvm::find_if(iterVars, [&](const OpAsmParser::Argument &a) {
        return a.ssaName.name == name.name && a.ssaName.number == name.number;
      });
      if (it == iterVars.end())
        return parser.emitError(loc, "region index '")
               << name.name
               << "' is not an iteration variable of this block; regions are "
                  "written over the block's iteration variables";
      repl.push_back(getAffineDimExpr(it - iterVars.begin(), ctx));
    }
    for (AffineExpr &e : region.starts)
      e = e.replaceDims(repl);
    for (AffineExpr &e : region.extents)
      e = e.replaceDims(repl);
    maps.push_back(
        AffineMapAttr::get(buildRegionMap(iterVars.size(), 0, region, ctx)));
  }
  return success();
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
  SmallVector<UnresolvedOperand> dynamicDomains, dimNames, symNames;
  SmallVector<AffineExpr> bindings;
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
        parser.parseComma() ||
        parseAffineExprOfSSAIdsInto(parser, dimNames, symNames, binding) ||
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

  IntegerSet predicate;
  if (succeeded(parser.parseOptionalKeyword("where"))) {
    SmallVector<AffineExpr> constraints;
    SmallVector<bool> eqFlags;
    if (parser.parseLParen() ||
        parseConstraintsOfSSAIds(parser, dimNames, symNames, constraints,
                                 eqFlags) ||
        parser.parseRParen())
      return failure();
    predicate =
        IntegerSet::get(dimNames.size(), symNames.size(), constraints, eqFlags);
  }

  SmallVector<Value> readBuffers, writeBuffers;
  SmallVector<Attribute> readMaps, writeMaps;
  bool hasReads = false, hasWrites = false;
  if (succeeded(parser.parseOptionalKeyword("reads"))) {
    hasReads = true;
    if (parseRegionList(parser, iterVars, readBuffers, readMaps))
      return failure();
  }
  if (succeeded(parser.parseOptionalKeyword("writes"))) {
    hasWrites = true;
    if (parseRegionList(parser, iterVars, writeBuffers, writeMaps))
      return failure();
  }
  if (parseAnnotationsAndAttrDict(parser, result))
    return failure();

  // Operands, in ODS order: dynamic domains, binding values, reads, writes.
  SmallVector<UnresolvedOperand> bindingValues(dimNames);
  bindingValues.append(symNames);
  if (parser.resolveOperands(dynamicDomains, b.getIndexType(),
                             result.operands) ||
      parser.resolveOperands(bindingValues, b.getIndexType(), result.operands))
    return failure();
  result.addOperands(readBuffers);
  result.addOperands(writeBuffers);
  result.addAttribute(
      "operandSegmentSizes",
      b.getDenseI32ArrayAttr({static_cast<int32_t>(dynamicDomains.size()),
                              static_cast<int32_t>(bindingValues.size()),
                              static_cast<int32_t>(readBuffers.size()),
                              static_cast<int32_t>(writeBuffers.size())}));

  result.addAttribute("iter_types", b.getArrayAttr(iterTypes));
  result.addAttribute("static_domains", b.getDenseI64ArrayAttr(staticDomains));
  result.addAttribute("bindings",
                      AffineMapAttr::get(AffineMap::get(
                          dimNames.size(), symNames.size(), bindings, ctx)));
  if (predicate)
    result.addAttribute("predicate", IntegerSetAttr::get(predicate));
  if (hasReads)
    result.addAttribute("read_regions", b.getArrayAttr(readMaps));
  if (hasWrites)
    result.addAttribute("write_regions", b.getArrayAttr(writeMaps));
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
                            ValueRange iterVars) {
  p << ' ' << keyword << '(';
  for (auto [i, buffer, map] : llvm::enumerate(buffers, maps)) {
    if (i)
      p << ", ";
    p.printOperand(buffer);
    printRegion(p, cast<AffineMapAttr>(map).getValue(), iterVars);
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
  AffineMap bindings = getBindings();
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
    p.printAffineExprOfSSAIds(bindings.getResult(i), getBindingDims(),
                              getBindingSymbols());
    p << ')';
  }
  p << ')';
  if (auto predicate = getPredicate()) {
    p << " where(";
    printConstraints(p, *predicate, getBindingDims(), getBindingSymbols());
    p << ')';
  }
  ValueRange iterVars = getBody()->getArguments();
  if (auto reads = getReadRegionsAttr())
    printRegionList(p, "reads", getReadBuffers(), reads, iterVars);
  if (auto writes = getWriteRegionsAttr())
    printRegionList(p, "writes", getWriteBuffers(), writes, iterVars);
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

/// The known ranges of the block's iteration variables.
static SmallVector<std::optional<Interval>> getIterVarRanges(BlockOp op) {
  SmallVector<std::optional<Interval>> ranges;
  for (Value v : op.getBody()->getArguments())
    ranges.push_back(getValueRange(v));
  return ranges;
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
  if (auto predicate = getPredicate();
      predicate && (predicate->getNumDims() != bindings.getNumDims() ||
                    predicate->getNumSymbols() != bindings.getNumSymbols()))
    return emitOpError("expects the predicate over the same values as the "
                       "bindings");
  if (auto names = getVarNames(); names && names->size() != n)
    return emitOpError("expects one name per iteration variable in "
                       "'var_names'");
  if (getBlockName().empty())
    return emitOpError("expects a non-empty block name");

  // Domains.
  for (unsigned i = 0; i < n; ++i) {
    std::optional<int64_t> lo = getConstantDomainLower(i);
    std::optional<int64_t> hi = getConstantDomainUpper(i);
    if (lo && hi && *hi <= *lo)
      return emitOpError("iteration variable #")
             << i << " has an empty domain [" << *lo << ", " << *hi << ")";
  }
  return success();
}

/// Bindings use enclosing loop (or block) variables and stay in their domains.
LogicalResult BlockOp::verifyBindings() {
  unsigned n = getNumIterVars();
  AffineMap bindings = getBindings();
  // Bindings use enclosing loop variables (or iteration variables of an
  // enclosing block), never something from past the enclosing block.
  for (Value v : getBindingDims()) {
    Operation *owner = getLoopLikeOwner(v);
    if (!owner || !owner->isProperAncestor(*this))
      return emitOpError("binding uses a value that is not the variable of an "
                         "enclosing tir.for or tir.block; bindings are "
                         "quasi-affine expressions of enclosing loop "
                         "variables");
    for (Operation *p = (*this)->getParentOp(); p != owner;
         p = p->getParentOp())
      if (auto outer = dyn_cast<BlockOp>(p))
        return emitOpError("binding uses ")
               << describeVariable(owner) << " from outside block '"
               << outer.getBlockName()
               << "'; bind to that block's iteration variables instead";
  }
  for (Value v : getBindingSymbols())
    if (getLoopLikeOwner(v))
      return emitOpError("binding symbol must be loop-invariant, but it is ")
             << describeVariable(getLoopLikeOwner(v));

  // Without a predicate, each binding stays inside its domain.
  if (!getPredicate()) {
    SmallVector<std::optional<Interval>> dimRanges, symRanges;
    for (Value v : getBindingDims())
      dimRanges.push_back(getValueRange(v));
    for (Value v : getBindingSymbols())
      symRanges.push_back(getValueRange(v));
    for (unsigned i = 0; i < n; ++i) {
      std::optional<int64_t> lo = getConstantDomainLower(i);
      std::optional<int64_t> hi = getConstantDomainUpper(i);
      std::optional<Interval> range =
          evaluateRange(bindings.getResult(i), dimRanges, symRanges);
      if (lo && hi && range && (range->lo < *lo || range->hi >= *hi))
        return emitOpError("binding of iteration variable #")
               << i << " ranges over [" << range->lo << ", " << range->hi
               << "], outside its domain [" << *lo << ", " << *hi
               << "); add a predicate (where) or fix the domain";
    }
  }
  return success();
}

/// The body uses no loop or iteration variable from outside the block.
LogicalResult BlockOp::verifyBodyUses() {
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
      if (!owner || owner == getOperation() ||
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

/// Given regions fit their buffers and the iteration domains.
LogicalResult BlockOp::verifyAccessRegions() {
  unsigned n = getNumIterVars();
  SmallVector<std::optional<Interval>> iterRanges = getIterVarRanges(*this);
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
      if (map.getNumDims() != n || map.getNumSymbols() != 0)
        return emitOpError("expects ") << kind << " regions over the block's "
                                       << n << " iteration variables";
      if (map.getNumResults() != 2 * type.getRank())
        return emitOpError("has a ")
               << kind << " region with " << map.getNumResults() / 2
               << " dimensions for a rank-" << type.getRank() << " buffer";
      RegionExprs region = splitRegionMap(map);
      for (unsigned d = 0, r = type.getRank(); d < r; ++d) {
        std::optional<Interval> start =
            evaluateRange(region.starts[d], iterRanges);
        std::optional<Interval> end =
            evaluateRange(region.starts[d] + region.extents[d] - 1, iterRanges);
        std::optional<Interval> extent =
            evaluateRange(region.extents[d], iterRanges);
        if (extent && extent->hi < 1)
          return emitOpError("has an empty ")
                 << kind << " region in dimension " << d;
        int64_t size = type.getDimSize(d);
        if ((start && start->lo < 0) ||
            (end && !ShapedType::isDynamic(size) && end->hi >= size))
          return emitOpError("has a ")
                 << kind << " region that leaves dimension " << d
                 << " of its buffer (size "
                 << (ShapedType::isDynamic(size) ? std::string("?")
                                                 : std::to_string(size))
                 << ") over the iteration domains";
      }
    }
    return success();
  };
  if (failed(checkRegions("read", getReadBuffers(), getReadRegions())) ||
      failed(checkRegions("write", getWriteBuffers(), getWriteRegions())))
    return failure();
  return success();
}

/// Accesses in the body fall inside the regions the block lists.
LogicalResult BlockOp::verifyAccessesInRegions() {
  if (!getWriteRegions() && !getReadRegions())
    return success();
  unsigned n = getNumIterVars();
  Block *body = getBody();
  SmallVector<std::optional<Interval>> iterRanges = getIterVarRanges(*this);
  auto definedInside = [&](Value buffer) {
    return getRegion().isAncestor(buffer.getParentRegion());
  };
  // Whether some region of `buffer` in (buffers, maps) holds the access.
  auto covers = [&](OperandRange buffers, ArrayAttr maps, Value buffer,
                    AffineMap access, ValueRange operands, bool &bufferListed) {
    // The access, over the block's iteration variables (if it can be).
    SmallVector<AffineExpr> repl;
    bool overIterVars = access.getNumSymbols() == 0;
    for (Value v : operands) {
      auto arg = dyn_cast<BlockArgument>(v);
      if (!arg || arg.getOwner() != body) {
        overIterVars = false;
        break;
      }
      repl.push_back(getAffineDimExpr(arg.getArgNumber(), getContext()));
    }
    for (auto [b, attr] : llvm::zip(buffers, maps)) {
      if (b != buffer)
        continue;
      bufferListed = true;
      if (!overIterVars)
        return true;
      RegionExprs region = splitRegionMap(cast<AffineMapAttr>(attr).getValue());
      bool inside = true;
      for (auto [d, index] : llvm::enumerate(access.getResults())) {
        AffineExpr offset = simplifyAffineExpr(
            index.replaceDims(repl) - region.starts[d], n, 0);
        std::optional<Interval> off = evaluateRange(offset, iterRanges);
        std::optional<Interval> ext =
            evaluateRange(region.extents[d], iterRanges);
        if (off && ext && (off->lo < 0 || off->hi >= ext->lo))
          inside = false;
      }
      if (inside)
        return true;
    }
    return false;
  };
  WalkResult accesses = body->walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (op != getOperation() && isa<BlockOp>(op))
      return WalkResult::skip();
    auto check = [&](Value buffer, AffineMap map, ValueRange operands,
                     bool isWrite) -> WalkResult {
      if (definedInside(buffer))
        return WalkResult::advance();
      bool listed = false;
      bool ok = false;
      if (isWrite && getWriteRegions())
        ok = covers(getWriteBuffers(), *getWriteRegions(), buffer, map,
                    operands, listed);
      if (!isWrite) {
        // A read may be of a buffer the block also writes (a reduction
        // reads its own output).
        if (getReadRegions())
          ok = covers(getReadBuffers(), *getReadRegions(), buffer, map,
                      operands, listed);
        if (!ok && getWriteRegions())
          ok = covers(getWriteBuffers(), *getWriteRegions(), buffer, map,
                      operands, listed);
      }
      if (ok || (isWrite ? !getWriteRegions() : !getReadRegions()))
        return WalkResult::advance();
      InFlightDiagnostic diag =
          listed ? op->emitOpError("accesses its buffer outside the "
                                   "region that block '")
                       << getBlockName() << "' lists in its "
                       << (isWrite ? "writes" : "reads")
                 : op->emitOpError(isWrite ? "writes" : "reads")
                       << " a buffer that block '" << getBlockName()
                       << "' does not list in its "
                       << (isWrite ? "writes" : "reads");
      diag.attachNote(getLoc()) << "block is here";
      return WalkResult::interrupt();
    };
    if (auto load = dyn_cast<LoadOp>(op))
      return check(load.getBuffer(), load.getMap(), load.getIndices(),
                   /*isWrite=*/false);
    if (auto store = dyn_cast<StoreOp>(op))
      return check(store.getBuffer(), store.getMap(), store.getIndices(),
                   /*isWrite=*/true);
    return WalkResult::advance();
  });
  if (accesses.wasInterrupted())
    return failure();
  return success();
}

/// Block names are unique within a function.
LogicalResult BlockOp::verifyUniqueName() {
  Operation *func = (*this)->getParentWithTrait<OpTrait::IsIsolatedFromAbove>();
  if (func) {
    BlockOp first;
    func->walk<WalkOrder::PreOrder>([&](BlockOp other) {
      if (other.getBlockName() != getBlockName())
        return WalkResult::advance();
      first = other;
      return WalkResult::interrupt();
    });
    if (first && first != *this) {
      InFlightDiagnostic diag = emitOpError("block name '")
                                << getBlockName()
                                << "' is already used in this function; "
                                   "block names are unique per function";
      diag.attachNote(first.getLoc()) << "first block with this name";
      return diag;
    }
  }
  return success();
}

LogicalResult BlockOp::verify() {
  return failure(failed(verifyAttributeShapes()) || failed(verifyBindings()) ||
                 failed(verifyBodyUses()) || failed(verifyAccessRegions()) ||
                 failed(verifyAccessesInRegions()) ||
                 failed(verifyUniqueName()));
}
