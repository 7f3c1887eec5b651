//===- PerStoreFeature.cpp - TVM's per-store features ---------------------===//
//
// The program is read as TVM's lowering would leave it (see the header):
//
// - Index expressions are taken over loop variables: a block's iteration
//   variables are replaced by their bindings, index arithmetic is read
//   through, serial loops of one iteration become their start (TVM drops
//   them), and a loop bound to a thread tag a loop around it is bound to
//   already becomes that loop (TVM unifies them). Other values are opaque
//   inputs.
// - Each allocated buffer is placed at the lowest loop or block holding its
//   accesses (with TVM's rules for reduction writes and, for global
//   buffers, blockIdx loops) and compacted to the part one execution of it
//   touches; its accesses are shifted by the part's start.
//
// Then one walk over the stores, in program order, computes each store's
// groups 1, 2, 3 and 5; what earlier stores touched under each loop is
// kept, as TVM keeps it, for the serial-reuse rule of group 2.
//
//===----------------------------------------------------------------------===//

#include "TensorIR/MetaSchedule/PerStoreFeature.h"

#include "TensorIR/Dialect/TIR/Analysis/BufferCompaction.h"
#include "TensorIR/Dialect/TIR/Analysis/IndexValues.h"
#include "TensorIR/Dialect/TIR/Analysis/RegionRelax.h"
#include "TensorIR/Dialect/TIR/Arith/AffineTerms.h"
#include "TensorIR/Dialect/TIR/Arith/Interval.h"
#include "TensorIR/Dialect/TIR/Arith/Simplify.h"
#include "TensorIR/Dialect/TIR/IR/TIRIndexExpr.h"
#include "TensorIR/Dialect/TIR/IR/TIRUtils.h"
#include "TensorIR/MetaSchedule/Analysis.h"
#include "TensorIR/MetaSchedule/TuneContext.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/StringSwitch.h"

#include <array>
#include <cmath>
#include <numeric>

using namespace mlir;
using namespace mlir::tir;
using namespace mlir::tir::ms;

namespace {

//===----------------------------------------------------------------------===//
// Sizes of the groups
//===----------------------------------------------------------------------===//

constexpr int64_t kArithCount = 16;
constexpr int64_t kLoopKindCount = 11;
constexpr int64_t kGroup1Count = kArithCount + 3 * kLoopKindCount + 8;
constexpr int64_t kBufferFeatureCount = 18;
constexpr int64_t kGroup4Count = 4;
constexpr int64_t kGroup5Count = 3;
constexpr int64_t kWorkloadCount = 8;

constexpr StringLiteral kAutoUnrollKey = "pragma_auto_unroll_max_step";
constexpr StringLiteral kLayoutRewritePreproc =
    "meta_schedule.layout_rewrite_preproc";

/// log2(|x| + 1), the scale of every count.
double slog(double x) { return std::log2(std::abs(x) + 1.0); }

//===----------------------------------------------------------------------===//
// Loops as the lowering leaves them
//===----------------------------------------------------------------------===//

bool hasAnnotations(ForOp loop) {
  std::optional<DictionaryAttr> annotations = loop.getAnnotations();
  return annotations && !annotations->empty();
}

/// A serial loop of one iteration from 0 without annotations: TVM's
/// feature simplification drops it (its variable becomes 0).
bool isUnitLoop(ForOp loop) {
  return loop.getKind() == ForKind::Serial &&
         loop.getConstantLowerBound() == 0 && loop.getConstantExtent() == 1 &&
         !hasAnnotations(loop);
}

/// The kernel `loop` is in: the outermost thread-bound loop around it (or
/// itself); null outside kernels.
ForOp getKernelRoot(ForOp loop) {
  ForOp root;
  for (Operation *p = loop; p; p = p->getParentOp())
    if (auto around = dyn_cast<ForOp>(p);
        around && around.getKind() == ForKind::ThreadBinding)
      root = around;
  return root;
}

/// TVM's scope of an access (the innermost loop or block around it, the
/// function at the top), as its buffer-placement analysis sees it: after
/// unit loops are dropped, before thread bindings are unified.
Operation *getScopeOf(Operation *op, Operation *func) {
  for (Operation *p = op->getParentOp(); p && p != func; p = p->getParentOp()) {
    if (auto loop = dyn_cast<ForOp>(p)) {
      if (!isUnitLoop(loop))
        return p;
    } else if (isa<BlockOp>(p)) {
      return p;
    }
  }
  return func;
}

/// The lowest scope holding both scopes (null: none yet).
Operation *getCommonScope(Operation *a, Operation *b, Operation *func) {
  if (!a || !b)
    return a ? a : b;
  while (a != func && !a->isAncestor(b))
    a = getScopeOf(a, func);
  return a;
}

bool isBlockIdxLoop(ForOp loop) {
  return loop.getKind() == ForKind::ThreadBinding &&
         loop.getThread()->starts_with("blockIdx");
}

//===----------------------------------------------------------------------===//
// Buffers
//===----------------------------------------------------------------------===//

int64_t getElementBytes(MemRefType type) {
  Type element = type.getElementType();
  int64_t bits = 64;
  if (auto vector = dyn_cast<VectorType>(element))
    bits = vector.getNumElements() *
           vector.getElementType().getIntOrFloatBitWidth();
  else if (element.isIntOrFloat())
    bits = element.getIntOrFloatBitWidth();
  return std::max<int64_t>(1, (bits + 7) / 8);
}

/// The static extents of `type`, 1 for runtime ones (TVM takes a bound it
/// cannot find as 1).
SmallVector<int64_t> getKnownShape(MemRefType type) {
  SmallVector<int64_t> shape;
  for (int64_t d : type.getShape())
    shape.push_back(ShapedType::isDynamic(d) ? 1 : d);
  return shape;
}

int64_t getProduct(ArrayRef<int64_t> values) {
  int64_t product = 1;
  for (int64_t v : values)
    product *= v;
  return product;
}

/// Where the lowering allocates a buffer and how large.
struct Allocation {
  /// The shape after compaction.
  SmallVector<int64_t> shape;
  /// The product of the constant extents of the loops around the
  /// allocation.
  double outerProduct = 1;
  /// Where the compacted part starts, per dimension, over `inputs`
  /// (empty: the buffer is not compacted).
  SmallVector<AffineExpr> lowers;
  SmallVector<Value> inputs;
};

//===----------------------------------------------------------------------===//
// Group 1.1: arithmetic
//===----------------------------------------------------------------------===//

struct ArithCounts {
  enum Kind {
    FloatMad,
    FloatAddSub,
    FloatMul,
    FloatDivMod,
    FloatCmp,
    FloatMathFunc,
    FloatOtherFunc,
    IntMad,
    IntAddSub,
    IntMul,
    IntDivMod,
    IntCmp,
    IntMathFunc,
    IntOtherFunc,
    BoolOp,
    SelectOp,
  };
  std::array<double, kArithCount> counts{};

