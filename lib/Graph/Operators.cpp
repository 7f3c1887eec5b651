//===- Operators.cpp - high-level operators as linalg ops -----------------===//
//
// Each relax operator a graph function may hold, built as upstream ops on
// tensors: named linalg ops where linalg has one (matmul, transpose,
// softmax, convolution, pooling), linalg.generic with a tir.name for the
// element-wise ones, tensor.pad and tensor reshapes. --tir-legalize-ops
// turns them into prim_funcs.
//
//===----------------------------------------------------------------------===//

#include "TensorIR/Graph/GraphBuilder.h"

#include "OperatorCall.h"

#include "TensorIR/Dialect/TIR/IR/TIRDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/IndexingUtils.h"
#include "mlir/Dialect/Utils/ReshapeOpsUtils.h"

#include "llvm/ADT/STLExtras.h"

#include <cctype>
#include <cmath>

using namespace mlir;
using namespace mlir::tir;
using namespace mlir::tir::graph;

//===----------------------------------------------------------------------===//
// Contractions, layouts, normalizations
//===----------------------------------------------------------------------===//

/// The rows of an N-D `lhs` (N > 2) times a matrix, as TVM's legalization
/// writes it: one block "matmul" over the result's axes and the reduction,
/// with no reshape around it (the steps around it fuse with it).
static FailureOr<Value> buildRowsMatmul(const OperatorCall &call) {
  ArrayRef<int64_t> lhs = call.shapeOf(0), rhs = call.shapeOf(1);
  ArrayRef<int64_t> out = call.type.getShape();
  int64_t rank = out.size();
  if (static_cast<int64_t>(lhs.size()) != rank || lhs[rank - 1] != rhs[0] ||
      rhs[1] != out[rank - 1] || lhs.drop_back() != out.drop_back())
    return call.refuse() << "operands of shapes " << shapeText(lhs) << " and "
                         << shapeText(rhs) << " do not give " << shapeText(out);
  MLIRContext *ctx = call.b.getContext();
  AffineExpr k = getAffineDimExpr(rank, ctx);
  SmallVector<AffineExpr> rows, all;
  for (int64_t d = 0; d < rank; ++d)
    all.push_back(getAffineDimExpr(d, ctx));
  rows.assign(all.begin(), all.end() - 1);
  rows.push_back(k);
  SmallVector<AffineMap> maps = {
      AffineMap::get(rank + 1, 0, rows, ctx),
      AffineMap::get(rank + 1, 0, {k, all.back()}, ctx),
      AffineMap::get(rank + 1, 0, all, ctx)};
  return call.productSum("matmul", maps, 1);
}

static FailureOr<Value> buildMatmul(const OperatorCall &call) {
  if (failed(call.checkOperands(2)))
    return failure();
  int64_t rank = call.type.getRank();
  if (rank >= 3 && call.shapeOf(1).size() == 2)
    return buildRowsMatmul(call);
  if (rank != 2 && rank != 3)
    return call.refuse() << "takes 2-D or batched 3-D operands, or N-D rows "
                            "times a matrix; the result has rank "
                         << rank;
  for (unsigned k = 0; k < 2; ++k)
    if (static_cast<int64_t>(call.shapeOf(k).size()) != rank)
      return call.refuse() << "operand " << k << " has rank "
                           << call.shapeOf(k).size() << ", the result " << rank;
  ArrayRef<int64_t> lhs = call.shapeOf(0), rhs = call.shapeOf(1);
  ArrayRef<int64_t> out = call.type.getShape();
  if (lhs[rank - 1] != rhs[rank - 2] || lhs[rank - 2] != out[rank - 2] ||
      rhs[rank - 1] != out[rank - 1] ||
      (rank == 3 && (lhs[0] != out[0] || rhs[0] != out[0])))
    return call.refuse() << "operands of shapes " << shapeText(lhs) << " and "
                         << shapeText(rhs) << " do not give " << shapeText(out);
  Value init = call.filled(call.scalar(0));
  if (rank == 2)
    return linalg::MatmulOp::create(call.b, call.loc, TypeRange{call.type},
                                    call.args, ValueRange{init})
        .getResult(0);
  return linalg::BatchMatmulOp::create(call.b, call.loc, TypeRange{call.type},
                                       call.args, ValueRange{init})
      .getResult(0);
}

