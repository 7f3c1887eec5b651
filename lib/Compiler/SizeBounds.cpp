//===- SizeBounds.cpp - the sizes a function needs from its buffers -------===//
//
// A linear form over "size symbols" (a scalar parameter's value, a buffer
// parameter's dimension) is computed for the largest index of every
// unguarded access to a buffer parameter: index expressions are linearized
// over their operands, and each operand is replaced by the end of its range
// (a loop's bounds, a block iteration variable's domain) that maximizes the
// index. The buffer's dimension must then be larger than that index.
//
//===----------------------------------------------------------------------===//

#include "SizeBounds.h"

#include "TensorIR/Dialect/TIR/IR/ShapeVars.h"
#include "TensorIR/Dialect/TIR/IR/TIRDialect.h"
#include "TensorIR/Dialect/TIR/IR/TIROps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/AffineExpr.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/StringMap.h"

using namespace mlir;
using namespace mlir::tir;
namespace rt = mlir::tir::runtime;

namespace {

/// constant + sum(coeff * symbol), a symbol being (argument, dimension or
/// -1); nullopt-valued helpers below mean "not linear" or "overflow".
struct Linear {
  int64_t constant = 0;
  llvm::MapVector<std::pair<unsigned, int>, int64_t> terms;

  static Linear of(int64_t c) {
    Linear l;
    l.constant = c;
    return l;
  }
};

std::optional<Linear> scaled(const Linear &l, int64_t k) {
  Linear r;
  if (__builtin_mul_overflow(l.constant, k, &r.constant))
    return std::nullopt;
  for (auto &[sym, c] : l.terms) {
    int64_t p;
    if (__builtin_mul_overflow(c, k, &p))
      return std::nullopt;
    if (p)
      r.terms[sym] = p;
  }
  return r;
}

std::optional<Linear> added(const Linear &a, const Linear &b) {
  Linear r = a;
  if (__builtin_add_overflow(r.constant, b.constant, &r.constant))
    return std::nullopt;
  for (auto &[sym, c] : b.terms) {
    int64_t s;
    if (__builtin_add_overflow(r.terms.lookup(sym), c, &s))
      return std::nullopt;
    r.terms[sym] = s;
  }
  r.terms.remove_if([](const auto &entry) { return entry.second == 0; });
  return r;
}

class Deriver {
public:
  explicit Deriver(func::FuncOp func) : func(func) {}

  std::vector<std::vector<rt::SizeBound>> run();

private:
  /// A value known at the call: a constant, a scalar parameter, the size
  /// of a buffer parameter's dimension.
  std::optional<Linear> sizeValue(Value v);
  std::optional<Linear> sizeValue(OpFoldResult r);
  /// [lowest, highest] of an index operand.
  std::optional<std::pair<Linear, Linear>> range(Value v);
  /// The highest (or lowest) value of `expr` over `operands` (dims then
  /// symbols).
  std::optional<Linear> extreme(AffineExpr expr, ValueRange operands,
                                unsigned numDims, bool highest);
  /// Records that the extent `upper` of a loop or domain must not be
  /// negative, when it is a scalar parameter.
  void addExtent(OpFoldResult upper, const std::string &where);
  bool isUnguarded(Operation *access);
  void addAccess(Operation *access, Value buffer, AffineMap map,
                 ValueRange operands);
  /// Equal bounds from the parameters' tir.dim_vars.
  void addDimVars();

  func::FuncOp func;
  std::vector<std::vector<rt::SizeBound>> bounds;
};

} // namespace

std::optional<Linear> Deriver::sizeValue(Value v) {
  if (auto arg = dyn_cast<BlockArgument>(v)) {
    if (arg.getOwner() != &func.getBody().front() ||
        !isa<IndexType, IntegerType>(arg.getType()))
      return std::nullopt;
    Linear l;
    l.terms[{arg.getArgNumber(), -1}] = 1;
    return l;
  }
  if (auto c = getConstantIntValue(v))
    return Linear::of(*c);
  if (auto dim = v.getDefiningOp<memref::DimOp>()) {
    auto source = dyn_cast<BlockArgument>(dim.getSource());
    std::optional<int64_t> index = dim.getConstantIndex();
    if (!source || source.getOwner() != &func.getBody().front() || !index)
      return std::nullopt;
    Linear l;
    l.terms[{source.getArgNumber(), static_cast<int>(*index)}] = 1;
    return l;
  }
  return std::nullopt;
}

