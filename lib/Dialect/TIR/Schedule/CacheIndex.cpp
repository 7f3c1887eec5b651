//===- CacheIndex.cpp - TVM's cache_index ---------------------------------===//
//
// Precomputes the index arithmetic of a block. The pure computations of its
// iteration variables in what it stores (`vi floordiv 4 + vj floordiv 4` in
// `B[..] = A[n, c, vi floordiv 4 + vj floordiv 4, vj floordiv 2]`, the
// source coordinates and weights of a bilinear resize) each get a buffer
// `index_var_k` indexed by the variables they use, filled by a stage
// `index_k` just before the block's loop nest; the block loads them instead
// of computing them.
//
// Which computations, as TVM chooses them (IndexForest.cpp): the block's
// stores are seen as expression trees (the stored value, then each index;
// a value used twice occurs twice). A candidate is a computation of at least
// two nodes (constants and variables count as nodes) that loads nothing and
// calls nothing impure. With cse_thresh 0 or 1 every maximal candidate is
// cached. With a larger threshold, candidates occurring fewer times than it
// give their occurrences to the largest candidates inside them, from the most
// complex down, and those reaching the threshold are cached. Equal
// computations are counted together (index expressions compared after
// simplification). The buffers are numbered by complexity, most complex
// first, then by first occurrence in the stored value.
//
// Where tir departs from TVM v0.23 (whose behaviour there is a defect, not
// a contract): the block lists the index buffers among its reads (TVM
// leaves them out, which hides the stages from dependence analysis); the
// buffers are compact (TVM gives a rank-2 buffer one stride); a block
// variable whose domain does not start at 0 is handled (TVM sizes the
// buffer by the loop and fills the wrong elements); computations using a
// value other than the block's variables (a runtime dimension, a loop
// variable inside the block) and computations of no variable (constants)
// are not cached, nor are boolean conditions; store indices count and are
// cached like loaded ones; one block's stores are counted together; names
// taken in the function get a suffix; and a block with nothing to cache is
// left as it is (TVM fails inside on an empty or one-element statement
// list).
//
//===----------------------------------------------------------------------===//

#include "CacheStage.h"
#include "IndexForest.h"
#include "Utils.h"

#include "TensorIR/Dialect/TIR/Analysis/BlockScope.h"
#include "TensorIR/Dialect/TIR/Analysis/IndexValues.h"
#include "TensorIR/Dialect/TIR/Arith/Interval.h"
#include "TensorIR/Dialect/TIR/IR/TIRUtils.h"
#include "TensorIR/Dialect/TIR/Schedule/Primitives.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/StringSet.h"

#include <deque>
#include <map>

using namespace mlir;
using namespace mlir::tir;
using namespace mlir::tir::sched;

static constexpr StringLiteral kCacheIndex = "cache_index";

//===----------------------------------------------------------------------===//
// The stages
//===----------------------------------------------------------------------===//

namespace {
/// One computation to cache and its buffer.
struct IndexStage {
  IndexNode *rep;
  /// The block's variables it uses, in block order (TVM's order of first
  /// occurrence depends on how the expression is spelled), with their
  /// domains [lower, upper).
  SmallVector<unsigned> vars;
  SmallVector<int64_t> lowers, uppers;
  /// The buffer's element type; `viaCast`: the computation is an index
  /// cast of a value of that type (cached before the cast).
  Type elementType;
  bool viaCast = false;
  std::string blockName, bufferName;
  Value buffer;
};
} // namespace

/// The block's variables `n` uses, in block order.
static void collectVars(const IndexNode *n, SmallVectorImpl<unsigned> &vars) {
  if (n->kind == IndexNode::Kind::Var) {
    if (!llvm::is_contained(vars, n->var))
      vars.insert(llvm::upper_bound(vars, n->var), n->var);
    return;
  }
  for (const IndexNode *c : n->children)
    collectVars(c, vars);
}

