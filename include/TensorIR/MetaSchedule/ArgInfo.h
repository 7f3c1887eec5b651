//===- ArgInfo.h - what a tuned function takes ------------------*- C++ -*-===//
//
// TVM's ArgInfo: the arguments of a function MetaSchedule tunes, as its
// tuning records keep them and its runners allocate them. Each is a
// TensorInfo: a buffer's dtype (TVM's name) and static shape, written as
// JSON `["TENSOR", "float32", [128, 128]]`.
//
//===----------------------------------------------------------------------===//

#ifndef TENSORIR_METASCHEDULE_ARGINFO_H
#define TENSORIR_METASCHEDULE_ARGINFO_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Support/LLVM.h"
#include "llvm/Support/JSON.h"

#include <string>
#include <vector>

namespace mlir::tir::ms {

/// A buffer argument: its dtype ("float32", "int8", "uint8", "bool") and
/// static shape.
struct TensorInfo {
  std::string dtype;
  std::vector<int64_t> shape;

  /// `["TENSOR", dtype, shape]`.
  llvm::json::Value toJSON() const;
  /// The inverse of toJSON; fails with `error` naming what is wrong.
  static FailureOr<TensorInfo> fromJSON(const llvm::json::Value &json,
                                        std::string &error);
  /// `TensorInfo("float32", [1, 224, 224, 3])`.
  std::string str() const;

  bool operator==(const TensorInfo &other) const {
    return dtype == other.dtype && shape == other.shape;
  }
};

/// TVM's ArgInfo::FromPrimFunc: one TensorInfo per argument of `func`.
/// Fails with `error` for an argument that is not a buffer of static
/// shape (a scalar parameter, a runtime dimension, an element type TVM has
/// no dtype for): MetaSchedule measures functions of static buffers.
FailureOr<std::vector<TensorInfo>> getArgInfo(FunctionOpInterface func,
                                              std::string &error);

/// TVM's entry function of a tuned module: "main", or its only function
/// with a body that is not a graph function; null when there is none.
FunctionOpInterface getEntryFunction(ModuleOp mod);

/// TVM's ArgInfo::FromEntryFunc: getArgInfo of the entry function.
FailureOr<std::vector<TensorInfo>> getEntryArgInfo(ModuleOp mod,
                                                   std::string &error);

} // namespace mlir::tir::ms

#endif // TENSORIR_METASCHEDULE_ARGINFO_H