std::optional<Linear> Deriver::sizeValue(OpFoldResult r) {
  if (auto attr = dyn_cast<Attribute>(r)) {
    if (auto i = dyn_cast<IntegerAttr>(attr))
      return Linear::of(i.getInt());
    return std::nullopt;
  }
  return sizeValue(cast<Value>(r));
}

std::optional<std::pair<Linear, Linear>> Deriver::range(Value v) {
  if (auto known = sizeValue(v))
    return std::make_pair(*known, *known);
  auto arg = dyn_cast<BlockArgument>(v);
  if (!arg)
    return std::nullopt;
  Operation *owner = arg.getOwner()->getParentOp();
  OpFoldResult lower, upper;
  if (auto loop = dyn_cast<ForOp>(owner)) {
    lower = loop.getMixedLowerBound();
    upper = loop.getMixedUpperBound();
  } else if (auto block = dyn_cast<BlockOp>(owner)) {
    if (arg.getArgNumber() >= block.getNumIterVars())
      return std::nullopt;
    lower = block.getMixedDomainLower(arg.getArgNumber());
    upper = block.getMixedDomainUpper(arg.getArgNumber());
  } else {
    return std::nullopt;
  }
  auto lo = sizeValue(lower), hi = sizeValue(upper);
  if (!lo || !hi)
    return std::nullopt;
  auto last = added(*hi, Linear::of(-1));
  if (!last)
    return std::nullopt;
  return std::make_pair(*lo, *last);
}

std::optional<Linear> Deriver::extreme(AffineExpr expr, ValueRange operands,
                                       unsigned numDims, bool highest) {
  // Linearize: the coefficient of every operand, and the constant.
  llvm::MapVector<unsigned, int64_t> coeffs;
  int64_t constant = 0;
  std::function<bool(AffineExpr, int64_t)> walk = [&](AffineExpr e,
                                                      int64_t k) -> bool {
    if (auto c = dyn_cast<AffineConstantExpr>(e)) {
      int64_t p;
      return !__builtin_mul_overflow(c.getValue(), k, &p) &&
             !__builtin_add_overflow(constant, p, &constant);
    }
    if (auto d = dyn_cast<AffineDimExpr>(e)) {
      int64_t &slot = coeffs[d.getPosition()];
      return !__builtin_add_overflow(slot, k, &slot);
    }
    if (auto s = dyn_cast<AffineSymbolExpr>(e)) {
      int64_t &slot = coeffs[numDims + s.getPosition()];
      return !__builtin_add_overflow(slot, k, &slot);
    }
    auto bin = cast<AffineBinaryOpExpr>(e);
    if (e.getKind() == AffineExprKind::Add)
      return walk(bin.getLHS(), k) && walk(bin.getRHS(), k);
    if (e.getKind() == AffineExprKind::Mul) {
      AffineExpr factor = bin.getRHS(), other = bin.getLHS();
      if (!isa<AffineConstantExpr>(factor))
        std::swap(factor, other);
      auto c = dyn_cast<AffineConstantExpr>(factor);
      int64_t p;
      return c && !__builtin_mul_overflow(c.getValue(), k, &p) &&
             walk(other, p);
    }
    return false; // floordiv, ceildiv, mod: not linear
  };
  if (!walk(expr, 1))
    return std::nullopt;
  Linear result = Linear::of(constant);
  for (auto [position, coeff] : coeffs) {
    if (coeff == 0)
      continue;
    if (position >= operands.size())
      return std::nullopt;
    auto r = range(operands[position]);
    if (!r)
      return std::nullopt;
    auto term = scaled((coeff > 0) == highest ? r->second : r->first, coeff);
    if (!term)
      return std::nullopt;
    auto sum = added(result, *term);
    if (!sum)
      return std::nullopt;
    result = *sum;
  }
  return result;
}

