//===- AutoTensorizeMapping.cpp - TVM's get_auto_tensorize_mapping_info ---===//
//
// Auto-tensorization's question: can this block (a conv2d, a batched
// matmul) become the intrinsic's computation after its iteration space is
// reshaped? The bodies are compared ignoring indices; then each block
// variable goes to the description variable that indexes the same buffers
// (n, h, w of a conv2d index its output and its input, as the
// description's i indexes C and A), and the variables going to one
// description variable are fused (n * 256 + h * 16 + w). The result is the
// index map transform_block_layout takes.
//
//===----------------------------------------------------------------------===//

#include "TensorizeMatch.h"

#include "TensorIR/Dialect/TIR/Analysis/IndexValues.h"
#include "TensorIR/Dialect/TIR/Arith/Simplify.h"
#include "TensorIR/Dialect/TIR/Schedule/Analysis.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;
using namespace mlir::tir;

namespace {

/// One side of the comparison: a block and its indices as expressions over
/// its iteration variables (dimension i: variable i).
struct Side {
  BlockOp block;

  /// The access `indices` / `map` over the block's variables, or failure
  /// when an index is computed from something else.
  FailureOr<SmallVector<AffineExpr>> exprs(ValueRange operands, AffineMap map) {
    MLIRContext *ctx = block.getContext();
    SmallVector<AffineExpr> replacements;
    for (Value v : operands) {
      auto arg = dyn_cast<BlockArgument>(v);
      if (!arg || arg.getOwner() != block.getBody() ||
          arg.getArgNumber() >= block.getNumIterVars())
        return failure();
      replacements.push_back(getAffineDimExpr(arg.getArgNumber(), ctx));
    }
    SmallVector<AffineExpr> out;
    for (AffineExpr e : getExprsOverInputs(map))
      out.push_back(e.replaceDims(replacements));
    return out;
  }
};

/// TVM's AutoTensorizeComparator, over values.
class Comparator {
public:
  Comparator(BlockOp lhs, BlockOp rhs)
      : lhs{lhs}, rhs{rhs},
        lhsRanges(getValueRanges(
            lhs.getBody()->getArguments().take_front(lhs.getNumIterVars()))) {}

  Side lhs, rhs;
  /// The ranges of the block's iteration variables.
  SmallVector<std::optional<Interval>> lhsRanges;
  /// The buffer pairs, in the order first met, with their indices.
  SmallVector<std::pair<Value, Value>> pairs;
  DenseMap<Value, SmallVector<AffineExpr>> lhsIndices, rhsIndices;
  std::string why;

  bool fail(const Twine &reason) {
    if (why.empty())
      why = reason.str();
    return false;
  }

  /// TVM's SimplifyNonTrivialExpr: simplified with the variables' ranges,
  /// unless that leaves a constant (a unit batch's `n` stays `n`).
  AffineExpr simplifyIndex(AffineExpr e) {
    unsigned n = lhs.block.getNumIterVars();
    AffineExpr s = simplifyWithRanges(e, lhsRanges, n, 0);
    return isa<AffineConstantExpr>(s) ? e : s;
  }

  bool access(Value lb, ValueRange lops, AffineMap lmap, Value rb,
              ValueRange rops, AffineMap rmap) {
    auto lt = cast<MemRefType>(lb.getType()),
         rt = cast<MemRefType>(rb.getType());
    if (lt.getElementType() != rt.getElementType())
      return fail("a buffer's element type differs from the description's");
    auto known = llvm::find_if(pairs, [&](auto &p) { return p.second == rb; });
    if (known != pairs.end() && known->first != lb)
      return fail("two buffers stand for one of the description's");
    FailureOr<SmallVector<AffineExpr>> le = lhs.exprs(lops, lmap);
    FailureOr<SmallVector<AffineExpr>> re = rhs.exprs(rops, rmap);
    if (failed(le) || failed(re))
      return fail("an index is not an expression of the iteration variables");
    for (AffineExpr &e : *le)
      e = simplifyIndex(e);
    if (known == pairs.end()) {
      if (lhsIndices.count(lb))
        return fail("a buffer stands for two of the description's");
      for (AffineExpr e : *re)
        if (!isa<AffineDimExpr>(e) &&
            !(re->size() == 1 && e == getAffineConstantExpr(0, e.getContext())))
          return fail("a description index is not an iteration variable");
      pairs.emplace_back(lb, rb);
      lhsIndices[lb] = *le;
      rhsIndices[rb] = *re;
      return true;
    }
    if (*le != lhsIndices[lb] || *re != rhsIndices[rb])
      return fail("a buffer is indexed differently in two places");
    return true;
  }

