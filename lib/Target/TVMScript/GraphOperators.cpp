//===- GraphOperators.cpp - high-level operators printed as R.* calls -----===//
//
// The operators of a graph function (linalg ops on tensors, tensor
// reshapes and pads: what buildGraphOperator builds) printed back as the
// Relax calls they were built from (R.matmul, R.nn.conv2d, ...), with their
// attributes as Python literals.
//
//===----------------------------------------------------------------------===//

#include "GraphPrinter.h"

#include "TensorIR/Dialect/TIR/IR/ShapeVars.h"
#include "TensorIR/Dialect/TIR/IR/TIRDialect.h"
#include "TensorIR/Dialect/TIR/IR/TIROps.h"
#include "TensorIR/Dialect/TIR/IR/TIRTypes.h"
#include "TensorIR/Graph/GraphBuilder.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/Format.h"
#include <cmath>
#include <functional>

using namespace mlir;
using namespace mlir::tir;
using namespace mlir::tir::tvmscript;
using namespace mlir::tir::tvmscript::detail;

bool GraphPrinter::isOperand(Operation &op) {
  if (!isa<tensor::EmptyOp, linalg::FillOp>(op) &&
      !(isa<arith::ConstantOp>(op) &&
        op.getResult(0).getType().isIntOrIndexOrFloat()))
    return false;
  return llvm::all_of(op.getUsers(), [](Operation *user) {
    return isa<linalg::LinalgOp, linalg::SoftmaxOp>(user);
  });
}

/// Whether `v` is a linalg.fill of zero.
static bool isZeroFill(Value v) {
  auto fill = v.getDefiningOp<linalg::FillOp>();
  return fill && (matchPattern(fill.getInputs()[0], m_AnyZeroFloat()) ||
                  matchPattern(fill.getInputs()[0], m_Zero()));
}

/// The arith op of a generic whose body is `%r = <op> %in0, %in1; yield %r`.
static Operation *singleBinaryOp(linalg::GenericOp op) {
  Block &body = op.getRegion().front();
  if (body.getOperations().size() != 2)
    return nullptr;
  Operation &inner = body.front();
  if (inner.getNumOperands() != 2 ||
      inner.getOperand(0) != body.getArgument(0) ||
      inner.getOperand(1) != body.getArgument(1) ||
      body.getTerminator()->getOperand(0) != inner.getResult(0))
    return nullptr;
  return &inner;
}

/// Whether `a` and `b` compute the same: the same ops with the same
/// attributes and types, bodies alike, and operands the same values or
/// made alike (the inits a builder makes); `map` pairs the bodies' values.
static bool sameComputation(Operation *a, Operation *b,
                            DenseMap<Value, Value> &map) {
  auto check = [&](Value l, Value r) -> LogicalResult {
    if (l == r)
      return success();
    if (auto it = map.find(l); it != map.end())
      return success(it->second == r);
    auto lr = dyn_cast<OpResult>(l), rr = dyn_cast<OpResult>(r);
    if (!lr || !rr || lr.getResultNumber() != rr.getResultNumber())
      return failure();
    return success(sameComputation(lr.getOwner(), rr.getOwner(), map));
  };
  auto mark = [&](Value l, Value r) { map[l] = r; };
  return OperationEquivalence::isEquivalentTo(
      a, b, check, mark, OperationEquivalence::IgnoreLocations);
}

/// Whether the graph operator `name` with `attrs`, built on `inputs` (the
/// operator's operands among `op`'s inputs), is `op` giving its result
/// `resultNumber` (built beside it, compared, and erased).
static bool rebuildsAs(linalg::GenericOp op, ValueRange inputs, StringRef name,
                       DictionaryAttr attrs, unsigned resultNumber) {
  MLIRContext *context = op->getContext();
  ScopedDiagnosticHandler quiet(context,
                                [](Diagnostic &) { return success(); });
  // Built in a module of its own (the builders look at the region they
  // build in), which goes with them.
  OwningOpRef<ModuleOp> scratch = ModuleOp::create(op->getLoc());
  OpBuilder b = OpBuilder::atBlockBegin(scratch->getBody());
  // The result's dynamic sizes: those of the empty tensor it starts from.
  SmallVector<Value> dims;
  Value init = op.getDpsInits()[resultNumber];
  if (auto fill = init.getDefiningOp<linalg::FillOp>())
    init = fill.getOutputs()[0];
  if (auto empty = init.getDefiningOp<tensor::EmptyOp>())
    llvm::append_range(dims, empty.getDynamicSizes());
  FailureOr<Value> built = buildGraphOperator(
      b, op->getLoc(), name, inputs,
      cast<RankedTensorType>(op->getResult(resultNumber).getType()), dims,
      attrs);
  DenseMap<Value, Value> map;
  return succeeded(built) && built->getDefiningOp() &&
         cast<OpResult>(*built).getResultNumber() == resultNumber &&
         sameComputation(op, built->getDefiningOp(), map);
}