bool Deriver::isUnguarded(Operation *access) {
  // A load whose value only feeds arith.select is TVM's if_then_else: its
  // index may leave the buffer where the condition is false (as
  // --tir-check-bounds also assumes).
  if (isa<LoadOp>(access) && !access->use_empty() &&
      llvm::all_of(access->getUsers(),
                   [](Operation *user) { return isa<arith::SelectOp>(user); }))
    return false;
  for (Operation *op = access->getParentOp(); op != func;
       op = op->getParentOp()) {
    if (!op)
      return false;
    if (isa<ForOp, InitOp>(op))
      continue;
    auto block = dyn_cast<BlockOp>(op);
    if (!block || block.getPredicate() || block.getCondition())
      return false;
  }
  return true;
}

void Deriver::addAccess(Operation *access, Value buffer, AffineMap map,
                        ValueRange operands) {
  auto param = dyn_cast<BlockArgument>(buffer);
  if (!param || param.getOwner() != &func.getBody().front() ||
      !isUnguarded(access))
    return;
  auto type = cast<MemRefType>(buffer.getType());
  unsigned argNo = param.getArgNumber();
  std::string where = [&] {
    std::string text;
    llvm::raw_string_ostream os(text);
    os << access->getName();
    if (auto block = access->getParentOfType<BlockOp>())
      os << " in block '" << block.getBlockName() << "'";
    return text;
  }();
  auto add = [&](rt::SizeBound::Kind kind, unsigned d, const Linear &form) {
    rt::SizeBound bound;
    bound.kind = kind;
    bound.dim = d;
    bound.constant = form.constant;
    for (auto &[sym, coeff] : form.terms)
      bound.terms.push_back({coeff, sym.first, sym.second});
    bound.where = where;
    if (!llvm::is_contained(bounds[argNo], bound))
      bounds[argNo].push_back(std::move(bound));
  };
  for (unsigned d = 0, e = map.getNumResults(); d < e; ++d) {
    AffineExpr index = map.getResult(d);
    // The lowest index must not be negative (skipped when it is a constant
    // that is not).
    auto low = extreme(index, operands, map.getNumDims(), /*highest=*/false);
    if (low && !(low->terms.empty() && low->constant >= 0))
      add(rt::SizeBound::NonNegative, d, *low);
    auto top = extreme(index, operands, map.getNumDims(), /*highest=*/true);
    if (!top)
      continue;
    auto needed = added(*top, Linear::of(1));
    if (!needed)
      continue;
    // Trivial: a dimension that covers itself, or a constant within a
    // static size.
    if (needed->constant == 0 && needed->terms.size() == 1 &&
        needed->terms.begin()->first ==
            std::make_pair(argNo, static_cast<int>(d)) &&
        needed->terms.begin()->second == 1)
      continue;
    if (needed->terms.empty() && !type.isDynamicDim(d) &&
        needed->constant <= type.getDimSize(d))
      continue;
    if (needed->terms.empty() && needed->constant <= 0)
      continue;
    add(rt::SizeBound::AtLeast, d, *needed);
  }
}

void Deriver::addExtent(OpFoldResult upper, const std::string &where) {
  auto value = dyn_cast<Value>(upper);
  auto arg = value ? dyn_cast<BlockArgument>(value) : BlockArgument();
  if (!arg || arg.getOwner() != &func.getBody().front() ||
      !isa<IndexType, IntegerType>(arg.getType()))
    return;
  rt::SizeBound bound;
  bound.kind = rt::SizeBound::NonNegative;
  bound.terms.push_back({1, arg.getArgNumber(), -1});
  bound.where = where;
  auto &list = bounds[arg.getArgNumber()];
  if (!llvm::is_contained(list, bound))
    list.push_back(std::move(bound));
}

std::vector<std::vector<rt::SizeBound>> Deriver::run() {
  bounds.assign(func.getNumArguments(), {});
  func.walk([&](Operation *op) {
    if (auto loop = dyn_cast<ForOp>(op)) {
      StringRef name = loop.getVarName() ? *loop.getVarName() : "";
      addExtent(loop.getMixedUpperBound(),
                name.empty() ? "a loop" : ("loop '" + name + "'").str());
    } else if (auto block = dyn_cast<BlockOp>(op)) {
      for (unsigned i = 0, e = block.getNumIterVars(); i < e; ++i)
        addExtent(block.getMixedDomainUpper(i),
                  "the domain of block '" + block.getBlockName().str() + "'");
    }
    if (auto load = dyn_cast<LoadOp>(op))
      addAccess(op, load.getBuffer(), load.getMap(), load.getIndices());
    else if (auto store = dyn_cast<StoreOp>(op))
      addAccess(op, store.getBuffer(), store.getMap(), store.getIndices());
  });
  addDimVars();
  return bounds;
}

