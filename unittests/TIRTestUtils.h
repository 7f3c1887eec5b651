//===- TIRTestUtils.h - parsing tir snippets in unit tests ------*- C++ -*-===//

#ifndef TENSORIR_UNITTESTS_TIRTESTUTILS_H
#define TENSORIR_UNITTESTS_TIRTESTUTILS_H

#include "TensorIR/Dialect/TIR/Arith/Interval.h"
#include "TensorIR/Dialect/TIR/IR/TIRDialect.h"
#include "TensorIR/Dialect/TIR/IR/TIROps.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OwningOpRef.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/raw_ostream.h"

#include <ostream>

#include "gtest/gtest.h"

namespace mlir {
/// Readable gtest messages for expressions.
inline void PrintTo(AffineExpr e, std::ostream *os) {
  std::string s;
  llvm::raw_string_ostream rs(s);
  rs << e;
  *os << s;
}
} // namespace mlir

namespace mlir::tir {
inline void PrintTo(const Interval &r, std::ostream *os) {
  *os << "[" << r.lo << ", " << r.hi << "]";
}
} // namespace mlir::tir

namespace mlir::tir::test {

/// The head of a transform script (its sequence taking %root); the steps
/// follow, then kScriptEnd.
constexpr llvm::StringLiteral kScriptBegin = R"mlir(
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
)mlir";
constexpr llvm::StringLiteral kScriptEnd = R"mlir(
    transform.yield
  }
}
)mlir";

/// A context with the dialects tir snippets and the primitives use, and
/// lookups into parsed snippets.
class TIRTest : public ::testing::Test {
protected:
  TIRTest() {
    DialectRegistry registry;
    registry.insert<TIRDialect, func::FuncDialect, arith::ArithDialect,
                    affine::AffineDialect, memref::MemRefDialect,
                    scf::SCFDialect>();
    ctx.appendDialectRegistry(registry);
    ctx.loadAllAvailableDialects();
  }

  /// Parses (and verifies) `source`; fails the test on errors.
  OwningOpRef<ModuleOp> parse(StringRef source) {
    OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(source, &ctx);
    EXPECT_TRUE(module) << "cannot parse:\n" << source.str();
    return module;
  }

  /// The block named `name` (the first one).
  static BlockOp block(Operation *root, StringRef name) {
    BlockOp found;
    root->walk([&](BlockOp b) {
      if (!found && b.getBlockName() == name)
        found = b;
    });
    EXPECT_TRUE(found) << "no block '" << name.str() << "'";
    return found;
  }

  /// The loop whose variable is named `name` (the first one).
  static ForOp loop(Operation *root, StringRef name) {
    ForOp found;
    root->walk([&](ForOp l) {
      if (!found && l.getVarName() == name)
        found = l;
    });
    EXPECT_TRUE(found) << "no loop '" << name.str() << "'";
    return found;
  }

  /// The first function of `module`.
  static func::FuncOp function(ModuleOp module) {
    return *module.getOps<func::FuncOp>().begin();
  }

  /// `x` printed (an expression, an op, ...).
  template <typename T> static std::string str(const T &x) {
    std::string s;
    llvm::raw_string_ostream os(s);
    os << x;
    return s;
  }

  /// The names of `blocks`, space-separated.
  static std::string names(ArrayRef<BlockOp> blocks) {
    std::string s;
    for (BlockOp b : blocks)
      s += (s.empty() ? "" : " ") + b.getBlockName().str();
    return s;
  }

  AffineExpr d(unsigned i) { return getAffineDimExpr(i, &ctx); }
  AffineExpr c(int64_t v) { return getAffineConstantExpr(v, &ctx); }

  MLIRContext ctx;
};

} // namespace mlir::tir::test

#endif // TENSORIR_UNITTESTS_TIRTESTUTILS_H
