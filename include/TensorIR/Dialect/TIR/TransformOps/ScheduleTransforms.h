//===- ScheduleTransforms.h - steps composed of primitives ------*- C++ -*-===//
//
// Schedule transformations that are sequences of primitives applied to a
// ScheduleState (TVM's tir/schedule/transform.cc): each primitive they
// apply is a step of the trace, as if the user had applied it.
//
//===----------------------------------------------------------------------===//

#ifndef TENSORIR_DIALECT_TIR_TRANSFORMOPS_SCHEDULETRANSFORMS_H
#define TENSORIR_DIALECT_TIR_TRANSFORMOPS_SCHEDULETRANSFORMS_H

#include "TensorIR/Dialect/TIR/TransformOps/ScheduleState.h"

#include <optional>
#include <string>

namespace mlir::tir {

/// TVM's tile_with_tensor_intrin: the loops of the block held by `block`
/// that getTensorizeLoopMapping maps to the description of intrinsic
/// `intrinName` are split by the description loops' extents (after
/// pad_einsum and inlining the pad copies into their producer and
/// consumer, where an extent needs padding and `allowPadding`), and the
/// inner loops reordered innermost, in the description's order. Returns
/// the handle of the outermost of them (what blockize takes), std::nullopt
/// where the block has no mapping, failure (with `error`) for an unknown
/// intrinsic or a step refused.
FailureOr<std::optional<Value>>
tileWithTensorIntrin(ScheduleState &state, Value block, StringRef intrinName,
                     bool allowPadding, std::string &error);

} // namespace mlir::tir

#endif // TENSORIR_DIALECT_TIR_TRANSFORMOPS_SCHEDULETRANSFORMS_H
