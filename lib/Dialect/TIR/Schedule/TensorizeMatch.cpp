//===- TensorizeMatch.cpp - a block against an intrinsic's description ---===//
//
// The block's side is "lhs", the description's "rhs", as in TVM. Values of
// the two sides are paired as they are met (loop and iteration variables,
// buffers, computed values); index expressions are compared in one space
// where a paired lhs value stands for its rhs partner.
//
//===----------------------------------------------------------------------===//

#include "TensorizeMatch.h"

#include "Utils.h"

#include "TensorIR/Dialect/TIR/Analysis/AccessRegions.h"
#include "TensorIR/Dialect/TIR/Analysis/IndexValues.h"
#include "TensorIR/Dialect/TIR/Arith/AffineTerms.h"
#include "TensorIR/Dialect/TIR/Arith/Simplify.h"
#include "TensorIR/Dialect/TIR/IR/TIRIndexExpr.h"
#include "TensorIR/Dialect/TIR/IR/TIRUtils.h"

#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Interfaces/CastInterfaces.h"

using namespace mlir;
using namespace mlir::tir;
using namespace mlir::tir::sched;

namespace {

/// An index expression over values (dimension k is inputs[k]).
using IndexExpr = ValueIndexExpr;

/// A buffer region as expressions over values.
struct Region {
  Value buffer;
  SmallVector<IndexExpr> starts, extents;
};

SmallVector<Region> toRegions(ArrayRef<std::pair<Value, RegionExprs>> regions,
                              ArrayRef<Value> inputs) {
  SmallVector<Region> out;
  for (const auto &[buffer, exprs] : regions) {
    Region r{buffer, {}, {}};
    for (AffineExpr e : exprs.starts)
      r.starts.push_back({e, SmallVector<Value>(inputs)});
    for (AffineExpr e : exprs.extents)
      r.extents.push_back({e, SmallVector<Value>(inputs)});
    out.push_back(std::move(r));
  }
  return out;
}

SmallVector<IndexExpr> accessIndices(AffineMap map, ValueRange operands) {
  SmallVector<IndexExpr> out;
  for (AffineExpr e : getExprsOverInputs(map))
    out.push_back({e, SmallVector<Value>(operands)});
  return out;
}

/// Ops compared as statements (in order) rather than through the values
/// they compute.
bool isStatement(Operation &op) {
  // Opaque calls have effects whether or not their result is used.
  return op.getNumResults() == 0 || op.getNumRegions() != 0 ||
         isa<AllocBufferOp, MatchBufferOp, CallOp>(op);
}

SmallVector<Operation *> statements(Block &block) {
  SmallVector<Operation *> out;
  for (Operation &op : block)
    if (isStatement(op))
      out.push_back(&op);
  return out;
}

/// The kind of a scalar type, which conversions keep: TVM compares the
/// type code of converted values, not their width.
int typeClass(Type t) {
  if (t.isIndex())
    return 0;
  if (isa<IntegerType>(t))
    return 1;
  if (isa<FloatType>(t))
    return 2;
  return 3;
}

class Matcher {
public:
  explicit Matcher(Refusal &mismatch) : mismatch(mismatch) {}

  FailureOr<TensorizeMatch> run(BlockOp block, func::FuncOp desc);

private:
  bool fail(Operation *lhsOp, const Twine &message) {
    if (mismatch.message.empty())
      (void)mismatch.set(lhsOp, message);
    return false;
  }

  // Index expressions.
  AffineExpr place(const IndexExpr &e, bool lhs);
  bool sameIndex(const IndexExpr &lhs, const IndexExpr *base,
                 const IndexExpr &rhs);
  std::string show(const IndexExpr &e);

  // Buffers and regions.
  bool pairBuffer(Value lhs, Value rhs, Operation *at);
  bool compareRegion(const Region &lhs, const Region &rhs, bool scope,
                     Operation *at);
  bool compareRegions(ArrayRef<Region> lhs, ArrayRef<Region> rhs, bool scope,
                      StringRef what, Operation *at);
  bool compareAccess(Value lhsBuffer, ArrayRef<IndexExpr> lhs, Value rhsBuffer,
                     ArrayRef<IndexExpr> rhs, Operation *at);