/// einsum (attribute "subscripts", numpy's notation without "..."): one
/// loop per letter, the output's letters parallel in their order, the
/// others reducing in order of first appearance; each operand read at its
/// letters (a letter twice reads a diagonal), the product of the operands
/// accumulated from 0. Without "->" the output is the letters that appear
/// once, sorted.
static FailureOr<Value> buildEinsum(const OperatorCall &call) {
  if (call.args.empty())
    return call.refuse() << "takes at least one operand";
  if (failed(call.checkOperands(call.args.size())))
    return failure();
  auto subscripts = dyn_cast_if_present<StringAttr>(call.attr("subscripts"));
  if (!subscripts)
    return call.refuse() << "needs the string attribute 'subscripts'";
  StringRef text = subscripts.getValue();
  if (text.contains("..."))
    return call.refuse() << "subscripts with '...' are not supported";
  auto [lhs, rhs] = text.split("->");
  bool explicitOutput = text.contains("->");
  SmallVector<StringRef> inputs;
  lhs.split(inputs, ',');
  if (inputs.size() != call.args.size())
    return call.refuse() << "subscripts '" << text << "' name " << inputs.size()
                         << " operand(s), given " << call.args.size();
  std::string output;
  if (explicitOutput) {
    output = rhs.str();
  } else {
    for (char c = 'A'; c <= 'z'; ++c)
      if (llvm::count(lhs, c) == 1)
        output += c;
  }
  // The loops: the output's letters, then the others.
  std::string letters = output;
  for (char c : lhs)
    if (std::isalpha(c) && letters.find(c) == std::string::npos)
      letters += c;
  for (char c : output)
    if (!std::isalpha(c) || lhs.find(c) == StringRef::npos ||
        llvm::count(output, c) != 1)
      return call.refuse() << "output letter '" << c
                           << "' is not a letter of the operands, once";
  if (static_cast<int64_t>(output.size()) != call.type.getRank())
    return call.refuse() << "subscripts '" << text << "' give rank "
                         << output.size() << ", the result has rank "
                         << call.type.getRank();
  MLIRContext *ctx = call.b.getContext();
  unsigned numLoops = letters.size();
  SmallVector<AffineMap> maps;
  llvm::StringMap<int64_t> sizes;
  for (auto [k, operand] : llvm::enumerate(inputs)) {
    ArrayRef<int64_t> shape = call.shapeOf(k);
    if (operand.size() != shape.size())
      return call.refuse() << "operand " << k << " of rank " << shape.size()
                           << " has subscripts '" << operand << "'";
    SmallVector<AffineExpr> exprs;
    for (auto [d, c] : llvm::enumerate(operand)) {
      if (!std::isalpha(c))
        return call.refuse()
               << "'" << c << "' in '" << operand << "' is not a letter";
      auto [it, inserted] = sizes.try_emplace(StringRef(&c, 1), shape[d]);
      if (!inserted && it->second != shape[d])
        return call.refuse() << "letter '" << c << "' has sizes " << it->second
                             << " and " << shape[d];
      exprs.push_back(getAffineDimExpr(letters.find(c), ctx));
    }
    maps.push_back(AffineMap::get(numLoops, 0, exprs, ctx));
  }
  for (auto [d, c] : llvm::enumerate(output))
    if (sizes.lookup(StringRef(&c, 1)) != call.type.getDimSize(d))
      return call.refuse() << "output letter '" << c << "' has size "
                           << sizes.lookup(StringRef(&c, 1))
                           << ", the result's dimension " << d << " "
                           << call.type.getDimSize(d);
  SmallVector<AffineExpr> written;
  for (unsigned d = 0; d < output.size(); ++d)
    written.push_back(getAffineDimExpr(d, ctx));
  maps.push_back(AffineMap::get(numLoops, 0, written, ctx));
  Value init = call.filled(call.scalar(0));
  bool isFloat = call.isFloat();
  return call.generic(
      "einsum", call.args, init, maps, numLoops - output.size(),
      [&](OpBuilder &b, Location loc, ValueRange a) -> Value {
        Value product = a[0];
        for (Value v : a.drop_front().drop_back())
          product = isFloat ? Value(arith::MulFOp::create(b, loc, product, v))
                            : Value(arith::MulIOp::create(b, loc, product, v));
        Value acc = a.back();
        return isFloat ? Value(arith::AddFOp::create(b, loc, acc, product))
                       : Value(arith::AddIOp::create(b, loc, acc, product));
      });
}