  double &operator[](Kind kind) { return counts[kind]; }
  ArithCounts &operator+=(const ArithCounts &o) {
    for (int64_t i = 0; i < kArithCount; ++i)
      counts[i] += o.counts[i];
    return *this;
  }
  /// The float operations group 3 counts.
  double getFloatOps() const {
    double sum = 0;
    for (int64_t i = FloatMad; i <= FloatOtherFunc; ++i)
      sum += counts[i];
    return sum;
  }
};

/// How TVM counts the operation `op` of a stored value (by its result
/// type, as TVM counts by the dtype of a node; comparisons yield bool, so
/// TVM counts them as integer ones whatever they compare).
ArithCounts::Kind classify(Operation *op, bool &counted) {
  counted = true;
  Type type =
      op->getNumResults() ? getElementTypeOrSelf(op->getResult(0)) : Type();
  bool isFloat = type && isa<FloatType>(type);
  if (isa<arith::AddFOp, arith::SubFOp, arith::NegFOp>(op))
    return ArithCounts::FloatAddSub;
  if (isa<arith::MulFOp>(op))
    return ArithCounts::FloatMul;
  if (isa<arith::DivFOp, arith::RemFOp>(op))
    return ArithCounts::FloatDivMod;
  if (isa<arith::MaximumFOp, arith::MinimumFOp, arith::MaxNumFOp,
          arith::MinNumFOp>(op))
    return ArithCounts::FloatCmp;
  if (isa<arith::CmpFOp, arith::CmpIOp, arith::MaxSIOp, arith::MaxUIOp,
          arith::MinSIOp, arith::MinUIOp>(op))
    return ArithCounts::IntCmp;
  if (isa<arith::AddIOp, arith::SubIOp>(op))
    return ArithCounts::IntAddSub;
  if (isa<arith::MulIOp>(op))
    return ArithCounts::IntMul;
  if (isa<arith::DivSIOp, arith::DivUIOp, arith::CeilDivSIOp,
          arith::CeilDivUIOp, arith::FloorDivSIOp, arith::RemSIOp,
          arith::RemUIOp>(op))
    return ArithCounts::IntDivMod;
  if (isa<arith::AndIOp, arith::OrIOp, arith::XOrIOp>(op))
    return type && type.isInteger(1) ? ArithCounts::BoolOp
                                     : ArithCounts::IntMathFunc;
  if (isa<arith::ShLIOp, arith::ShRSIOp, arith::ShRUIOp>(op))
    return ArithCounts::IntMathFunc;
  if (isa<arith::SelectOp>(op))
    return ArithCounts::SelectOp;
  // Pure calls: math functions, and if_then_else (an scf.if yielding).
  if ((op->getDialect() && op->getDialect()->getNamespace() == "math") ||
      (isa<scf::IfOp>(op) && op->getNumResults()))
    return isFloat ? ArithCounts::FloatMathFunc : ArithCounts::IntMathFunc;
  // Calls of unknown effect.
  if (isa<tir::CallOp>(op) && op->getNumResults())
    return isFloat ? ArithCounts::FloatOtherFunc : ArithCounts::IntOtherFunc;
  counted = false;
  return ArithCounts::FloatMad;
}

//===----------------------------------------------------------------------===//
// Group 2: per-buffer accesses
//===----------------------------------------------------------------------===//

enum class AccessType { Read = 0, Write = 1, ReadWrite = 2 };
enum class ReuseType {
  LoopMultipleRead = 0,
  SerialMultipleReadWrite = 1,
  None = 2
};

/// What one store does to one buffer.
struct BufferAccess {
  Value buffer;
  std::string name;
  AccessType type = AccessType::Read;
  /// The index lists the buffer is accessed with (over the collector's
  /// dimensions).
  std::vector<SmallVector<AffineExpr>> indices;
  int64_t elementBytes = 1;
  /// The shape (after compaction), 1 for a runtime extent.
  SmallVector<int64_t> shape;
  llvm::SmallBitVector dynamicDims;

  /// Elements touched by the loops from loop i inwards, per loop.
  SmallVector<int64_t> touchedPerLoop;
  /// The extents of the part the whole nest touches.
  SmallVector<int64_t> accessShape;
  int64_t continuousBytes = 1;
  int64_t minStride = 0, innermostStride = 0, nonStridedProduct = 1;
  ReuseType reuse = ReuseType::None;
  double reuseIterations = 0, reuseBytes = 0;
  int64_t reuseCount = 0;
  double bytes = 0, uniqueBytes = 0, lines = 0, uniqueLines = 0;

  void exportTo(std::vector<double> &row) const {
    double proxyReuse = reuseCount > 0 ? static_cast<double>(reuseCount) : 0.5;
    double values[] = {
        static_cast<double>(type == AccessType::Read),
        static_cast<double>(type == AccessType::Write),
        static_cast<double>(type == AccessType::ReadWrite),
        slog(bytes),
        slog(uniqueBytes),
        slog(lines),
        slog(uniqueLines),
        static_cast<double>(reuse == ReuseType::LoopMultipleRead),
        static_cast<double>(reuse == ReuseType::SerialMultipleReadWrite),
        static_cast<double>(reuse == ReuseType::None),
        slog(reuseIterations),
        slog(reuseBytes),
        slog(static_cast<double>(reuseCount)),
        slog(bytes / proxyReuse),
        slog(uniqueBytes / proxyReuse),
        slog(lines / proxyReuse),
        slog(uniqueLines / proxyReuse),
        slog(static_cast<double>(innermostStride)),
    };
    row.insert(row.end(), std::begin(values), std::end(values));
  }
};

/// The stride, in elements of one index, that a step of dimension `pos`
/// makes: its coefficient where it is a term of its own; inside a
/// division or modulo, the factor the division is scaled by or, without
/// one, its coefficient in the dividend (what TVM's coefficient reading
/// finds in those forms); 1 in a product of variables; 0 when `e` does not
/// use it.
int64_t getStrideIn(AffineExpr e, unsigned pos) {
  if (!e.isFunctionOfDim(pos))
    return 0;
  AffineTerms sum = AffineTerms::get(e);
  for (auto [term, coefficient] : sum.terms) {
    if (!term.isFunctionOfDim(pos))
      continue;
    int64_t scale = std::abs(coefficient);
    auto dim = dyn_cast<AffineDimExpr>(term);
    if ((dim && dim.getPosition() == pos) || scale != 1)
      return scale;
    if (term.getKind() == AffineExprKind::FloorDiv ||
        term.getKind() == AffineExprKind::CeilDiv ||
        term.getKind() == AffineExprKind::Mod) {
      int64_t inner = getStrideIn(cast<AffineBinaryOpExpr>(term).getLHS(), pos);
      return inner ? inner : 1;
    }
    return 1;
  }
  return 1;
}

//===----------------------------------------------------------------------===//
// The features of one store
//===----------------------------------------------------------------------===//

/// Groups 1, 2, 3 and 5 of a store.
struct StoreFeatures {
  std::vector<double> group1, group2, group3;
  double outerProduct = 1;
  int64_t numLoops = 0;
  int64_t autoUnroll = 0;
};

/// A loop of a store's nest.
struct NestLoop {
  ForOp op;
  std::optional<int64_t> extent;
  int64_t lower = 0;
  unsigned dim = 0;
};

class Collector {
public:
  Collector(MLIRContext *ctx, const PerStoreFeatureOptions &options)
      : ctx(ctx), options(options) {}