std::string mlir::tir::tvmscript::detail::attrText(Attribute attr) {
  if (auto b = dyn_cast<BoolAttr>(attr))
    return b.getValue() ? "True" : "False";
  if (auto i = dyn_cast<IntegerAttr>(attr))
    return i.getType().isInteger(1) ? (i.getValue().isZero() ? "False" : "True")
                                    : std::to_string(i.getInt());
  if (auto f = dyn_cast<FloatAttr>(attr)) {
    double value = f.getValueAsDouble();
    if (std::isinf(value))
      return value < 0 ? "float(\"-inf\")" : "float(\"inf\")";
    if (std::isnan(value))
      return "float(\"nan\")";
    return formatDouble(value);
  }
  if (auto s = dyn_cast<StringAttr>(attr))
    return "\"" + s.str() + "\"";
  if (auto ints = dyn_cast<DenseI64ArrayAttr>(attr)) {
    SmallVector<std::string> items;
    for (int64_t v : ints.asArrayRef())
      items.push_back(std::to_string(v));
    return "[" + llvm::join(items, ", ") + "]";
  }
  if (auto array = dyn_cast<ArrayAttr>(attr)) {
    SmallVector<std::string> items;
    for (Attribute item : array) {
      items.push_back(attrText(item));
      if (items.back().empty())
        return "";
    }
    return "[" + llvm::join(items, ", ") + "]";
  }
  if (auto dict = dyn_cast<DictionaryAttr>(attr)) {
    SmallVector<std::string> items;
    for (NamedAttribute item : dict) {
      std::string value = attrText(item.getValue());
      if (value.empty())
        return "";
      items.push_back("\"" + item.getName().str() + "\": " + value);
    }
    return "{" + llvm::join(items, ", ") + "}";
  }
  return "";
}

/// Appends `name=value` for each of an operator's attributes (none where
/// `attrs` is null) to `items`; the name of the first attribute TVMScript
/// has no form for, where there is one.
static std::optional<std::string>
appendKeywords(DictionaryAttr attrs, SmallVectorImpl<std::string> &items) {
  if (!attrs)
    return std::nullopt;
  for (NamedAttribute attr : attrs) {
    std::string text = attrText(attr.getValue());
    if (text.empty())
      return attr.getName().str();
    items.push_back(attr.getName().str() + "=" + text);
  }
  return std::nullopt;
}

Value GraphPrinter::operatorResult(Operation &op) {
  if (op.getNumResults() == 1)
    return op.getResult(0);
  if (!isa<linalg::GenericOp>(op))
    return {};
  Value used;
  for (Value result : op.getResults()) {
    if (result.use_empty())
      continue;
    if (used)
      return {};
    used = result;
  }
  return used;
}