static FailureOr<Value> buildPermuteDims(const OperatorCall &call) {
  if (failed(call.checkOperands(1)))
    return failure();
  FailureOr<SmallVector<int64_t>> axes =
      call.intsAttr("axes", call.type.getRank());
  if (failed(axes))
    return failure();
  if (!isPermutationVector(*axes))
    return call.refuse() << "'axes' is not a permutation of the dimensions";
  ArrayRef<int64_t> in = call.shapeOf(0);
  for (auto [k, axis] : llvm::enumerate(*axes))
    if (in.size() != axes->size() || in[axis] != call.type.getDimSize(k))
      return call.refuse() << "the operand of shape " << shapeText(in)
                           << " permuted is not "
                           << shapeText(call.type.getShape());
  return linalg::TransposeOp::create(call.b, call.loc, call.args[0],
                                     call.empty(), *axes)
      .getResult()[0];
}

static FailureOr<Value> buildSoftmax(const OperatorCall &call) {
  if (failed(call.checkOperands(1)))
    return failure();
  FailureOr<int64_t> axis = call.intAttr("axis");
  if (failed(axis))
    return failure();
  if (*axis < 0 || *axis >= call.type.getRank())
    return call.refuse() << "'axis' " << *axis << " is not a dimension";
  if (!call.isFloat())
    return call.refuse() << "takes floating-point tensors";
  if (call.shapeOf(0) != call.type.getShape())
    return call.refuse() << "keeps its operand's shape";
  return linalg::SoftmaxOp::create(call.b, call.loc, TypeRange{call.type},
                                   call.args[0], call.empty(),
                                   static_cast<uint64_t>(*axis))
      .getResult()[0];
}

static FailureOr<Value> buildBatchNorm(const OperatorCall &call) {
  if (failed(call.checkOperands(5)))
    return failure();
  if (!call.isFloat())
    return call.refuse() << "takes floating-point tensors";
  FailureOr<int64_t> axis = call.intAttr("axis");
  FailureOr<double> epsilon = call.floatAttr("epsilon");
  if (failed(axis) || failed(epsilon))
    return failure();
  int64_t rank = call.type.getRank();
  if (*axis < 0 || *axis >= rank)
    return call.refuse() << "'axis' " << *axis << " is not a dimension";
  for (unsigned k = 1; k < 5; ++k)
    if (call.shapeOf(k) != ArrayRef<int64_t>{call.type.getDimSize(*axis)})
      return call.refuse() << "operand " << k
                           << " is not a vector along the axis";
  AffineMap identity = call.identity(rank);
  AffineMap channel =
      AffineMap::get(rank, 0, getAffineDimExpr(*axis, call.b.getContext()));
  SmallVector<AffineMap> maps = {identity, channel, channel,
                                 channel,  channel, identity};
  double eps = *epsilon;
  return call.generic(
      "batch_norm", call.args, call.empty(), maps, 0,
      [&](OpBuilder &b, Location loc, ValueRange a) -> Value {
        Value x = a[0], gamma = a[1], beta = a[2], mean = a[3], var = a[4];
        Value epsValue =
            arith::ConstantOp::create(b, loc, b.getFloatAttr(x.getType(), eps));
        Value centered = arith::SubFOp::create(b, loc, x, mean);
        Value sd = math::SqrtOp::create(
            b, loc, arith::AddFOp::create(b, loc, var, epsValue));
        Value normal = arith::DivFOp::create(b, loc, centered, sd);
        Value scaled = arith::MulFOp::create(b, loc, normal, gamma);
        return arith::AddFOp::create(b, loc, scaled, beta);
      });
}