/// `n` as an index expression whose dimension k is the block's variable k,
/// where it is one (index arithmetic by constants); null otherwise.
static AffineExpr asIndexExpr(const IndexNode *n, MLIRContext *ctx) {
  if (n->kind == IndexNode::Kind::Var)
    return getAffineDimExpr(n->var, ctx);
  if (n->kind == IndexNode::Kind::Const) {
    if (n->expr)
      return n->expr;
    auto i = dyn_cast<IntegerAttr>(
        n->value.getDefiningOp<arith::ConstantOp>().getValue());
    return i && n->value.getType().isIndex()
               ? getAffineConstantExpr(i.getInt(), ctx)
               : AffineExpr();
  }
  if (n->children.size() != 2)
    return {};
  AffineExpr l = asIndexExpr(n->children[0], ctx);
  AffineExpr r = asIndexExpr(n->children[1], ctx);
  if (!l || !r)
    return {};
  if (n->kind == IndexNode::Kind::Affine)
    return getAffineBinaryOpExpr(n->expr.getKind(), l, r);
  if (n->kind != IndexNode::Kind::Op)
    return {};
  std::optional<AffineExprKind> kind = getIndexOpKind(n->value.getDefiningOp());
  return kind ? getAffineBinaryOpExpr(*kind, l, r) : AffineExpr();
}

/// The element type of `stage.rep`'s buffer: its own type; for an index,
/// the integer type the computation was cast from, or i32 where its range
/// over the block's domains fits (i64 otherwise).
static void chooseElementType(IndexStage &stage, BlockOp block) {
  IndexNode *n = stage.rep;
  MLIRContext *ctx = n->type().getContext();
  if (!n->type().isIndex()) {
    stage.elementType = n->type();
    return;
  }
  if (n->kind == IndexNode::Kind::Op) {
    Operation *def = n->value.getDefiningOp();
    // Cached before the cast, in the type it is cast from (a boolean
    // would need a byte: it is cast to an index first).
    if (auto from = dyn_cast<IntegerType>(def->getOperand(0).getType());
        isIndexCast(def) && from && from.getWidth() >= 8) {
      stage.elementType = from;
      stage.viaCast = true;
      return;
    }
  }
  std::optional<Interval> range;
  if (AffineExpr e = asIndexExpr(n, ctx)) {
    SmallVector<Value> vars;
    for (unsigned i = 0, e = block.getNumIterVars(); i < e; ++i)
      vars.push_back(block.getIterVar(i));
    range = evaluateRange(e, getValueRanges(vars));
  }
  bool fits = range && range->lo >= std::numeric_limits<int32_t>::min() &&
              range->hi <= std::numeric_limits<int32_t>::max();
  stage.elementType = IntegerType::get(ctx, fits ? 32 : 64);
}

/// `n` computed at the insertion point, with iteration variable k of the
/// block given by `vars[k]` (the stage's own variables).
static Value materialize(OpBuilder &b, Location loc, const IndexNode *n,
                         const DenseMap<unsigned, Value> &vars);

/// An index expression node over inputs computed at the insertion point.
static AffineExpr materializeAffine(OpBuilder &b, Location loc,
                                    const IndexNode *n,
                                    const DenseMap<unsigned, Value> &vars,
                                    SmallVectorImpl<Value> &inputs) {
  if (n->kind == IndexNode::Kind::Const && n->expr)
    return n->expr;
  if (n->kind != IndexNode::Kind::Affine) {
    inputs.push_back(materialize(b, loc, n, vars));
    return getAffineDimExpr(inputs.size() - 1, b.getContext());
  }
  AffineExpr lhs = materializeAffine(b, loc, n->children[0], vars, inputs);
  AffineExpr rhs = materializeAffine(b, loc, n->children[1], vars, inputs);
  return getAffineBinaryOpExpr(n->expr.getKind(), lhs, rhs);
}

