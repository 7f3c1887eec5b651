//===- ShapeVars.cpp - the shape variables that size dimensions -----------===//

#include "TensorIR/Dialect/TIR/IR/ShapeVars.h"

#include "TensorIR/Dialect/TIR/IR/TIRDialect.h"
#include "TensorIR/Dialect/TIR/IR/TIROps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/DestinationStyleOpInterface.h"

using namespace mlir;
using namespace mlir::tir;

/// The dimension of a collapse_shape's source that its dimension `dim` is:
/// the one dynamic dimension of its group, the others being 1; nullopt
/// otherwise.
static std::optional<unsigned> collapsedDim(tensor::CollapseShapeOp collapse,
                                            unsigned dim) {
  RankedTensorType srcType = collapse.getSrcType();
  std::optional<unsigned> only;
  for (int64_t d : collapse.getReassociationIndices()[dim]) {
    if (srcType.isDynamicDim(d)) {
      if (only)
        return std::nullopt;
      only = d;
    } else if (srcType.getDimSize(d) != 1) {
      return std::nullopt;
    }
  }
  return only;
}

Value mlir::tir::getDynamicSize(Value shaped, unsigned dim) {
  // Each step moves to a value with the same dimension, or to its size.
  for (unsigned depth = 0; depth < 64; ++depth) {
    auto type = dyn_cast<ShapedType>(shaped.getType());
    auto result = dyn_cast<OpResult>(shaped);
    if (!type || !type.hasRank() || dim >= type.getRank() ||
        !type.isDynamicDim(dim) || !result)
      return {};
    Operation *op = result.getOwner();
    unsigned resultNumber = result.getResultNumber();
    if (auto call = dyn_cast<CallTirOp>(op))
      return call.getResultDims(resultNumber)[type.getDynamicDimIndex(dim)];
    if (auto empty = dyn_cast<tensor::EmptyOp>(op))
      return empty.getDynamicSize(dim);
    if (auto alloc = dyn_cast<memref::AllocOp>(op))
      return alloc.getDynamicSizes()[type.getDynamicDimIndex(dim)];
    if (auto cast = dyn_cast<tensor::CastOp>(op)) {
      shaped = cast.getSource();
      continue;
    }
    if (auto expand = dyn_cast<tensor::ExpandShapeOp>(op))
      return dyn_cast_if_present<Value>(expand.getMixedOutputShape()[dim]);
    if (auto collapse = dyn_cast<tensor::CollapseShapeOp>(op)) {
      std::optional<unsigned> only = collapsedDim(collapse, dim);
      if (!only)
        return {};
      shaped = collapse.getSrc();
      dim = *only;
      continue;
    }
    auto dps = dyn_cast<DestinationStyleOpInterface>(op);
    if (!dps || resultNumber >= dps.getNumDpsInits())
      return {};
    shaped = dps.getDpsInits()[resultNumber];
  }
  return {};
}

std::string mlir::tir::getShapeVarName(Value shaped, unsigned dim) {
  auto type = dyn_cast<ShapedType>(shaped.getType());
  if (!type || !type.hasRank() || dim >= type.getRank() ||
      !type.isDynamicDim(dim))
    return "";
  // Through the ops to the parameter whose tir.dim_vars names it, or to
  // the size that is the variable.
  Value source = shaped;
  while (auto cast = source.getDefiningOp<tensor::CastOp>())
    source = cast.getSource();
  while (true) {
    if (auto dps = source.getDefiningOp<DestinationStyleOpInterface>()) {
      unsigned k = cast<OpResult>(source).getResultNumber();
      if (k >= dps.getNumDpsInits())
        break;
      source = dps.getDpsInits()[k];
    } else if (auto collapse =
                   source.getDefiningOp<tensor::CollapseShapeOp>()) {
      std::optional<unsigned> only = collapsedDim(collapse, dim);
      if (!only)
        return "";
      source = collapse.getSrc();
      dim = *only;
    } else if (auto composite = source.getDefiningOp<CompositeOp>()) {
      // An operator kept whole: the value its parts give.
      source = composite.getYield()
                   .getValues()[cast<OpResult>(source).getResultNumber()];
    } else if (auto arg = dyn_cast<BlockArgument>(source);
               arg && isa<CompositeOp>(arg.getOwner()->getParentOp())) {
      // Inside one, an input's stand-in: the input.
      source = cast<CompositeOp>(arg.getOwner()->getParentOp())
                   .getInputs()[arg.getArgNumber()];
    } else {
      break;
    }
  }
  if (auto arg = dyn_cast<BlockArgument>(source)) {
    auto func = dyn_cast<FunctionOpInterface>(arg.getOwner()->getParentOp());
    if (!func || arg.getOwner() != &func.getFunctionBody().front())
      return "";
    auto vars = func.getArgAttrOfType<ArrayAttr>(arg.getArgNumber(),
                                                 TIRDialect::kDimVarsAttrName);
    if (!vars || dim >= vars.size())
      return "";
    auto name = dyn_cast<StringAttr>(vars[dim]);
    return name ? name.str() : "";
  }
  // A graph function's result: the variable the callee names it by, as the
  // caller names the argument dimension the callee's parameters call so.
  if (auto call = source.getDefiningOp<func::CallOp>()) {
    auto callee = SymbolTable::lookupNearestSymbolFrom<func::FuncOp>(
        call, call.getCalleeAttr());
    if (!callee || callee.isExternal())
      return "";
    Operation *ret = callee.getFunctionBody().front().getTerminator();
    unsigned k = cast<OpResult>(source).getResultNumber();
    if (k >= ret->getNumOperands())
      return "";
    std::string inner = getShapeVarName(ret->getOperand(k), dim);
    if (inner.empty())
      return "";
    for (unsigned p = 0; p < callee.getNumArguments(); ++p) {
      auto vars =
          callee.getArgAttrOfType<ArrayAttr>(p, TIRDialect::kDimVarsAttrName);
      for (unsigned d = 0; vars && d < vars.size(); ++d) {
        auto name = dyn_cast<StringAttr>(vars[d]);
        if (name && name.getValue() == inner && p < call.getNumOperands())
          return getShapeVarName(call.getOperand(p), d);
      }
    }
    return "";
  }
  return getShapeVarName(getDynamicSize(source, dim));
}

