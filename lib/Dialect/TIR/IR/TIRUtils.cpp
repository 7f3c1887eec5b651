//===- TIRUtils.cpp - index and region helpers for tir --------------------===//

#include "TensorIR/Dialect/TIR/IR/TIRUtils.h"
#include "TensorIR/Dialect/TIR/IR/TIROps.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::tir;

//===----------------------------------------------------------------------===//
// Interval reasoning
//===----------------------------------------------------------------------===//

static std::optional<Interval> multiply(Interval a, Interval b) {
  int64_t corners[4];
  if (llvm::MulOverflow(a.lo, b.lo, corners[0]) ||
      llvm::MulOverflow(a.lo, b.hi, corners[1]) ||
      llvm::MulOverflow(a.hi, b.lo, corners[2]) ||
      llvm::MulOverflow(a.hi, b.hi, corners[3]))
    return std::nullopt;
  return Interval{*std::min_element(corners, corners + 4),
                  *std::max_element(corners, corners + 4)};
}

std::optional<Interval>
mlir::tir::evaluateRange(AffineExpr expr,
                         ArrayRef<std::optional<Interval>> dimRanges,
                         ArrayRef<std::optional<Interval>> symRanges) {
  switch (expr.getKind()) {
  case AffineExprKind::Constant: {
    int64_t c = cast<AffineConstantExpr>(expr).getValue();
    return Interval{c, c};
  }
  case AffineExprKind::DimId: {
    unsigned pos = cast<AffineDimExpr>(expr).getPosition();
    return pos < dimRanges.size() ? dimRanges[pos] : std::nullopt;
  }
  case AffineExprKind::SymbolId: {
    unsigned pos = cast<AffineSymbolExpr>(expr).getPosition();
    return pos < symRanges.size() ? symRanges[pos] : std::nullopt;
  }
  default:
    break;
  }
  auto bin = cast<AffineBinaryOpExpr>(expr);
  std::optional<Interval> rhs = evaluateRange(bin.getRHS(), dimRanges, symRanges);
  std::optional<Interval> lhs = evaluateRange(bin.getLHS(), dimRanges, symRanges);
  switch (expr.getKind()) {
  case AffineExprKind::Add: {
    if (!lhs || !rhs)
      return std::nullopt;
    int64_t lo, hi;
    if (llvm::AddOverflow(lhs->lo, rhs->lo, lo) ||
        llvm::AddOverflow(lhs->hi, rhs->hi, hi))
      return std::nullopt;
    return Interval{lo, hi};
  }
  case AffineExprKind::Mul:
    if (!lhs || !rhs)
      return std::nullopt;
    return multiply(*lhs, *rhs);
  case AffineExprKind::FloorDiv:
  case AffineExprKind::CeilDiv: {
    // Only division by a positive constant has a simple monotone range.
    if (!lhs || !rhs || rhs->lo != rhs->hi || rhs->lo <= 0)
      return std::nullopt;
    int64_t d = rhs->lo;
    if (expr.getKind() == AffineExprKind::FloorDiv)
      return Interval{llvm::divideFloorSigned(lhs->lo, d),
                      llvm::divideFloorSigned(lhs->hi, d)};
    return Interval{llvm::divideCeilSigned(lhs->lo, d),
                    llvm::divideCeilSigned(lhs->hi, d)};
  }
  case AffineExprKind::Mod: {
    if (!rhs || rhs->lo != rhs->hi || rhs->lo <= 0)
      return std::nullopt;
    int64_t d = rhs->lo;
    if (lhs && llvm::divideFloorSigned(lhs->lo, d) ==
                   llvm::divideFloorSigned(lhs->hi, d))
      return Interval{llvm::mod(lhs->lo, d), llvm::mod(lhs->hi, d)};
    return Interval{0, d - 1};
  }
  default:
    return std::nullopt;
  }
}

std::optional<Interval> mlir::tir::getValueRange(Value value) {
  APInt constant;
  if (matchPattern(value, m_ConstantInt(&constant)))
    return Interval{constant.getSExtValue(), constant.getSExtValue()};
  auto arg = dyn_cast<BlockArgument>(value);
  if (!arg)
    return std::nullopt;
  Operation *owner = arg.getOwner()->getParentOp();
  std::optional<int64_t> lo, hi;
  if (auto forOp = dyn_cast_or_null<ForOp>(owner)) {
    lo = forOp.getConstantLowerBound();
    hi = forOp.getConstantUpperBound();
  } else if (auto blockOp = dyn_cast_or_null<BlockOp>(owner)) {
    if (arg.getArgNumber() >= blockOp.getNumIterVars())
      return std::nullopt;
    lo = blockOp.getConstantDomainLower(arg.getArgNumber());
    hi = blockOp.getConstantDomainUpper(arg.getArgNumber());
  }
  if (!lo || !hi || *hi <= *lo)
    return std::nullopt;
  return Interval{*lo, *hi - 1};
}

