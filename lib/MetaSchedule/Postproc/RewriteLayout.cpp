//===- RewriteLayout.cpp - layout-free buffers in loop order --------------===//
//
// TVM's RewriteLayout. A function's layout-free buffers (the parameters its
// "layout_free_buffers" attribute lists by position: weights, whose layout
// the caller does not care about) get the layout in which their anchor
// block reads them in loop order:
//
//  - The anchor is the block of the last load of the buffer; its load
//    indices, the block's bindings substituted, over the loops above the
//    load, give the layout (suggestIndexMap: the loops' digits of the
//    flattened access, sorted by loop). Without such a load, or when no
//    layout follows, the buffer is left as it is.
//  - A buffer read directly by the anchor: a cache_read of it ("global")
//    for the anchor, the new block annotated
//    "meta_schedule.layout_rewrite_preproc", then transform_layout of the
//    anchor's read of the cache (the copy now writes it in the new layout).
//  - A buffer first copied by a chain of cache_read-like blocks (no init,
//    one read, one write, each reading what the previous one wrote): the
//    layout is the one the anchor reads the chain's last buffer in; that
//    buffer and every buffer of the chain take it, and the first block of
//    the chain reads the buffer through a new annotated cache_read.
//
// A refused step rejects the schedule, as does a load of the buffer outside
// any block, or an anchor that does not list the buffer among its reads.
//
// Departures from TVM: TVM also takes the buffers a block's
// "layout_free_placeholders" annotation lists (tir annotations cannot hold
// buffers); the suggested layout ignores the block's predicate (TVM's
// iterator maps take it as a constraint); loops must start at 0 and have
// constant extents, and the buffer a static row-major shape, or no layout
// is suggested. The analyses read the program as the earlier buffers of
// the function left it (TVM reads the function as it was before them).
//
//===----------------------------------------------------------------------===//

#include "TensorIR/MetaSchedule/Analysis.h"
#include "TensorIR/MetaSchedule/Postprocs.h"
#include "TensorIR/MetaSchedule/ScheduleSteps.h"

#include "TensorIR/Dialect/TIR/Arith/Simplify.h"
#include "TensorIR/Dialect/TIR/Schedule/Analysis.h"

using namespace mlir;
using namespace mlir::tir;
using namespace mlir::tir::ms;