bool GraphPrinter::operatorCall(Operation &op, std::string &out) {
  auto operands = [&](ValueRange values, std::string &text) {
    SmallVector<std::string> items;
    for (Value v : values) {
      items.emplace_back();
      if (!value(v, items.back()))
        return false;
    }
    text = llvm::join(items, ", ");
    return true;
  };
  std::string args;
  // An operator kept whole: its name, inputs and attributes.
  if (auto composite = dyn_cast<CompositeOp>(op)) {
    if (!operands(composite.getInputs(), args))
      return false;
    SmallVector<std::string> items{args};
    if (std::optional<std::string> formless =
            appendKeywords(composite.getOpAttrsAttr(), items))
      return fail(&op, "attribute '" + *formless + "' has no TVMScript form");
    out = ("R." + composite.getName() + "(").str() + llvm::join(items, ", ") +
          ")";
    return true;
  }
  if (isa<linalg::MatmulOp, linalg::BatchMatmulOp>(op)) {
    auto linalgOp = cast<linalg::LinalgOp>(op);
    if (!isZeroFill(linalgOp.getDpsInits()[0]) ||
        !operands(linalgOp.getDpsInputs(), args))
      return false;
    out = "R.matmul(" + args + ", out_dtype=\"void\")";
    return true;
  }
  if (auto transpose = dyn_cast<linalg::TransposeOp>(op)) {
    if (!operands(transpose.getInput(), args))
      return false;
    SmallVector<std::string> axes;
    for (int64_t a : transpose.getPermutation())
      axes.push_back(std::to_string(a));
    out = "R.permute_dims(" + args + ", axes=[" + llvm::join(axes, ", ") + "])";
    return true;
  }
  if (auto softmax = dyn_cast<linalg::SoftmaxOp>(op)) {
    if (!operands(softmax.getInput(), args))
      return false;
    out = "R.nn.softmax(" + args +
          ", axis=" + std::to_string(softmax.getDimension()) + ")";
    return true;
  }
  auto ints = [](ArrayRef<int64_t> values) {
    SmallVector<std::string> items;
    for (int64_t v : values)
      items.push_back(std::to_string(v));
    return "[" + llvm::join(items, ", ") + "]";
  };
  auto floatOf = [](Value v, std::string &text) {
    FloatAttr attr;
    if (!matchPattern(v, m_Constant(&attr)))
      return false;
    double d = attr.getValueAsDouble();
    text = std::isinf(d) ? (d < 0 ? "float(\"-inf\")" : "float(\"inf\")")
                         : formatDouble(d);
    return true;
  };
  if (auto pad = dyn_cast<tensor::PadOp>(op)) {
    std::string padValue;
    Value constant = pad.getConstantPaddingValue();
    if (!pad.getLow().empty() || !pad.getHigh().empty() || !constant ||
        !floatOf(constant, padValue) || !operands(pad.getSource(), args))
      return false;
    SmallVector<int64_t> widths;
    for (auto [lo, hi] : llvm::zip(pad.getStaticLow(), pad.getStaticHigh())) {
      widths.push_back(lo);
      widths.push_back(hi);
    }
    out = "R.nn.pad(" + args + ", pad_width=" + ints(widths) +
          ", pad_value=" + padValue + ")";
    return true;
  }
  // One-group convolutions over 2 and 3 spatial axes (their padding a
  // separate nn.pad).
  auto convolution = [&](auto conv, StringRef relaxName) {
    if (!isZeroFill(conv.getDpsInits()[0]) ||
        !operands(conv.getDpsInputs(), args))
      return false;
    SmallVector<int64_t> strides =
        llvm::to_vector(conv.getStrides().template getValues<int64_t>());
    out = ("R.nn." + relaxName + "(").str() + args +
          ", strides=" + ints(strides) +
          ", padding=" + ints(SmallVector<int64_t>(2 * strides.size(), 0)) +
          ", dilation=" +
          ints(llvm::to_vector(
              conv.getDilations().template getValues<int64_t>())) +
          ")";
    return true;
  };
  if (auto conv = dyn_cast<linalg::Conv2DNchwFchwOp>(op))
    return convolution(conv, "conv2d");
  if (auto conv = dyn_cast<linalg::Conv3DNcdhwFcdhwOp>(op))
    return convolution(conv, "conv3d");
  if (auto pool = dyn_cast<linalg::PoolingNchwMaxOp>(op)) {
    auto fill = pool.getDpsInits()[0].getDefiningOp<linalg::FillOp>();
    std::string lowest;
    if (!fill || !floatOf(fill.getInputs()[0], lowest) ||
        !operands(pool.getDpsInputs()[0], args))
      return false;
    auto window = cast<ShapedType>(pool.getDpsInputs()[1].getType());
    out = "R.nn.max_pool2d(" + args + ", pool_size=" + ints(window.getShape()) +
          ", strides=" +
          ints(llvm::to_vector(pool.getStrides().getValues<int64_t>())) +
          ", padding=[0, 0, 0, 0], dilation=" +
          ints(llvm::to_vector(pool.getDilations().getValues<int64_t>())) + ")";
    return true;
  }
  if (isa<tensor::CollapseShapeOp, tensor::ExpandShapeOp>(op)) {
    if (!operands(op.getOperand(0), args))
      return false;
    SmallVector<std::string> dims;
    for (auto [k, d] : llvm::enumerate(
             cast<RankedTensorType>(op.getResult(0).getType()).getShape())) {
      // A dynamic dimension by its shape variable.
      std::string var = ShapedType::isDynamic(d)
                            ? getShapeVarName(op.getResult(0), k)
                            : std::to_string(d);
      if (var.empty()) {
        error = "a reshape to a dimension that is no shape variable";
        return false;
      }
      dims.push_back(var);
    }
    out = "R.reshape(" + args + ", R.shape([" + llvm::join(dims, ", ") + "]))";
    return true;
  }
  auto generic = dyn_cast<linalg::GenericOp>(op);
  auto name = op.getAttrOfType<StringAttr>(TIRDialect::kNameAttrName);
  Value result = operatorResult(op);
  if (!generic || !name || !result)
    return false;
  unsigned resultNumber = cast<OpResult>(result).getResultNumber();
  // An operator the graph builder made: printed from its name and
  // attributes when building them again gives this very op.
  auto attrs =
      op.getAttrOfType<DictionaryAttr>(TIRDialect::kOperatorAttrsAttrName);
  // The operator's operands: the inputs but the empty tensors a builder
  // adds for their shapes (a pooling window).
  SmallVector<Value> inputs;
  for (Value input : generic.getDpsInputs())
    if (!input.getDefiningOp<tensor::EmptyOp>())
      inputs.push_back(input);
  for (std::string relaxName :
       {name.str(), "nn." + name.str(), "image." + name.str()}) {
    if (!isGraphOperator(relaxName) ||
        !rebuildsAs(generic, inputs, relaxName, attrs, resultNumber) ||
        !operands(inputs, args))
      continue;
    // einsum takes its operands as one tuple, as Relax prints it.
    SmallVector<std::string> items{
        relaxName == "einsum" ? "(" + args + (inputs.size() == 1 ? ",)" : ")")
                              : args};
    if (appendKeywords(attrs, items))
      return false;
    out = "R." + relaxName + "(" + llvm::join(items, ", ") + ")";
    // Relax's batch norm gives (output, mean, variance): its output.
    if (relaxName == "nn.batch_norm")
      out += "[0]";
    return true;
  }
  // The element-wise ops a frontend writes as generics, checked against
  // their bodies.
  static const std::pair<const char *, std::pair<const char *, const char *>>
      binaries[] = {{"add", {"arith.addf", "arith.addi"}},
                    {"subtract", {"arith.subf", "arith.subi"}},
                    {"multiply", {"arith.mulf", "arith.muli"}},
                    {"divide", {"arith.divf", "arith.divsi"}},
                    {"maximum", {"arith.maximumf", "arith.maxsi"}},
                    {"minimum", {"arith.minimumf", "arith.minsi"}}};
  for (const auto &[rname, ops] : binaries) {
    if (name.getValue() != rname || generic.getNumDpsInputs() != 2)
      continue;
    Operation *inner = singleBinaryOp(generic);
    if (!inner ||
        (inner->getName().getStringRef() != ops.first &&
         inner->getName().getStringRef() != ops.second) ||
        !operands(generic.getDpsInputs(), args))
      return false;
    out = std::string("R.") + rname + "(" + args + ")";
    return true;
  }
  if (name.getValue() == "adaptive_avg_pool2d" &&
      generic.getNumDpsInputs() == 2 && isZeroFill(generic.getDpsInits()[0]) &&
      generic.getNumLoops() == 6) {
    if (!operands(generic.getDpsInputs()[0], args))
      return false;
    auto shape = cast<ShapedType>(generic->getResult(0).getType()).getShape();
    out = "R.nn.adaptive_avg_pool2d(" + args +
          ", output_size=" + ints(shape.drop_front(2)) + ")";
    return true;
  }
  if (name.getValue() == "batch_norm" && generic.getNumDpsInputs() == 5) {
    // The epsilon is the constant the variance is shifted by.
    Block &body = generic.getRegion().front();
    std::string epsilon;
    for (Operation &inner : body)
      if (auto add = dyn_cast<arith::AddFOp>(inner);
          add && add.getLhs() == body.getArgument(4))
        if (!floatOf(add.getRhs(), epsilon))
          return false;
    AffineMap gammaMap = generic.getIndexingMapsArray()[1];
    if (epsilon.empty() || gammaMap.getNumResults() != 1 ||
        !isa<AffineDimExpr>(gammaMap.getResult(0)) ||
        !operands(generic.getDpsInputs(), args))
      return false;
    out = "R.nn.batch_norm(" + args + ", axis=" +
          std::to_string(
              cast<AffineDimExpr>(gammaMap.getResult(0)).getPosition()) +
          ", epsilon=" + epsilon + ")[0]";
    return true;
  }
  if (name.getValue() == "relu" && generic.getNumDpsInputs() == 1) {
    Block &body = generic.getRegion().front();
    Operation *max = body.getTerminator()->getOperand(0).getDefiningOp();
    if (!max || !isa<arith::MaximumFOp, arith::MaxSIOp>(max) ||
        max->getOperand(0) != body.getArgument(0) ||
        !(matchPattern(max->getOperand(1), m_AnyZeroFloat()) ||
          matchPattern(max->getOperand(1), m_Zero())) ||
        !operands(generic.getDpsInputs(), args))
      return false;
    out = "R.nn.relu(" + args + ")";
    return true;
  }
  return false;
}
