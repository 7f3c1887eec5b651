//===- FlattenExpr.cpp - expressions of structural equality -------------===//
//
// The Flattener's expression side: values become canonical nodes (index
// arithmetic in linear normal form, other ops as atoms over their operands),
// buffer accesses and regions nodes over them.
//
//===----------------------------------------------------------------------===//

#include "Flattener.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;
using namespace mlir::tir;
using namespace mlir::tir::detail;

bool mlir::tir::detail::isStatement(Operation *op) {
  if (op->getNumRegions() != 0 || op->getNumResults() == 0 ||
      op->hasTrait<OpTrait::IsTerminator>())
    return true;
  if (isa<AllocBufferOp, MatchBufferOp>(op))
    return true;
  if (isMemoryEffectFree(op))
    return false;
  auto iface = dyn_cast<MemoryEffectOpInterface>(op);
  if (!iface)
    return true;
  SmallVector<MemoryEffects::EffectInstance> effects;
  iface.getEffects(effects);
  return !llvm::all_of(effects, [](const MemoryEffects::EffectInstance &e) {
    return isa<MemoryEffects::Read>(e.getEffect());
  });
}

//===----------------------------------------------------------------------===//
// Variables and expressions
//===----------------------------------------------------------------------===//

const Node *
Flattener::define(Value v, std::optional<std::pair<int64_t, int64_t>> range) {
  const Node *var = table.getVar(vars.size(), range);
  vars.push_back(v);
  values[v] = var;
  return var;
}

std::optional<std::pair<int64_t, int64_t>>
Flattener::rangeOf(OpFoldResult lower, OpFoldResult upper) {
  std::optional<int64_t> lo = getConstantIntValue(lower);
  std::optional<int64_t> hi = getConstantIntValue(upper);
  if (!lo || !hi || *hi <= *lo)
    return std::nullopt;
  return std::make_pair(*lo, *hi - 1);
}

const Node *Flattener::expr(Value v) {
  if (auto it = values.find(v); it != values.end())
    return it->second;
  Operation *def = v.getDefiningOp();
  if (!def || isStatement(def)) {
    // Not defined by the statements walked so far: a free value.
    if (options.mapFreeVars)
      return define(v);
    const Node *free = table.getFreeVar(v.getAsOpaquePointer());
    values[v] = free;
    return free;
  }
  const Node *n = exprOp(def, cast<OpResult>(v).getResultNumber());
  values[v] = n;
  return n;
}

SmallVector<const Node *> Flattener::exprs(ValueRange range) {
  SmallVector<const Node *> nodes;
  for (Value v : range)
    nodes.push_back(expr(v));
  return nodes;
}

const Node *Flattener::indexExpr(OpFoldResult ofr) {
  if (auto attr = dyn_cast<Attribute>(ofr)) {
    if (auto i = dyn_cast<IntegerAttr>(attr))
      return table.constant(i.getInt());
    return table.atom(table.getAttr(attr));
  }
  return table.asSum(expr(cast<Value>(ofr)));
}

DictionaryAttr Flattener::attributes(Operation *op,
                                     ArrayRef<StringRef> handled) {
  SmallVector<NamedAttribute> kept;
  for (NamedAttribute attr : op->getAttrDictionary()) {
    StringRef name = attr.getName().getValue();
    // linalg caches a named op's indexing maps on the op the first time
    // they are asked for: a cache, not part of the computation.
    if (isNameAttr(name) || llvm::is_contained(handled, name) ||
        name == "linalg.memoized_indexing_maps")
      continue;
    if (auto elements = dyn_cast<ElementsAttr>(attr.getValue());
        elements && options.ignoreTensorValues)
      kept.emplace_back(attr.getName(), TypeAttr::get(elements.getType()));
    else
      kept.push_back(attr);
  }
  return DictionaryAttr::get(op->getContext(), kept);
}

const Node *Flattener::annotations(DictionaryAttr attr) {
  if (!attr)
    attr = DictionaryAttr::get(root->getContext());
  return table.getAttr(attr);
}

const Node *Flattener::exprOp(Operation *op, unsigned result) {
  Value value = op->getResult(result);
  if (value.getType().isIndex())
    return indexOp(op, result);
  if (auto load = dyn_cast<LoadOp>(op))
    return table.getOp(
        "tir.load", attributes(op, {"map"}), value.getType(),
        writesBefore(load),
        {access(expr(load.getBuffer()), load.getMap(), load.getIndices())});
  return table.getOp(op->getName().getStringRef(), attributes(op, {}),
                     value.getType(), result, exprs(op->getOperands()));
}

