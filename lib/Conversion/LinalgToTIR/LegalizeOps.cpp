//===- LegalizeOps.cpp - high-level ops of graph functions to prim_funcs --===//
//
// --tir-legalize-ops (Relax's LegalizeOps): operators kept whole
// (tir.composite) are replaced by their parts; then every linalg op on
// tensors in a graph function becomes a private prim_func computing it as
// one TensorIR block (buildLinalgBlock) and a tir.call_tir of that
// function. Aggregate ops (linalg.softmax) are first decomposed into the
// ops they stand for; a softmax's four are then one prim_func again
// (mergeCallees), as TVM's.
//
//===----------------------------------------------------------------------===//

#include "TensorIR/Conversion/LinalgToTIR/LinalgToTIR.h"
#include "TensorIR/Dialect/TIR/IR/ShapeVars.h"
#include "TensorIR/Dialect/TIR/IR/TIRBuilders.h"
#include "TensorIR/Dialect/TIR/IR/TIRDialect.h"
#include "TensorIR/Dialect/TIR/IR/TIROps.h"
#include "TensorIR/Dialect/TIR/IR/TIRUtils.h"
#include "TensorIR/Dialect/TIR/Transforms/MergeCallees.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringMap.h"

#include <cstring>
#include <optional>

namespace mlir::tir {
#define GEN_PASS_DEF_TIRLEGALIZEOPSPASS
#include "TensorIR/Conversion/Passes.h.inc"
} // namespace mlir::tir

using namespace mlir;
using namespace mlir::tir;

/// The name the legalized function and its block take: the op's `tir.name`
/// (the frontend's operator name, as "add" or "relu"), else the op's own
/// ("matmul", "transpose", ...; "compute" for a generic).
static std::string legalizedName(Operation *op) {
  if (auto name = op->getAttrOfType<StringAttr>(TIRDialect::kNameAttrName))
    return name.str();
  if (isa<linalg::GenericOp>(op))
    return "compute";
  std::string name = op->getName().stripDialect().str();
  std::replace(name.begin(), name.end(), '.', '_');
  return name;
}

/// The constant a linalg.fill writes into `value`, or null.
static TypedAttr fillConstant(Value value) {
  auto fill = value.getDefiningOp<linalg::FillOp>();
  if (!fill)
    return {};
  TypedAttr attr;
  if (matchPattern(fill.getInputs()[0], m_Constant(&attr)))
    return attr;
  return {};
}

static MemRefType bufferType(Type tensor) {
  auto t = cast<RankedTensorType>(tensor);
  return MemRefType::get(t.getShape(), t.getElementType());
}

/// The sizes of the dynamic dimensions of `tensor` in the graph function,
/// for a call_tir giving a tensor of its type: the sizes the ops it comes
/// from were given (getDynamicSize), or read with tensor.dim at `b`'s
/// insertion point.
static SmallVector<Value> graphSizes(OpBuilder &b, Location loc, Value tensor) {
  auto type = cast<RankedTensorType>(tensor.getType());
  SmallVector<Value> sizes;
  for (int64_t d = 0; d < type.getRank(); ++d) {
    if (!type.isDynamicDim(d))
      continue;
    Value size = getDynamicSize(tensor, d);
    sizes.push_back(size ? size : tensor::DimOp::create(b, loc, tensor, d));
  }
  return sizes;
}

/// The sizes of the dynamic dimensions of all `values`, in order.
static SmallVector<Value> graphSizes(OpBuilder &b, Location loc,
                                     ValueRange values) {
  SmallVector<Value> sizes;
  for (Value v : values)
    llvm::append_range(sizes, graphSizes(b, loc, v));
  return sizes;
}

namespace {
struct TIRLegalizeOpsPass
    : public tir::impl::TIRLegalizeOpsPassBase<TIRLegalizeOpsPass> {
  using TIRLegalizeOpsPassBase::TIRLegalizeOpsPassBase;
  void runOnOperation() override;

  /// The legalized function of `op`, created or (same text) reused;
  /// `callInputs` gets the values the call passes.
  func::FuncOp legalize(linalg::LinalgOp op,
                        SmallVectorImpl<Value> &callInputs);
  /// The function of a tensor.pad with static padding and a constant value.
  func::FuncOp legalizePad(tensor::PadOp pad);
  /// The calls of an aggregate's parts (`parts`, legalized) as one call of
  /// one prim_func `name`.
  LogicalResult mergeParts(StringRef name, ArrayRef<Operation *> parts);
  func::FuncOp install(func::FuncOp func, StringRef name, Operation *anchor) {
    return functions->install(func, name, anchor);
  }

  /// The functions created, and the module's symbols.
  std::optional<CreatedFunctions> functions;
  /// The functions of the parts mergeParts merged.
  llvm::SetVector<StringAttr> partFunctions;
};
} // namespace