  void collect(FunctionOpInterface func);
  FeatureMatrix finish();

private:
  // Loops as TVM's UnifyThreadBinding leaves them: one loop per thread
  // tag and kernel, the first of the tag, all of them around the whole
  // kernel in the order they first appear in it.
  ArrayRef<ForOp> getKernelThreadLoops(ForOp root);
  ForOp getRepresentative(ForOp threadLoop);
  SmallVector<ForOp> getKeptLoops(Operation *op);

  // Index expressions over the collector's dimensions.
  AffineExpr dimOf(Value v);
  AffineExpr resolve(Value v);
  AffineExpr simplify(AffineExpr e);
  ArrayRef<AffineExpr> resolveAccess(Operation *access);
  std::optional<Interval> getLoopRange(unsigned dim);

  // Allocations.
  void placeAllocation(AllocBufferOp alloc, FunctionOpInterface func);

  // Stores.
  void visitStore(StoreOp store);
  ArithCounts countValue(Value v, SmallVectorImpl<LoadOp> &loads,
                         DenseMap<Value, ArithCounts> &memo);
  ArithCounts countExpr(AffineExpr e, SmallVectorImpl<LoadOp> &loads,
                        DenseMap<Value, ArithCounts> &memo);
  void computeRegions(ArrayRef<NestLoop> nest,
                      MutableArrayRef<BufferAccess> accesses,
                      SmallVectorImpl<int64_t> &touchedBytes);
  void computeReuse(ArrayRef<NestLoop> nest,
                    MutableArrayRef<BufferAccess> accesses);

  MLIRContext *ctx;
  PerStoreFeatureOptions options;

  DenseMap<Operation *, SmallVector<ForOp>> kernelThreadLoops;
  SmallVector<Value> dimValues;
  DenseMap<Value, unsigned> dimPositions;
  DenseMap<Value, AffineExpr> resolved;
  DenseMap<Operation *, SmallVector<AffineExpr>> accessIndices;