//===----------------------------------------------------------------------===//
// Affine forms of shape variables
//===----------------------------------------------------------------------===//

std::string AffineSize::str() const {
  std::string text;
  for (auto [name, coeff] : terms) {
    int64_t magnitude = coeff < 0 && !text.empty() ? -coeff : coeff;
    if (!text.empty())
      text += coeff < 0 ? " - " : " + ";
    if (magnitude != 1)
      text += std::to_string(magnitude) + " * ";
    text += name;
  }
  if (text.empty())
    return std::to_string(constant);
  if (constant)
    text += (constant < 0 ? " - " : " + ") +
            std::to_string(constant < 0 ? -constant : constant);
  return text;
}

void AffineSize::add(const AffineSize &other, int64_t scale) {
  constant += scale * other.constant;
  for (auto [name, coeff] : other.terms) {
    auto it =
        llvm::find_if(terms, [&](const auto &t) { return t.first == name; });
    if (it == terms.end())
      terms.push_back({name, scale * coeff});
    else
      it->second += scale * coeff;
  }
  llvm::erase_if(terms, [](const auto &t) { return t.second == 0; });
}

namespace {
/// A recursive-descent reader of affine forms: sum := product (('+'|'-')
/// product)*; product := atom ('*' atom)*, at most one atom not a number;
/// atom := name | integer | '(' sum ')' | '-' atom.
struct AffineReader {
  llvm::StringRef text;

  void skip() { text = text.ltrim(); }
  bool eat(char c) {
    skip();
    if (text.empty() || text.front() != c)
      return false;
    text = text.drop_front();
    return true;
  }

  std::optional<AffineSize> atom() {
    skip();
    if (eat('-')) {
      std::optional<AffineSize> inner = atom();
      if (!inner)
        return std::nullopt;
      AffineSize negated;
      negated.add(*inner, -1);
      return negated;
    }
    if (eat('(')) {
      std::optional<AffineSize> inner = sum();
      if (!inner || !eat(')'))
        return std::nullopt;
      return inner;
    }
    if (!text.empty() && llvm::isDigit(text.front())) {
      size_t n = text.find_if_not([](char c) { return llvm::isDigit(c); });
      int64_t value;
      if (text.take_front(n).getAsInteger(10, value))
        return std::nullopt;
      text = text.drop_front(n);
      AffineSize c;
      c.constant = value;
      return c;
    }
    size_t n = text.find_if_not(
        [](char c) { return llvm::isAlnum(c) || c == '_' || c == '.'; });
    if (n == 0 || text.empty() || llvm::isDigit(text.front()))
      return std::nullopt;
    AffineSize v;
    v.terms.push_back({text.take_front(n).str(), 1});
    text = text.drop_front(n);
    return v;
  }

  std::optional<AffineSize> product() {
    std::optional<AffineSize> result = atom();
    while (result && eat('*')) {
      std::optional<AffineSize> factor = atom();
      if (!factor)
        return std::nullopt;
      // One side must be a number.
      if (!factor->terms.empty() && !result->terms.empty())
        return std::nullopt;
      const AffineSize &number = factor->terms.empty() ? *factor : *result;
      AffineSize scaled;
      scaled.add(factor->terms.empty() ? *result : *factor, number.constant);
      result = scaled;
    }
    return result;
  }