/// Whether `init` of `op` starts from a tensor's contents (not a constant
/// fill, not an empty tensor) that the op reads.
static bool needsCopyIn(linalg::LinalgOp op, OpOperand &init) {
  BlockArgument arg = op.getMatchingBlockArgument(&init);
  return arg && !arg.use_empty() && !fillConstant(init.get()) &&
         !init.get().getDefiningOp<tensor::EmptyOp>();
}

func::FuncOp TIRLegalizeOpsPass::legalize(linalg::LinalgOp last,
                                          SmallVectorImpl<Value> &callInputs) {
  MLIRContext *ctx = &getContext();
  Location loc = last.getLoc();
  std::string name = legalizedName(last);
  // Parameters: the inputs whose values the body uses (each once), then
  // the outputs' initial contents where they matter, then the outputs.
  SmallVector<Type> params;
  SmallVector<std::string> paramNames;
  // The graph value each parameter takes (its dimensions' names).
  SmallVector<Value> paramValues;
  llvm::DenseMap<Value, unsigned> inputParam;
  for (OpOperand *input : last.getDpsInputOperands()) {
    BlockArgument arg = last.getMatchingBlockArgument(input);
    Value v = input->get();
    bool used = arg && (!arg.use_empty() || isGatheredInput(last, input));
    if (!used || inputParam.count(v))
      continue;
    inputParam[v] = params.size();
    params.push_back(bufferType(v.getType()));
    paramValues.push_back(v);
    unsigned n = paramNames.size();
    paramNames.push_back(n < 26 ? std::string(1, char('A' + n))
                                : "A" + std::to_string(n));
    callInputs.push_back(v);
  }
  SmallVector<int> copyParam(last.getNumDpsInits(), -1);
  for (OpOperand &init : last.getDpsInitsMutable())
    if (needsCopyIn(last, init)) {
      unsigned k = init.getOperandNumber() - last.getNumDpsInputs();
      copyParam[k] = params.size();
      params.push_back(bufferType(init.get().getType()));
      paramValues.push_back(init.get());
      paramNames.push_back(name + "_init" + std::to_string(k));
      callInputs.push_back(init.get());
    }
  unsigned firstOutput = params.size();
  for (auto [k, result] : llvm::enumerate(last->getResults())) {
    params.push_back(bufferType(result.getType()));
    paramValues.push_back(result);
    paramNames.push_back(last->getNumResults() == 1
                             ? "T_" + name
                             : "T_" + name + std::to_string(k));
  }

  OpBuilder builder(ctx);
  auto func = func::FuncOp::create(builder, loc, name,
                                   FunctionType::get(ctx, params, {}));
  func.setPrivate();
  for (auto [i, n] : llvm::enumerate(paramNames))
    func.setArgAttr(i, TIRDialect::kNameAttrName, builder.getStringAttr(n));
  Block *entry = func.addEntryBlock();
  builder.setInsertionPointToStart(entry);
  // Dynamic dimensions keep the graph's shape variables (TVM's legalized
  // functions take `n = T.int64()` sized buffers); the size of a variable
  // is read from the first parameter it sizes.
  llvm::StringMap<Value> shapeVars =
      bindShapeVars(func, paramValues, builder, loc);
  // Where each value the body reads lives.
  llvm::DenseMap<Value, Value> buffers;
  for (auto [v, p] : inputParam)
    buffers[v] = entry->getArgument(p);
  SmallVector<Value> lastOutputs;
  for (unsigned k = 0; k < last.getNumDpsInits(); ++k)
    lastOutputs.push_back(entry->getArgument(firstOutput + k));
  // Outputs starting from given contents: copied in first.
  for (auto [k, p] : llvm::enumerate(copyParam)) {
    if (p < 0)
      continue;
    Value from = entry->getArgument(p), to = lastOutputs[k];
    auto shape = cast<MemRefType>(to.getType()).getShape();
    createSpatialNest(builder, loc, name + "_init", shape, "ax", "v",
                      [&](OpBuilder &b, Location l, ValueRange v) {
                        Value x = LoadOp::create(b, l, from, v);
                        StoreOp::create(b, l, x, to, v);
                      });
  }
  // The op's block.
  SmallVector<Value> inputs;
  for (OpOperand *input : last.getDpsInputOperands())
    inputs.push_back(buffers.lookup(input->get()));
  SmallVector<TypedAttr> inits;
  for (OpOperand &init : last.getDpsInitsMutable()) {
    BlockArgument arg = last.getMatchingBlockArgument(&init);
    inits.push_back(arg && !arg.use_empty() ? fillConstant(init.get())
                                            : TypedAttr());
  }
  buildLinalgBlock(builder, loc, last, name, inputs, lastOutputs, inits);
  func::ReturnOp::create(builder, loc);
  if (!shapeVars.empty())
    unifySizeReads(func);
  return install(func, name, last);
}