  // Statements and values.
  bool compareBody(Block &lhs, Block &rhs, Operation *at);
  bool compareStatement(Operation *lhs, Operation *rhs);
  bool compareFor(ForOp lhs, ForOp rhs);
  bool compareBlock(BlockOp lhs, BlockOp rhs);
  bool compareValue(Value lhs, Value rhs, Operation *at);
  bool compareGeneric(Operation *lhs, Operation *rhs);
  bool compareBound(OpFoldResult lhs, OpFoldResult rhs, Operation *at);

  /// The first difference found.
  Refusal &mismatch;
  DenseMap<Value, Value> paired;      // lhs value -> rhs value
  DenseMap<Value, Value> bufferOf;    // rhs buffer -> lhs buffer
  DenseMap<Value, Value> rhsBufferOf; // lhs buffer -> rhs buffer
  ExprInputs space{nullptr, {}};
  TensorizeMatch match;
};

AffineExpr Matcher::place(const IndexExpr &e, bool lhs) {
  // Simplified on its own side's ranges first (what TVM's analyzers know).
  AffineExpr simplified = simplifyOverValues(e.expr, e.inputs);
  SmallVector<AffineExpr> dims;
  for (Value v : e.inputs) {
    Value key = v;
    if (lhs)
      if (Value partner = paired.lookup(v))
        key = partner;
    dims.push_back(space.dimOf(key));
  }
  return simplified.replaceDims(dims);
}

std::string Matcher::show(const IndexExpr &e) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << simplifyOverValues(e.expr, e.inputs);
  return s;
}

bool Matcher::sameIndex(const IndexExpr &lhs, const IndexExpr *base,
                        const IndexExpr &rhs) {
  AffineExpr l = place(lhs, /*lhs=*/true);
  if (base)
    l = l - place(*base, /*lhs=*/true);
  AffineExpr r = place(rhs, /*lhs=*/false);
  std::optional<int64_t> d = getConstantDifference(l, r, space.values.size());
  return d && *d == 0;
}

bool Matcher::pairBuffer(Value lhs, Value rhs, Operation *at) {
  if (Value known = bufferOf.lookup(rhs)) {
    if (known == lhs)
      return true;
    return fail(at, "the description's buffer '" + getBufferName(rhs) +
                        "' stands for '" + getBufferName(known) + "' and '" +
                        getBufferName(lhs) + "' here");
  }
  if (Value other = rhsBufferOf.lookup(lhs))
    return fail(at, "buffer '" + getBufferName(lhs) +
                        "' stands for two buffers of the description ('" +
                        getBufferName(other) + "' and '" + getBufferName(rhs) +
                        "')");
  auto lt = cast<MemRefType>(lhs.getType());
  auto rt = cast<MemRefType>(rhs.getType());
  if (lt.getElementType() != rt.getElementType()) {
    std::string s;
    llvm::raw_string_ostream os(s);
    os << "buffer '" << getBufferName(lhs) << "' holds " << lt.getElementType()
       << ", the description's '" << getBufferName(rhs) << "' "
       << rt.getElementType();
    return fail(at, s);
  }
  if (getStorageScope(lt) != getStorageScope(rt))
    return fail(at, "buffer '" + getBufferName(lhs) + "' is in scope '" +
                        getStorageScope(lt) + "', the description's '" +
                        getBufferName(rhs) + "' in '" + getStorageScope(rt) +
                        "'");
  bufferOf[rhs] = lhs;
  rhsBufferOf[lhs] = rhs;
  return true;
}

