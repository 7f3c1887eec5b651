//===- dialect-check.cpp - a program that links TensorIR::TIRDialect alone ===//
//
// The smallest use of tir's installed package: a project that only reads
// tir IR links TensorIR::TIRDialect and nothing else (no include
// directories, no definitions of its own: the target carries LLVM's and
// MLIR's). It parses the tir module named on the command line, verifies
// it and prints each block's name.
//
//===----------------------------------------------------------------------===//

#include "TensorIR/Dialect/TIR/IR/TIRDialect.h"
#include "TensorIR/Dialect/TIR/IR/TIROps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/raw_ostream.h"

int main(int argc, char **argv) {
  if (argc != 2) {
    llvm::errs() << "usage: dialect-check <file.mlir>\n";
    return 2;
  }
  mlir::DialectRegistry registry;
  registry.insert<mlir::tir::TIRDialect, mlir::arith::ArithDialect,
                  mlir::func::FuncDialect, mlir::memref::MemRefDialect>();
  mlir::MLIRContext context(registry);
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceFile<mlir::ModuleOp>(argv[1], &context);
  if (!module)
    return 1;
  module->walk([](mlir::tir::BlockOp block) {
    llvm::outs() << "block " << block.getBlockName() << "\n";
  });
  return 0;
}
