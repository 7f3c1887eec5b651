//===- PadEinsum.cpp - TVM's pad_einsum -----------------------------------===//
//
// An einsum block (every buffer indexed by iteration variables or
// constants, each buffer once) iterates over extents rounded up to
// multiples of `padding`: each read buffer indexed by a padded variable is
// first copied into `<name>_pad`, zero beyond the buffer's end; the block
// reads and writes the padded copies; each padded written buffer is copied
// back after it. Loops bound directly to a padded variable take the padded
// extent (for a runtime extent n, `(n + 31) floordiv 32 * 32`).
//
//===----------------------------------------------------------------------===//

#include "InlineUtils.h"
#include "Utils.h"

#include "TensorIR/Dialect/TIR/IR/TIRUtils.h"
#include "TensorIR/Dialect/TIR/Schedule/Analysis.h"
#include "TensorIR/Dialect/TIR/Schedule/Primitives.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

using namespace mlir;
using namespace mlir::tir;
using namespace mlir::tir::sched;

static constexpr StringLiteral kPrimitive = "pad_einsum";

namespace {
/// A buffer to pad: whether the block writes it, the iteration variable
/// indexing each dimension (none for a constant index), and its padded
/// copy once allocated.
struct PaddedBuffer {
  Value buffer;
  bool isWrite;
  SmallVector<std::optional<unsigned>> varOfDim;
  Value padded;
};

/// What pad_einsum does to a block, decided before anything changes.
struct PadPlan {
  /// The buffers indexed by a padded variable.
  SmallVector<PaddedBuffer> buffers;
  /// Per iteration variable: whether its extent is rounded up, and the
  /// loop of the scope bound to it (none: no such loop).
  SmallVector<bool> padded;
  SmallVector<ForOp> loopOf;
  /// The scope's body, the statement of it that holds the block, and where
  /// the padded buffers are allocated.
  Block *body = nullptr;
  Operation *top = nullptr;
  Block::iterator point;

  bool padsAnything() const { return llvm::is_contained(padded, true); }
};
} // namespace

/// Whether `v` is available at `point` (a position in `body`): defined in
/// an enclosing region, an argument of `body`, or defined before `point`.
static bool isAvailableAt(Value v, Block *body, Block::iterator point) {
  Region *region = v.getParentRegion();
  if (region != body->getParent())
    return region->isProperAncestor(body->getParent());
  Operation *def = v.getDefiningOp();
  return !def || point == body->end() || def->isBeforeInBlock(&*point);
}

/// Whether `v` is zero wherever the reads of `zeroed` are: such a read,
/// or a product (or cast) with one as a factor.
static bool vanishesWith(Value v, ArrayRef<Value> zeroed) {
  Operation *def = v.getDefiningOp();
  if (auto load = dyn_cast_or_null<LoadOp>(def))
    return llvm::is_contained(zeroed, load.getBuffer());
  if (isa_and_nonnull<arith::MulFOp, arith::MulIOp>(def))
    return vanishesWith(def->getOperand(0), zeroed) ||
           vanishesWith(def->getOperand(1), zeroed);
  if (isa_and_nonnull<arith::ExtFOp, arith::TruncFOp, arith::ExtSIOp,
                      arith::ExtUIOp, arith::TruncIOp, arith::SIToFPOp,
                      arith::UIToFPOp, arith::FPToSIOp>(def))
    return vanishesWith(def->getOperand(0), zeroed);
  return false;
}

/// Whether `block`'s body is one update `C[x] = C[x] + f` (besides its init)
/// with f vanishing with the reads of `zeroed`.
static bool isSumOfProductWith(BlockOp block, ArrayRef<Value> zeroed) {
  StoreOp store = getSingleStore(block);
  Operation *add = store ? store.getValue().getDefiningOp() : nullptr;
  if (!isa_and_nonnull<arith::AddFOp, arith::AddIOp>(add))
    return false;
  for (unsigned k = 0; k < 2; ++k) {
    auto acc = add->getOperand(k).getDefiningOp<LoadOp>();
    if (acc && acc.getBuffer() == store.getBuffer() &&
        acc.getMap() == store.getMap() &&
        acc.getIndices() == store.getIndices() &&
        vanishesWith(add->getOperand(1 - k), zeroed))
      return true;
  }
  return false;
}

