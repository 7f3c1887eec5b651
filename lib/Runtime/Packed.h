//===- Packed.h - calls of packed functions from compiled code --*- C++ -*-===//
//
// Internal to lib/Runtime: the dispatcher a Module points its packed-call
// hook at, and the per-thread error a call's packed functions leave.
//
//===----------------------------------------------------------------------===//

#ifndef TENSORIR_LIB_RUNTIME_PACKED_H
#define TENSORIR_LIB_RUNTIME_PACKED_H

#include <cstdint>
#include <string>

namespace mlir::tir::runtime::detail {

/// What compiled code calls (kPackedHookSymbol points here): forwards to
/// the installed PackedDispatcher, or records that none is installed.
int32_t dispatchPacked(const char *name, int32_t returns, int32_t numInputs,
                       int32_t numOutputs, const int64_t *slots);

/// Clears this thread's packed-call error before a module's function runs.
void beginPackedCalls();

/// Moves this thread's packed-call error into `error`; false when there is
/// none.
bool takePackedError(std::string &error);

} // namespace mlir::tir::runtime::detail

#endif // TENSORIR_LIB_RUNTIME_PACKED_H