//===----------------------------------------------------------------------===//
// Regions
//===----------------------------------------------------------------------===//

RegionExprs mlir::tir::splitRegionMap(AffineMap map) {
  RegionExprs region;
  unsigned rank = map.getNumResults() / 2;
  for (unsigned i = 0; i < rank; ++i) {
    region.starts.push_back(map.getResult(i));
    region.extents.push_back(map.getResult(rank + i));
  }
  return region;
}

AffineMap mlir::tir::buildRegionMap(unsigned numDims, unsigned numSymbols,
                                    const RegionExprs &region,
                                    MLIRContext *ctx) {
  SmallVector<AffineExpr> results;
  for (AffineExpr e : region.starts)
    results.push_back(simplifyAffineExpr(e, numDims, numSymbols));
  for (AffineExpr e : region.extents)
    results.push_back(simplifyAffineExpr(e, numDims, numSymbols));
  return AffineMap::get(numDims, numSymbols, results, ctx);
}

static bool sameName(const OpAsmParser::UnresolvedOperand &a,
                     const OpAsmParser::UnresolvedOperand &b) {
  return a.name == b.name && a.number == b.number;
}

static unsigned
internName(SmallVectorImpl<OpAsmParser::UnresolvedOperand> &names,
           const OpAsmParser::UnresolvedOperand &name) {
  for (auto [i, existing] : llvm::enumerate(names))
    if (sameName(existing, name))
      return i;
  names.push_back(name);
  return names.size() - 1;
}

ParseResult mlir::tir::parseAffineExprOfSSAIdsInto(
    OpAsmParser &parser,
    SmallVectorImpl<OpAsmParser::UnresolvedOperand> &dimNames,
    SmallVectorImpl<OpAsmParser::UnresolvedOperand> &symNames,
    AffineExpr &expr) {
  SmallVector<OpAsmParser::UnresolvedOperand> localDims, localSyms;
  if (parser.parseAffineExprOfSSAIds(localDims, localSyms, expr))
    return failure();
  MLIRContext *ctx = parser.getContext();
  SmallVector<AffineExpr> dimRepl, symRepl;
  for (auto &name : localDims)
    dimRepl.push_back(getAffineDimExpr(internName(dimNames, name), ctx));
  for (auto &name : localSyms)
    symRepl.push_back(getAffineSymbolExpr(internName(symNames, name), ctx));
  expr = expr.replaceDimsAndSymbols(dimRepl, symRepl);
  return success();
}

ParseResult mlir::tir::parseRegionOfSSAIds(
    OpAsmParser &parser,
    SmallVectorImpl<OpAsmParser::UnresolvedOperand> &dimNames,
    RegionExprs &region) {
  SmallVector<OpAsmParser::UnresolvedOperand> symNames;
  auto parseOne = [&]() -> ParseResult {
    AffineExpr lo, hi;
    if (parseAffineExprOfSSAIdsInto(parser, dimNames, symNames, lo))
      return failure();
    if (succeeded(parser.parseOptionalColon())) {
      if (parseAffineExprOfSSAIdsInto(parser, dimNames, symNames, hi))
        return failure();
    } else {
      hi = lo + 1;
    }
    region.starts.push_back(lo);
    region.extents.push_back(hi - lo);
    return success();
  };
  SMLoc loc = parser.getCurrentLocation();
  if (parser.parseCommaSeparatedList(OpAsmParser::Delimiter::Square, parseOne))
    return failure();
  if (!symNames.empty())
    return parser.emitError(loc, "a buffer region is written over iteration "
                                 "variables only; symbols are not allowed");
  // The extents are only known once every dimension has been seen.
  for (AffineExpr &e : region.extents)
    e = simplifyAffineExpr(e, dimNames.size(), 0);
  return success();
}

void mlir::tir::printRegion(OpAsmPrinter &p, AffineMap regionMap,
                            ValueRange dims) {
  RegionExprs region = splitRegionMap(regionMap);
  p << '[';
  for (unsigned i = 0, e = region.starts.size(); i < e; ++i) {
    if (i)
      p << ", ";
    p.printAffineExprOfSSAIds(region.starts[i], dims, {});
    auto ext = dyn_cast<AffineConstantExpr>(region.extents[i]);
    if (ext && ext.getValue() == 1)
      continue;
    p << " : ";
    p.printAffineExprOfSSAIds(
        simplifyAffineExpr(region.starts[i] + region.extents[i],
                           regionMap.getNumDims(), regionMap.getNumSymbols()),
        dims, {});
  }
  p << ']';
}

