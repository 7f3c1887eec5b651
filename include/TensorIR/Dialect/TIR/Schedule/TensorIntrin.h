//===- TensorIntrin.h - tensor intrinsics by name ---------------*- C++ -*-===//
//
// A tensor intrinsic (TVM's TensorIntrin) is a pair of functions over the
// same buffer parameters: `desc`, the computation the instruction performs,
// written as TensorIR (a root block holding loops and blocks), and `impl`,
// how it performs it (a root block whose body calls the instruction).
// tensorize matches a block against `desc` and puts `impl`'s body in its
// place.
//
// Intrinsics are found by name, in this order:
//   1. func.func ops of a module around the transform op that names them,
//      marked `tir.tensor_intrin_desc = "name"` / `tir.tensor_intrin_impl =
//      "name"` (how a transform script carries its intrinsics);
//   2. the process-wide registry (registerTensorIntrin, which the Python
//      package's tir.TensorIntrin.register calls); the functions found there
//      are then added, marked, to the transform op's module, so that the
//      script records what it used.
//
//===----------------------------------------------------------------------===//

#ifndef TENSORIR_DIALECT_TIR_SCHEDULE_TENSORINTRIN_H
#define TENSORIR_DIALECT_TIR_SCHEDULE_TENSORINTRIN_H

#include "TensorIR/Dialect/TIR/Schedule/ScheduleError.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace mlir::tir {

inline constexpr StringLiteral kTensorIntrinDescAttr = "tir.tensor_intrin_desc";
inline constexpr StringLiteral kTensorIntrinImplAttr = "tir.tensor_intrin_impl";

struct TensorIntrin {
  func::FuncOp desc, impl;
  /// Whether the lookup added them from the registry (a refused step then
  /// removes them with forgetAddedTensorIntrin, leaving its module as it
  /// was).
  bool added = false;
};

/// Erases the functions a lookup added (nothing when it added none).
void forgetAddedTensorIntrin(TensorIntrin &intrin);

/// Registers intrinsic `name` from the MLIR text of its two functions
/// (each one func.func). Fails when `name` is taken and `override` is
/// false, or when a text is not one function (`error` says why).
LogicalResult registerTensorIntrin(StringRef name, StringRef descText,
                                   StringRef implText, bool override,
                                   std::string &error);

/// Registers intrinsic `name` as the functions `desc` and `impl` (the
/// registry keeps a copy that does not depend on their context).
LogicalResult registerTensorIntrin(StringRef name, func::FuncOp desc,
                                   func::FuncOp impl, bool override,
                                   std::string &error);

/// Registers the intrinsics `module` carries (marked function pairs, as a
/// trace's transform script holds them) whose names the registry does not
/// hold yet, so that steps replayed elsewhere find them.
void registerCarriedTensorIntrins(ModuleOp module);

/// Whether the registry holds `name`.
bool isTensorIntrinRegistered(StringRef name);

/// Intrinsic `name` for the transform op `step` (see above). Refuses, with
/// `culprit` as the op to blame, an unknown name, a registered text that
/// does not parse, and a pair whose parameters differ in number or type.
FailureOr<TensorIntrin> lookupTensorIntrin(Operation *step, StringRef name,
                                           Operation *culprit,
                                           ScheduleError &error);

} // namespace mlir::tir

#endif // TENSORIR_DIALECT_TIR_SCHEDULE_TENSORINTRIN_H