static Value materialize(OpBuilder &b, Location loc, const IndexNode *n,
                         const DenseMap<unsigned, Value> &vars) {
  switch (n->kind) {
  case IndexNode::Kind::Var:
    return vars.lookup(n->var);
  case IndexNode::Kind::Affine: {
    SmallVector<Value> inputs;
    AffineExpr e = materializeAffine(b, loc, n, vars, inputs);
    return materializeIndexValue(b, loc, e, inputs);
  }
  case IndexNode::Kind::Const:
  case IndexNode::Kind::Op: {
    Operation *def = n->value.getDefiningOp();
    IRMapping map;
    for (auto [operand, child] : llvm::zip(def->getOperands(), n->children))
      map.map(operand, materialize(b, loc, child, vars));
    return b.clone(*def, map)->getResult(0);
  }
  case IndexNode::Kind::Load:
  case IndexNode::Kind::Opaque:
    break;
  }
  llvm_unreachable("a candidate computation loads nothing");
}

/// A block name (and a buffer name) not taken in `func`: `base`, else
/// `base_1`, `base_2`, ...
static std::string freshName(const llvm::StringSet<> &taken,
                             const std::string &base) {
  if (!taken.contains(base))
    return base;
  for (unsigned i = 1;; ++i) {
    std::string name = base + "_" + std::to_string(i);
    if (!taken.contains(name))
      return name;
  }
}

/// The stage that fills `stage.buffer`, at the insertion point: loops
/// `ax0..` over the variables' extents, a block with spatial variables
/// `v0..` over their domains that stores the computation at `v - lower`.
static BlockOp createIndexStage(RewriterBase &rewriter, Location loc,
                                const IndexStage &stage) {
  MLIRContext *ctx = rewriter.getContext();
  unsigned rank = stage.vars.size();
  SmallVector<OpFoldResult> zeros(rank, rewriter.getIndexAttr(0)), extents;
  for (unsigned d = 0; d < rank; ++d)
    extents.push_back(rewriter.getIndexAttr(stage.uppers[d] - stage.lowers[d]));
  SmallVector<Value> loops = buildLoopNest(rewriter, loc, zeros, extents, "ax");
  SmallVector<IterVarSpec> specs;
  for (unsigned d = 0; d < rank; ++d)
    specs.push_back({IterType::Spatial, rewriter.getIndexAttr(stage.lowers[d]),
                     rewriter.getIndexAttr(stage.uppers[d]),
                     getAffineDimExpr(d, ctx) + stage.lowers[d],
                     rewriter.getStringAttr("v" + std::to_string(d))});
  auto block = BlockOp::create(
      rewriter, loc, stage.blockName, specs, loops,
      [&](OpBuilder &b, Location l, ValueRange ivs) {
        DenseMap<unsigned, Value> vars;
        SmallVector<AffineExpr> at;
        for (unsigned d = 0; d < rank; ++d) {
          vars[stage.vars[d]] = ivs[d];
          at.push_back(getAffineDimExpr(d, ctx) - stage.lowers[d]);
        }
        const IndexNode *computed =
            stage.viaCast ? stage.rep->children[0] : stage.rep;
        Value value = materialize(b, l, computed, vars);
        if (value.getType() != stage.elementType)
          value = arith::IndexCastOp::create(b, l, stage.elementType, value);
        StoreOp::create(b, l, value, stage.buffer, makeInputMap(rank, at, ctx),
                        ivs);
      });
  setInferredRegions(block);
  return block;
}

//===----------------------------------------------------------------------===//
// The block's loads of the buffers
//===----------------------------------------------------------------------===//

namespace {
/// Points the occurrences of the cached computations in the block's stores
/// at loads of their buffers, from the root of each tree down (an
/// occurrence inside a cached one goes with it).
class IndexRewriter {
public:
  IndexRewriter(RewriterBase &rewriter, BlockOp block,
                ArrayRef<IndexStage> stages)
      : rewriter(rewriter), block(block) {
    for (const IndexStage &s : stages)
      byKey[s.rep->key] = &s;
  }