bool Matcher::compareRegion(const Region &lhs, const Region &rhs, bool scope,
                            Operation *at) {
  if (!pairBuffer(lhs.buffer, rhs.buffer, at))
    return false;
  std::string name = getBufferName(lhs.buffer);
  int offset = (int)lhs.starts.size() - (int)rhs.starts.size();
  if (offset < 0)
    return fail(at, "buffer '" + name +
                        "' has fewer dimensions than the "
                        "description's '" +
                        getBufferName(rhs.buffer) + "'");
  auto isOne = [&](const IndexExpr &e) {
    auto c = dyn_cast<AffineConstantExpr>(simplifyOverValues(e.expr, e.inputs));
    return c && c.getValue() == 1;
  };
  for (int i = 0; i < offset; ++i)
    if (!isOne(lhs.extents[i]))
      return fail(at, "the region of '" + name + "' has extent " +
                          show(lhs.extents[i]) + " in dimension " + Twine(i) +
                          ", which the description does not have (it must "
                          "be 1)");
  for (size_t i = 0; i < rhs.starts.size(); ++i)
    if (!sameIndex(lhs.extents[i + offset], nullptr, rhs.extents[i]))
      return fail(at, "the region of '" + name + "' has extent " +
                          show(lhs.extents[i + offset]) + " in dimension " +
                          Twine(i + offset) + ", the description " +
                          show(rhs.extents[i]));
  auto it = match.bases.find(lhs.buffer);
  if (it == match.bases.end()) {
    if (!scope)
      return fail(at, "buffer '" + name +
                          "' is not in the regions the block lists");
    // The first region of a buffer in the block's own lists is its base;
    // the description's regions start at 0.
    for (size_t i = 0; i < rhs.starts.size(); ++i) {
      auto c = dyn_cast<AffineConstantExpr>(
          simplifyOverValues(rhs.starts[i].expr, rhs.starts[i].inputs));
      if (!c || c.getValue() != 0)
        return fail(at, "the description's region of '" +
                            getBufferName(rhs.buffer) +
                            "' does not start at 0 in dimension " + Twine(i));
    }
    SmallVector<AffineExpr> base;
    for (const IndexExpr &s : lhs.starts) {
      assert(s.inputs == match.inputs && "scope regions over scope inputs");
      base.push_back(s.expr);
    }
    match.bases[lhs.buffer] = std::move(base);
    return true;
  }
  for (int i = 0; i < (int)lhs.starts.size(); ++i) {
    IndexExpr base{it->second[i], match.inputs};
    IndexExpr zero{getAffineConstantExpr(0, lhs.starts[i].expr.getContext()),
                   {}};
    const IndexExpr &expected = i < offset ? zero : rhs.starts[i - offset];
    if (!sameIndex(lhs.starts[i], &base, expected))
      return fail(at, "the region of '" + name + "' starts at " +
                          show(lhs.starts[i]) + " in dimension " + Twine(i) +
                          ", not where the description's does (from the "
                          "block's base " +
                          show(base) + ")");
  }
  return true;
}

bool Matcher::compareRegions(ArrayRef<Region> lhs, ArrayRef<Region> rhs,
                             bool scope, StringRef what, Operation *at) {
  if (lhs.size() != rhs.size())
    return fail(at, "the block " + what + " " + Twine(lhs.size()) +
                        " regions, the description " + Twine(rhs.size()));
  for (auto [l, r] : llvm::zip(lhs, rhs))
    if (!compareRegion(l, r, scope, at))
      return false;
  return true;
}

bool Matcher::compareAccess(Value lhsBuffer, ArrayRef<IndexExpr> lhs,
                            Value rhsBuffer, ArrayRef<IndexExpr> rhs,
                            Operation *at) {
  if (!pairBuffer(lhsBuffer, rhsBuffer, at))
    return false;
  std::string name = getBufferName(lhsBuffer);
  auto it = match.bases.find(lhsBuffer);
  if (it == match.bases.end())
    return fail(at, "buffer '" + name +
                        "' is accessed but not in the block's regions");
  int offset = (int)lhs.size() - (int)rhs.size();
  if (offset < 0)
    return fail(at, "buffer '" + name +
                        "' has fewer dimensions than the "
                        "description's '" +
                        getBufferName(rhsBuffer) + "'");
  for (int i = 0; i < (int)lhs.size(); ++i) {
    IndexExpr base{it->second[i], match.inputs};
    IndexExpr zero{getAffineConstantExpr(0, at->getContext()), {}};
    const IndexExpr &expected = i < offset ? zero : rhs[i - offset];
    if (!sameIndex(lhs[i], &base, expected))
      return fail(at, "index " + Twine(i) + " of '" + name + "' is " +
                          show(lhs[i]) + ", which less the block's base " +
                          show(base) + " is not the description's " +
                          show(expected));
  }
  return true;
}