namespace {

constexpr StringLiteral kLayoutFreeBuffers = "layout_free_buffers";
constexpr StringLiteral kLayoutRewritePreproc =
    "meta_schedule.layout_rewrite_preproc";

/// The parameters `func`'s "layout_free_buffers" attribute lists (an array
/// of integers); failure for a position that is not a buffer parameter.
FailureOr<SmallVector<Value>> getLayoutFreeBuffers(FunctionOpInterface func) {
  SmallVector<int64_t> positions;
  Attribute attr = func->getAttr(kLayoutFreeBuffers);
  if (auto dense = dyn_cast_if_present<DenseI64ArrayAttr>(attr)) {
    llvm::append_range(positions, dense.asArrayRef());
  } else if (auto array = dyn_cast_if_present<ArrayAttr>(attr)) {
    for (Attribute element : array) {
      auto integer = dyn_cast<IntegerAttr>(element);
      if (!integer)
        return failure();
      positions.push_back(integer.getInt());
    }
  } else if (attr) {
    return failure();
  }
  SmallVector<Value> buffers;
  for (int64_t position : positions) {
    if (position < 0 ||
        position >= static_cast<int64_t>(func.getNumArguments()))
      return failure();
    Value param = func.getArgument(position);
    if (!isa<MemRefType>(param.getType()))
      return failure();
    buffers.push_back(param);
  }
  return buffers;
}

/// TVM's GetCacheReadChain: in program order, the blocks without an init
/// that read one buffer and write one, the first reading `buffer`, each
/// next one reading what the previous one wrote.
SmallVector<BlockOp> getCacheReadChain(Value buffer, FunctionOpInterface func) {
  SmallVector<BlockOp> chain;
  Value current = buffer;
  func->walk<WalkOrder::PreOrder>([&](BlockOp block) {
    if (block.getInitOp())
      return;
    SmallVector<Value> reads, writes;
    getReadWriteBuffers(block, reads, writes);
    if (reads.size() == 1 && writes.size() == 1 && reads.front() == current) {
      chain.push_back(block);
      current = writes.front();
    }
  });
  return chain;
}

/// Where and how a layout-free buffer is rewritten.
struct LayoutRewrite {
  BlockOp anchor;
  /// The buffer's position among the anchor's reads.
  int64_t readIndex;
  /// The new layout, from the buffer's indices.
  AffineMap indexMap;
};

/// The position of loop variable `value` among `loops`, if it is one.
std::optional<unsigned> loopPosition(ArrayRef<ForOp> loops, Value value) {
  for (unsigned i = 0, e = loops.size(); i < e; ++i)
    if (ForOp(loops[i]).getInductionVar() == value)
      return i;
  return std::nullopt;
}

/// The indices of `load` over the loops above it (dimension k: loops[k]),
/// the bindings of `block` (the block around it) substituted; std::nullopt
/// when an index uses another value.
std::optional<SmallVector<AffineExpr>>
getIndicesOverLoops(LoadOp load, BlockOp block, ArrayRef<ForOp> loops) {
  MLIRContext *ctx = load.getContext();
  auto dimOfValue = [&](Value value) -> std::optional<AffineExpr> {
    std::optional<unsigned> position = loopPosition(loops, value);
    if (!position)
      return std::nullopt;
    return getAffineDimExpr(*position, ctx);
  };
  SmallVector<AffineExpr> bindingValueDims;
  for (Value value : block.getBindingValues()) {
    std::optional<AffineExpr> dim = dimOfValue(value);
    // A binding of another value leaves its variable unusable; only an
    // index that uses it fails.
    bindingValueDims.push_back(dim ? *dim : AffineExpr());
  }
  SmallVector<AffineExpr> bindings = block.getBindingExprs();
  SmallVector<AffineExpr> operands;
  for (Value operand : load.getIndices()) {
    auto iterVar = dyn_cast<BlockArgument>(operand);
    if (iterVar && iterVar.getOwner() == block.getBody() &&
        iterVar.getArgNumber() < bindings.size()) {
      AffineExpr binding = bindings[iterVar.getArgNumber()];
      for (auto [k, dim] : llvm::enumerate(bindingValueDims))
        if (!dim && binding.isFunctionOfDim(k))
          return std::nullopt;
      SmallVector<AffineExpr> replacements;
      for (AffineExpr dim : bindingValueDims)
        replacements.push_back(dim ? dim : getAffineConstantExpr(0, ctx));
      operands.push_back(binding.replaceDims(replacements));
      continue;
    }
    std::optional<AffineExpr> dim = dimOfValue(operand);
    if (!dim)
      return std::nullopt;
    operands.push_back(*dim);
  }
  AffineMap map = load.getMap();
  ArrayRef<AffineExpr> all(operands);
  SmallVector<AffineExpr> indices;
  // In tir's form, where a split of a fused loop stays `(v mod c) * k`
  // (MLIR's flattening writes `v * k - (v floordiv c) * (c * k)`, which
  // has no digits).
  for (AffineExpr result : map.getResults())
    indices.push_back(simplifyIndexExpr(
        result.replaceDimsAndSymbols(all.take_front(map.getNumDims()),
                                     all.drop_front(map.getNumDims())),
        loops.size(), 0));
  return indices;
}

/// TVM's GetSuggestedIndexMap for `buffer` in `func`: std::nullopt when
/// no layout is suggested; failure for a load outside any block, or an
/// anchor that does not list the buffer among its reads.
FailureOr<std::optional<LayoutRewrite>>
suggestLayoutRewrite(Value buffer, FunctionOpInterface func) {
  LoadOp last;
  func->walk([&](LoadOp load) {
    if (load.getBuffer() == buffer)
      last = load;
  });
  if (!last)
    return std::optional<LayoutRewrite>();
  auto anchor = last->getParentOfType<BlockOp>();
  if (!anchor)
    return failure();
  SmallVector<Value> reads, writes;
  getReadWriteBuffers(anchor, reads, writes);
  auto it = llvm::find(reads, buffer);
  if (it == reads.end())
    return failure();
  int64_t readIndex = it - reads.begin();

  SmallVector<ForOp> loops;
  for (Operation *op = last->getParentOp(); op && op != func.getOperation();
       op = op->getParentOp())
    if (auto loop = dyn_cast<ForOp>(op))
      loops.push_back(loop);
  std::reverse(loops.begin(), loops.end());
  SmallVector<int64_t> extents;
  for (ForOp loop : loops) {
    std::optional<int64_t> extent = loop.getConstantExtent();
    if (loop.getConstantLowerBound() != 0 || !extent)
      return std::optional<LayoutRewrite>();
    extents.push_back(*extent);
  }
  auto type = cast<MemRefType>(buffer.getType());
  if (!type.hasStaticShape() || !type.getLayout().isIdentity())
    return std::optional<LayoutRewrite>();
  std::optional<SmallVector<AffineExpr>> indices =
      getIndicesOverLoops(last, anchor, loops);
  if (!indices)
    return std::optional<LayoutRewrite>();
  FailureOr<SuggestedLayout> layout =
      suggestIndexMap(type.getShape(), {}, *indices, extents);
  if (failed(layout))
    return std::optional<LayoutRewrite>();
  return std::optional<LayoutRewrite>(
      LayoutRewrite{anchor, readIndex, layout->forward});
}

class RewriteLayout : public Postproc {
public:
  FailureOr<bool> apply(const Schedule &sch, std::string &) override {
    std::string refusal;
    ScheduleSteps steps(*sch, refusal);
    for (FunctionOpInterface func : getScheduledFunctions(sch->getPayload())) {
      std::string funcName = func.getName().str();
      FailureOr<SmallVector<Value>> buffers = getLayoutFreeBuffers(func);
      if (failed(buffers))
        return false;
      for (Value buffer : *buffers) {
        SmallVector<std::string> chain = llvm::map_to_vector(
            getCacheReadChain(buffer, func),
            [](BlockOp block) { return block.getBlockName().str(); });
        Value read = buffer;
        if (!chain.empty()) {
          SmallVector<Value> reads, writes;
          getReadWriteBuffers(block(func, chain.back()), reads, writes);
          read = writes.front();
        }
        FailureOr<std::optional<LayoutRewrite>> rewrite =
            suggestLayoutRewrite(read, func);
        if (failed(rewrite))
          return false;
        if (!*rewrite)
          continue;
        if (failed(rewriteLayout(steps, funcName, **rewrite, chain)))
          return false;
      }
    }
    return true;
  }

