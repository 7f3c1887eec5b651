//===- TestStructuralEqual.cpp - -test-tir-structural-equal ---------------===//
//
// Compares every top-level symbol `@lhs<suffix>` (a function or a nested
// module) of the input with `@rhs<suffix>` and reports the result as a
// remark: "equal to @rhs..." on the lhs symbol, or "differs from @rhs...:
// <message>" on the lhs op where the first difference is, with a note on
// the rhs op. Equal pairs whose hashes differ are errors; for unequal pairs
// the remark says whether the hashes collide.
//
//===----------------------------------------------------------------------===//

#include "TensorIR/Dialect/TIR/Analysis/StructuralEqual.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Pass/Pass.h"

using namespace mlir;

namespace {

struct TestStructuralEqualPass
    : PassWrapper<TestStructuralEqualPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(TestStructuralEqualPass)

  TestStructuralEqualPass() = default;
  TestStructuralEqualPass(const TestStructuralEqualPass &other)
      : PassWrapper(other) {}

  StringRef getArgument() const final { return "test-tir-structural-equal"; }
  StringRef getDescription() const final {
    return "Compare @lhs* with @rhs* symbols by tir structural equality and "
           "hashing, reporting remarks";
  }

  Option<bool> mapFreeVars{*this, "map-free-vars",
                           llvm::cl::desc("TVM's map_free_vars"),
                           llvm::cl::init(false)};
  Option<bool> compareSymbolNames{
      *this, "compare-symbol-names",
      llvm::cl::desc("Also compare the functions' symbol names"),
      llvm::cl::init(false)};

  void runOnOperation() override {
    ModuleOp module = getOperation();
    tir::StructuralEqualOptions options;
    options.mapFreeVars = mapFreeVars;
    options.compareSymbolNames = compareSymbolNames;
    for (Operation &op : module.getBody()->getOperations()) {
      auto name =
          op.getAttrOfType<StringAttr>(SymbolTable::getSymbolAttrName());
      if (!name || !name.getValue().starts_with("lhs"))
        continue;
      std::string partnerName = ("rhs" + name.getValue().drop_front(3)).str();
      Operation *partner = SymbolTable::lookupSymbolIn(module, partnerName);
      if (!partner) {
        op.emitError("no @") << partnerName << " to compare with";
        signalPassFailure();
        continue;
      }
      bool sameHash = tir::structuralHash(&op, options) ==
                      tir::structuralHash(partner, options);
      std::optional<tir::StructuralDifference> diff =
          tir::findStructuralDifference(&op, partner, options);
      if (!diff) {
        if (!sameHash) {
          op.emitError("equal to @")
              << partnerName << " but the structural hashes differ";
          signalPassFailure();
          continue;
        }
        op.emitRemark("equal to @") << partnerName;
        continue;
      }
      Operation *at = diff->lhsOp ? diff->lhsOp : &op;
      InFlightDiagnostic remark = at->emitRemark("differs from @")
                                  << partnerName
                                  << (sameHash ? " (same hash)" : "") << ": "
                                  << diff->message;
      if (diff->rhsOp)
        remark.attachNote(diff->rhsOp->getLoc()) << "rhs here";
    }
  }
};

} // namespace

namespace mlir::tir::test {
void registerTestStructuralEqualPass() {
  PassRegistration<TestStructuralEqualPass>();
}
} // namespace mlir::tir::test
