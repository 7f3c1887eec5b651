//===- GraphBuilderTest.cpp - graph functions built step by step ----------===//

#include "TensorIR/Graph/GraphBuilder.h"

#include "TensorIR/Dialect/TIR/IR/TIRDialect.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

#include <cmath>

using namespace mlir;
using namespace mlir::tir;

namespace {

class GraphBuilderTest : public ::testing::Test {
protected:
  GraphBuilderTest()
      : handler(&ctx, [this](Diagnostic &diag) {
          errors += diag.str() + "\n";
          return success();
        }) {}

  RankedTensorType f32(ArrayRef<int64_t> shape) {
    return RankedTensorType::get(shape, Float32Type::get(&ctx));
  }

  Location loc() { return FileLineColLoc::get(&ctx, "model.py", 3, 1); }

  /// `op` in the custom syntax, verified or not (a call_tir's callee may
  /// be missing).
  static std::string str(Operation *op) {
    std::string s;
    llvm::raw_string_ostream os(s);
    op->print(os, OpPrintingFlags().assumeVerified());
    return s;
  }

  /// The function `main(x: xType) -> operator(x)` built and verified; its
  /// text ("" when the operator refused, its error in `errors`).
  std::string buildUnary(StringRef op, RankedTensorType xType,
                         RankedTensorType resultType,
                         ArrayRef<NamedAttribute> attrs = {}) {
    GraphBuilder builder(&ctx, "main", {{"x", xType}}, false, loc());
    FailureOr<Value> result = builder.callOperator(
        op, builder.getParameter(0), resultType, ValueRange(),
        DictionaryAttr::get(&ctx, attrs), loc());
    if (failed(result))
      return "";
    OwningOpRef<ModuleOp> module = builder.finish(*result, loc());
    EXPECT_TRUE(succeeded(verify(*module))) << errors;
    return str(*module);
  }

  NamedAttribute attr(StringRef name, Attribute value) {
    return NamedAttribute(StringAttr::get(&ctx, name), value);
  }