  FailureOr<std::shared_ptr<Postproc>> clone(std::string &) const override {
    return std::shared_ptr<Postproc>(std::make_shared<RewriteLayout>());
  }

  std::string str() const override {
    return defaultRepr("RewriteLayout", this);
  }

private:
  /// The block named `name` in `func` (the chain's blocks are found by
  /// name, as TVM finds them).
  static BlockOp block(FunctionOpInterface func, StringRef name) {
    BlockOp found;
    func->walk([&](BlockOp candidate) {
      if (!found && candidate.getBlockName() == name)
        found = candidate;
    });
    return found;
  }

  /// TVM's transform_layout of `block`'s `readIndex`-th read buffer.
  static LogicalResult transformLayout(ScheduleSteps &steps, Value block,
                                       int64_t readIndex, AffineMap indexMap) {
    Builder b(steps.getState().getContext());
    NamedAttribute attrs[] = {
        b.getNamedAttr("buffer_index", b.getI64IntegerAttr(readIndex)),
        b.getNamedAttr("buffer_index_type", b.getStringAttr("read")),
        b.getNamedAttr("index_map", AffineMapAttr::get(indexMap))};
    return failure(failed(steps.apply("transform_layout", {block}, attrs, 0)));
  }

  /// A cache_read of `block`'s `readIndex`-th read buffer, the copy
  /// annotated as the layout rewrite.
  static LogicalResult addLayoutRewriteBlock(ScheduleSteps &steps, Value block,
                                             int64_t readIndex) {
    FailureOr<Value> copy = steps.cacheRead(block, readIndex, "global");
    if (failed(copy))
      return failure();
    Builder b(steps.getState().getContext());
    return steps.annotate(*copy, kLayoutRewritePreproc, b.getBoolAttr(true));
  }

  /// The steps of one layout-free buffer: read through a rewrite block by
  /// `rewrite.anchor`, or through `chain` (block names, in order).
  static LogicalResult rewriteLayout(ScheduleSteps &steps, StringRef funcName,
                                     LayoutRewrite rewrite,
                                     ArrayRef<std::string> chain) {
    FailureOr<Value> anchor =
        steps.getBlock(rewrite.anchor.getBlockName(), funcName);
    if (failed(anchor))
      return failure();
    if (chain.empty()) {
      if (failed(addLayoutRewriteBlock(steps, *anchor, rewrite.readIndex)))
        return failure();
      return transformLayout(steps, *anchor, rewrite.readIndex,
                             rewrite.indexMap);
    }
    // The chain's last buffer, then each one before it, take the layout;
    // the first block reads the layout-free buffer through a rewrite block.
    if (failed(transformLayout(steps, *anchor, rewrite.readIndex,
                               rewrite.indexMap)))
      return failure();
    for (int64_t i = static_cast<int64_t>(chain.size()) - 1; i >= 0; --i) {
      FailureOr<Value> copy = steps.getBlock(chain[i], funcName);
      if (failed(copy))
        return failure();
      if (i == 0 && failed(addLayoutRewriteBlock(steps, *copy, 0)))
        return failure();
      if (failed(transformLayout(steps, *copy, 0, rewrite.indexMap)))
        return failure();
    }
    return success();
  }
};

} // namespace

std::shared_ptr<Postproc> mlir::tir::ms::createRewriteLayout() {
  return std::make_shared<RewriteLayout>();
}