LogicalResult TIRLegalizeOpsPass::mergeParts(StringRef name,
                                             ArrayRef<Operation *> parts) {
  SmallVector<CallTirOp> calls;
  for (Operation *part : parts)
    calls.push_back(cast<CallTirOp>(part));
  CallTirOp last = calls.back();
  SymbolTable &symbols = functions->getSymbols();
  SmallVector<Value> callInputs;
  // What the parts read from outside them (the aggregate's input).
  llvm::SetVector<Value> inputs;
  for (CallTirOp c : calls)
    for (Value v : c.getInputs())
      if (!llvm::is_contained(calls, v.getDefiningOp()))
        inputs.insert(v);
  SmallVector<Value> outputs(last->getResults());
  func::FuncOp merged = mergeCallees(calls, inputs.getArrayRef(), outputs, name,
                                     symbols, callInputs);
  if (!merged)
    return last->emitError("the parts of ")
           << name << " cannot be merged into one prim_func";
  func::FuncOp func = install(merged, name, last);
  OpBuilder builder(last);
  auto call = CallTirOp::create(builder, last.getLoc(), last->getResultTypes(),
                                func.getSymName(), callInputs, last.getDims());
  last->replaceAllUsesWith(call->getResults());
  for (CallTirOp c : llvm::reverse(calls)) {
    partFunctions.insert(c.getCalleeAttr().getAttr());
    c->erase();
  }
  return success();
}

/// The static padding of `pad`, and its constant value; false when the
/// padding is dynamic or the value not a constant.
static bool staticPad(tensor::PadOp pad, TypedAttr &value) {
  if (!pad.getLow().empty() || !pad.getHigh().empty() ||
      !pad.getSourceType().hasStaticShape() ||
      !pad.getResultType().hasStaticShape() ||
      llvm::is_contained(pad.getSourceType().getShape(), 0))
    return false;
  Value yielded = pad.getConstantPaddingValue();
  return yielded && matchPattern(yielded, m_Constant(&value));
}

func::FuncOp TIRLegalizeOpsPass::legalizePad(tensor::PadOp pad) {
  MLIRContext *ctx = &getContext();
  Location loc = pad.getLoc();
  TypedAttr value;
  (void)staticPad(pad, value);
  auto source = bufferType(pad.getSource().getType());
  auto result = bufferType(pad.getResult().getType());
  OpBuilder builder(ctx);
  auto func = func::FuncOp::create(
      builder, loc, "pad", FunctionType::get(ctx, {source, result}, {}));
  func.setPrivate();
  func.setArgAttr(0, TIRDialect::kNameAttrName, builder.getStringAttr("A"));
  func.setArgAttr(1, TIRDialect::kNameAttrName, builder.getStringAttr("T_pad"));
  Block *entry = func.addEntryBlock();
  builder.setInsertionPointToStart(entry);
  ArrayRef<int64_t> low = pad.getStaticLow();
  // T_pad[i] = A[i - low] inside the source, else the value; the source is
  // read at the index clamped into it, so no read leaves it.
  createSpatialNest(
      builder, loc, "T_pad", result.getShape(), "i", "v",
      [&](OpBuilder &b, Location l, ValueRange v) {
        Value inside;
        SmallVector<Value> indices;
        Value zero = arith::ConstantIndexOp::create(b, l, 0);
        for (auto [k, iv] : llvm::enumerate(v)) {
          Value lo = arith::ConstantIndexOp::create(b, l, low[k]);
          Value last =
              arith::ConstantIndexOp::create(b, l, source.getDimSize(k) - 1);
          Value src = arith::SubIOp::create(b, l, iv, lo);
          Value ge =
              arith::CmpIOp::create(b, l, arith::CmpIPredicate::sge, src, zero);
          Value le =
              arith::CmpIOp::create(b, l, arith::CmpIPredicate::sle, src, last);
          Value in = arith::AndIOp::create(b, l, ge, le);
          inside = inside ? arith::AndIOp::create(b, l, inside, in) : in;
          Value clamped = arith::MinSIOp::create(
              b, l, arith::MaxSIOp::create(b, l, src, zero), last);
          indices.push_back(clamped);
        }
        Value x = LoadOp::create(b, l, entry->getArgument(0), indices);
        Value c = arith::ConstantOp::create(b, l, value);
        Value r = inside ? arith::SelectOp::create(b, l, inside, x, c) : x;
        StoreOp::create(b, l, r, entry->getArgument(1), v);
      });
  func::ReturnOp::create(builder, loc);
  return install(func, "pad", pad);
}