  bool value(Value l, Value r) {
    Operation *lop = l.getDefiningOp(), *rop = r.getDefiningOp();
    if (!lop || !rop)
      return fail("a value is not computed in the block's body");
    if (isa<IntegerType>(l.getType()) != isa<IntegerType>(r.getType()) ||
        isa<FloatType>(l.getType()) != isa<FloatType>(r.getType()))
      return fail("a value is an integer on one side and not on the other");
    if (auto ll = dyn_cast<LoadOp>(lop)) {
      auto rl = dyn_cast<LoadOp>(rop);
      if (!rl)
        return fail("a load stands for another operation");
      return access(ll.getBuffer(), ll.getIndices(), ll.getMap(),
                    rl.getBuffer(), rl.getIndices(), rl.getMap());
    }
    if (auto lc = dyn_cast<arith::ConstantOp>(lop)) {
      auto rc = dyn_cast<arith::ConstantOp>(rop);
      if (!rc)
        return fail("a constant stands for another operation");
      auto li = dyn_cast<IntegerAttr>(lc.getValue());
      auto ri = dyn_cast<IntegerAttr>(rc.getValue());
      if (li && ri)
        return li.getValue().getSExtValue() == ri.getValue().getSExtValue() ||
               fail("the constants differ");
      auto lf = dyn_cast<FloatAttr>(lc.getValue());
      auto rf = dyn_cast<FloatAttr>(rc.getValue());
      if (lf && rf)
        return lf.getValueAsDouble() == rf.getValueAsDouble() ||
               fail("the constants differ");
      return fail("the constants differ");
    }
    // Conversions compare their operands (their widths may differ).
    bool lcast = isa<CastOpInterface>(lop), rcast = isa<CastOpInterface>(rop);
    if (lcast || rcast) {
      if (!(lcast && rcast) || lop->getNumOperands() != 1 ||
          rop->getNumOperands() != 1)
        return fail("a conversion stands for another operation");
      return value(lop->getOperand(0), rop->getOperand(0));
    }
    if (lop->getName() != rop->getName() ||
        lop->getNumOperands() != rop->getNumOperands() ||
        lop->getNumRegions() != 0 || rop->getNumRegions() != 0 ||
        lop->getAttrDictionary() != rop->getAttrDictionary())
      return fail("'" + lop->getName().getStringRef() + "' stands for '" +
                  rop->getName().getStringRef() + "'");
    for (auto [a, b] : llvm::zip(lop->getOperands(), rop->getOperands()))
      if (!value(a, b))
        return false;
    return true;
  }

  /// The block's one store (its init aside); null when it has another
  /// number of them, or ops with regions.
  static StoreOp theStore(BlockOp block) {
    StoreOp found;
    for (Operation &op : *block.getBody()) {
      if (isa<InitOp>(op))
        continue;
      if (op.getNumRegions() != 0)
        return {};
      if (auto store = dyn_cast<StoreOp>(op)) {
        if (found)
          return {};
        found = store;
      }
    }
    return found;
  }

  bool run() {
    for (BlockOp b : {lhs.block, rhs.block})
      for (unsigned i = 0; i < b.getNumIterVars(); ++i)
        if (b.getIterType(i) != IterType::Spatial &&
            b.getIterType(i) != IterType::Reduce)
          return fail("an iteration variable is neither spatial nor reduce");
    StoreOp ls = theStore(lhs.block), rs = theStore(rhs.block);
    if (!ls || !rs)
      return fail("a body is not one store");
    return access(ls.getBuffer(), ls.getIndices(), ls.getMap(), rs.getBuffer(),
                  rs.getIndices(), rs.getMap()) &&
           value(ls.getValue(), rs.getValue());
  }
};

} // namespace