  void rewriteStore(StoreOp store, ArrayRef<IndexNode *> roots) {
    rewriteSSA(roots[0]);
    rewriteAccess(store, roots.drop_front());
  }

  /// The ops of the computations replaced: erased where nothing else uses
  /// them.
  void eraseDead() {
    bool erased = true;
    while (erased) {
      erased = false;
      for (auto it = replacedOps.begin(); it != replacedOps.end();) {
        Operation *op = *it;
        if (isOpTriviallyDead(op)) {
          rewriter.eraseOp(op);
          it = replacedOps.erase(it);
          erased = true;
        } else {
          ++it;
        }
      }
    }
  }

private:
  const IndexStage *stageOf(const IndexNode *n) const {
    if (!IndexForest::isCandidate(n))
      return nullptr;
    auto it = byKey.find(n->key);
    return it == byKey.end() ? nullptr : it->second;
  }

  /// The value of `stage`'s computation for this instance of the block,
  /// loaded before `user`, in `type`.
  Value load(const IndexStage &stage, Operation *user, Type type) {
    MLIRContext *ctx = block.getContext();
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPoint(user);
    SmallVector<Value> vars;
    SmallVector<AffineExpr> at;
    for (auto [d, v] : llvm::enumerate(stage.vars)) {
      vars.push_back(block.getIterVar(v));
      at.push_back(getAffineDimExpr(d, ctx) - stage.lowers[d]);
    }
    Value value = LoadOp::create(rewriter, user->getLoc(), stage.buffer,
                                 makeInputMap(vars.size(), at, ctx), vars);
    if (value.getType() == type)
      return value;
    if (stage.viaCast &&
        isa<arith::IndexCastUIOp>(stage.rep->value.getDefiningOp()))
      return arith::IndexCastUIOp::create(rewriter, user->getLoc(), type,
                                          value);
    return arith::IndexCastOp::create(rewriter, user->getLoc(), type, value);
  }

  void collectOps(const IndexNode *n) {
    if (n->kind == IndexNode::Kind::Op || n->kind == IndexNode::Kind::Const)
      if (Operation *def = n->value ? n->value.getDefiningOp() : nullptr;
          def && def->getParentOfType<BlockOp>() == block)
        replacedOps.insert(def);
    for (const IndexNode *c : n->children)
      collectOps(c);
  }

  void rewriteSSA(IndexNode *n) {
    // A use reached again (an op shared by several paths) was rewritten
    // the first time.
    if (!visitedUses.insert(n->use).second)
      return;
    if (const IndexStage *stage = stageOf(n)) {
      Value loaded = load(*stage, n->use->getOwner(), n->type());
      collectOps(n);
      rewriter.modifyOpInPlace(n->use->getOwner(),
                               [&] { n->use->set(loaded); });
      return;
    }
    if (n->kind == IndexNode::Kind::Op)
      for (IndexNode *c : n->children)
        rewriteSSA(c);
    else if (n->kind == IndexNode::Kind::Load)
      rewriteAccess(n->value.getDefiningOp(), n->children);
  }

  /// The index expression of `n` with the cached parts as new inputs
  /// (`extra`, after the access's `numIndices` own).
  AffineExpr rebuild(IndexNode *n, Operation *access, unsigned numIndices,
                     SmallVectorImpl<Value> &extra) {
    MLIRContext *ctx = block.getContext();
    if (n->kind == IndexNode::Kind::Affine ||
        (n->kind == IndexNode::Kind::Const && n->expr)) {
      if (const IndexStage *stage = stageOf(n)) {
        extra.push_back(load(*stage, access, n->type()));
        collectOps(n);
        return getAffineDimExpr(numIndices + extra.size() - 1, ctx);
      }
      if (n->kind == IndexNode::Kind::Const)
        return n->expr;
      AffineExpr lhs = rebuild(n->children[0], access, numIndices, extra);
      AffineExpr rhs = rebuild(n->children[1], access, numIndices, extra);
      return getAffineBinaryOpExpr(n->expr.getKind(), lhs, rhs);
    }
    // An index of the access (a dimension): its computation may hold
    // cached parts; the operand stays.
    rewriteSSA(n);
    return getAffineDimExpr(
        n->use->getOperandNumber() - (isa<LoadOp>(access) ? 1 : 2), ctx);
  }