/// A transpose of a constant, computed now (model weights: Relax's linear
/// transposes them, and FoldConstant does it before the model runs); null
/// when the input is not a dense constant of whole-byte elements.
static DenseElementsAttr foldTranspose(linalg::TransposeOp transpose) {
  DenseElementsAttr input;
  if (!matchPattern(transpose.getInput(), m_Constant(&input)))
    return {};
  auto resultType = cast<RankedTensorType>(transpose.getResult()[0].getType());
  if (input.isSplat())
    return input.resizeSplat(resultType);
  if (!input.getElementType().isIntOrFloat())
    return {};
  unsigned width = input.getElementType().getIntOrFloatBitWidth();
  if (width % 8 != 0)
    return {};
  size_t bytes = width / 8;
  ArrayRef<char> raw = input.getRawData();
  ArrayRef<int64_t> inShape = input.getType().getShape();
  ArrayRef<int64_t> perm = transpose.getPermutation();
  int64_t rank = inShape.size(), count = input.getNumElements();
  SmallVector<int64_t> inStrides(rank, 1);
  for (int64_t d = rank - 2; d >= 0; --d)
    inStrides[d] = inStrides[d + 1] * inShape[d + 1];
  std::vector<char> out(count * bytes);
  SmallVector<int64_t> index(rank, 0); // Over the result's dimensions.
  for (int64_t flat = 0; flat < count; ++flat) {
    int64_t source = 0;
    for (int64_t d = 0; d < rank; ++d)
      source += index[d] * inStrides[perm[d]];
    std::memcpy(&out[flat * bytes], &raw[source * bytes], bytes);
    for (int64_t d = rank - 1; d >= 0; --d) {
      if (++index[d] < resultType.getDimSize(d))
        break;
      index[d] = 0;
    }
  }
  return DenseElementsAttr::getFromRawBuffer(resultType, out);
}