  /// The allocated and parameter buffers.
  DenseMap<Value, Allocation> allocations;
  /// Per loop, per buffer: the elements each store under the loop touched
  /// in it (TVM's buffer_touched_under_loop).
  DenseMap<Operation *, llvm::MapVector<Value, SmallVector<int64_t>>>
      touchedUnderLoop;
  /// The features of each stored buffer, in the order of first store.
  llvm::MapVector<Value, StoreFeatures> rows;
};

ArrayRef<ForOp> Collector::getKernelThreadLoops(ForOp root) {
  auto known = kernelThreadLoops.find(root);
  if (known != kernelThreadLoops.end())
    return known->second;
  SmallVector<ForOp> loops;
  llvm::StringSet<> tags;
  root->walk<WalkOrder::PreOrder>([&](ForOp loop) {
    if (loop.getKind() == ForKind::ThreadBinding &&
        tags.insert(*loop.getThread()).second)
      loops.push_back(loop);
  });
  return kernelThreadLoops[root] = std::move(loops);
}

ForOp Collector::getRepresentative(ForOp threadLoop) {
  for (ForOp loop : getKernelThreadLoops(getKernelRoot(threadLoop)))
    if (loop.getThread() == threadLoop.getThread())
      return loop;
  return threadLoop;
}

/// The loops around `op` (and `op` itself when it is a loop) in the
/// lowered program, outermost first: without unit loops, and with the
/// thread loops of a kernel hoisted to its root, one per tag.
SmallVector<ForOp> Collector::getKeptLoops(Operation *op) {
  SmallVector<ForOp> chain;
  for (Operation *p = op; p; p = p->getParentOp())
    if (auto loop = dyn_cast<ForOp>(p); loop && !isUnitLoop(loop))
      chain.push_back(loop);
  std::reverse(chain.begin(), chain.end());
  auto root = llvm::find_if(chain, [](ForOp loop) {
    return loop.getKind() == ForKind::ThreadBinding;
  });
  if (root == chain.end())
    return chain;
  SmallVector<ForOp> loops(chain.begin(), root);
  llvm::append_range(loops, getKernelThreadLoops(*root));
  for (ForOp loop : llvm::make_range(root, chain.end()))
    if (loop.getKind() != ForKind::ThreadBinding)
      loops.push_back(loop);
  return loops;
}

AffineExpr Collector::dimOf(Value v) {
  auto [it, inserted] = dimPositions.try_emplace(v, dimValues.size());
  if (inserted)
    dimValues.push_back(v);
  return getAffineDimExpr(it->second, ctx);
}

AffineExpr Collector::simplify(AffineExpr e) {
  return simplifyIndexExpr(e, dimValues.size(), 0);
}

AffineExpr Collector::resolve(Value v) {
  if (AffineExpr known = resolved.lookup(v))
    return known;
  AffineExpr result;
  if (auto arg = dyn_cast<BlockArgument>(v)) {
    Operation *owner = arg.getOwner()->getParentOp();
    auto loop = dyn_cast_or_null<ForOp>(owner);
    auto block = dyn_cast_or_null<BlockOp>(owner);
    if (loop && isUnitLoop(loop)) {
      result = getAffineConstantExpr(0, ctx);
    } else if (ForOp rep = loop && loop.getKind() == ForKind::ThreadBinding
                               ? getRepresentative(loop)
                               : loop;
               rep != loop) {
      int64_t shift = loop.getConstantLowerBound().value_or(0) -
                      rep.getConstantLowerBound().value_or(0);
      result = resolve(rep.getInductionVar()) + shift;
    } else if (block && arg.getArgNumber() < block.getNumIterVars()) {
      AffineExpr binding = block.getBindingExprs()[arg.getArgNumber()];
      SmallVector<AffineExpr> inputs;
      for (Value input : block.getBindingValues())
        inputs.push_back(resolve(input));
      result = simplify(binding.replaceDims(inputs));
    } else {
      result = dimOf(v);
    }
  } else {
    ValueIndexExpr traced = getIndexExprOf(v);
    if (traced.inputs.size() == 1 && traced.inputs.front() == v) {
      result = dimOf(v);
    } else {
      SmallVector<AffineExpr> inputs;
      for (Value input : traced.inputs)
        inputs.push_back(resolve(input));
      result = simplify(traced.expr.replaceDims(inputs));
    }
  }
  resolved[v] = result;
  return result;
}

std::optional<Interval> Collector::getLoopRange(unsigned dim) {
  auto arg = dyn_cast<BlockArgument>(dimValues[dim]);
  auto loop =
      arg ? dyn_cast_or_null<ForOp>(arg.getOwner()->getParentOp()) : ForOp();
  if (!loop)
    return std::nullopt;
  std::optional<int64_t> lo = loop.getConstantLowerBound();
  std::optional<int64_t> hi = loop.getConstantUpperBound();
  if (!lo || !hi || *hi <= *lo)
    return std::nullopt;
  return Interval{*lo, *hi - 1};
}

/// The indices of a load or store over loop variables, shifted into the
/// compacted buffer, simplified with the loops' ranges (TVM's Simplify).
ArrayRef<AffineExpr> Collector::resolveAccess(Operation *access) {
  auto it = accessIndices.find(access);
  if (it != accessIndices.end())
    return it->second;
  AffineMap map;
  ValueRange operands;
  Value buffer;
  if (auto load = dyn_cast<LoadOp>(access)) {
    map = load.getMap();
    operands = load.getIndices();
    buffer = load.getBuffer();
  } else {
    auto store = cast<StoreOp>(access);
    map = store.getMap();
    operands = store.getIndices();
    buffer = store.getBuffer();
  }
  SmallVector<AffineExpr> inputs;
  for (Value operand : operands)
    inputs.push_back(resolve(operand));
  SmallVector<AffineExpr> indices;
  for (AffineExpr e : getExprsOverInputs(map))
    indices.push_back(e.replaceDims(inputs));
  auto allocation = allocations.find(buffer);
  if (allocation != allocations.end() && !allocation->second.lowers.empty()) {
    SmallVector<AffineExpr> partInputs;
    for (Value input : allocation->second.inputs)
      partInputs.push_back(resolve(input));
    for (auto [index, lower] : llvm::zip(indices, allocation->second.lowers))
      index = index - lower.replaceDims(partInputs);
  }
  SmallVector<std::optional<Interval>> ranges;
  for (unsigned d = 0, e = dimValues.size(); d < e; ++d)
    ranges.push_back(getLoopRange(d));
  for (AffineExpr &index : indices)
    index = simplifyWithRanges(simplify(index), ranges, dimValues.size(), 0);
  return accessIndices[access] = std::move(indices);
}

//===----------------------------------------------------------------------===//
// Allocations
//===----------------------------------------------------------------------===//

void Collector::placeAllocation(AllocBufferOp alloc, FunctionOpInterface func) {
  Value buffer = alloc.getBuffer();
  auto type = cast<MemRefType>(buffer.getType());
  Operation *funcOp = func.getOperation();
  // TVM's DetectBufferAccessLCA: the lowest scope of its accesses.
  Operation *lca = nullptr;
  for (Operation *user : buffer.getUsers())
    if (!isa<BlockOp>(user))
      lca = getCommonScope(lca, getScopeOf(user, funcOp), funcOp);
  if (!lca)
    return;
  // A block writing it with reduction (or other non-spatial) variables
  // keeps it above the loops those variables run over.
  func->walk([&](BlockOp block) {
    SmallVector<Value> reads, writes;
    getReadWriteBuffers(block, reads, writes);
    if (!llvm::is_contained(writes, buffer))
      return;
    SmallVector<AffineExpr> bindings = block.getBindingExprs();
    for (unsigned i = 0, e = block.getNumIterVars(); i < e; ++i) {
      if (block.getIterType(i) == IterType::Spatial)
        continue;
      for (auto [pos, value] : llvm::enumerate(block.getBindingValues())) {
        auto arg = dyn_cast<BlockArgument>(value);
        auto loop = arg ? dyn_cast_or_null<ForOp>(arg.getOwner()->getParentOp())
                        : ForOp();
        if (loop && !isUnitLoop(loop) && bindings[i].isFunctionOfDim(pos))
          lca = getCommonScope(lca, getScopeOf(loop, funcOp), funcOp);
      }
    }
  });
  // A global buffer stays outside every kernel launch.
  if (getStorageScope(type) == "global")
    func->walk([&](ForOp loop) {
      if (isBlockIdxLoop(loop))
        lca = getCommonScope(lca, loop, funcOp);
    });

  Allocation allocation;
  allocation.shape = getKnownShape(type);
  for (ForOp loop : getKeptLoops(isa<ForOp>(lca) ? lca : lca->getParentOp()))
    if (std::optional<int64_t> extent = loop.getConstantExtent())
      allocation.outerProduct *= static_cast<double>(*extent);

  // TVM's CompactBufferAllocation: the part one execution of the scope
  // touches. A block that is the only one accessing it keeps the part one
  // execution of that block touches.
  SmallVector<BlockOp> blocks;
  for (BlockOp block : getAccessingBlocks(buffer))
    if (lca->isProperAncestor(block))
      blocks.push_back(block);
  Operation *anchor = lca;
  if (blocks.empty() && isa<BlockOp>(lca)) {
    blocks.push_back(cast<BlockOp>(lca));
    anchor = lca->getParentOp();
  }
  Refusal why;
  if (!blocks.empty() && type.hasStaticShape()) {
    FailureOr<CompactPart> part = getCompactPart(anchor, buffer, blocks, why,
                                                 /*sameThreadIsPoint=*/true);
    if (succeeded(part)) {
      allocation.shape = part->shape;
      allocation.lowers = part->lowers;
      allocation.inputs = part->inputs;
    }
  }
  allocations[buffer] = std::move(allocation);
}

//===----------------------------------------------------------------------===//
// Arithmetic of a stored value
//===----------------------------------------------------------------------===//

/// The operations TVM's tree of `e` has: `a - b` is one subtraction
/// (MLIR writes `a + b * -1`), a product by a constant one
/// multiplication. Opaque inputs computed by an op count what they compute.
ArithCounts Collector::countExpr(AffineExpr e, SmallVectorImpl<LoadOp> &loads,
                                 DenseMap<Value, ArithCounts> &memo) {
  ArithCounts counts;
  std::function<void(AffineExpr)> visit = [&](AffineExpr x) {
    if (auto dim = dyn_cast<AffineDimExpr>(x)) {
      Value v = dimValues[dim.getPosition()];
      if (v.getDefiningOp())
        counts += countValue(v, loads, memo);
      return;
    }
    auto bin = dyn_cast<AffineBinaryOpExpr>(x);
    if (!bin)
      return;
    AffineExpr lhs = bin.getLHS(), rhs = bin.getRHS();
    switch (x.getKind()) {
    case AffineExprKind::Add: {
      counts[ArithCounts::IntAddSub] += 1;
      visit(lhs);
      // A subtraction: `rhs` is a negated term.
      if (auto product = dyn_cast<AffineBinaryOpExpr>(rhs);
          product && rhs.getKind() == AffineExprKind::Mul) {
        auto factor = dyn_cast<AffineConstantExpr>(product.getRHS());
        if (factor && factor.getValue() < 0) {
          if (factor.getValue() != -1)
            counts[ArithCounts::IntMul] += 1;
          visit(product.getLHS());
          return;
        }
      }
      visit(rhs);
      return;
    }
    case AffineExprKind::Mul:
      counts[ArithCounts::IntMul] += 1;
      break;
    default:
      counts[ArithCounts::IntDivMod] += 1;
      break;
    }
    visit(lhs);
    visit(rhs);
  };
  visit(e);
  return counts;
}

/// Whether getIndexExprOf reads through `op`.
bool isIndexArithmetic(Operation *op) {
  return isa<arith::ConstantOp, arith::AddIOp, arith::SubIOp, arith::MulIOp,
             arith::FloorDivSIOp, arith::CeilDivSIOp>(op) ||
         op->getName().getStringRef() == "affine.apply";
}

/// The operations TVM's expression tree of `v` has (a value used twice
/// counts twice), collecting the loads in it.
ArithCounts Collector::countValue(Value v, SmallVectorImpl<LoadOp> &loads,
                                  DenseMap<Value, ArithCounts> &memo) {
  auto known = memo.find(v);
  if (known != memo.end())
    return known->second;
  ArithCounts counts;
  Operation *op = v.getDefiningOp();
  if (v.getType().isIndex() && (!op || isIndexArithmetic(op))) {
    // Index arithmetic, and loop and iteration variables, as TVM sees them
    // once blocks are opaque.
    counts = countExpr(resolve(v), loads, memo);
  } else if (auto load = dyn_cast_or_null<LoadOp>(op)) {
    loads.push_back(load);
    for (AffineExpr index : resolveAccess(load))
      counts += countExpr(index, loads, memo);
  } else if (op) {
    bool counted;
    ArithCounts::Kind kind = classify(op, counted);
    if (counted)
      counts[kind] += 1;
    if (auto branch = dyn_cast<scf::IfOp>(op)) {
      counts += countValue(branch.getCondition(), loads, memo);
      for (Region *region : {&branch.getThenRegion(), &branch.getElseRegion()})
        if (!region->empty())
          for (Value yielded : region->front().getTerminator()->getOperands())
            counts += countValue(yielded, loads, memo);
    } else {
      for (Value operand : op->getOperands())
        if (!isa<MemRefType>(operand.getType()))
          counts += countValue(operand, loads, memo);
    }
  }
  memo[v] = counts;
  return counts;
}

//===----------------------------------------------------------------------===//
// Regions, strides, reuse
//===----------------------------------------------------------------------===//

/// `e` with each `x mod c` (c a positive constant, x of loop variables of
/// `nest` only) replaced by its value with every loop at its start. TVM's
/// region bounds do this: its analyzer first binds each loop variable to
/// the loop's start, and binding the loop's range afterwards updates the
/// variable's bounds but not what its modular analysis knows (that it is
/// that one value), which then narrows the bound of a modulo to one value.
AffineExpr freezeModuli(AffineExpr e, ArrayRef<int64_t> starts,
                        const llvm::SmallBitVector &loopDims) {
  auto bin = dyn_cast<AffineBinaryOpExpr>(e);
  if (!bin)
    return e;
  auto divisor = dyn_cast<AffineConstantExpr>(bin.getRHS());
  if (e.getKind() == AffineExprKind::Mod && divisor && divisor.getValue() > 0) {
    bool onlyLoops = true;
    bin.getLHS().walk([&](AffineExpr x) {
      if (auto dim = dyn_cast<AffineDimExpr>(x))
        onlyLoops &= loopDims.test(dim.getPosition());
      else if (isa<AffineSymbolExpr>(x))
        onlyLoops = false;
    });
    if (onlyLoops)
      if (std::optional<int64_t> value = evaluateAt(bin.getLHS(), starts))
        return getAffineConstantExpr(llvm::mod(*value, divisor.getValue()),
                                     e.getContext());
  }
  return getAffineBinaryOpExpr(e.getKind(),
                               freezeModuli(bin.getLHS(), starts, loopDims),
                               freezeModuli(bin.getRHS(), starts, loopDims));
}

/// TVM's SetRegion: for each loop from the innermost out, the part of each
/// buffer the loops from it inwards touch (outer loops at their start).
void Collector::computeRegions(ArrayRef<NestLoop> nest,
                               MutableArrayRef<BufferAccess> accesses,
                               SmallVectorImpl<int64_t> &touchedBytes) {
  int64_t n = nest.size();
  touchedBytes.assign(n, 0);
  if (n == 0) {
    for (BufferAccess &access : accesses)
      access.accessShape.assign(access.shape.size(), 1);
    return;
  }
  // The indices as TVM's bounds see them.
  SmallVector<int64_t> starts(dimValues.size(), 0);
  llvm::SmallBitVector loopDims(dimValues.size());
  for (const NestLoop &loop : nest) {
    starts[loop.dim] = loop.lower;
    loopDims.set(loop.dim);
  }
  std::vector<std::vector<SmallVector<AffineExpr>>> bounded;
  for (BufferAccess &access : accesses) {
    std::vector<SmallVector<AffineExpr>> &lists = bounded.emplace_back();
    for (ArrayRef<AffineExpr> index : access.indices) {
      SmallVector<AffineExpr> &list = lists.emplace_back();
      for (AffineExpr e : index)
        list.push_back(freezeModuli(e, starts, loopDims));
    }
  }
  // Opaque values stay at one (unknown) value.
  SmallVector<std::optional<Interval>> ranges(dimValues.size(),
                                              Interval::point(0));
  for (BufferAccess &access : accesses)
    access.touchedPerLoop.assign(n, 0);
  for (int64_t i = n - 1; i >= 0; --i) {
    // Loops from i inwards run over their range (one with a runtime extent
    // over what the buffer holds), the others stay at their start. One of
    // no iteration touches nothing.
    bool empty = false;
    for (int64_t j = 0; j < n; ++j) {
      const NestLoop &loop = nest[j];
      if (j >= i && loop.extent && *loop.extent <= 0)
        empty = true;
      if (j < i)
        ranges[loop.dim] = Interval::point(loop.lower);
      else if (loop.extent)
        ranges[loop.dim] = Interval{
            loop.lower, loop.lower + std::max<int64_t>(*loop.extent, 1) - 1};
      else
        ranges[loop.dim] = std::nullopt;
    }
    for (auto [access, lists] : llvm::zip(accesses, bounded)) {
      unsigned rank = access.shape.size();
      SmallVector<int64_t> lows(rank, INT64_MAX), highs(rank, INT64_MIN);
      for (ArrayRef<AffineExpr> index : lists)
        for (unsigned d = 0; d < rank; ++d) {
          // Accesses stay inside the buffer: where interval arithmetic
          // cannot tell (MLIR's form of an unpacking, `i * 49 - (i floordiv
          // 512) * 25087`, bounds far outside), the buffer bounds it.
          std::optional<Interval> range = evaluateRange(index[d], ranges);
          int64_t last = access.shape[d] - 1;
          if (!range)
            range = Interval{0, last};
          if (!access.dynamicDims.test(d))
            range = Interval{std::max<int64_t>(range->lo, 0),
                             std::min(range->hi, last)};
          lows[d] = std::min(lows[d], range->lo);
          highs[d] = std::max(highs[d], range->hi);
        }
      int64_t numel = 1;
      access.accessShape.assign(rank, 1);
      for (unsigned d = 0; d < rank; ++d) {
        access.accessShape[d] = highs[d] - lows[d] + 1;
        numel *= access.accessShape[d];
      }
      numel = empty ? 0 : std::max<int64_t>(0, numel);
      access.touchedPerLoop[i] = numel;
      touchedBytes[i] += numel * access.elementBytes;
      touchedUnderLoop[nest[i].op][access.buffer].push_back(numel);
    }
  }
}

/// TVM's SetStride.
void computeStride(ArrayRef<NestLoop> nest, BufferAccess &access) {
  int64_t n = nest.size();
  unsigned rank = access.shape.size();
  SmallVector<int64_t> strides(rank, 1);
  for (int64_t d = static_cast<int64_t>(rank) - 2; d >= 0; --d)
    strides[d] = strides[d + 1] * access.shape[d + 1];
  access.continuousBytes = 1;
  for (int64_t d = static_cast<int64_t>(rank) - 1; d >= 0; --d)
    if (access.accessShape[d] == access.shape[d]) {
      access.continuousBytes = access.shape[d] * access.elementBytes;
      break;
    }
  // The innermost loop that moves the access, and the smallest stride it
  // moves it by (in the last dimension it indexes).
  auto strideOf = [&](unsigned dim) -> int64_t {
    int64_t best = INT64_MAX;
    for (ArrayRef<AffineExpr> index : access.indices)
      for (int64_t d = static_cast<int64_t>(rank) - 1; d >= 0; --d)
        if (int64_t coefficient = getStrideIn(index[d], dim)) {
          best = std::min(best, coefficient * strides[d]);
          break;
        }
    return best == INT64_MAX ? 0 : best;
  };
  int64_t i = n - 1;
  access.minStride = 0;
  for (; i >= 0; --i)
    if ((access.minStride = strideOf(nest[i].dim)))
      break;
  access.innermostStride = i == n - 1 ? access.minStride : 0;
  access.nonStridedProduct = 1;
  for (int64_t j = n - 1; j > i; --j)
    if (nest[j].extent)
      access.nonStridedProduct *= *nest[j].extent;
}

/// TVM's SetFeature: the bytes and cache lines `access` touches under
/// `numLoops` loops of `product` iterations.
void computeTraffic(int64_t numLoops, double product, int64_t cacheLineBytes,
                    BufferAccess &access) {
  access.bytes = static_cast<double>(access.elementBytes) * product;
  if (numLoops == 0) {
    access.uniqueBytes = access.lines = access.uniqueLines = 1;
    return;
  }
  access.uniqueBytes =
      static_cast<double>(access.touchedPerLoop.front()) * access.elementBytes;
  access.lines = product / static_cast<double>(access.nonStridedProduct) *
                 std::min(1.0, static_cast<double>(access.minStride) *
                                   access.elementBytes / cacheLineBytes);
  access.lines = std::max(1.0, access.lines);
  access.uniqueLines =
      access.uniqueBytes /
      static_cast<double>(std::min(cacheLineBytes, access.continuousBytes));
  access.uniqueLines = std::max(1.0, access.uniqueLines);
}

/// Group 3: float operations per unique byte as the loops from the
/// innermost out are taken in (`perIteration` float operations in the
/// innermost body, `touchedBytes` under each loop), sampled at `samples`
/// even fractions of the total work, interpolated between loops.
std::vector<double> getIntensityCurve(ArrayRef<NestLoop> nest,
                                      double perIteration,
                                      ArrayRef<int64_t> touchedBytes,
                                      int64_t samples) {
  std::vector<double> curve(samples, 0.0);
  SmallVector<double> computeOps, memoryBytes;
  for (int64_t i = static_cast<int64_t>(nest.size()) - 1; i >= 0; --i) {
    if (nest[i].extent)
      perIteration *= static_cast<double>(*nest[i].extent);
    computeOps.push_back(perIteration);
    memoryBytes.push_back(
        static_cast<double>(std::max<int64_t>(touchedBytes[i], 1)));
  }
  if (computeOps.empty() || computeOps.back() <= 0)
    return curve;
  double total = computeOps.back();
  size_t p = 0;
  for (int64_t s = 0; s < samples; ++s) {
    double target = static_cast<double>(s + 1) / samples * total;
    while (p + 1 < computeOps.size() && computeOps[p] < target - 1e-4)
      ++p;
    double intensity = computeOps[p] / memoryBytes[p];
    if (p > 0) {
      double base = computeOps[p - 1] / memoryBytes[p - 1];
      double slope = (intensity - base) / (computeOps[p] - computeOps[p - 1]);
      intensity = base + slope * (target - computeOps[p - 1]);
    }
    curve[s] = slog(intensity);
  }
  return curve;
}

/// TVM's SetReuse: the innermost loop whose variable the access does not
/// use (each of its iterations reads the same data again), or under which
/// earlier stores touched the buffer too (serial reuse).
void Collector::computeReuse(ArrayRef<NestLoop> nest,
                             MutableArrayRef<BufferAccess> accesses) {
  int64_t n = nest.size();
  double topLoopBytes = 0;
  if (n > 0)
    for (const BufferAccess &access : accesses)
      topLoopBytes += access.elementBytes;
  auto bytesUnder = [&](Operation *loop) {
    double bytes = 0;
    for (auto &[buffer, numels] : touchedUnderLoop[loop]) {
      int64_t sum = 0;
      for (int64_t numel : numels)
        sum += numel;
      bytes += static_cast<double>(sum) *
               getElementBytes(cast<MemRefType>(buffer.getType()));
    }
    return bytes;
  };
  for (BufferAccess &access : accesses) {
    llvm::SmallBitVector used(dimValues.size());
    for (ArrayRef<AffineExpr> index : access.indices)
      for (AffineExpr e : index)
        e.walk([&](AffineExpr x) {
          if (auto dim = dyn_cast<AffineDimExpr>(x))
            used.set(dim.getPosition());
        });
    for (int64_t i = n - 1; i >= 0; --i) {
      const NestLoop &loop = nest[i];
      if (!used.test(loop.dim)) {
        access.reuse = ReuseType::LoopMultipleRead;
        access.reuseCount = loop.extent.value_or(1);
        access.reuseIterations = 1;
        for (int64_t j = n - 1; j > i; --j)
          if (nest[j].extent)
            access.reuseIterations *= *nest[j].extent;
        access.reuseBytes =
            i == n - 1 ? topLoopBytes : bytesUnder(nest[i + 1].op);
        break;
      }
      ArrayRef<int64_t> touched = touchedUnderLoop[loop.op][access.buffer];
      if (touched.size() >= 2) {
        double extent = static_cast<double>(loop.extent.value_or(1));
        access.reuse = ReuseType::SerialMultipleReadWrite;
        access.reuseCount = touched.size() - 1;
        access.reuseIterations =
            static_cast<double>(*llvm::min_element(touched)) / extent;
        access.reuseBytes = bytesUnder(loop.op) / extent;
        break;
      }
    }
  }
}

//===----------------------------------------------------------------------===//
// One store
//===----------------------------------------------------------------------===//

void exportLoopKind(ArrayRef<NestLoop> loops, std::vector<double> &row) {
  double num = 0, product = 0, innermost = 0;
  int position = 0; // kPosNone
  if (!loops.empty()) {
    num = loops.size();
    innermost = loops.back().extent.value_or(1);
    product = 1;
    for (const NestLoop &loop : loops)
      if (loop.extent)
        product *= *loop.extent;
    // TVM never tells the positions apart: kPosMixed.
    position = 7;
  }
  row.push_back(slog(num));
  row.push_back(slog(product));
  row.push_back(slog(innermost));
  for (int p = 0; p < 8; ++p)
    row.push_back(static_cast<double>(p == position));
}

void Collector::visitStore(StoreOp store) {
  Value value = store.getValue();
  if (isa_and_present<arith::ConstantOp>(value.getDefiningOp()))
    return;

  // The loop nest.
  SmallVector<NestLoop> nest;
  double product = 1;
  int64_t autoUnroll = 0;
  SmallVector<NestLoop> parallel, vectorized, unrolled;
  // blockIdx.{x,y,z}, threadIdx.{x,y,z}, vthread: the first loop's extent.
  std::array<int64_t, 7> threadExtents;
  threadExtents.fill(1);
  std::array<bool, 7> threadSeen{};
  for (ForOp loop : getKeptLoops(store)) {
    NestLoop entry{
        loop, loop.getConstantExtent(),
        loop.getConstantLowerBound().value_or(0),
        cast<AffineDimExpr>(dimOf(loop.getInductionVar())).getPosition()};
    nest.push_back(entry);
    if (entry.extent)
      product *= static_cast<double>(*entry.extent);
    if (auto annotations = loop.getAnnotations())
      if (auto step =
              dyn_cast_or_null<IntegerAttr>(annotations->get(kAutoUnrollKey));
          step && step.getInt() > 0)
        autoUnroll = step.getInt();
    switch (loop.getKind()) {
    case ForKind::Parallel:
      parallel.push_back(entry);
      break;
    case ForKind::Vectorized:
      vectorized.push_back(entry);
      break;
    case ForKind::Unrolled:
      unrolled.push_back(entry);
      break;
    case ForKind::ThreadBinding: {
      StringRef tag = *loop.getThread();
      int slot = llvm::StringSwitch<int>(tag)
                     .Case("blockIdx.x", 0)
                     .Case("blockIdx.y", 1)
                     .Case("blockIdx.z", 2)
                     .Case("threadIdx.x", 3)
                     .Case("threadIdx.y", 4)
                     .Case("threadIdx.z", 5)
                     .Default(tag.starts_with("vthread") ? 6 : -1);
      if (slot >= 0 && !threadSeen[slot]) {
        threadSeen[slot] = true;
        threadExtents[slot] = entry.extent.value_or(1);
      }
      break;
    }
    case ForKind::Serial:
      break;
    }
  }

  // Group 1: the arithmetic of the value, per iteration, and the loops.
  SmallVector<LoadOp> loads;
  DenseMap<Value, ArithCounts> memo;
  ArithCounts counts = countValue(value, loads, memo);
  for (double &c : counts.counts)
    c *= product;
  StoreFeatures features;
  for (double c : counts.counts)
    features.group1.push_back(slog(c));
  exportLoopKind(vectorized, features.group1);
  exportLoopKind(unrolled, features.group1);
  exportLoopKind(parallel, features.group1);
  features.group1.push_back(options.isGPU ? 1.0 : 0.0);
  for (int64_t extent : threadExtents)
    features.group1.push_back(slog(options.isGPU ? extent : 1));

  // Group 2: the buffers, the stored one first.
  llvm::MapVector<Value, BufferAccess> byBuffer;
  auto entryFor = [&](Value buffer) -> BufferAccess & {
    auto [it, inserted] = byBuffer.insert({buffer, BufferAccess()});
    BufferAccess &access = it->second;
    if (inserted) {
      auto type = cast<MemRefType>(buffer.getType());
      access.buffer = buffer;
      access.name = getBufferName(buffer);
      access.elementBytes = getElementBytes(type);
      auto allocation = allocations.find(buffer);
      access.shape = allocation != allocations.end() ? allocation->second.shape
                                                     : getKnownShape(type);
      access.dynamicDims.resize(type.getRank());
      if (allocation == allocations.end() || allocation->second.lowers.empty())
        for (int64_t d = 0; d < type.getRank(); ++d)
          access.dynamicDims[d] = type.isDynamicDim(d);
    }
    return access;
  };
  {
    BufferAccess &written = entryFor(store.getBuffer());
    written.type = AccessType::Write;
    written.indices.emplace_back(resolveAccess(store));
  }
  llvm::SmallPtrSet<Operation *, 8> seenLoads;
  for (LoadOp load : loads) {
    if (!seenLoads.insert(load).second)
      continue;
    bool isNew = !byBuffer.count(load.getBuffer());
    BufferAccess &access = entryFor(load.getBuffer());
    if (!isNew && access.type != AccessType::Read) {
      // Reading what the store writes: TVM keeps the write's indices only.
      access.type = AccessType::ReadWrite;
      continue;
    }
    access.type = AccessType::Read;
    access.indices.emplace_back(resolveAccess(load));
  }
  std::vector<BufferAccess> accesses;
  for (auto &entry : byBuffer)
    accesses.push_back(std::move(entry.second));

  int64_t n = nest.size();
  SmallVector<int64_t> touchedBytes;
  computeRegions(nest, accesses, touchedBytes);
  for (BufferAccess &access : accesses)
    computeStride(nest, access);
  computeReuse(nest, accesses);
  for (BufferAccess &access : accesses)
    computeTraffic(n, product, options.cacheLineBytes, access);
  // Most lines first, then most bytes, then by name (then as met).
  SmallVector<unsigned> order(accesses.size());
  std::iota(order.begin(), order.end(), 0u);
  llvm::sort(order, [&](unsigned i, unsigned j) {
    const BufferAccess &a = accesses[i], &b = accesses[j];
    if (a.lines != b.lines)
      return a.lines > b.lines;
    if (a.bytes != b.bytes)
      return a.bytes > b.bytes;
    if (a.name != b.name)
      return a.name < b.name;
    return i < j;
  });
  for (int64_t i = 0; i < options.bufferCount; ++i) {
    if (i < static_cast<int64_t>(accesses.size()))
      accesses[order[i]].exportTo(features.group2);
    else
      features.group2.insert(features.group2.end(), kBufferFeatureCount, 0.0);
  }

  // Group 3.
  features.group3 =
      getIntensityCurve(nest, counts.getFloatOps() / product, touchedBytes,
                        options.arithIntensityCurveNumSamples);

  // Group 5.
  features.outerProduct = product;
  features.numLoops = n;
  features.autoUnroll = autoUnroll;

  rows[store.getBuffer()] = std::move(features);
}

//===----------------------------------------------------------------------===//
// The walk
//===----------------------------------------------------------------------===//

void Collector::collect(FunctionOpInterface func) {
  // Parameters are allocated outside every loop, as declared.
  for (BlockArgument arg : func.getArguments())
    if (auto type = dyn_cast<MemRefType>(arg.getType())) {
      Allocation allocation;
      allocation.shape = getKnownShape(type);
      allocations[arg] = std::move(allocation);
    }
  func->walk([&](AllocBufferOp alloc) { placeAllocation(alloc, func); });

  // (A store under a loop of no iteration gets its row too, of zero
  // counts, as TVM's.)
  func->walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (auto block = dyn_cast<BlockOp>(op))
      if (getAnnotation(block, kLayoutRewritePreproc))
        return WalkResult::skip();
    if (auto store = dyn_cast<StoreOp>(op))
      visitStore(store);
    return WalkResult::advance();
  });
}

