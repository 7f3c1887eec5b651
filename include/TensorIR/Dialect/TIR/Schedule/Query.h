//===- Query.h - schedule queries (get_block, get_loops) --------*- C++ -*-===//
//
// The query primitives of TVM's Schedule over tir IR. Shared by the
// transform.tir ops, passes and the Python Schedule.
//
//===----------------------------------------------------------------------===//

#ifndef TENSORIR_DIALECT_TIR_SCHEDULE_QUERY_H
#define TENSORIR_DIALECT_TIR_SCHEDULE_QUERY_H

#include "TensorIR/Dialect/TIR/IR/TIROps.h"
#include "TensorIR/Dialect/TIR/Schedule/Primitives.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Support/LLVM.h"

namespace mlir::tir {

/// All blocks named `name` under `scope` (pre-order).
SmallVector<BlockOp> findBlocksByName(Operation *scope, StringRef name);

/// The one block named `name` under `scope`; refuses when there is none, or
/// when the name is ambiguous (naming each candidate's function and
/// location).
FailureOr<BlockOp> getBlock(Operation *scope, StringRef name,
                            ScheduleError &error);

/// TVM's IsOutputBlock: whether `block` writes a buffer its scope (the
/// enclosing block or function) does not allocate.
bool isOutputBlock(BlockOp block);

/// TVM's get_output_blocks: the blocks under `scope` (a block or a
/// function, TVM's root block), nested ones too, in program order, that
/// are output blocks of their own scope.
SmallVector<BlockOp> getOutputBlocks(Operation *scope);

/// The root block of `func` written out: its body is one block "root"
/// without iteration variables (which annotating TVM's root block makes);
/// null when the function is its own root block. The function stands for
/// its root block either way: get_block("root") and get_child_blocks see
/// through the written-out one.
BlockOp getExplicitRootBlock(FunctionOpInterface func);

/// The loops between `block` and its scope (the enclosing block or
/// function), outermost first.
SmallVector<ForOp> getLoops(BlockOp block);

} // namespace mlir::tir

#endif // TENSORIR_DIALECT_TIR_SCHEDULE_QUERY_H