//===----------------------------------------------------------------------===//
// Padding
//===----------------------------------------------------------------------===//

static FailureOr<Value> buildPad(const OperatorCall &call) {
  if (failed(call.checkOperands(1)))
    return failure();
  int64_t rank = call.type.getRank();
  if (static_cast<int64_t>(call.shapeOf(0).size()) != rank)
    return call.refuse() << "keeps its operand's rank ("
                         << call.shapeOf(0).size() << ", the result " << rank
                         << ")";
  FailureOr<SmallVector<int64_t>> widths = call.intsAttr("pad_width", 2 * rank);
  FailureOr<double> value = call.floatAttr("pad_value");
  if (failed(widths) || failed(value))
    return failure();
  SmallVector<OpFoldResult> low, high;
  for (int64_t k = 0; k < rank; ++k) {
    int64_t before = (*widths)[2 * k], after = (*widths)[2 * k + 1];
    if (before < 0 || after < 0)
      return call.refuse() << "dimension " << k << " has a negative pad width";
    if (call.shapeOf(0)[k] + before + after != call.type.getDimSize(k))
      return call.refuse() << "dimension " << k << " padded is "
                           << call.shapeOf(0)[k] + before + after
                           << ", the result " << call.type.getDimSize(k);
    low.push_back(call.b.getIndexAttr(before));
    high.push_back(call.b.getIndexAttr(after));
  }
  Value padValue = call.scalar(*value);
  if (!padValue)
    return failure();
  return tensor::PadOp::create(call.b, call.loc, call.type, call.args[0], low,
                               high, padValue)
      .getResult();
}

//===----------------------------------------------------------------------===//
// Reshapes
//===----------------------------------------------------------------------===//

/// Groups of `big`'s dimensions whose products are `small`'s dimensions, or
/// nothing: each group takes dimensions until its product reaches its size;
/// trailing dimensions of 1 join the last group.
static std::optional<SmallVector<ReassociationIndices>>
groupDims(ArrayRef<int64_t> small, ArrayRef<int64_t> big) {
  SmallVector<ReassociationIndices> groups;
  size_t k = 0;
  for (int64_t size : small) {
    ReassociationIndices group;
    int64_t product = 1;
    while (k < big.size() && (group.empty() || product < size)) {
      group.push_back(k);
      product *= big[k++];
    }
    if (group.empty() || product != size)
      return std::nullopt;
    groups.push_back(group);
  }
  while (k < big.size() && big[k] == 1 && !groups.empty())
    groups.back().push_back(k++);
  if (k != big.size())
    return std::nullopt;
  return groups;
}

/// `value` reshaped to `to`: one tensor.collapse_shape or expand_shape
/// (views once bufferized), else through 1-D.
static Value reshape(OpBuilder &b, Location loc, Value value,
                     RankedTensorType to) {
  auto from = cast<RankedTensorType>(value.getType());
  ArrayRef<int64_t> src = from.getShape(), dst = to.getShape();
  if (src == dst)
    return value;
  // To or from a scalar: every other dimension is 1, and no groups.
  if (dst.empty())
    return tensor::CollapseShapeOp::create(b, loc, to, value,
                                           ArrayRef<ReassociationIndices>{});
  if (src.empty())
    return tensor::ExpandShapeOp::create(b, loc, to, value,
                                         ArrayRef<ReassociationIndices>{});
  if (dst.size() < src.size())
    if (auto groups = groupDims(dst, src))
      return tensor::CollapseShapeOp::create(b, loc, to, value, *groups);
  if (dst.size() > src.size())
    if (auto groups = groupDims(src, dst))
      return tensor::ExpandShapeOp::create(b, loc, to, value, *groups);
  auto flat =
      RankedTensorType::get({from.getNumElements()}, from.getElementType());
  return reshape(b, loc, reshape(b, loc, value, flat), to);
}

/// The dimensions of `src` and `dst` paired in consecutive groups of equal
/// sizes, each holding at most one dynamic dimension, on both sides or on
/// neither (the same shape variable: the caller checked that the two
/// shapes have the same ones); nullopt when they do not pair so.
static std::optional<std::pair<SmallVector<ReassociationIndices>,
                               SmallVector<ReassociationIndices>>>