FeatureMatrix Collector::finish() {
  FeatureMatrix matrix;
  matrix.cols = getPerStoreFeatureCount(options);
  for (auto &[buffer, features] : rows) {
    std::vector<double> &data = matrix.data;
    size_t start = data.size();
    data.insert(data.end(), features.group1.begin(), features.group1.end());
    data.insert(data.end(), features.group2.begin(), features.group2.end());
    data.insert(data.end(), features.group3.begin(), features.group3.end());
    // Group 4: the allocation of the stored buffer (none for a view).
    double size = 0, allocProduct = 0, allocOuter = 1;
    auto allocation = allocations.find(buffer);
    if (allocation != allocations.end()) {
      auto type = cast<MemRefType>(buffer.getType());
      double numel = static_cast<double>(getProduct(allocation->second.shape));
      size = numel * getElementBytes(type);
      allocOuter = allocation->second.outerProduct;
      allocProduct = numel * allocOuter;
    }
    data.push_back(slog(size));
    data.push_back(slog(allocProduct));
    data.push_back(slog(allocOuter));
    data.push_back(slog(features.outerProduct / allocOuter));
    // Group 5.
    data.push_back(slog(features.outerProduct));
    data.push_back(slog(static_cast<double>(features.numLoops)));
    data.push_back(slog(static_cast<double>(features.autoUnroll)));
    assert(static_cast<int64_t>(data.size() - start) == matrix.cols &&
           "a row of the wrong length");
    (void)start;
    ++matrix.rows;
  }
  return matrix;
}