  std::optional<AffineSize> sum() {
    std::optional<AffineSize> result = product();
    while (result) {
      int64_t sign;
      if (eat('+'))
        sign = 1;
      else if (eat('-'))
        sign = -1;
      else
        break;
      std::optional<AffineSize> term = product();
      if (!term)
        return std::nullopt;
      result->add(*term, sign);
    }
    return result;
  }
};
} // namespace

std::optional<AffineSize> mlir::tir::parseAffineSize(llvm::StringRef text) {
  AffineReader reader{text};
  std::optional<AffineSize> result = reader.sum();
  reader.skip();
  if (!result || !reader.text.empty())
    return std::nullopt;
  return result;
}

/// The name of the variable `size` is, without affine forms.
static std::string variableName(Value size);

std::optional<AffineSize> mlir::tir::getAffineSize(Value size) {
  if (!size)
    return std::nullopt;
  APInt value;
  if (matchPattern(size, m_ConstantInt(&value))) {
    AffineSize c;
    c.constant = value.getSExtValue();
    return c;
  }
  std::string name = variableName(size);
  if (!name.empty()) {
    // A parameter dimension named by a form is that form.
    if (std::optional<AffineSize> form = parseAffineSize(name))
      return form;
    return std::nullopt;
  }
  Operation *op = size.getDefiningOp();
  if (!op || op->getNumOperands() != 2 ||
      !isa<arith::AddIOp, arith::SubIOp, arith::MulIOp>(op))
    return std::nullopt;
  std::optional<AffineSize> lhs = getAffineSize(op->getOperand(0));
  std::optional<AffineSize> rhs = getAffineSize(op->getOperand(1));
  if (!lhs || !rhs)
    return std::nullopt;
  AffineSize result;
  if (isa<arith::MulIOp>(op)) {
    if (!lhs->terms.empty() && !rhs->terms.empty())
      return std::nullopt;
    bool lhsNumber = lhs->terms.empty();
    result.add(lhsNumber ? *rhs : *lhs,
               lhsNumber ? lhs->constant : rhs->constant);
    return result;
  }
  result.add(*lhs, 1);
  result.add(*rhs, isa<arith::SubIOp>(op) ? -1 : 1);
  return result;
}

std::string mlir::tir::getShapeVarName(Value size) {
  std::string name = variableName(size);
  if (!name.empty())
    return name;
  std::optional<AffineSize> form = getAffineSize(size);
  if (!form || form->terms.empty())
    return "";
  return form->str();
}

static std::string variableName(Value size) {
  if (!size)
    return "";
  if (auto arg = dyn_cast<BlockArgument>(size)) {
    auto func = dyn_cast<FunctionOpInterface>(arg.getOwner()->getParentOp());
    if (!func || arg.getOwner() != &func.getFunctionBody().front())
      return "";
    auto name = func.getArgAttrOfType<StringAttr>(arg.getArgNumber(),
                                                  TIRDialect::kNameAttrName);
    return name ? name.str() : "";
  }
  Value source;
  std::optional<int64_t> index;
  if (auto dim = size.getDefiningOp<tensor::DimOp>()) {
    source = dim.getSource();
    index = dim.getConstantIndex();
  } else if (auto dim = size.getDefiningOp<memref::DimOp>()) {
    source = dim.getSource();
    index = dim.getConstantIndex();
  }
  if (!source || !index || *index < 0)
    return "";
  return getShapeVarName(source, static_cast<unsigned>(*index));
}

llvm::StringMap<Value> mlir::tir::bindShapeVars(FunctionOpInterface func,
                                                ArrayRef<Value> graphValues,
                                                OpBuilder &b, Location loc) {
  llvm::StringMap<Value> sizes;
  Block &entry = func.getFunctionBody().front();
  for (auto [k, value] : llvm::enumerate(graphValues)) {
    auto type = cast<ShapedType>(value.getType());
    if (type.hasStaticShape())
      continue;
    auto had =
        func.getArgAttrOfType<ArrayAttr>(k, TIRDialect::kDimVarsAttrName);
    SmallVector<std::string> names;
    for (int64_t d = 0; d < type.getRank(); ++d) {
      std::string var = getShapeVarName(value, d);
      if (type.isDynamicDim(d) && var.empty() && had && d < had.size())
        if (auto name = dyn_cast<StringAttr>(had[d]))
          var = name.str();
      if (type.isDynamicDim(d) && var.empty())
        var = "d" + std::to_string(k) + "_" + std::to_string(d);
      names.push_back(var);
      if (!var.empty() && !sizes.count(var))
        sizes[var] = memref::DimOp::create(b, loc, entry.getArgument(k), d);
    }
    SmallVector<StringRef> refs(names.begin(), names.end());
    func.setArgAttr(k, TIRDialect::kDimVarsAttrName, b.getStrArrayAttr(refs));
  }
  return sizes;
}