  void rewriteAccess(Operation *access, ArrayRef<IndexNode *> indexTrees) {
    // A load reached again (its value used twice) was rewritten the first
    // time; its operands, and so the uses the trees point at, changed.
    if (!rewrittenAccesses.insert(access).second)
      return;
    unsigned numIndices =
        indexTrees.empty()
            ? 0
            : access->getNumOperands() - (isa<LoadOp>(access) ? 1 : 2);
    SmallVector<Value> extra;
    SmallVector<AffineExpr> exprs;
    for (IndexNode *n : indexTrees)
      exprs.push_back(rebuild(n, access, numIndices, extra));
    if (extra.empty())
      return;
    SmallVector<Value> inputs;
    if (auto load = dyn_cast<LoadOp>(access))
      inputs = load.getIndices();
    else
      inputs = cast<StoreOp>(access).getIndices();
    llvm::append_range(inputs, extra);
    SmallVector<AffineExpr> compress(
        inputs.size(), getAffineConstantExpr(0, block.getContext()));
    SmallVector<Value> used;
    compressInputs(exprs, inputs, compress, used);
    SmallVector<AffineExpr> compressed;
    for (AffineExpr e : exprs)
      compressed.push_back(
          simplifyAffineExpr(e.replaceDims(compress), used.size(), 0));
    AffineMap map = makeInputMap(used.size(), compressed, block.getContext());
    rewriter.modifyOpInPlace(access, [&] {
      if (auto load = dyn_cast<LoadOp>(access)) {
        load.setMap(map);
        load.getIndicesMutable().assign(used);
      } else {
        auto store = cast<StoreOp>(access);
        store.setMap(map);
        store.getIndicesMutable().assign(used);
      }
    });
  }

  RewriterBase &rewriter;
  BlockOp block;
  llvm::StringMap<const IndexStage *> byKey;
  llvm::SetVector<Operation *> replacedOps;
  DenseSet<Operation *> rewrittenAccesses;
  DenseSet<OpOperand *> visitedUses;
};
} // namespace

/// Lists `stage`'s buffer among the block's reads, at the point of the
/// block's variables it uses.
static void listIndexRead(RewriterBase &rewriter, BlockOp block,
                          const IndexStage &stage) {
  MLIRContext *ctx = block.getContext();
  unsigned numInputs = block.getNumIterVars() + block.getRegionValues().size();
  RegionExprs region;
  for (auto [d, v] : llvm::enumerate(stage.vars)) {
    region.starts.push_back(getAffineDimExpr(v, ctx) - stage.lowers[d]);
    region.extents.push_back(getAffineConstantExpr(1, ctx));
  }
  SmallVector<Attribute> maps(block.getReadRegions()->begin(),
                              block.getReadRegions()->end());
  maps.push_back(AffineMapAttr::get(buildRegionMap(numInputs, region, ctx)));
  rewriter.modifyOpInPlace(block, [&] {
    block.getReadBuffersMutable().append(stage.buffer);
    block.setReadRegionsAttr(ArrayAttr::get(ctx, maps));
  });
}