void Deriver::addDimVars() {
  // The size every dimension named `name` must have: the scalar parameter
  // of that name, else the first dimension named so.
  llvm::StringMap<rt::SizeTerm> sizeOf;
  // Scalars named by what is no variable of theirs (a shape parameter's
  // dimensions: "n * 2", "4", a variable a scalar before defines): each is
  // checked against the value its name has.
  SmallVector<std::pair<unsigned, AffineSize>> namedScalars;
  for (unsigned i = 0, e = func.getNumArguments(); i < e; ++i) {
    auto name = func.getArgAttrOfType<StringAttr>(i, TIRDialect::kNameAttrName);
    if (!name || !isa<IndexType, IntegerType>(func.getArgument(i).getType()))
      continue;
    std::optional<AffineSize> form = parseAffineSize(name.getValue());
    if (form && !form->isVariable())
      namedScalars.emplace_back(i, *form);
    else if (!sizeOf.try_emplace(name.getValue(), rt::SizeTerm{1, i, -1})
                  .second &&
             form)
      namedScalars.emplace_back(i, *form);
  }
  // Each named dimension (argument, dimension, its name's affine form).
  SmallVector<std::tuple<unsigned, unsigned, StringRef, AffineSize>> named;
  for (unsigned i = 0, e = func.getNumArguments(); i < e; ++i)
    if (auto vars =
            func.getArgAttrOfType<ArrayAttr>(i, TIRDialect::kDimVarsAttrName))
      for (auto [d, attr] : llvm::enumerate(vars)) {
        auto name = dyn_cast<StringAttr>(attr);
        std::optional<AffineSize> form =
            name ? parseAffineSize(name.getValue()) : std::nullopt;
        if (form && !form->terms.empty())
          named.emplace_back(i, d, name.getValue(), *form);
      }
  auto addEqual = [&](unsigned i, rt::SizeBound bound) {
    if (!llvm::is_contained(bounds[i], bound))
      bounds[i].push_back(std::move(bound));
  };
  // A variable's later dimensions equal its first; then a dimension named
  // by an affine form of variables ("n + m", "h - 2") holds exactly that
  // many elements.
  for (auto &[i, d, name, form] : named) {
    if (!form.isVariable())
      continue;
    rt::SizeTerm self{1, i, static_cast<int>(d)};
    auto [it, first] = sizeOf.try_emplace(name, self);
    if (first)
      continue;
    rt::SizeBound bound;
    bound.kind = rt::SizeBound::Equal;
    bound.dim = d;
    bound.terms.push_back(it->second);
    bound.where = name.str();
    addEqual(i, std::move(bound));
  }
  // The Equal bound `form` gives (dimension `dim` of a buffer, unused for a
  // scalar), when every variable it names has a size.
  auto equalTo = [&](const AffineSize &form, uint32_t dim,
                     StringRef where) -> std::optional<rt::SizeBound> {
    rt::SizeBound bound;
    bound.kind = rt::SizeBound::Equal;
    bound.dim = dim;
    bound.constant = form.constant;
    for (auto [var, coeff] : form.terms) {
      auto it = sizeOf.find(var);
      if (it == sizeOf.end())
        return std::nullopt;
      rt::SizeTerm term = it->second;
      term.coeff *= coeff;
      bound.terms.push_back(term);
    }
    bound.where = where.str();
    return bound;
  };
  for (auto &[i, d, name, form] : named)
    if (!form.isVariable())
      if (std::optional<rt::SizeBound> bound = equalTo(form, d, name))
        addEqual(i, std::move(*bound));
  for (auto &[i, form] : namedScalars)
    if (std::optional<rt::SizeBound> bound = equalTo(form, 0, form.str()))
      addEqual(i, std::move(*bound));
}

std::vector<std::vector<rt::SizeBound>>
mlir::tir::deriveSizeBounds(func::FuncOp func) {
  return Deriver(func).run();
}