bool Matcher::compareBody(Block &lhs, Block &rhs, Operation *at) {
  SmallVector<Operation *> l = statements(lhs), r = statements(rhs);
  if (l.size() != r.size())
    return fail(at, "it holds " + Twine(l.size()) +
                        " statements where the description holds " +
                        Twine(r.size()));
  for (auto [a, b] : llvm::zip(l, r))
    if (!compareStatement(a, b))
      return false;
  return true;
}

bool Matcher::compareBound(OpFoldResult lhs, OpFoldResult rhs, Operation *at) {
  auto asExpr = [&](OpFoldResult v) -> IndexExpr {
    if (auto c = getConstantIntValue(v))
      return {getAffineConstantExpr(*c, at->getContext()), {}};
    return {getAffineDimExpr(0, at->getContext()), {cast<Value>(v)}};
  };
  return sameIndex(asExpr(lhs), nullptr, asExpr(rhs));
}

bool Matcher::compareFor(ForOp lhs, ForOp rhs) {
  if (!compareBound(lhs.getMixedLowerBound(), rhs.getMixedLowerBound(), lhs) ||
      !compareBound(lhs.getMixedUpperBound(), rhs.getMixedUpperBound(), lhs))
    return fail(lhs, "loop '" + loopName(lhs) +
                         "' has other bounds than the description's loop '" +
                         loopName(rhs) + "'");
  if (lhs.getKind() != rhs.getKind() || lhs.getThread() != rhs.getThread())
    return fail(lhs, "loop '" + loopName(lhs) +
                         "' runs in another way (kind or thread) than the "
                         "description's loop '" +
                         loopName(rhs) + "'");
  if (lhs.getAnnotationsAttr() != rhs.getAnnotationsAttr())
    return fail(lhs, "loop '" + loopName(lhs) +
                         "' has other annotations than the description's");
  paired[lhs.getInductionVar()] = rhs.getInductionVar();
  return compareBody(*lhs.getBody(), *rhs.getBody(), lhs);
}

bool Matcher::compareBlock(BlockOp lhs, BlockOp rhs) {
  std::string name = ("block '" + lhs.getBlockName() + "'").str();
  if (lhs.getNumIterVars() != rhs.getNumIterVars())
    return fail(lhs, name + " has " + Twine(lhs.getNumIterVars()) +
                         " iteration variables, the description's " +
                         Twine(rhs.getNumIterVars()));
  for (unsigned i = 0; i < lhs.getNumIterVars(); ++i) {
    if (lhs.getIterType(i) != rhs.getIterType(i))
      return fail(lhs, name + ": iteration variable " + Twine(i) +
                           " is of another kind than the description's");
    if (!compareBound(lhs.getMixedDomainLower(i), rhs.getMixedDomainLower(i),
                      lhs) ||
        !compareBound(lhs.getMixedDomainUpper(i), rhs.getMixedDomainUpper(i),
                      lhs))
      return fail(lhs, name + ": iteration variable " + Twine(i) +
                           " has another domain than the description's");
    paired[lhs.getIterVar(i)] = rhs.getIterVar(i);
  }
  SmallVector<AffineExpr> lb = lhs.getBindingExprs(),
                          rb = rhs.getBindingExprs();
  for (unsigned i = 0; i < lb.size(); ++i) {
    IndexExpr l{lb[i], SmallVector<Value>(lhs.getBindingValues())};
    IndexExpr r{rb[i], SmallVector<Value>(rhs.getBindingValues())};
    if (!sameIndex(l, nullptr, r))
      return fail(lhs, name + ": the binding of iteration variable " +
                           Twine(i) + " is " + show(l) +
                           ", the description's " + show(r));
  }
  if (lhs.getPredicate() || rhs.getPredicate() || lhs.getCondition() ||
      rhs.getCondition())
    return fail(lhs, name + " or the description's block has a predicate "
                            "(tensorize matches blocks without one)");
  Refusal failure;
  FailureOr<BlockAccessRegions> lr = getAccessRegions(lhs, failure);
  FailureOr<BlockAccessRegions> rr = getAccessRegions(rhs, failure);
  if (failed(lr) || failed(rr))
    return fail(lhs, name + ": its regions cannot be inferred");
  if (!compareRegions(toRegions(lr->writes, lr->inputs),
                      toRegions(rr->writes, rr->inputs), false, "writes",
                      lhs) ||
      !compareRegions(toRegions(lr->reads, lr->inputs),
                      toRegions(rr->reads, rr->inputs), false, "reads", lhs))
    return false;
  InitOp li = lhs.getInitOp(), ri = rhs.getInitOp();
  if (bool(li) != bool(ri))
    return fail(lhs, name + (li ? " has an init and the description's block "
                                  "none (decompose_reduction first)"
                                : " has no init, the description's block has"));
  return compareBody(*lhs.getBody(), *rhs.getBody(), lhs);
}

