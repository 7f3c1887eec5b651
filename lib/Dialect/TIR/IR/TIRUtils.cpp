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
