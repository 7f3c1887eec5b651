//===- ModuleEquality.h - when two tuned modules are one workload -*- C++
//-*-===//
//
// TVM's module equality, which a database finds workloads by:
//  - "structural": tvm.ir.structural_equal / structural_hash;
//  - "ignore-tensor": the same, constant tensors compared by type alone
//    (models whose weights are folded in tune once per shape);
//  - "anchor-block": only the anchor block of the entry function is
//    compared (the reduction block of most work), so fused variants of one
//    operator share records; modules without one compare structurally.
//
//===----------------------------------------------------------------------===//

#ifndef TENSORIR_METASCHEDULE_MODULEEQUALITY_H
#define TENSORIR_METASCHEDULE_MODULEEQUALITY_H

#include "mlir/IR/BuiltinOps.h"

#include <cstdint>
#include <string>

namespace mlir::tir::ms {

enum class ModuleEquality { Structural, IgnoreTensor, AnchorBlock };

/// The equality TVM's name ("structural", "ignore-tensor",
/// "anchor-block") gives; fails with `error` for another name.
FailureOr<ModuleEquality> parseModuleEquality(StringRef name,
                                              std::string &error);
StringRef getModuleEqualityName(ModuleEquality equality);

uint64_t hashModule(ModuleOp mod, ModuleEquality equality);
bool equalModules(ModuleOp lhs, ModuleOp rhs, ModuleEquality equality);

/// TVM's FindAnchorBlock: of the entry function ("main", or the only
/// function), the block with an init (a reduction) whose loop nest does
/// the most arithmetic; null when there is none.
Operation *findAnchorBlock(ModuleOp mod);

} // namespace mlir::tir::ms

#endif // TENSORIR_METASCHEDULE_MODULEEQUALITY_H