//===----------------------------------------------------------------------===//
// The extractor
//===----------------------------------------------------------------------===//

class PerStoreFeature : public FeatureExtractor {
public:
  PerStoreFeature(PerStoreFeatureOptions options, bool extractWorkload)
      : options(options), extractWorkload(extractWorkload) {}

  FailureOr<std::vector<FeatureMatrix>>
  extractFrom(const TuneContext &context,
              const std::vector<MeasureCandidate> &candidates,
              std::string &error) override {
    if (!context.target) {
      error = "PerStoreFeature needs the tune context's target";
      return failure();
    }
    PerStoreFeatureOptions perTarget = options;
    perTarget.isGPU = context.target->isGPU();
    std::vector<double> embedding;
    if (extractWorkload) {
      if (!context.mod) {
        error = "PerStoreFeature's workload embedding needs the tune "
                "context's module";
        return failure();
      }
      embedding = getWorkloadEmbedding(*context.mod);
    }
    std::vector<FeatureMatrix> results;
    for (const MeasureCandidate &candidate : candidates) {
      if (!candidate.sch) {
        error = "PerStoreFeature was given a candidate without a schedule";
        return failure();
      }
      FeatureMatrix matrix =
          computePerStoreFeatures(candidate.sch->getPayload(), perTarget);
      if (extractWorkload) {
        FeatureMatrix widened;
        widened.rows = matrix.rows;
        widened.cols = matrix.cols + kWorkloadCount;
        for (int64_t r = 0; r < matrix.rows; ++r) {
          auto row = matrix.data.begin() + r * matrix.cols;
          widened.data.insert(widened.data.end(), row, row + matrix.cols);
          widened.data.insert(widened.data.end(), embedding.begin(),
                              embedding.end());
        }
        matrix = std::move(widened);
      }
      results.push_back(std::move(matrix));
    }
    return results;
  }