/// `(size + p - 1) floordiv p * p` at the builder's insertion point.
static OpFoldResult roundUp(OpBuilder &b, Location loc, OpFoldResult size,
                            int64_t p) {
  if (std::optional<int64_t> c = getConstantIntValue(size))
    return b.getIndexAttr(llvm::divideCeil(*c, p) * p);
  AffineExpr d = getAffineDimExpr(0, b.getContext());
  return materializeIndex(b, loc, (d + (p - 1)).floorDiv(p) * p,
                          {cast<Value>(size)});
}

/// A buffer's size in dimension `d` at the builder's insertion point.
static OpFoldResult sizeOf(OpBuilder &b, Location loc, Value buffer,
                           unsigned d) {
  auto type = cast<MemRefType>(buffer.getType());
  if (!type.isDynamicDim(d))
    return b.getIndexAttr(type.getDimSize(d));
  Value index = arith::ConstantIndexOp::create(b, loc, d);
  return memref::DimOp::create(b, loc, buffer, index).getResult();
}

/// A copy nest over `extents`: loops `i0..`, a block `name` over `v0..`
/// bound to them whose body `body` builds from the variables.
static void
buildCopyNest(RewriterBase &rewriter, Location loc, StringRef name,
              ArrayRef<OpFoldResult> extents,
              function_ref<void(OpBuilder &, Location, ValueRange)> body) {
  OpBuilder::InsertionGuard guard(rewriter);
  SmallVector<OpFoldResult> zeros(extents.size(), rewriter.getIndexAttr(0));
  SmallVector<Value> loopVars =
      buildLoopNest(rewriter, loc, zeros, extents, "i");
  SmallVector<std::string> names;
  for (unsigned k = 0; k < extents.size(); ++k)
    names.push_back("v" + std::to_string(k));
  SmallVector<IterVarSpec> vars;
  for (auto [k, extent] : llvm::enumerate(extents))
    vars.push_back({IterType::Spatial, rewriter.getIndexAttr(0), extent,
                    getAffineDimExpr(k, rewriter.getContext()), names[k]});
  auto copy = BlockOp::create(rewriter, loc, name, vars, loopVars, body);
  setInferredRegions(copy);
}