bool Matcher::compareStatement(Operation *lhs, Operation *rhs) {
  if (lhs->getName() != rhs->getName())
    return fail(lhs, "'" + lhs->getName().getStringRef() +
                         "' stands where "
                         "the description has '" +
                         rhs->getName().getStringRef() + "'");
  if (auto f = dyn_cast<ForOp>(lhs))
    return compareFor(f, cast<ForOp>(rhs));
  if (auto b = dyn_cast<BlockOp>(lhs))
    return compareBlock(b, cast<BlockOp>(rhs));
  if (auto init = dyn_cast<InitOp>(lhs))
    return compareBody(init.getRegion().front(),
                       cast<InitOp>(rhs).getRegion().front(), lhs);
  if (auto store = dyn_cast<StoreOp>(lhs)) {
    auto other = cast<StoreOp>(rhs);
    return compareValue(store.getValue(), other.getValue(), lhs) &&
           compareAccess(store.getBuffer(),
                         accessIndices(store.getMap(), store.getIndices()),
                         other.getBuffer(),
                         accessIndices(other.getMap(), other.getIndices()),
                         lhs);
  }
  if (auto alloc = dyn_cast<AllocBufferOp>(lhs)) {
    if (alloc.getType() != cast<AllocBufferOp>(rhs).getType())
      return fail(lhs, "buffer '" + getBufferName(alloc) +
                           "' differs from the description's");
    return pairBuffer(alloc, rhs->getResult(0), lhs);
  }
  if (lhs->getNumRegions() != 0)
    return fail(lhs, "tensorize does not compare '" +
                         lhs->getName().getStringRef() + "' statements");
  return compareGeneric(lhs, rhs);
}

bool Matcher::compareGeneric(Operation *lhs, Operation *rhs) {
  if (lhs->getName() != rhs->getName() ||
      lhs->getNumOperands() != rhs->getNumOperands() ||
      lhs->getNumResults() != rhs->getNumResults())
    return fail(lhs, "'" + lhs->getName().getStringRef() +
                         "' stands where the description has '" +
                         rhs->getName().getStringRef() + "'");
  // Conversions may differ in width (TVM compares type codes); anything
  // else computes the same types with the same attributes.
  bool conversion = isa<CastOpInterface>(lhs);
  for (auto [l, r] : llvm::zip(lhs->getResultTypes(), rhs->getResultTypes()))
    if (conversion ? typeClass(l) != typeClass(r) : l != r)
      return fail(lhs, "'" + lhs->getName().getStringRef() +
                           "' computes another type than the description's");
  if (lhs->getAttrDictionary() != rhs->getAttrDictionary() ||
      lhs->getPropertiesAsAttribute() != rhs->getPropertiesAsAttribute())
    return fail(lhs, "'" + lhs->getName().getStringRef() +
                         "' has other attributes than the description's");
  for (auto [l, r] : llvm::zip(lhs->getOperands(), rhs->getOperands()))
    if (!compareValue(l, r, lhs))
      return false;
  for (auto [l, r] : llvm::zip(lhs->getResults(), rhs->getResults()))
    paired[l] = r;
  return true;
}