FailureOr<SmallVector<BlockOp>>
mlir::tir::cacheIndex(RewriterBase &rewriter, BlockOp block,
                      StringRef storageScope, int64_t cseThresh,
                      std::optional<unsigned> numStages, ScheduleError &error) {
  if (!isValidStorageScope(storageScope))
    return refuse(error, block,
                  Twine(kCacheIndex) + ": '" + storageScope +
                      "' is not a storage scope (global, shared, "
                      "shared.dyn, local, warp, wmma.*, ...)");
  if (cseThresh < 0)
    return refuse(error, block,
                  Twine(kCacheIndex) + ": cse_thresh must be >= 0, got " +
                      Twine(cseThresh));
  if (failed(checkNoEmptyNestAround(block, kCacheIndex, error)))
    return failure();

  IndexForest forest(block);
  SmallVector<IndexNode *> chosen = forest.select(cseThresh);
  if (numStages && *numStages != chosen.size())
    return refuse(error, block,
                  Twine(kCacheIndex) + " finds " + Twine(chosen.size()) +
                      " computation(s) to cache in block '" +
                      block.getBlockName() + "', but " + Twine(*numStages) +
                      " result(s) were asked for");

  // Everything is checked before anything changes.
  auto func = block->getParentOfType<FunctionOpInterface>();
  llvm::StringSet<> blockNames, bufferNames;
  func->walk([&](Operation *op) {
    if (auto b = dyn_cast<BlockOp>(op))
      blockNames.insert(b.getBlockName());
    for (Value r : op->getResults())
      if (isa<MemRefType>(r.getType()))
        if (std::string name = getBufferName(r); !name.empty())
          bufferNames.insert(name);
  });
  SmallVector<IndexStage, 4> stages;
  for (auto [k, rep] : llvm::enumerate(chosen)) {
    IndexStage stage;
    stage.rep = rep;
    collectVars(rep, stage.vars);
    for (unsigned v : stage.vars) {
      std::optional<int64_t> lo =
          getConstantIntValue(block.getMixedDomainLower(v));
      std::optional<int64_t> hi =
          getConstantIntValue(block.getMixedDomainUpper(v));
      if (!lo || !hi)
        return refuse(error, block,
                      Twine(kCacheIndex) +
                          ": the domain of iteration "
                          "variable " +
                          iterVarLabel(block, v) + " of block '" +
                          block.getBlockName() +
                          "' is not constant, so the buffer of the "
                          "computations using it would have no static "
                          "shape");
      stage.lowers.push_back(*lo);
      stage.uppers.push_back(*hi);
    }
    chooseElementType(stage, block);
    stage.blockName = freshName(blockNames, "index_" + std::to_string(k));
    blockNames.insert(stage.blockName);
    stage.bufferName = freshName(bufferNames, "index_var_" + std::to_string(k));
    bufferNames.insert(stage.bufferName);
    stages.push_back(std::move(stage));
  }
  if (stages.empty())
    return SmallVector<BlockOp>();

  Operation *scope = getScopeRoot(block);
  Operation *anchor = getScopeBody(scope)->findAncestorOpInBlock(*block);
  Location loc = block.getLoc();
  Attribute space = storageScope == "global"
                        ? Attribute()
                        : rewriter.getStringAttr(storageScope);
  SmallVector<BlockOp> created;
  for (IndexStage &stage : stages) {
    SmallVector<int64_t> shape;
    for (auto [lo, hi] : llvm::zip(stage.lowers, stage.uppers))
      shape.push_back(hi - lo);
    stage.buffer =
        createBuffer(rewriter, scope,
                     MemRefType::get(shape, stage.elementType,
                                     MemRefLayoutAttrInterface(), space),
                     loc, stage.bufferName);
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPoint(anchor);
    created.push_back(createIndexStage(rewriter, loc, stage));
  }

  IndexRewriter rewrite(rewriter, block, stages);
  SmallVector<StoreOp> stores;
  block.getBody()->walk([&](StoreOp store) {
    if (store->getParentOfType<BlockOp>() == block)
      stores.push_back(store);
  });
  for (auto [store, roots] : llvm::zip(stores, forest.stores))
    rewrite.rewriteStore(store, roots);
  rewrite.eraseDead();
  if (block.hasAccessRegions())
    for (const IndexStage &stage : stages)
      listIndexRead(rewriter, block, stage);
  return created;
}