/// Every rule pad_einsum checks, and the plan when they hold.
static FailureOr<PadPlan> analyze(BlockOp block, ArrayRef<int64_t> padding,
                                  ScheduleError &error) {
  std::string blockName = ("block '" + block.getBlockName() + "'").str();
  Operation *root = getScopeRoot(block);
  BlockDependences deps(getScopeBlocks(root));
  if (failed(checkStagePipeline(kPrimitive, deps, error)))
    return failure();
  unsigned numVars = block.getNumIterVars();
  if (padding.size() != numVars ||
      llvm::any_of(padding, [](int64_t p) { return p <= 0; }))
    return refuse(error, block,
                  Twine(kPrimitive) +
                      ": the padding must give a positive "
                      "size for each of the " +
                      Twine(numVars) + " iteration variables of " + blockName);

  // The copies cover whole buffers, once per execution of the scope: the
  // block must range over its domain within one execution, not be fed
  // loops or variables of outside it.
  for (Value v : block.getBindingValues())
    if (auto arg = dyn_cast<BlockArgument>(v)) {
      Operation *owner = arg.getOwner()->getParentOp();
      if (isa<ForOp, BlockOp>(owner) && !root->isProperAncestor(owner))
        return refuse(error, block,
                      Twine(kPrimitive) + ": the bindings of " + blockName +
                          " use a variable from outside its scope, so its "
                          "copies would cover one execution of the scope "
                          "while the scope runs several");
    }

  // The einsum pattern: each buffer once, each index a variable or a
  // constant.
  FailureOr<BlockAccessRegions> regions = getAccessRegions(block, error);
  if (failed(regions))
    return failure();
  PadPlan plan;
  SmallVector<PaddedBuffer> &buffers = plan.buffers;
  for (auto [list, isWrite] :
       {std::pair(&regions->reads, false), std::pair(&regions->writes, true)})
    for (const auto &[buffer, region] : *list) {
      if (llvm::any_of(buffers, [&](const PaddedBuffer &b) {
            return b.buffer == buffer;
          }))
        return refuse(error, block,
                      Twine(kPrimitive) + ": " + blockName +
                          " is not an einsum: it accesses buffer '" +
                          getBufferName(buffer) + "' twice");
      PaddedBuffer entry{buffer, isWrite, {}, Value()};
      for (auto [start, extent] : llvm::zip(region.starts, region.extents)) {
        auto one = dyn_cast<AffineConstantExpr>(extent);
        auto var = dyn_cast<AffineDimExpr>(start);
        if (!one || one.getValue() != 1 ||
            (!isa<AffineConstantExpr>(start) &&
             (!var || var.getPosition() >= numVars)))
          return refuse(error, block,
                        Twine(kPrimitive) + ": " + blockName +
                            " is not an einsum: buffer '" +
                            getBufferName(buffer) +
                            "' is not indexed by iteration variables and "
                            "constants alone");
        entry.varOfDim.push_back(var ? std::optional(var.getPosition())
                                     : std::nullopt);
      }
      buffers.push_back(std::move(entry));
    }

  // The variables to pad, and the loops bound to them.
  SmallVector<bool> &padded = plan.padded;
  SmallVector<ForOp> &loopOf = plan.loopOf;
  padded.assign(numVars, false);
  loopOf.resize(numVars);
  SmallVector<AffineExpr> bindings = block.getBindingExprs();
  for (unsigned i = 0; i < numVars; ++i) {
    std::optional<int64_t> lower = block.getConstantDomainLower(i);
    std::optional<int64_t> upper = block.getConstantDomainUpper(i);
    if (lower != 0)
      return refuse(error, block,
                    Twine(kPrimitive) + ": " + iterVarLabel(block, i) +
                        " must start at 0");
    padded[i] = padding[i] > 1 && (!upper || *upper % padding[i] != 0);
    if (!padded[i])
      continue;
    auto dim = dyn_cast<AffineDimExpr>(bindings[i]);
    ForOp loop = dim ? getLoopOfVar(block.getBindingValues()[dim.getPosition()])
                     : ForOp();
    // Only a loop of the scope follows (one outside it runs the scope).
    if (!loop || !root->isProperAncestor(loop))
      continue;
    if (loop.getConstantLowerBound() != 0 ||
        loop.getMixedUpperBound() != block.getMixedDomainUpper(i))
      return refuse(error, loop,
                    Twine(kPrimitive) + ": loop " + loopName(loop) +
                        " bound to " + iterVarLabel(block, i) +
                        " must run over its domain");
    if (collectChildBlocks(loop).size() != 1)
      return refuse(error, loop,
                    Twine(kPrimitive) + ": loop " + loopName(loop) +
                        " holds other blocks than " + blockName +
                        ", which would run over the padded extent too");
    loopOf[i] = loop;
  }
  // A padded reduce variable adds iterations whose reads are zero: sound
  // only where the update is `C = C + f` with f a product that has such a
  // read as a factor (TVM does not check; `max`, or a body that uses the
  // variable's value, would change the result).
  for (unsigned i = 0; i < numVars; ++i) {
    if (!padded[i] || block.getIterType(i) == IterType::Spatial)
      continue;
    SmallVector<Value> zeroed;
    for (const PaddedBuffer &b : buffers)
      if (!b.isWrite && llvm::is_contained(b.varOfDim, i))
        zeroed.push_back(b.buffer);
    if (!isSumOfProductWith(block, zeroed))
      return refuse(error, block,
                    Twine(kPrimitive) + ": padding iteration variable " +
                        iterVarLabel(block, i) +
                        " adds iterations to the reduction of " + blockName +
                        ", which is not `C = C + a * ...` with `a` a read "
                        "indexed by it (the added iterations would not add "
                        "zero)");
  }
  llvm::erase_if(buffers, [&](const PaddedBuffer &b) {
    return llvm::none_of(
        b.varOfDim, [&](std::optional<unsigned> v) { return v && padded[*v]; });
  });
  if (!plan.padsAnything())
    return plan; // every extent is a multiple already

  // Where the copies go: the statement of the scope that holds the block;
  // the padded buffers after the scope's allocations before it, where the
  // runtime extents are known.
  Block *body = plan.body = &root->getRegion(0).front();
  Operation *top = plan.top = body->findAncestorOpInBlock(*block);
  Block::iterator &point = plan.point;
  point = body->begin();
  for (auto it = body->begin(); &*it != top; ++it)
    if (isa<AllocBufferOp>(*it))
      point = std::next(it);
  SmallVector<Value> extents;
  for (unsigned i = 0; i < numVars; ++i)
    if (padded[i])
      if (auto v = dyn_cast<Value>(block.getMixedDomainUpper(i)))
        extents.push_back(v);
  for (Value v : extents)
    if (!isAvailableAt(v, body, point)) {
      if (Operation *def = v.getDefiningOp();
          def && def->getBlock() == body && def->isBeforeInBlock(top))
        point = std::next(def->getIterator());
      else
        return refuse(error, block,
                      Twine(kPrimitive) + ": the runtime extent of " +
                          blockName + " is computed inside its loop nest");
    }

  // Other blocks of the statement that write a padded read buffer would
  // run after its copy (TVM redirects them to the copy, and the buffer
  // itself is never written); other accesses of a padded written buffer
  // would see it before its copy back.
  for (const PaddedBuffer &b : buffers) {
    WalkResult clash = top->walk([&](BlockOp other) {
      if (other == block || other->isAncestor(block))
        return WalkResult::advance();
      SmallVector<Value> reads, writes;
      getAccessedBuffers(other, reads, writes);
      bool conflict = llvm::is_contained(writes, b.buffer) ||
                      (b.isWrite && llvm::is_contained(reads, b.buffer));
      return conflict ? WalkResult::interrupt() : WalkResult::advance();
    });
    if (clash.wasInterrupted())
      return refuse(error, block,
                    Twine(kPrimitive) + ": buffer '" + getBufferName(b.buffer) +
                        "' is " + (b.isWrite ? "accessed" : "written") +
                        " by another block in the statement that holds " +
                        blockName + ", which its padded copy would hide");
  }
  return plan;
}