bool Matcher::compareValue(Value lhs, Value rhs, Operation *at) {
  if (auto it = paired.find(lhs); it != paired.end()) {
    if (it->second == rhs)
      return true;
    return fail(at, "a value is used where the description uses another");
  }
  if (isa<MemRefType>(lhs.getType()) && isa<MemRefType>(rhs.getType()))
    return pairBuffer(lhs, rhs, at);
  if (lhs.getType().isIndex() && rhs.getType().isIndex()) {
    IndexExpr l = getIndexExprOf(lhs), r = getIndexExprOf(rhs);
    if (sameIndex(l, nullptr, r))
      return true;
    return fail(at, "index value " + show(l) + " is not the description's " +
                        show(r));
  }
  Operation *l = lhs.getDefiningOp(), *r = rhs.getDefiningOp();
  if (!l || !r)
    return fail(at, "a value of the block's surroundings is used where the "
                    "description computes one, or the other way round");
  if (cast<OpResult>(lhs).getResultNumber() !=
      cast<OpResult>(rhs).getResultNumber())
    return fail(l, "another result is used than the description's");
  if (auto load = dyn_cast<LoadOp>(l)) {
    auto other = dyn_cast<LoadOp>(r);
    if (!other)
      return fail(l, "a load stands where the description has '" +
                         r->getName().getStringRef() + "'");
    if (!compareAccess(load.getBuffer(),
                       accessIndices(load.getMap(), load.getIndices()),
                       other.getBuffer(),
                       accessIndices(other.getMap(), other.getIndices()), l))
      return false;
    paired[lhs] = rhs;
    return true;
  }
  if (isStatement(*l))
    return compareStatement(l, r);
  return compareGeneric(l, r);
}

FailureOr<TensorizeMatch> Matcher::run(BlockOp block, func::FuncOp desc) {
  space.ctx = block.getContext();
  BlockOp root = getIntrinsicRoot(desc);
  if (!root) {
    fail(block, "the description has no single root block (its body is "
                "`with T.block(\"root\"): ...`)");
    return failure();
  }
  if (block.getInitOp()) {
    fail(block, "block '" + block.getBlockName() +
                    "' has an init, which no description has "
                    "(decompose_reduction first)");
    return ::mlir::failure();
  }
  if (block.getPredicate() || block.getCondition()) {
    fail(block, "block '" + block.getBlockName() +
                    "' has a predicate, which no description has");
    return ::mlir::failure();
  }
  Refusal failure;
  FailureOr<BlockAccessRegions> lr = getAccessRegions(block, failure);
  if (::mlir::failed(lr)) {
    fail(block, "the block's regions cannot be inferred: " + failure.message);
    return ::mlir::failure();
  }
  FailureOr<BlockAccessRegions> rr = getAccessRegions(root, failure);
  if (::mlir::failed(rr)) {
    fail(block,
         "the description's regions cannot be inferred: " + failure.message);
    return ::mlir::failure();
  }
  match.inputs = lr->inputs;
  if (!compareRegions(toRegions(lr->writes, lr->inputs),
                      toRegions(rr->writes, rr->inputs), true, "writes",
                      block) ||
      !compareRegions(toRegions(lr->reads, lr->inputs),
                      toRegions(rr->reads, rr->inputs), true, "reads", block) ||
      !compareBody(*block.getBody(), *root.getBody(), block))
    return ::mlir::failure();
  for (BlockArgument arg : desc.getArguments())
    match.buffers.push_back(bufferOf.lookup(arg));
  return std::move(match);
}

} // namespace

BlockOp mlir::tir::sched::getIntrinsicRoot(func::FuncOp func) {
  BlockOp root;
  for (Operation &op : func.getBody().front())
    if (auto b = dyn_cast<BlockOp>(op)) {
      if (root)
        return {};
      root = b;
    }
  return root;
}

FailureOr<TensorizeMatch>
mlir::tir::sched::matchTensorIntrin(BlockOp block, func::FuncOp desc,
                                    Refusal &mismatch) {
  mismatch = Refusal();
  return Matcher(mismatch).run(block, desc);
}

BlockOp mlir::tir::sched::getIntrinsicComputeBlock(func::FuncOp func) {
  BlockOp root = getIntrinsicRoot(func);
  if (!root)
    return {};
  BlockOp found;
  root.getBody()->walk([&](BlockOp b) { found = b; });
  return found;
}