//===----------------------------------------------------------------------===//
// Predicates
//===----------------------------------------------------------------------===//

ParseResult mlir::tir::parseConstraintsOfSSAIds(
    OpAsmParser &parser,
    SmallVectorImpl<OpAsmParser::UnresolvedOperand> &dimNames,
    SmallVectorImpl<OpAsmParser::UnresolvedOperand> &symNames,
    SmallVectorImpl<AffineExpr> &constraints, SmallVectorImpl<bool> &eqFlags) {
  return parser.parseCommaSeparatedList([&]() -> ParseResult {
    AffineExpr lhs, rhs;
    if (parseAffineExprOfSSAIdsInto(parser, dimNames, symNames, lhs))
      return failure();
    enum { LT, LE, GT, GE, EQ } cmp;
    SMLoc loc = parser.getCurrentLocation();
    if (succeeded(parser.parseOptionalLess()))
      cmp = succeeded(parser.parseOptionalEqual()) ? LE : LT;
    else if (succeeded(parser.parseOptionalGreater()))
      cmp = succeeded(parser.parseOptionalEqual()) ? GE : GT;
    else if (succeeded(parser.parseOptionalEqual())) {
      if (parser.parseEqual())
        return failure();
      cmp = EQ;
    } else
      return parser.emitError(loc, "expected a comparison (<, <=, >, >=, ==) "
                                   "in a block predicate");
    if (parseAffineExprOfSSAIdsInto(parser, dimNames, symNames, rhs))
      return failure();
    switch (cmp) {
    case LT:
      constraints.push_back(rhs - lhs - 1);
      break;
    case LE:
      constraints.push_back(rhs - lhs);
      break;
    case GT:
      constraints.push_back(lhs - rhs - 1);
      break;
    case GE:
    case EQ:
      constraints.push_back(lhs - rhs);
      break;
    }
    eqFlags.push_back(cmp == EQ);
    return success();
  });
}

/// Splits the top-level sum `e` into its constant and the other terms.
static void splitConstant(AffineExpr e, SmallVectorImpl<AffineExpr> &terms,
                          int64_t &constant) {
  if (e.getKind() == AffineExprKind::Add) {
    auto bin = cast<AffineBinaryOpExpr>(e);
    splitConstant(bin.getLHS(), terms, constant);
    splitConstant(bin.getRHS(), terms, constant);
    return;
  }
  if (auto c = dyn_cast<AffineConstantExpr>(e)) {
    constant += c.getValue();
    return;
  }
  terms.push_back(e);
}

static bool isNegativeTerm(AffineExpr e) {
  if (e.getKind() != AffineExprKind::Mul)
    return false;
  auto c = dyn_cast<AffineConstantExpr>(cast<AffineBinaryOpExpr>(e).getRHS());
  return c && c.getValue() < 0;
}

void mlir::tir::printConstraints(OpAsmPrinter &p, IntegerSet set,
                                 ValueRange dims, ValueRange syms) {
  MLIRContext *ctx = set.getContext();
  for (unsigned i = 0, e = set.getNumConstraints(); i < e; ++i) {
    if (i)
      p << ", ";
    SmallVector<AffineExpr> terms;
    int64_t constant = 0;
    splitConstant(set.getConstraint(i), terms, constant);
    AffineExpr rest = getAffineConstantExpr(0, ctx);
    for (AffineExpr t : terms)
      rest = rest + t;
    bool allNegative = !terms.empty() && llvm::all_of(terms, isNegativeTerm);
    auto simplify = [&](AffineExpr x) {
      return simplifyAffineExpr(x, set.getNumDims(), set.getNumSymbols());
    };
    if (set.isEq(i)) {
      // rest + c == 0  <=>  rest == -c
      p.printAffineExprOfSSAIds(simplify(rest), dims, syms);
      p << " == " << -constant;
    } else if (allNegative) {
      // rest + c >= 0  <=>  -rest < c + 1
      p.printAffineExprOfSSAIds(simplify(-rest), dims, syms);
      p << " < " << constant + 1;
    } else {
      // rest + c >= 0  <=>  rest >= -c
      p.printAffineExprOfSSAIds(simplify(rest), dims, syms);
      p << " >= " << -constant;
    }
  }
}

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
  return llvm::StringSwitch<bool>(scope)
      .Cases({"global", "shared", "shared.dyn", "local", "warp"}, true)
      .Cases({"wmma.matrix_a", "wmma.matrix_b", "wmma.accumulator"}, true)
      .Default(false);
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
  os << "the memory space of a tir buffer is its storage scope, one of "
        "\"global\", \"shared\", \"shared.dyn\", \"local\", \"warp\", "
        "\"wmma.matrix_a\", \"wmma.matrix_b\", \"wmma.accumulator\"; got "
     << space;
  return msg;
}
