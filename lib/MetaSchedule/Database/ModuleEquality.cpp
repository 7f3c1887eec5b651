//===- ModuleEquality.cpp - when two tuned modules are one workload -------===//

#include "TensorIR/MetaSchedule/ModuleEquality.h"
#include "TensorIR/MetaSchedule/ArgInfo.h"
#include "TensorIR/MetaSchedule/Flops.h"

#include "TensorIR/Dialect/TIR/Analysis/StructuralEqual.h"
#include "TensorIR/Dialect/TIR/IR/TIROps.h"
#include "TensorIR/Dialect/TIR/IR/TIRUtils.h"

#include "mlir/Interfaces/FunctionInterfaces.h"

using namespace mlir;
using namespace mlir::tir;
using namespace mlir::tir::ms;

FailureOr<ModuleEquality>
mlir::tir::ms::parseModuleEquality(StringRef name, std::string &error) {
  if (name == "structural")
    return ModuleEquality::Structural;
  if (name == "ignore-tensor" || name == "ignore-ndarray")
    return ModuleEquality::IgnoreTensor;
  if (name == "anchor-block")
    return ModuleEquality::AnchorBlock;
  error = ("unknown module equality '" + name +
           "' (it is \"structural\", \"ignore-tensor\" or \"anchor-block\")")
              .str();
  return failure();
}

StringRef mlir::tir::ms::getModuleEqualityName(ModuleEquality equality) {
  switch (equality) {
  case ModuleEquality::Structural:
    return "structural";
  case ModuleEquality::IgnoreTensor:
    return "ignore-tensor";
  case ModuleEquality::AnchorBlock:
    return "anchor-block";
  }
  llvm_unreachable("unknown module equality");
}

namespace {

/// The arithmetic a block's loop nest does: its own, times the static
/// extents of the loops around it.
double estimateWork(BlockOp block) {
  return std::max(estimateFlops(block), 1.0) * getEnclosingIterations(block);
}

StructuralEqualOptions optionsFor(ModuleEquality equality) {
  StructuralEqualOptions options;
  options.ignoreTensorValues = equality == ModuleEquality::IgnoreTensor;
  options.mapFreeVars = true;
  return options;
}

} // namespace

Operation *mlir::tir::ms::findAnchorBlock(ModuleOp mod) {
  FunctionOpInterface func = getEntryFunction(mod);
  if (!func)
    return nullptr;
  BlockOp best;
  double bestWork = -1;
  func->walk([&](BlockOp block) {
    if (!block.getInitOp())
      return;
    double work = estimateWork(block);
    if (work > bestWork) {
      bestWork = work;
      best = block;
    }
  });
  return best;
}

uint64_t mlir::tir::ms::hashModule(ModuleOp mod, ModuleEquality equality) {
  if (equality == ModuleEquality::AnchorBlock)
    if (Operation *anchor = findAnchorBlock(mod))
      return structuralHash(anchor, optionsFor(equality));
  return structuralHash(mod, optionsFor(equality));
}

bool mlir::tir::ms::equalModules(ModuleOp lhs, ModuleOp rhs,
                                 ModuleEquality equality) {
  if (equality == ModuleEquality::AnchorBlock) {
    Operation *lhsAnchor = findAnchorBlock(lhs);
    Operation *rhsAnchor = findAnchorBlock(rhs);
    if (lhsAnchor && rhsAnchor)
      return structuralEqual(lhsAnchor, rhsAnchor, optionsFor(equality));
  }
  return structuralEqual(lhs, rhs, optionsFor(equality));
}