pairDynamicGroups(ArrayRef<int64_t> src, ArrayRef<int64_t> dst) {
  SmallVector<ReassociationIndices> srcGroups, dstGroups;
  size_t i = 0, j = 0;
  while (i < src.size() || j < dst.size()) {
    ReassociationIndices from, to;
    int64_t fromSize = 1, toSize = 1;
    int fromDynamic = 0, toDynamic = 0;
    auto take = [&](ArrayRef<int64_t> dims, size_t &k,
                    ReassociationIndices &group, int64_t &size, int &dynamic) {
      if (ShapedType::isDynamic(dims[k]))
        ++dynamic;
      else
        size *= dims[k];
      group.push_back(k++);
    };
    if (i < src.size())
      take(src, i, from, fromSize, fromDynamic);
    if (j < dst.size())
      take(dst, j, to, toSize, toDynamic);
    while (fromSize != toSize || fromDynamic != toDynamic) {
      bool srcNext = fromDynamic < toDynamic ||
                     (fromDynamic == toDynamic && fromSize < toSize);
      if (srcNext && i < src.size())
        take(src, i, from, fromSize, fromDynamic);
      else if (!srcNext && j < dst.size())
        take(dst, j, to, toSize, toDynamic);
      else
        return std::nullopt;
    }
    // (A shape variable's group holds it and dimensions of 1, so that the
    // value between is sized by the variable itself.)
    if (fromDynamic > 1 || from.empty() || to.empty() ||
        (fromDynamic == 1 && fromSize != 1))
      return std::nullopt;
    srcGroups.push_back(from);
    dstGroups.push_back(to);
  }
  return std::make_pair(srcGroups, dstGroups);
}

/// A reshape where shape variables size dimensions: a collapse into the
/// groups pairDynamicGroups finds (when the source has more than one
/// dimension in some group), then an expand out of them, the result's
/// dynamic sizes taken from `dims`.
static FailureOr<Value> buildDynamicReshape(const OperatorCall &call) {
  Value value = call.args[0];
  auto from = cast<RankedTensorType>(value.getType());
  auto groups = pairDynamicGroups(from.getShape(), call.type.getShape());
  if (!groups)
    return call.refuse() << "cannot reshape " << from << " into " << call.type
                         << ": the dimensions do not pair into groups of equal "
                            "sizes with one shape variable at most each";
  auto &[srcGroups, dstGroups] = *groups;
  SmallVector<int64_t> middle;
  for (const ReassociationIndices &group : srcGroups) {
    int64_t size = 1;
    for (int64_t d : group)
      size = ShapedType::isDynamic(from.getDimSize(d)) ? ShapedType::kDynamic
             : ShapedType::isDynamic(size) ? size
                                           : size * from.getDimSize(d);
    middle.push_back(size);
  }
  auto middleType = RankedTensorType::get(middle, from.getElementType());
  if (middleType != from)
    value = tensor::CollapseShapeOp::create(call.b, call.loc, middleType, value,
                                            srcGroups);
  if (middleType == call.type)
    return value;
  SmallVector<OpFoldResult> outputShape;
  unsigned next = 0;
  for (int64_t size : call.type.getShape())
    outputShape.push_back(ShapedType::isDynamic(size)
                              ? OpFoldResult(call.dims[next++])
                              : OpFoldResult(call.b.getIndexAttr(size)));
  return tensor::ExpandShapeOp::create(call.b, call.loc, call.type, value,
                                       dstGroups, outputShape)
      .getResult();
}

static FailureOr<Value> buildReshape(const OperatorCall &call) {
  if (failed(call.checkOperands(1)))
    return failure();
  auto from = cast<RankedTensorType>(call.args[0].getType());
  if (!from.hasStaticShape() || !call.type.hasStaticShape())
    return buildDynamicReshape(call);
  if (from.getNumElements() != call.type.getNumElements())
    return call.refuse() << "cannot reshape " << from.getNumElements()
                         << " elements into " << call.type.getNumElements();
  if (llvm::is_contained(from.getShape(), 0) ||
      llvm::is_contained(call.type.getShape(), 0))
    return call.refuse() << "takes tensors with elements";
  return reshape(call.b, call.loc, call.args[0], call.type);
}

