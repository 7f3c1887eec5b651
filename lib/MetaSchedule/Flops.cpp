//===- Flops.cpp - how much arithmetic a program does ---------------------===//

#include "TensorIR/MetaSchedule/Flops.h"

#include "TensorIR/Dialect/TIR/IR/TIROps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;
using namespace mlir::tir;

/// Whether `op` is arithmetic TVM counts: an arith or math op on values
/// (not an index computation, a constant or a conversion).
static bool isCountedOp(Operation *op) {
  if (op->getNumResults() != 1 || op->getResult(0).getType().isIndex() ||
      !op->getDialect())
    return false;
  StringRef dialect = op->getDialect()->getNamespace();
  if (dialect == "math")
    return true;
  if (dialect != "arith")
    return false;
  return !isa<arith::ConstantOp, arith::ExtFOp, arith::ExtSIOp, arith::ExtUIOp,
              arith::TruncFOp, arith::TruncIOp, arith::SIToFPOp,
              arith::UIToFPOp, arith::FPToSIOp, arith::FPToUIOp,
              arith::IndexCastOp, arith::IndexCastUIOp, arith::BitcastOp>(op);
}

double mlir::tir::ms::estimateFlops(Operation *root) {
  double flops = 0;
  root->walk([&](Operation *op) {
    if (!isCountedOp(op))
      return;
    flops += getEnclosingIterations(op, root);
  });
  return flops;
}

double mlir::tir::ms::getEnclosingIterations(Operation *op, Operation *root) {
  double times = 1;
  for (Operation *parent = op->getParentOp(); parent && parent != root;
       parent = parent->getParentOp())
    if (auto loop = dyn_cast<ForOp>(parent))
      if (std::optional<int64_t> extent = loop.getConstantExtent())
        times *= static_cast<double>(*extent);
  return times;
}