  std::string str() const override {
    return defaultRepr("PerStoreFeature", this);
  }

private:
  PerStoreFeatureOptions options;
  bool extractWorkload;
};

} // namespace

int64_t
mlir::tir::ms::getPerStoreFeatureCount(const PerStoreFeatureOptions &options,
                                       bool withWorkloadEmbedding) {
  return kGroup1Count + kBufferFeatureCount * options.bufferCount +
         options.arithIntensityCurveNumSamples + kGroup4Count + kGroup5Count +
         (withWorkloadEmbedding ? kWorkloadCount : 0);
}

FeatureMatrix
mlir::tir::ms::computePerStoreFeatures(ModuleOp mod,
                                       const PerStoreFeatureOptions &options) {
  Collector collector(mod.getContext(), options);
  for (FunctionOpInterface func : getScheduledFunctions(mod))
    collector.collect(func);
  return collector.finish();
}

std::vector<double> mlir::tir::ms::getWorkloadEmbedding(ModuleOp mod) {
  std::vector<double> embedding(kWorkloadCount, 0.0);
  // The first pattern a name holds sets its flag.
  static const std::pair<StringRef, int> patterns[] = {
      {"softmax", 0},
      {"max", 1},
      {"min", 1},
      {"add", 2},
      {"batch_matmul", 3},
      {"matmul", 4},
      {"depthwiseconv2d", 5},
      {"conv2d_winograd", 6},
      {"conv2d", 7},
  };
  mod->walk([&](BlockOp block) {
    std::string name = block.getBlockName().lower();
    for (auto [pattern, flag] : patterns)
      if (StringRef(name).contains(pattern)) {
        embedding[flag] = 1.0;
        break;
      }
  });
  return embedding;
}

std::shared_ptr<FeatureExtractor> mlir::tir::ms::createPerStoreFeature(
    int64_t bufferCount, int64_t arithIntensityCurveNumSamples,
    int64_t cacheLineBytes, bool extractWorkloadEmbedding) {
  PerStoreFeatureOptions options;
  options.bufferCount = bufferCount;
  options.arithIntensityCurveNumSamples = arithIntensityCurveNumSamples;
  options.cacheLineBytes = cacheLineBytes;
  return std::make_shared<PerStoreFeature>(options, extractWorkloadEmbedding);
}
