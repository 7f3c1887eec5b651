//===- tir-opt.cpp - the tir optimizer driver -----------------------------===//
//
// mlir-opt with tir: the tir dialect, transform.tir, and the upstream
// dialects, passes and transform extensions that scheduling and lowering use.
//
//===----------------------------------------------------------------------===//

#include "TensorIR/InitAllDialects.h"
#include "TensorIR/InitAllPasses.h"
#include "TensorIR/InitAllScheduleExtensions.h"

#include "mlir/Tools/mlir-opt/MlirOptMain.h"

// Test-only passes (-test-tir-*), defined in test/lib.
namespace mlir::tir::test {
void registerTestStructuralEqualPass();
} // namespace mlir::tir::test

int main(int argc, char **argv) {
  mlir::tir::registerAllPasses();
  mlir::tir::test::registerTestStructuralEqualPass();
  mlir::DialectRegistry registry;
  mlir::tir::registerAllDialects(registry);
  mlir::tir::registerAllExtensions(registry);
  mlir::tir::registerScheduleExtensions(registry);
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "tir optimizer driver\n", registry));
}