/// The number of ops before `load` in its block that may write its buffer
/// (stores, ops holding stores, ops with unknown effects). Loads are values
/// compared wherever they are placed, but not across a write: this keeps
/// `%a = load C; store 0, C; store %a, D` apart from the same with the load
/// after the first store.
int64_t Flattener::writesBefore(LoadOp load) {
  Value buffer = load.getBuffer();
  int64_t count = 0;
  for (Operation *op = load->getPrevNode(); op; op = op->getPrevNode()) {
    auto [it, inserted] = writes.try_emplace({op, buffer}, false);
    if (inserted)
      it->second =
          op->walk([&](Operation *nested) {
              return mightHaveEffect<MemoryEffects::Write>(nested, buffer)
                         ? WalkResult::interrupt()
                         : WalkResult::advance();
            }).wasInterrupted();
    count += it->second;
  }
  return count;
}

/// Flattens nested applications of the same unordered operation
/// (`min(a, min(b, c))` is `min(a, b, c)`).
static void spliceOperands(StringRef name, const Node *operand,
                           SmallVectorImpl<const Node *> &out) {
  if (operand->isSum() && operand->value == 0 &&
      operand->children.size() == 1 && operand->coeffs[0] == 1) {
    const Node *atom = operand->children[0];
    if (atom->kind == NodeKind::Apply && atom->value == 1 &&
        atom->str == name) {
      llvm::append_range(out, atom->children);
      return;
    }
  }
  out.push_back(operand);
}

const Node *Flattener::indexOp(Operation *op, unsigned result) {
  auto operand = [&](unsigned i) {
    return table.asSum(expr(op->getOperand(i)));
  };
  auto unordered = [&](StringRef name,
                       ArrayRef<const Node *> operands) -> const Node * {
    SmallVector<const Node *> flat;
    for (const Node *n : operands)
      spliceOperands(name, n, flat);
    if (flat.size() == 1)
      return flat.front();
    return table.atom(table.applyUnordered(name, flat));
  };
  if (auto constant = dyn_cast<arith::ConstantOp>(op))
    if (auto value = dyn_cast<IntegerAttr>(constant.getValue()))
      return table.constant(value.getInt());
  if (isa<arith::AddIOp>(op))
    return table.add(operand(0), operand(1));
  if (isa<arith::SubIOp>(op))
    return table.sub(operand(0), operand(1));
  if (isa<arith::MulIOp>(op))
    return table.mul(operand(0), operand(1));
  if (isa<arith::FloorDivSIOp>(op))
    return table.floorDiv(operand(0), operand(1));
  if (isa<arith::CeilDivSIOp>(op))
    return table.ceilDiv(operand(0), operand(1));
  if (isa<arith::MinSIOp>(op))
    return unordered("min", {operand(0), operand(1)});
  if (isa<arith::MaxSIOp>(op))
    return unordered("max", {operand(0), operand(1)});
  if (auto apply = dyn_cast<affine::AffineApplyOp>(op)) {
    AffineMap map = apply.getAffineMap();
    return table.fromAffine(map.getResult(0), map.getNumDims(),
                            exprs(apply.getMapOperands()));
  }
  if (isa<affine::AffineMinOp, affine::AffineMaxOp>(op)) {
    auto map = op->getAttrOfType<AffineMapAttr>("map").getValue();
    SmallVector<const Node *> inputs = exprs(op->getOperands());
    SmallVector<const Node *> results;
    for (AffineExpr e : map.getResults())
      results.push_back(table.fromAffine(e, map.getNumDims(), inputs));
    return unordered(isa<affine::AffineMinOp>(op) ? "min" : "max", results);
  }
  // Anything else (casts, selects, loads of indices, ...) is an atom.
  SmallVector<const Node *> operands = exprs(op->getOperands());
  return table.atom(
      table.getOp(op->getName().getStringRef(), attributes(op, {}),
                  op->getResult(result).getType(), result, operands));
}

/// A buffer access `buffer[e0, e1, ...]`, the map's results over operands.
const Node *Flattener::access(const Node *buffer, AffineMap map,
                              ValueRange operands) {
  SmallVector<const Node *> inputs = exprs(operands);
  SmallVector<const Node *> indices;
  for (AffineExpr e : map.getResults())
    indices.push_back(table.fromAffine(e, map.getNumDims(), inputs));
  return table.apply("[]", {buffer, table.getList(indices)});
}

/// A buffer region `buffer[lo : hi, e, ...]` from a region map
/// `(start..., extent...)`; a unit extent prints (and compares) as the
/// point, other ranges as `lo : lo + extent`.
const Node *Flattener::region(const Node *buffer, AffineMap map,
                              ArrayRef<const Node *> inputs) {
  unsigned rank = map.getNumResults() / 2;
  SmallVector<const Node *> dims;
  for (unsigned d = 0; d < rank; ++d) {
    const Node *start =
        table.fromAffine(map.getResult(d), map.getNumDims(), inputs);
    const Node *extent =
        table.fromAffine(map.getResult(rank + d), map.getNumDims(), inputs);
    if (extent->getConstant() == 1)
      dims.push_back(start);
    else
      dims.push_back(table.apply(":", {start, table.add(start, extent)}));
  }
  if (map.getNumResults() % 2)
    dims.push_back(table.getStr("<odd region map>"));
  return table.apply("[]", {buffer, table.getList(dims)});
}