  MLIRContext ctx;
  std::string errors;
  ScopedDiagnosticHandler handler;
};

TEST_F(GraphBuilderTest, ParametersConstantsCallsAndReturn) {
  GraphBuilder builder(&ctx, "main", {{"x", f32({4})}}, /*isPrivate=*/true,
                       loc());
  Value w = builder.constant(
      DenseElementsAttr::get(f32({4}), ArrayRef<float>{1, 2, 3, 4}), loc());
  ValueRange results =
      builder.callTir("add_one", {builder.getParameter(0), w},
                      {f32({4}), f32({4})}, ValueRange(), loc());
  ASSERT_EQ(results.size(), 2u);
  SmallVector<Value> outputs(results);
  OwningOpRef<ModuleOp> module = builder.finish(outputs, loc());
  std::string text = str(*module);
  EXPECT_NE(text.find("func.func private @main(%arg0: tensor<4xf32> "
                      "{tir.name = \"x\"}) -> (tensor<4xf32>, tensor<4xf32>)"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("tir.call_tir @add_one(%arg0, %cst)"), std::string::npos)
      << text;
  // The callee is not in the module: the verifier says so, naming it.
  EXPECT_TRUE(failed(verify(*module)));
  EXPECT_NE(errors.find("add_one"), std::string::npos) << errors;
}

TEST_F(GraphBuilderTest, CompositeKeepsAnOperatorWhole) {
  GraphBuilder builder(&ctx, "main", {{"x", f32({2, 3})}}, false, loc());
  ValueRange inside = builder.beginComposite(
      "double_relu", builder.getParameter(0), {f32({2, 3})},
      DictionaryAttr::get(&ctx, {}), loc());
  ASSERT_EQ(inside.size(), 1u);
  // Before the composite ends, the function cannot.
  EXPECT_FALSE(builder.finish(builder.getParameter(0), loc()));
  EXPECT_NE(errors.find("relax.double_relu is begun and not ended"),
            std::string::npos)
      << errors;
  FailureOr<Value> relu =
      builder.callOperator("nn.relu", inside[0], f32({2, 3}), ValueRange(),
                           DictionaryAttr::get(&ctx, {}), loc());
  ASSERT_TRUE(succeeded(relu)) << errors;
  FailureOr<ValueRange> results = builder.endComposite(*relu, loc());
  ASSERT_TRUE(succeeded(results)) << errors;
  OwningOpRef<ModuleOp> module = builder.finish(*results, loc());
  ASSERT_TRUE(module);
  ASSERT_TRUE(succeeded(verify(*module))) << errors;
  std::string text = str(*module);
  EXPECT_NE(text.find("tir.composite \"double_relu\"(%arg0)"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("tir.yield"), std::string::npos) << text;
}

TEST_F(GraphBuilderTest, CompositeEndsOnlyWithItsResultTypes) {
  GraphBuilder builder(&ctx, "main", {{"x", f32({2, 3})}}, false, loc());
  EXPECT_TRUE(failed(builder.endComposite(builder.getParameter(0), loc())));
  EXPECT_NE(errors.find("no composite operator is open"), std::string::npos)
      << errors;
  ValueRange inside =
      builder.beginComposite("op", builder.getParameter(0), {f32({3, 2})},
                             DictionaryAttr::get(&ctx, {}), loc());
  EXPECT_TRUE(failed(builder.endComposite(inside, loc())));
  EXPECT_NE(errors.find("relax.op: its parts give ('tensor<2x3xf32>'), the "
                        "operator ('tensor<3x2xf32>')"),
            std::string::npos)
      << errors;
}

TEST_F(GraphBuilderTest, ElementwiseOperatorsBroadcast) {
  GraphBuilder builder(&ctx, "main", {{"a", f32({2, 3})}, {"b", f32({3})}},
                       false, loc());
  FailureOr<Value> sum = builder.callOperator(
      "add", {builder.getParameter(0), builder.getParameter(1)}, f32({2, 3}),
      ValueRange(), DictionaryAttr::get(&ctx, {}), loc());
  ASSERT_TRUE(succeeded(sum)) << errors;
  FailureOr<Value> relu =
      builder.callOperator("nn.relu", *sum, f32({2, 3}), ValueRange(),
                           DictionaryAttr::get(&ctx, {}), loc());
  ASSERT_TRUE(succeeded(relu)) << errors;
  OwningOpRef<ModuleOp> module = builder.finish(*relu, loc());
  ASSERT_TRUE(succeeded(verify(*module))) << errors;
  std::string text = str(*module);
  // b is read along the last dimension.
  EXPECT_NE(text.find("affine_map<(d0, d1) -> (d1)>"), std::string::npos)
      << text;
  EXPECT_NE(text.find("arith.addf"), std::string::npos) << text;
  EXPECT_NE(text.find("arith.maximumf"), std::string::npos) << text;
  EXPECT_NE(text.find("tir.name = \"relu\""), std::string::npos) << text;
}

TEST_F(GraphBuilderTest, NamedLinalgOperators) {
  Builder b(&ctx);
  EXPECT_NE(buildUnary("permute_dims", f32({2, 3}), f32({3, 2}),
                       {attr("axes", b.getDenseI64ArrayAttr({1, 0}))})
                .find("linalg.transpose"),
            std::string::npos)
      << errors;
  EXPECT_NE(buildUnary("nn.softmax", f32({2, 3}), f32({2, 3}),
                       {attr("axis", b.getI64IntegerAttr(1))})
                .find("linalg.softmax dimension(1)"),
            std::string::npos)
      << errors;
  EXPECT_NE(buildUnary("nn.pad", f32({2, 3}), f32({3, 5}),
                       {attr("pad_width", b.getDenseI64ArrayAttr({1, 0, 1, 1})),
                        attr("pad_value", b.getF64FloatAttr(0.5))})
                .find("tensor.pad %arg0 low[1, 1] high[0, 1]"),
            std::string::npos)
      << errors;
  EXPECT_NE(buildUnary("nn.max_pool2d", f32({1, 1, 4, 4}), f32({1, 1, 2, 2}),
                       {attr("pool_size", b.getDenseI64ArrayAttr({2, 2})),
                        attr("strides", b.getDenseI64ArrayAttr({2, 2})),
                        attr("dilation", b.getDenseI64ArrayAttr({1, 1}))})
                .find("linalg.pooling_nchw_max"),
            std::string::npos)
      << errors;
  EXPECT_NE(
      buildUnary("nn.adaptive_avg_pool2d", f32({1, 2, 4, 6}), f32({1, 2, 2, 3}))
          .find("tir.name = \"adaptive_avg_pool2d\""),
      std::string::npos)
      << errors;
}

TEST_F(GraphBuilderTest, IntegerPaddingWithInfinityIsTheLowestValue) {
  // max_pool2d of integers pads with -inf: the lowest i32, which no element
  // loses a max to.
  Builder b(&ctx);
  auto i32 = [&](ArrayRef<int64_t> shape) {
    return RankedTensorType::get(shape, b.getI32Type());
  };
  std::string text =
      buildUnary("nn.pad", i32({2}), i32({4}),
                 {attr("pad_width", b.getDenseI64ArrayAttr({1, 1})),
                  attr("pad_value", b.getF64FloatAttr(-INFINITY))});
  EXPECT_NE(text.find("arith.constant -2147483648 : i32"), std::string::npos)
      << text << errors;
  EXPECT_EQ(buildUnary("nn.pad", i32({2}), i32({4}),
                       {attr("pad_width", b.getDenseI64ArrayAttr({1, 1})),
                        attr("pad_value", b.getF64FloatAttr(NAN))}),
            "");
  EXPECT_NE(errors.find("NaN has no value of 'i32'"), std::string::npos)
      << errors;
}

TEST_F(GraphBuilderTest, ReshapesAreViews) {
  // Collapse, expand, through 1-D when neither alone does it, and to a
  // scalar.
  EXPECT_NE(buildUnary("reshape", f32({2, 3, 4}), f32({6, 4}))
                .find("tensor.collapse_shape %arg0 [[0, 1], [2]]"),
            std::string::npos)
      << errors;
  EXPECT_NE(buildUnary("reshape", f32({6}), f32({2, 3}))
                .find("tensor.expand_shape %arg0 [[0, 1]] output_shape [2, 3]"),
            std::string::npos)
      << errors;
  std::string through = buildUnary("reshape", f32({2, 3}), f32({3, 2}));
  EXPECT_NE(through.find("tensor.collapse_shape"), std::string::npos) << errors;
  EXPECT_NE(through.find("tensor.expand_shape"), std::string::npos) << errors;
  EXPECT_NE(buildUnary("reshape", f32({1, 1}), f32({}))
                .find("tensor.collapse_shape %arg0 []"),
            std::string::npos)
      << errors;
}

TEST_F(GraphBuilderTest, RefusalsNameTheOperatorAndTheRule) {
  Builder b(&ctx);
  EXPECT_EQ(buildUnary("nn.frobnicate", f32({4}), f32({4})), "");
  EXPECT_NE(errors.find("relax.nn.frobnicate: has no graph form"),
            std::string::npos)
      << errors;
  errors.clear();
  // Element-wise operators check the element types they take.
  auto i32 = [&](ArrayRef<int64_t> shape) {
    return RankedTensorType::get(shape, b.getI32Type());
  };
  EXPECT_EQ(buildUnary("exp", i32({4}), i32({4})), "");
  EXPECT_NE(errors.find("relax.exp: takes floating-point tensors, not 'i32'"),
            std::string::npos)
      << errors;
  errors.clear();
  EXPECT_EQ(buildUnary("isnan", f32({4}), f32({4})), "");
  EXPECT_NE(errors.find("relax.isnan: gives 'i1', not 'f32'"),
            std::string::npos)
      << errors;
  errors.clear();
  EXPECT_EQ(buildUnary("bitwise_not", f32({4}), f32({4})), "");
  EXPECT_NE(errors.find("relax.bitwise_not: takes integer or bool tensors"),
            std::string::npos)
      << errors;
  errors.clear();
  EXPECT_EQ(buildUnary("nn.softmax", f32({4}), f32({4})), "");
  EXPECT_NE(errors.find("relax.nn.softmax: needs the integer attribute 'axis'"),
            std::string::npos)
      << errors;
  errors.clear();
  EXPECT_EQ(buildUnary("permute_dims", f32({2, 3}), f32({3, 2}),
                       {attr("axes", b.getDenseI64ArrayAttr({1, 1}))}),
            "");
  EXPECT_NE(errors.find("'axes' is not a permutation"), std::string::npos)
      << errors;
  errors.clear();
  EXPECT_EQ(buildUnary("reshape", f32({2, 3}), f32({4})), "");
  EXPECT_NE(errors.find("cannot reshape 6 elements into 4"), std::string::npos)
      << errors;
  errors.clear();
  EXPECT_EQ(buildUnary("nn.adaptive_avg_pool2d", f32({1, 1, 5, 5}),
                       f32({1, 1, 2, 2})),
            "");
  EXPECT_NE(errors.find("output sizes that divide"), std::string::npos)
      << errors;
  errors.clear();
  EXPECT_EQ(buildUnary("nn.max_pool2d", f32({1, 1, 4, 4}), f32({1, 1, 4, 4}),
                       {attr("pool_size", b.getDenseI64ArrayAttr({0, 1})),
                        attr("strides", b.getDenseI64ArrayAttr({1, 1})),
                        attr("dilation", b.getDenseI64ArrayAttr({1, 1}))}),
            "");
  EXPECT_NE(errors.find("'pool_size' is at least 1 on each axis"),
            std::string::npos)
      << errors;
  errors.clear();
  EXPECT_EQ(
      buildUnary("nn.pad", f32({2, 3}), f32({2, 3, 1}),
                 {attr("pad_width", b.getDenseI64ArrayAttr({0, 0, 0, 0, 0, 0})),
                  attr("pad_value", b.getF64FloatAttr(0))}),
      "");
  EXPECT_NE(errors.find("keeps its operand's rank (2, the result 3)"),
            std::string::npos)
      << errors;
  errors.clear();
  {
    GraphBuilder mm(&ctx, "main", {{"a", f32({2, 3})}, {"b", f32({4, 5})}},
                    false, loc());
    EXPECT_TRUE(failed(mm.callOperator(
        "matmul", {mm.getParameter(0), mm.getParameter(1)}, f32({2, 5}),
        ValueRange(), DictionaryAttr::get(&ctx, {}), loc())));
    EXPECT_NE(errors.find("relax.matmul: operands of shapes (2, 3) and (4, 5) "
                          "do not give (2, 5)"),
              std::string::npos)
        << errors;
  }
  errors.clear();
  GraphBuilder builder(&ctx, "main", {{"a", f32({2, 3})}, {"b", f32({4})}},
                       false, loc());
  EXPECT_TRUE(failed(builder.callOperator(
      "add", {builder.getParameter(0), builder.getParameter(1)}, f32({2, 3}),
      ValueRange(), DictionaryAttr::get(&ctx, {}), loc())));
  EXPECT_NE(errors.find("relax.add: dimension 0 of size 4 does not broadcast "
                        "to 3"),
            std::string::npos)
      << errors;
}

TEST_F(GraphBuilderTest, ShapeVariablesSizeDynamicDimensions) {
  int64_t n = ShapedType::kDynamic;
  GraphBuilder builder(&ctx, "main",
                       {GraphParameter{"x", f32({n, 4}), {"n", ""}},
                        GraphParameter{"w", f32({4, 8}), {}}},
                       false, loc());
  FailureOr<Value> size = builder.getShapeVar("n");
  ASSERT_TRUE(succeeded(size));
  EXPECT_TRUE(failed(builder.getShapeVar("m")));
  FailureOr<Value> product = builder.callOperator(
      "matmul", {builder.getParameter(0), builder.getParameter(1)}, f32({n, 8}),
      *size, DictionaryAttr::get(&ctx, {}), loc());
  ASSERT_TRUE(succeeded(product)) << errors;
  FailureOr<Value> relu =
      builder.callOperator("nn.relu", *product, f32({n, 8}), *size,
                           DictionaryAttr::get(&ctx, {}), loc());
  ASSERT_TRUE(succeeded(relu)) << errors;
  // One size per dynamic dimension.
  EXPECT_TRUE(
      failed(builder.callOperator("nn.relu", *relu, f32({n, 8}), ValueRange(),
                                  DictionaryAttr::get(&ctx, {}), loc())));
  EXPECT_NE(errors.find("has 1 dynamic dimension(s), given 0 size(s)"),
            std::string::npos)
      << errors;
  errors.clear();
  // A reduction over the axis a shape variable sizes refuses, naming it.
  EXPECT_TRUE(failed(builder.callOperator(
      "sum", *relu, f32({8}), ValueRange(),
      DictionaryAttr::get(&ctx,
                          {attr("axis", DenseI64ArrayAttr::get(&ctx, {0})),
                           attr("keepdims", BoolAttr::get(&ctx, false))}),
      loc())));
  EXPECT_NE(errors.find("relax.sum: reduces axis 0, which a shape variable "
                        "sizes"),
            std::string::npos)
      << errors;
  errors.clear();
  // An operator without a dynamic form refuses, naming the operand.
  EXPECT_TRUE(failed(builder.callOperator(
      "cumsum", *relu, f32({n, 8}), *size,
      DictionaryAttr::get(
          &ctx,
          {attr("axis", IntegerAttr::get(IntegerType::get(&ctx, 64), 1))}),
      loc())));
  EXPECT_NE(errors.find("relax.cumsum: gives a statically shaped tensor"),
            std::string::npos)
      << errors;
  errors.clear();
  OwningOpRef<ModuleOp> module = builder.finish(*relu, loc());
  ASSERT_TRUE(succeeded(verify(*module))) << errors;
  std::string text = str(*module);
  EXPECT_NE(text.find("tir.dim_vars = [\"n\", \"\"]"), std::string::npos)
      << text;
  EXPECT_NE(text.find("tensor.dim %arg0, %c0"), std::string::npos) << text;
  EXPECT_NE(text.find("tensor.empty(%dim) : tensor<?x8xf32>"),
            std::string::npos)
      << text;
}

} // namespace