FailureOr<AutoTensorizeMapping>
mlir::tir::getAutoTensorizeMapping(BlockOp block, func::FuncOp desc,
                                   Refusal &why) {
  BlockOp descBlock = sched::getIntrinsicComputeBlock(desc);
  if (!descBlock)
    return why.set(block, "the description has no single root block holding "
                          "a block");
  Comparator cmp(block, descBlock);
  if (!cmp.run())
    return why.set(block, "the block does not compute what the description "
                          "does: " +
                              cmp.why);

  // Which buffers each variable indexes, as a mask over the buffer pairs.
  unsigned numIters = block.getNumIterVars();
  unsigned numDesc = descBlock.getNumIterVars();
  SmallVector<uint64_t> lhsMask(numIters, 0), rhsMask(numDesc, 0);
  if (cmp.pairs.size() > 64)
    return why.set(block, "the description has more than 64 buffers");
  SmallVector<std::optional<Interval>> domains;
  SmallVector<AffineExpr> points;
  for (unsigned i = 0; i < numIters; ++i) {
    std::optional<int64_t> lo = block.getConstantDomainLower(i);
    std::optional<int64_t> hi = block.getConstantDomainUpper(i);
    domains.push_back(lo && hi && *lo < *hi
                          ? std::optional<Interval>(Interval{*lo, *hi - 1})
                          : std::nullopt);
    std::optional<int64_t> point = block.getSingleDomainValue(i);
    points.push_back(point ? getAffineConstantExpr(*point, block.getContext())
                           : getAffineDimExpr(i, block.getContext()));
  }
  for (auto [k, pair] : llvm::enumerate(cmp.pairs)) {
    uint64_t bit = uint64_t(1) << k;
    for (AffineExpr e : cmp.rhsIndices[pair.second])
      if (auto d = dyn_cast<AffineDimExpr>(e))
        rhsMask[d.getPosition()] |= bit;
    // A variable of one value indexes nothing (`h + rh` over rh in [0, 1)
    // is h), as TVM's indices simplified with the iteration domains.
    for (AffineExpr raw : cmp.lhsIndices[pair.first]) {
      // (An index that is the variable alone stays: it indexes the buffer.)
      AffineExpr e =
          simplifyWithRanges(raw.replaceDims(points), domains, numIters, 0);
      if (isa<AffineConstantExpr>(e))
        e = raw;
      e.walk([&](AffineExpr sub) {
        if (auto d = dyn_cast<AffineDimExpr>(sub))
          lhsMask[d.getPosition()] |= bit;
      });
    }
  }
  // Each block variable goes to the one description variable with its
  // mask and kind; the ones going to a description variable are fused in
  // order (the outer times the inner's extent plus the inner).
  MLIRContext *ctx = block.getContext();
  SmallVector<AffineExpr> unmapped;
  SmallVector<AffineExpr> fused(numDesc, getAffineConstantExpr(0, ctx));
  SmallVector<bool> used(numDesc, false);
  for (unsigned i = 0; i < numIters; ++i) {
    SmallVector<unsigned> candidates;
    for (unsigned r = 0; r < numDesc; ++r)
      if (lhsMask[i] == rhsMask[r] &&
          block.getIterType(i) == descBlock.getIterType(r))
        candidates.push_back(r);
    AffineExpr var = getAffineDimExpr(i, ctx);
    if (candidates.empty()) {
      unmapped.push_back(var);
      continue;
    }
    if (candidates.size() > 1)
      return why.set(block, "iteration variable " + Twine(i) +
                                " could go to more than one of the "
                                "description's");
    std::optional<int64_t> lo = block.getConstantDomainLower(i);
    std::optional<int64_t> hi = block.getConstantDomainUpper(i);
    if (!lo || !hi)
      return why.set(block, "an iteration domain is not constant");
    unsigned r = candidates.front();
    fused[r] = fused[r] * (*hi - *lo) + var;
    used[r] = true;
  }
  for (unsigned r = 0; r < numDesc; ++r)
    if (!used[r])
      return why.set(block, "description variable " + Twine(r) +
                                " gets no iteration variable of the block");
  SmallVector<AffineExpr> results(unmapped);
  for (AffineExpr e : fused)
    results.push_back(simplifyAffineExpr(e, numIters, 0));
  AutoTensorizeMapping out;
  out.mapping = AffineMap::get(numIters, 0, results, ctx);
  out.bufferMap = cmp.pairs;
  out.descBlock = descBlock;
  return out;
}