void TIRLegalizeOpsPass::runOnOperation() {
  ModuleOp module = getOperation();
  // The graph functions of this module (not of modules nested in it).
  auto walkFunctions = [&](auto callback) {
    for (auto func : module.getOps<func::FuncOp>())
      func.walk(callback);
  };
  // Operators kept whole (tir.composite) first become their parts, in
  // their place; the parts legalize as the graph's other ops.
  SmallVector<CompositeOp> composites;
  walkFunctions([&](CompositeOp op) { composites.push_back(op); });
  IRRewriter rewriter(module.getContext());
  for (CompositeOp op : composites) // (Inner ones first: post-order.)
    op.replaceByParts(rewriter);
  // Transposes of constants are folded first.
  SmallVector<linalg::TransposeOp> transposes;
  walkFunctions([&](linalg::TransposeOp t) {
    if (t.hasPureTensorSemantics())
      transposes.push_back(t);
  });
  for (linalg::TransposeOp t : transposes)
    if (DenseElementsAttr folded = foldTranspose(t)) {
      OpBuilder builder(t);
      Value c = arith::ConstantOp::create(builder, t.getLoc(), folded);
      t.getResult()[0].replaceAllUsesWith(c);
      t->erase();
    }
  functions.emplace(module);
  partFunctions.clear();
  // Aggregates (softmax) first become the ops they stand for; those of a
  // softmax are one prim_func again once legalized (TVM's softmax: four
  // blocks in one function).
  struct Aggregated {
    std::string name;
    SmallVector<Operation *> parts;
  };
  SmallVector<Aggregated> aggregated;
  SmallVector<linalg::AggregatedOpInterface> aggregates;
  walkFunctions([&](linalg::AggregatedOpInterface op) {
    if (op->getNumResults() == 1 &&
        isa<RankedTensorType>(op->getResultTypes()[0]))
      aggregates.push_back(op);
  });
  for (linalg::AggregatedOpInterface op : aggregates) {
    OpBuilder builder(op);
    Operation *before = op->getPrevNode();
    FailureOr<SmallVector<Value>> parts = op.decomposeOperation(builder);
    if (failed(parts)) {
      op->emitError("cannot be decomposed into linalg ops to legalize");
      return signalPassFailure();
    }
    // The parts are named after the aggregate, as TVM names softmax's
    // blocks (T_softmax_maxelem, _exp, _expsum, _norm).
    std::string base = legalizedName(op);
    SmallVector<Operation *> generics;
    for (Operation *p = before ? before->getNextNode()
                               : &op->getBlock()->front();
         p != op.getOperation(); p = p->getNextNode())
      if (isa<linalg::GenericOp>(p))
        generics.push_back(p);
    static const char *softmaxParts[] = {"maxelem", "exp", "expsum", "norm"};
    bool softmax = isa<linalg::SoftmaxOp>(op) && generics.size() == 4;
    for (auto [k, g] : llvm::enumerate(generics)) {
      std::string part = softmax ? softmaxParts[k] : std::to_string(k);
      g->setAttr(TIRDialect::kNameAttrName,
                 builder.getStringAttr(base + "_" + part));
    }
    if (softmax)
      aggregated.push_back({base, generics});
    op->replaceAllUsesWith(*parts);
    op->erase();
  }

  // Paddings (of convolutions and pooling) become functions of their own.
  SmallVector<tensor::PadOp> pads;
  walkFunctions([&](tensor::PadOp pad) { pads.push_back(pad); });
  for (tensor::PadOp pad : pads) {
    TypedAttr value;
    if (!staticPad(pad, value)) {
      pad->emitError("cannot be legalized to a prim_func: its shapes or "
                     "padding are not static and non-empty, or its value not "
                     "a constant");
      return signalPassFailure();
    }
    func::FuncOp func = legalizePad(pad);
    OpBuilder builder(pad);
    auto call =
        CallTirOp::create(builder, pad.getLoc(), pad.getType(),
                          func.getSymName(), pad.getSource(), ValueRange());
    pad.replaceAllUsesWith(call.getResult(0));
    pad->erase();
  }

  SmallVector<linalg::LinalgOp> ops;
  walkFunctions([&](linalg::LinalgOp op) {
    if (op.hasPureTensorSemantics() && !isa<linalg::FillOp>(op))
      ops.push_back(op);
  });
  for (linalg::LinalgOp op : ops) {
    std::string why = checkLinalgForTIR(op);
    if (!why.empty()) {
      op->emitError("cannot be legalized to a prim_func: ") << why;
      return signalPassFailure();
    }
  }
  // Where each part's call will be.
  llvm::DenseMap<Operation *, Operation **> partOf;
  for (Aggregated &a : aggregated)
    for (Operation *&part : a.parts)
      partOf[part] = &part;
  for (linalg::LinalgOp last : ops) {
    SmallVector<Value> callInputs;
    func::FuncOp func = legalize(last, callInputs);
    OpBuilder builder(last);
    SmallVector<Value> dims =
        graphSizes(builder, last.getLoc(), last->getResults());
    auto call =
        CallTirOp::create(builder, last.getLoc(), last->getResultTypes(),
                          func.getSymName(), callInputs, dims);
    last->replaceAllUsesWith(call->getResults());
    if (auto *replaced = partOf.lookup(last.getOperation()))
      *replaced = call;
    last->erase();
  }
  for (Aggregated &a : aggregated)
    if (failed(mergeParts(a.name, a.parts)))
      return signalPassFailure();
  // The parts' own functions, where nothing else calls them.
  for (StringAttr callee : partFunctions)
    if (Operation *f = functions->getSymbols().lookup(callee))
      if (SymbolTable::symbolKnownUseEmpty(f, module))
        functions->getSymbols().erase(f);
  // The fills and empty tensors the ops started from are dead now.
  bool changed = true;
  while (changed) {
    changed = false;
    walkFunctions([&](Operation *op) {
      if (op->use_empty() &&
          (isa<tensor::EmptyOp>(op) ||
           (isa<linalg::FillOp>(op) &&
            cast<linalg::FillOp>(op).hasPureTensorSemantics()) ||
           (isa<arith::ConstantOp>(op) && !op->getParentOfType<BlockOp>()))) {
        op->erase();
        changed = true;
      }
    });
  }
}