bool mlir::tir::canPadEinsum(BlockOp block, ArrayRef<int64_t> padding) {
  ScheduleError ignored;
  return succeeded(analyze(block, padding, ignored));
}

/// The padded buffers, their copies, the padded domains and loops.
static void apply(RewriterBase &rewriter, BlockOp block,
                  ArrayRef<int64_t> padding, PadPlan &plan) {
  unsigned numVars = block.getNumIterVars();
  ArrayRef<bool> padded = plan.padded;
  Operation *top = plan.top;
  Location loc = block.getLoc();
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(plan.body, plan.point);
  SmallVector<OpFoldResult> paddedExtent(numVars);
  for (unsigned i = 0; i < numVars; ++i)
    if (padded[i])
      paddedExtent[i] =
          roundUp(rewriter, loc, block.getMixedDomainUpper(i), padding[i]);
  for (PaddedBuffer &b : plan.buffers) {
    auto type = cast<MemRefType>(b.buffer.getType());
    SmallVector<OpFoldResult> shape;
    for (auto [d, var] : llvm::enumerate(b.varOfDim))
      shape.push_back(var && padded[*var] ? paddedExtent[*var]
                                          : sizeOf(rewriter, loc, b.buffer, d));
    SmallVector<int64_t> statics;
    SmallVector<Value> dynamics;
    dispatchIndexOpFoldResults(shape, dynamics, statics);
    auto paddedType =
        MemRefType::get(statics, type.getElementType(),
                        MemRefLayoutAttrInterface(), type.getMemorySpace());
    std::string name = getBufferName(b.buffer) + "_pad";
    b.padded =
        AllocBufferOp::create(rewriter, b.buffer.getLoc(), paddedType, dynamics,
                              rewriter.getStringAttr(name), DenseI64ArrayAttr())
            .getBuffer();
  }

  // Read copies before the statement, zero past the buffer's end; copies
  // back after it over what the block covered.
  for (PaddedBuffer &b : plan.buffers) {
    auto type = cast<MemRefType>(b.buffer.getType());
    std::string name = getBufferName(b.buffer) + "_pad";
    Type element = type.getElementType();
    SmallVector<OpFoldResult> shape;
    for (auto [d, var] : llvm::enumerate(b.varOfDim))
      shape.push_back(var && padded[*var]
                          ? (b.isWrite ? block.getMixedDomainUpper(*var)
                                       : paddedExtent[*var])
                          : sizeOf(rewriter, loc, b.buffer, d));
    if (b.isWrite) {
      rewriter.setInsertionPointAfter(top);
      buildCopyNest(rewriter, loc, name, shape,
                    [&](OpBuilder &ob, Location l, ValueRange v) {
                      Value x = LoadOp::create(ob, l, b.padded, v);
                      StoreOp::create(ob, l, x, b.buffer, v);
                    });
      continue;
    }
    rewriter.setInsertionPoint(top);
    buildCopyNest(
        rewriter, loc, name, shape,
        [&](OpBuilder &ob, Location l, ValueRange v) {
          Value inside;
          for (auto [d, var] : llvm::enumerate(b.varOfDim)) {
            if (!var || !padded[*var])
              continue;
            Value size = getValueOrCreateConstantIndexOp(
                ob, l, sizeOf(ob, l, b.buffer, d));
            Value lt = arith::CmpIOp::create(ob, l, arith::CmpIPredicate::slt,
                                             v[d], size);
            inside = inside ? arith::AndIOp::create(ob, l, inside, lt) : lt;
          }
          auto ifOp = scf::IfOp::create(
              ob, l, inside,
              [&](OpBuilder &tb, Location tl) {
                Value x = LoadOp::create(tb, tl, b.buffer, v);
                scf::YieldOp::create(tb, tl, x);
              },
              [&](OpBuilder &eb, Location el) {
                Value zero =
                    arith::ConstantOp::create(eb, el, eb.getZeroAttr(element));
                scf::YieldOp::create(eb, el, zero);
              });
          StoreOp::create(ob, l, ifOp.getResult(0), b.padded, v);
        });
  }

  // The statement reads and writes the padded buffers over the padded
  // extents.
  for (PaddedBuffer &b : plan.buffers)
    rewriter.replaceUsesWithIf(b.buffer, b.padded, [&](OpOperand &use) {
      Operation *user = use.getOwner();
      if (!top->isAncestor(user))
        return false;
      if (auto store = dyn_cast<StoreOp>(user))
        return use.getOperandNumber() == 1;
      return isa<LoadOp, BlockOp>(user);
    });
  for (unsigned i = 0; i < numVars; ++i) {
    if (!padded[i])
      continue;
    rewriter.modifyOpInPlace(block, [&] {
      setIterVarDomain(block, i, rewriter.getIndexAttr(0), paddedExtent[i]);
    });
    if (ForOp loop = plan.loopOf[i])
      rewriter.modifyOpInPlace(loop, [&] {
        setLoopBounds(loop, rewriter.getIndexAttr(0), paddedExtent[i]);
      });
  }
}

LogicalResult mlir::tir::padEinsum(RewriterBase &rewriter, BlockOp block,
                                   ArrayRef<int64_t> padding,
                                   ScheduleError &error) {
  FailureOr<PadPlan> plan = analyze(block, padding, error);
  if (failed(plan))
    return failure();
  if (plan->padsAnything())
    apply(rewriter, block, padding, *plan);
  return success();
}