//===----------------------------------------------------------------------===//
// The table
//===----------------------------------------------------------------------===//

/// Every operator: the element-wise, reduction, layout, indexing, pooling
/// and image ones and those above.
static ArrayRef<std::pair<StringRef, OperatorBuilder>> getOperators() {
  static const SmallVector<std::pair<StringRef, OperatorBuilder>> operators =
      [] {
        SmallVector<std::pair<StringRef, OperatorBuilder>> all(
            getElementwiseOperators());
        all.append(getReductionOperators().begin(),
                   getReductionOperators().end());
        all.append(getLayoutOperators().begin(), getLayoutOperators().end());
        all.append(getIndexingOperators().begin(),
                   getIndexingOperators().end());
        all.append(getPoolingOperators().begin(), getPoolingOperators().end());
        all.append(getConvolutionOperators().begin(),
                   getConvolutionOperators().end());
        all.append(getImageOperators().begin(), getImageOperators().end());
        all.append({
            {"matmul", buildMatmul},
            {"einsum", buildEinsum},
            {"permute_dims", buildPermuteDims},
            {"nn.softmax", buildSoftmax},
            {"nn.batch_norm", buildBatchNorm},
            {"nn.pad", buildPad},
            {"reshape", buildReshape},
        });
        return all;
      }();
  return operators;
}

ArrayRef<StringRef> mlir::tir::getGraphOperatorNames() {
  static const SmallVector<StringRef> names = [] {
    SmallVector<StringRef> result;
    for (const auto &entry : getOperators())
      result.push_back(entry.first);
    return result;
  }();
  return names;
}

bool mlir::tir::isGraphOperator(StringRef name) {
  return llvm::is_contained(getGraphOperatorNames(), name);
}

// The element-wise operators, matmul, permute_dims and softmax: their
// linalg forms size their loops by their operands.
bool mlir::tir::graphOperatorTakesDynamicShapes(StringRef name) {
  if (llvm::is_contained({StringRef("matmul"), StringRef("permute_dims"),
                          StringRef("nn.softmax"), StringRef("reshape"),
                          StringRef("nn.conv2d"), StringRef("nn.conv3d"),
                          StringRef("take"), StringRef("sum"),
                          StringRef("mean"), StringRef("max"), StringRef("min"),
                          StringRef("prod")},
                         name))
    return true;
  return llvm::any_of(graph::getElementwiseOperators(),
                      [&](const auto &entry) { return entry.first == name; });
}

FailureOr<Value> mlir::tir::buildGraphOperator(OpBuilder &b, Location loc,
                                               StringRef name, ValueRange args,
                                               RankedTensorType resultType,
                                               ValueRange dims,
                                               DictionaryAttr attrs) {
  OperatorCall call{b, loc, name, args, resultType, dims, attrs};
  if (dims.size() != resultType.getNumDynamicDims())
    return call.refuse() << "the result " << resultType << " has "
                         << resultType.getNumDynamicDims()
                         << " dynamic dimension(s), given " << dims.size()
                         << " size(s)";
  if (!graphOperatorTakesDynamicShapes(name)) {
    if (!resultType.hasStaticShape())
      return call.refuse() << "gives a statically shaped tensor, not "
                           << resultType
                           << " (dynamic dimensions are taken by the "
                              "element-wise operators, matmul, permute_dims, "
                              "nn.softmax, reshape and the convolutions "
                              "without padding)";
    for (auto [index, arg] : llvm::enumerate(args))
      if (auto type = dyn_cast<RankedTensorType>(arg.getType());
          type && !type.hasStaticShape())
        return call.refuse() << "operand " << index << " is a " << type
                             << "; this operator takes statically shaped "
                                "tensors";
  }
  for (const auto &[known, build] : getOperators())
    if (known == name)
      return build(call);
  return call.refuse() << "has no graph form (operators with one: "
                       << llvm::join(getGraphOperatorNames(), ", ") << ")";
}
